#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the hypervisor tracing overhead benchmark (make bench).
# Prints "BENCH <what> <mode> <best ns> <median ns>" lines over 9 runs of a
# host hypercall loop (hyp_bench.ko, itself best of 3 x 20000 calls) and of
# a guest-exit loop (hyp_workload, 20000 HVC exits), with tracing disabled
# and enabled (hyp_enter, hyp_exit and vcpu_exit on: two events per host
# hypercall, five per guest exit), alternating so drift hits both alike.
# Without remotes/hypervisor (tracing compiled out) only "out" is measured.
hyp=/sys/kernel/tracing/remotes/hypervisor
exits=20000

hcall() { # [write_event=1]
	insmod /bench/hyp_bench.ko "$@" 2> /dev/null
	dmesg | sed -n 's/.*hyp_bench: [a-z_]* \([0-9]*\) ns\/call.*/\1/p' | tail -n 1
}

guest_exits() {
	us=$(hyp_workload -v 1 -r 1 -c $exits -s 0 -w 0 | sed -n 's/.* us=\([0-9]*\).*/\1/p')
	echo $((us * 1000 / exits))
}

markers() { # guest marker calls, answered at EL2
	us=$(hyp_workload -v 1 -r 1 -c 0 -s 0 -w 0 -m $exits -t bench |
		sed -n 's/.* us=\([0-9]*\).*/\1/p')
	echo $((us * 1000 / exits))
}

add() { # name mode value
	echo "$3" >> /tmp/bench.$1.$2
}

report() { # name mode
	sort -n /tmp/bench.$1.$2 | awk -v n="$1" -v m="$2" \
		'{ v[NR] = $1 } END { print "BENCH", n, m, v[1], v[int((NR + 1) / 2)] }'
}

if [ -d $hyp ]; then
	modes="disabled enabled"
	cd $hyp || exit 1
	echo 0 > tracing_on
	echo 0 > trace
	echo 0 > events/enable
	echo 8192 > buffer_size_kb
else
	modes=out
fi

rm -f /tmp/bench.*
for run in 1 2 3 4 5 6 7 8 9; do
	for mode in $modes; do
		if [ $mode = enabled ]; then
			echo 1 > events/hypervisor/hyp_enter/enable
			echo 1 > events/hypervisor/hyp_exit/enable
			echo 1 > events/hypervisor/vcpu_exit/enable
			echo 1 > tracing_on
		fi
		add hcall $mode "$(hcall)"
		[ $mode = enabled ] && echo 0 > trace
		add exit $mode "$(guest_exits)"
		if [ $mode = enabled ]; then
			echo 0 > tracing_on
			echo 0 > trace
			echo 0 > events/enable
		fi
	done
done
for mode in $modes; do
	report hcall $mode
	report exit $mode
done

# on_off NAME EVENT COMMAND...: 5 runs of COMMAND with EVENT off, then on
# (buffer loaded, tracing on, reset between runs), reported as NAME off and
# NAME on.
on_off() {
	name=$1 event=events/hypervisor/$2/enable
	shift 2
	rm -f /tmp/bench.*
	echo 1 > tracing_on
	for run in 1 2 3 4 5; do
		echo 0 > $event
		add $name off "$("$@")"
		echo 1 > $event
		add $name on "$("$@")"
		echo 0 > trace
	done
	echo 0 > tracing_on
	echo 0 > events/enable
	report $name off
	report $name on
}

# One event at EL2: write_event hypercalls, the selftest event off, then on.
[ -d $hyp ] && on_off event selftest hcall write_event=1
# The guest marker: 20000 calls of a guest, answered at EL2, with the
# guest_marker event off, then on.
[ -d $hyp/events/hypervisor/guest_marker ] && on_off marker guest_marker markers

# Function tracing (CONFIG_NVHE_EL2_FTRACE): the same write_event loop, its
# handler traced by func, then by func and func_ret (selftest off: the
# handler returns at once); then the guest-exit loop with every function
# of the hypervisor traced, entries and returns.
if [ -f $hyp/set_ftrace_filter ]; then
	rm -f /tmp/bench.*
	echo 1 > tracing_on
	echo handle___tracing_write_event > set_ftrace_filter
	for run in 1 2 3 4 5; do
		add ftrace off "$(hcall write_event=1)"
		echo 1 > events/hypervisor/func/enable
		add ftrace func "$(hcall write_event=1)"
		echo 1 > events/hypervisor/func_ret/enable
		add ftrace funcret "$(hcall write_event=1)"
		echo 0 > events/hypervisor/func/enable
		echo 0 > events/hypervisor/func_ret/enable
		echo 0 > trace
	done
	echo '*' > set_ftrace_filter
	for run in 1 2 3; do
		echo 1 > events/hypervisor/func/enable
		echo 1 > events/hypervisor/func_ret/enable
		add exit ftrace_all "$(guest_exits)"
		echo 0 > events/hypervisor/func/enable
		echo 0 > events/hypervisor/func_ret/enable
		echo 0 > trace
	done
	# What runs per guest exit, for choosing what never to trace.
	echo 1 > events/hypervisor/func/enable
	hyp_workload -v 1 -r 1 -c 1000 -s 0 -w 0 > /dev/null
	echo 0 > events/hypervisor/func/enable
	echo 0 > tracing_on
	grep -o ' func [^ ]*' trace | sort | uniq -c | sort -rn | awk '$1 >= 1000 { print "FTRACE_EXIT", $3, $1 }'
	echo > set_ftrace_filter
	echo 0 > trace
	report ftrace off
	report ftrace func
	report ftrace funcret
	report exit ftrace_all
fi

# The kernel's own tracers on the same work, in the same boot
# (ktrace_bench.ko): the function tracer and the function graph tracer on
# one function, and a kernel trace event with the selftest event's payload.
if [ -f /bench/ktrace_bench.ko ] && insmod /bench/ktrace_bench.ko; then
	kt=/sys/kernel/tracing
	kbench() { # 1: the function, 2: the event
		echo "$1" > /sys/module/ktrace_bench/parameters/run
		dmesg | sed -n 's/.*ktrace_bench: [a-z]* \([0-9]*\) ns\/call.*/\1/p' | tail -n 1
	}
	rm -f /tmp/bench.*
	echo 8192 > $kt/buffer_size_kb
	echo ktrace_bench_func > $kt/set_ftrace_filter
	echo 1 > $kt/tracing_on
	for run in 1 2 3 4 5; do
		add kcall off "$(kbench 1)"
		echo function > $kt/current_tracer
		add kcall function "$(kbench 1)"
		echo function_graph > $kt/current_tracer
		add kcall graph "$(kbench 1)"
		echo nop > $kt/current_tracer
		add kevent off "$(kbench 2)"
		echo 1 > $kt/events/ktrace_bench/enable
		add kevent on "$(kbench 2)"
		echo 0 > $kt/events/ktrace_bench/enable
		echo > $kt/trace
	done
	echo > $kt/set_ftrace_filter
	rmmod ktrace_bench
	report kcall off
	report kcall function
	report kcall graph
	report kevent off
	report kevent on
fi
