#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make check".  Each result goes to the virtio port "results"
# ($RESULTS) as one line "<PASS|FAIL|UNSUPPORTED|UNTESTED|UNRESOLVED|XFAIL> <name>",
# so the host never has to pick results out of console output.
#
# Environment: MODE (protected|pnvhe|nvhe), FILTER (grep -E pattern on test names),
# SKIP (grep -E pattern of names not to run, of those FILTER chose),
# TEST_TIMEOUT (seconds one test file may take, default 300).
set -u
MODE=${MODE:-protected}
FILTER=${FILTER:-.}
SKIP=${SKIP:-}
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
FTRACE=/usr/share/selftests/ftrace
LIST=/usr/share/guest/smoke.list

result() {
	echo "$1 $MODE:$2" >> "$RESULTS"
	echo "== $1 $MODE:$2"
}

want() {
	echo "$1" | grep -qE -- "$FILTER" &&
		! { [ -n "$SKIP" ] && echo "$1" | grep -qE -- "$SKIP"; }
}

# 1. KVM came up in the intended mode.
if want kvm-mode; then
	case $MODE in
	protected) pat='Protected hVHE mode initialized successfully' ;;
	pnvhe) pat='Protected nVHE mode initialized successfully' ;;
	nvhe) pat='Hyp nVHE mode initialized successfully' ;;
	esac
	if dmesg | grep -E "$pat"; then
		result PASS kvm-mode
	else
		dmesg | grep -i kvm
		result FAIL kvm-mode
	fi
fi

# 1b. Protected, with function tracing: before anything is traced, the
#     hypervisor has never mapped its text to patch it (the build moved the
#     direct calls past the NOPs), and maps none of it writable.
wx=/sys/kernel/debug/kvm/hyp_text_wx
if want hyp-text-at-boot && [ "$MODE" != nvhe ] &&
   [ -e /sys/kernel/tracing/remotes/hypervisor/set_ftrace_filter ]; then
	if [ "$(cat $wx)" = "writable 0 mapped 0" ]; then
		result PASS hyp-text-at-boot
	else
		echo "$wx: $(cat $wx 2>&1)"
		result FAIL hyp-text-at-boot
	fi
fi

# 1c. KVM's own selftest of the hypercall firmware registers, which the
#     guest marker changes (a bit that is on by default where offered).
if want kvm-selftest-hypercalls; then
	# By its path: the test loads its guest code from its own ELF file.
	if /usr/local/bin/kvm-hypercalls > /tmp/kvm-hypercalls.out 2>&1; then
		result PASS kvm-selftest-hypercalls
	else
		sed 's/^/| /' /tmp/kvm-hypercalls.out
		result FAIL kvm-selftest-hypercalls
	fi
fi

# 2. ftracetest, one test file at a time so each result has a stable name.
lists=$LIST
list_mode=$MODE
[ "$MODE" = pnvhe ] && list_mode=protected
[ -f "/usr/share/guest/smoke-$list_mode.list" ] && lists="$lists /usr/share/guest/smoke-$list_mode.list"
# shellcheck disable=SC2086
tests=$(cat $lists | grep -v -e '^#' -e '^[[:space:]]*$' | while read -r t; do
	if [ -d "$FTRACE/$t" ]; then
		ls "$FTRACE/$t"/*.tc 2>/dev/null | sed "s|^$FTRACE/||"
	elif [ -f "$FTRACE/$t" ]; then
		echo "$t"
	elif [ "${t#test.d/remotes}" = "$t" ]; then
		echo "MISSING:$t"
	fi
done)

cd "$FTRACE" || exit 1

# A test that hangs is killed, with everything it started, after
# TEST_TIMEOUT seconds, and fails with the end of its log and the blocked
# tasks (on the console) to say where.
test_timed_out() { # session
	echo w > /proc/sysrq-trigger
	{
		echo "timeout: killed after $TEST_TIMEOUT s"
		ps
		tail -n 20 "$(ls -t /tmp/ftlog/*-log.* | head -n 1)"
	} | sed 's/^/| /' >> /tmp/ft.out
	# Every process of the session: field 6 of /proc/PID/stat.
	kill -KILL $(awk -v sid="$1" '$6 == sid { print $1 }' /proc/[0-9]*/stat 2> /dev/null)
}

# One ftracetest run, in a session of its own, and a watchdog.
run_test() { # test
	setsid ./ftracetest -v -l /tmp/ftlog "$1" > /tmp/ft.out 2>&1 &
	rt_pid=$!
	(sleep "$TEST_TIMEOUT" && test_timed_out $rt_pid) &
	rt_watchdog=$!
	wait $rt_pid
	# Its sleep (its child: field 4 of /proc/PID/stat) ends early, and the
	# watchdog with it.
	kill $(awk -v ppid=$rt_watchdog '$4 == ppid { print $1 }' /proc/[0-9]*/stat 2> /dev/null) 2> /dev/null
	wait $rt_watchdog
}

for t in $tests; do
	name=${t#test.d/}
	case $t in
	MISSING:*) want "${t#MISSING:}" && result FAIL "${t#MISSING:test.d/} (missing)"; continue ;;
	esac
	want "$name" || continue
	# pnvhe runs the code of protected mode as classic nVHE: only the
	# hypervisor's tests see a difference. The test remote's and the
	# kernel's own run in protected and nvhe mode.
	if [ "$MODE" = pnvhe ]; then
		case $name in remotes/hypervisor/*) ;; *) continue ;; esac
	fi
	# -v: the log of a failed test (its commands and output) is printed.
	start=$(date +%s)
	run_test "$t"
	tail -n 80 /tmp/ft.out
	echo "TIME $name $(($(date +%s) - start)) s"
	# "[N] description<TAB>[RESULT]"; "(instance)" runs get their own name.
	n=0
	grep -E '^\[[0-9]+\].*\[[A-Z]+\]$' /tmp/ft.out | while IFS= read -r line; do
		r=$(echo "$line" | sed 's/.*\[\([A-Z]*\)\]$/\1/')
		case $line in
		*"(instance)"*) result "$r" "$name(instance)" ;;
		*) result "$r" "$name" ;;
		esac
	done
	grep -qE '^\[[0-9]+\].*\[[A-Z]+\]$' /tmp/ft.out || result FAIL "$name (no result)"
	# What a failed test did last, for the summary at the end of the run
	# (a CI log may keep only that).
	if grep -qE '^\[[0-9]+\].*\[(FAIL|UNRESOLVED)\]$' /tmp/ft.out ||
	   ! grep -qE '^\[[0-9]+\].*\[[A-Z]+\]$' /tmp/ft.out; then
		sed '/^# of passed/,$d' /tmp/ft.out | grep -v -e '^[[:space:]]*$' -e 'dynamic_events: No such' |
			tail -n 8 | cut -c1-160 | sed "s|^|WHY $MODE:$name: |"
	fi
done

# A debug kernel: look for leaks now; the report goes to the console, where
# the host looks for kernel reports.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /dev/console
fi
exit 0
