#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What "make run" shows before the shell: the KVM mode, then the hypervisor
# tracing a small KVM guest (hyp_workload: 2 vCPUs making HVC, system
# register, WFI and MMIO exits) and its own host traps.
echo "== $(uname -r) on $(nproc) CPUs"
dmesg | grep -i 'kvm.*mode initialized' || echo "KVM did not initialize"
hyp=/sys/kernel/tracing/remotes/hypervisor
if [ ! -d $hyp ]; then
	echo "== no remotes/hypervisor (VHE, or tracing not built in)"
	exit 0
fi
cd $hyp || exit 1
echo 0 > tracing_on
echo 0 > trace
echo 1 > events/enable
echo 1 > tracing_on
echo "== hyp_workload -v 2 -r 2 -c 2 -s 1 -w 1"
hyp_workload -v 2 -r 2 -c 2 -s 1 -w 1
echo 1 > write_event
echo 0 > tracing_on
echo "== guest exits the hypervisor saw, per vCPU and exception class"
grep ': vcpu_exit ' trace | sed 's/.*vcpu_exit \(vcpu=[0-9]*\) pid=[0-9]* code=\([a-z_0-9]*\) ec=\([a-z_0-9]*\).*/\1 \2 \3/' |
	sort | uniq -c
echo "== cat $hyp/trace (one vCPU run, then the last lines)"
grep -m 1 -B 2 -A 6 ': vcpu_exit vcpu=1 pid=[0-9]* code=trap ec=hvc64' trace
echo ...
tail -n 12 trace
echo "== events: $(cat available_events | tr '\n' ' ')"
echo "== tracing is off; try: echo 1 > $hyp/tracing_on; cat $hyp/trace_pipe"
echo "== or record it with trace-cmd:"
echo "   trace-remote-record hypervisor -e hypervisor -o /tmp/hyp.dat hyp_workload -v 2"
echo "   trace-cmd report -i /tmp/hyp.dat"
