#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of make bench's loss row, in real time: trace-cmd record of the
# hypervisor remote (1 MiB per CPU; hyp_enter, hyp_exit, vcpu_exit) while
# hyp_workload runs a 4-vCPU guest that exits as fast as it can. Prints
# "RECORD <what> <value>": events the writer committed and lost (from the
# remote's per-CPU stats as the workload ends), events and LOST lines in
# the report, the seconds the recording took, and the write rate per CPU
# that trace-cmd kept up with (or, with losses, the rate it drained).
hyp=/sys/kernel/tracing/remotes/hypervisor
[ -d $hyp ] || exit 0
command -v trace-cmd > /dev/null || exit 0
cd $hyp || exit 1
echo 0 > tracing_on
echo 0 > trace
echo 0 > events/enable
echo 1024 > buffer_size_kb
t0=$(cut -d ' ' -f 1 /proc/uptime)
# The remote's counters are read as the workload ends, while trace-cmd
# still records: it reads them itself only after the buffer went away.
trace-remote-record hypervisor -e hypervisor:hyp_enter -e hypervisor:hyp_exit \
	-e hypervisor:vcpu_exit -o /tmp/hyp.dat sh -c '
	hyp_workload -v 4 -r 4 -c 10000 -s 0 -w 0
	cat /sys/kernel/tracing/per_cpu/cpu*/stats > /tmp/stat.out' > /tmp/record.out 2>&1
t1=$(cut -d ' ' -f 1 /proc/uptime)
grep "vcpu " /tmp/record.out
trace-cmd report -i /tmp/hyp.dat > /tmp/report.out 2>&1
ncpu=$(grep -c '^processor' /proc/cpuinfo)
awk -v t0="$t0" -v t1="$t1" -v ncpu="$ncpu" '
	FILENAME ~ /stat/ && $1 == "entries:" { entries += $2 }
	FILENAME ~ /stat/ && $1 == "overrun:" { overrun += $2 }
	FILENAME ~ /stat/ && $1 == "read" && $2 == "events:" { readev += $3 }
	FILENAME ~ /report/ && / (hyp_enter|hyp_exit|vcpu_exit): / { seen++ }
	FILENAME ~ /report/ && /LOST|DROPPED/ { lostlines++ }
	END {
		secs = t1 - t0
		printf "RECORD seconds %.2f\n", secs
		printf "RECORD written %d\n", entries + overrun + readev
		printf "RECORD lost %d\n", overrun
		printf "RECORD reported %d\n", seen
		printf "RECORD lost_lines %d\n", lostlines
		printf "RECORD rate_per_cpu %d\n", secs ? (entries + overrun + readev) / secs / ncpu : 0
	}' /tmp/stat.out /tmp/report.out
