#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What "make run" shows before the shell: the KVM mode, then the hypervisor
# tracing its host traps (hyp_enter/hyp_exit, host_hcall, host_smc,
# host_mem_abort) around a few selftest events.
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
for i in 1 2 3; do
	echo $i > write_event
done
echo 0 > tracing_on
echo "== cat $hyp/trace (last 24 lines)"
tail -n 24 trace
echo "== events: $(cat available_events | tr '\n' ' ')"
echo "== tracing is off; try: echo 1 > $hyp/tracing_on; cat $hyp/trace_pipe"
