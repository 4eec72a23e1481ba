#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make stress": everything at once on each remote, then
# account for every event.
#
# Phase 1 (accounted, DURATION/2 s): a writer on every online CPU writes ids
# CPU * 10^9 + SEQ; consumers read at the same time: two threads on one
# trace_pipe, a second trace_pipe, every per-CPU trace_pipe and
# trace_pipe_raw (read and splice). Beside them: non-consuming readers of
# trace, refused resizes (EBUSY), refused rmmod of remote_test (its files
# are open), stats reads, and the last CPU going offline and back. At the
# end every event written is read exactly once or inside a LOST count.
#
# Phase 2 (DURATION/2 s): the same plus resets of all CPUs and of one, and
# tracing_on toggles; events can then vanish by design, so only duplicates,
# malformed lines and kernel reports count. Then remote_test is unloaded and
# loaded again with nothing open.
#
# Results go to $RESULTS as "PASS|FAIL <mode>:stress:<remote>".
set -u
MODE=${MODE:-protected}
DURATION=${DURATION:-60}
T=/sys/kernel/tracing
W=/tmp/stress
half=$((DURATION / 2))
[ $half -ge 2 ] || half=2

result() {
	echo "$1 $MODE:stress:$2" >> "$RESULTS"
	echo "== $1 $MODE:stress:$2"
}

online_cpus() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat $c/online 2>/dev/null || echo 1)" = 1 ] && echo ${c##*cpu}
	done
}

# One writer per CPU until $W/stop exists; its count of recorded events
# goes to $W/written.<cpu>.
start_writers() {
	for c in $cpus; do
		taskset -c $c sh -c "
			i=1; n=0
			while [ ! -e $W/stop ]; do
				echo \$(($c * 1000000000 + i)) > write_event 2> /dev/null && n=\$((n + 1))
				i=\$((i + 1))
			done
			echo \$n > $W/written.$c" &
	done
}

# The side traffic of both phases, until $W/stop exists.
start_noise() { # remote phase
	(
		last=$(echo $cpus | awk '{ print $NF }')
		while [ ! -e $W/stop ]; do
			cat trace > /dev/null
			cat per_cpu/cpu$last/trace > /dev/null
			cat per_cpu/cpu$last/stats > /dev/null
			if echo 64 > buffer_size_kb 2> /dev/null; then
				echo "resize while loaded was accepted" >> $W/errors
			fi
			if [ $1 = test ] && [ ! -e $W/stop ] && rmmod remote_test 2> /dev/null; then
				echo "rmmod with files open succeeded" >> $W/errors
				modprobe remote_test
			fi
			if [ "$last" != 0 ]; then
				echo 0 > /sys/devices/system/cpu/cpu$last/online
				echo 1 > /sys/devices/system/cpu/cpu$last/online
			fi
			if [ $2 = 2 ]; then
				echo 0 > per_cpu/cpu$last/trace
				echo 0 > tracing_on
				echo 1 > tracing_on
				echo 0 > trace
			fi
			usleep 200000 2> /dev/null || sleep 1
		done
	) &
}

stress_remote() { # remote
	r=$1
	rm -rf $W
	mkdir -p $W
	cd $T/remotes/$r || return 1
	echo 0 > tracing_on
	echo 0 > trace
	echo 16 > buffer_size_kb
	echo 0 > events/enable
	echo 1 > events/$r/selftest/enable
	echo 1 > tracing_on
	cpus=$(online_cpus)
	ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)

	set -- trace_pipe trace_pipe
	for c in $cpus; do
		set -- "$@" per_cpu/cpu$c/trace_pipe per_cpu/cpu$c/trace_pipe_raw
	done
	ok=1
	for phase in 1 2; do
		rm -f $W/stop $W/written.*
		remote_race -S $ncpu -n 100000000 -D $half -i 3000 -t $(($# + 1)) -m mix "$@" \
			> $W/race.$phase 2> $W/race.$phase.err &
		race=$!
		start_writers
		start_noise $r $phase
		sleep $half
		touch $W/stop
		wait $race
		rc=$?
		wait
		written=$(cat $W/written.* | awk '{ n += $1 } END { print n + 0 }')
		cat $W/race.$phase
		head -n 5 $W/race.$phase.err
		set -- $(cat $W/race.$phase) "$@"
		# read R dup D lost L bad B
		echo "stress $r $MODE phase $phase: written $written read $2 lost $6 dup $4 bad $8"
		[ $rc = 0 ] || ok=0
		if [ $phase = 1 ] && [ $(($2 + $6)) != $written ]; then
			echo "phase 1: $written written, $2 read + $6 lost"
			ok=0
		fi
		shift 8
	done
	if [ -s $W/errors ]; then
		sort $W/errors | uniq -c
		ok=0
	fi
	echo 0 > tracing_on
	echo 0 > trace
	echo 7 > buffer_size_kb
	cd /
	if [ $r = test ]; then
		rmmod remote_test || ok=0
		modprobe remote_test || ok=0
	fi
	[ $ok = 1 ]
}

modprobe remote_test
for r in test hypervisor; do
	[ -d $T/remotes/$r ] || continue
	if stress_remote $r; then
		result PASS $r
	else
		result FAIL $r
	fi
done
exit 0
