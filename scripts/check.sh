#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: host tests, then the guest tests in each KVM mode: protected
# (pKVM as hVHE under QEMU's -cpu max), pnvhe (pKVM as classic nVHE, as on
# CPUs without VHE: its EL2 maps and patches memory differently) and nvhe.
# Every test adds one line "<RESULT> <name>" to build/logs/check/results;
# the summary counts them and ends with "N passed, M failed".
#
# A test that reports UNSUPPORTED or UNTESTED is listed separately and counts
# as failed: every test we run is one we expect to run on this config.
#
# Environment: TESTS (grep -E pattern; only matching tests run),
# MODES (default "protected pnvhe nvhe"), CHECK_TIMEOUT (seconds per guest run),
# STRESS=1 (make stress: no host tests; the guest runs stress.sh for
# DURATION seconds instead of the tests), DEBUG_STRESS=0 (no short stress
# run in the debug kernel), DEBUG_DURATION (its length, default 20 s),
# LLVM_CHECK=0 (no run of the LLVM=1 kernel).
set -uo pipefail

TESTS=${TESTS:-.}
MODES=${MODES:-protected pnvhe nvhe}
# The debug kernel (KASAN, lockdep, kmemleak) runs the whole suite several
# times slower under TCG.
if [ "${DEBUG:-0}" != 0 ]; then
	CHECK_TIMEOUT=${CHECK_TIMEOUT:-5400}
else
	CHECK_TIMEOUT=${CHECK_TIMEOUT:-900}
fi
STRESS=${STRESS:-0}
DURATION=${DURATION:-60}
dir=build/logs/check
if [ "$STRESS" = 1 ]; then
	dir=build/logs/stress
	TESTS='^guest:'
fi
mkdir -p "$dir"
results=$dir/results
: > "$results"
# What failed guest tests did last (scripts/guest/check.sh), this run only.
why=$dir/why
: > "$why"

want() { echo "$1" | grep -qE -- "$TESTS"; }

# What the kernel prints when something went wrong: WARN, BUG, oops, KASAN,
# lockdep, kmemleak, RCU stalls, hung tasks, a hypervisor panic.
SPLATS='WARNING: |BUG: |Oops|Unable to handle kernel|UBSAN|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|unreferenced object|suspected memory leak|rcu_preempt detected stall|INFO: rcu|INFO: task .* blocked|hyp panic|Kernel panic|invoked oom-killer'


# Our code, as it shows in a report's functions.
OURS='trace_remote|simple_ring_buffer|simple_rb_|rb_remote|ring_buffer_poll_remote|ring_buffer_remote|remote_test|hyp_trace|__tracing_'

# Print console log $1 without the KCSAN reports that do not involve our
# code, which go to $2.
kcsan_filter() {
	: > "$2"
	awk -v others="$2" -v ours="$OURS" '
	function flush() {
		if (block == "")
			return
		if (block ~ ours)
			printf "%s", block
		else
			printf "%s", block > others
		block = ""
	}
	/BUG: KCSAN:/ { inblock = 1; block = ""; n = 0 }
	inblock { block = block $0 "\n"; if (n++ && /========================================/) { inblock = 0; flush() }; next }
	{ print }
	END { flush() }' "$1"
}

record() {
	echo "$1 $2" >> "$results"
	echo "== $1 $2"
}

normal=$MODES
case $TESTS in host:*) MODES= normal= ;; guest:debug* | guest:bigmem* | guest:llvm*) normal= ;; esac

# Whether the tests of the LLVM=1 kernel and of the debug kernel run (see
# their runs below).
LLVM_CHECK=${LLVM_CHECK:-1}
DEBUG_STRESS=${DEBUG_STRESS:-1}
DEBUG_DURATION=${DEBUG_DURATION:-20}
llvm_wanted() {
	[ "$STRESS" = 0 ] && [ "${DEBUG:-0}" = 0 ] && [ "$LLVM_CHECK" = 1 ] &&
		[ -z "${KLLVM:-}" ] && [ -n "$MODES" ] || return 1
	case $TESTS in guest:llvm*) return 0 ;; guest:* | host:*) return 1 ;; esac
}
debug_wanted() {
	local mode

	[ "$STRESS" = 0 ] && [ "${DEBUG:-0}" = 0 ] && [ "$DEBUG_STRESS" = 1 ] || return 1
	for mode in $MODES; do
		[ "$mode" != pnvhe ] && want "guest:debug:$mode:stress" && return 0
	done
	return 1
}

# The kernels those runs need, built by make check (the kernel of the other
# runs, build/obj, is built first) in the background, one after the other
# and at the lowest priority, while the guest tests of build/obj run: these
# keep about one of the machine's two cores busy. Each kernel's runs wait
# for its build; its log is build/logs/check/build-<name>.log.
# Some host tests read build/obj-llvm too.
host_needs_llvm() {
	local t

	[ "$STRESS" = 0 ] && [ "${DEBUG:-0}" = 0 ] && [ "$LLVM_CHECK" = 1 ] &&
		[ -z "${KLLVM:-}" ] || return 1
	for t in scripts/tests/*.sh; do
		want "host:$(basename "$t" .sh)" && grep -q build/obj-llvm "$t" && return 0
	done
	return 1
}
builds=
if [ "${OBJ:-build/obj}" = build/obj ]; then
	{ llvm_wanted || host_needs_llvm; } && builds="$builds llvm"
	debug_wanted && builds="$builds debug"
fi

# Host tests: scripts/tests/*.sh, each exits 0 (pass), 4 (unsupported) or
# anything else (fail); its output goes to build/logs/check/<name>.log.
# Those that read build/obj-llvm run once make check has built it (below).
host_test() { # script
	local name

	name=host:$(basename "$1" .sh)
	echo "-- $name"
	"$1" > "$dir/${name#host:}.log" 2>&1
	case $? in
	0) record PASS "$name" ;;
	4) record UNSUPPORTED "$name" ;;
	*) record FAIL "$name"; tail -n 15 "$dir/${name#host:}.log" | sed 's/^/   | /' ;;
	esac
}
after_llvm=
for t in scripts/tests/*.sh; do
	[ -e "$t" ] || continue
	want "host:$(basename "$t" .sh)" || continue
	case " $builds " in
	*" llvm "*) grep -q build/obj-llvm "$t" && after_llvm="$after_llvm $t" && continue ;;
	esac
	host_test "$t"
done

# Tests a host test binary reports itself ("PASS name" / "FAIL name" lines).
for t in scripts/tests/*.run; do
	[ -e "$t" ] || continue
	name=host:$(basename "$t" .run)
	want "$name" || continue
	echo "-- $name"
	"$t" > "$dir/${name#host:}.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL|UNSUPPORTED|SKIP) ' "$dir/${name#host:}.log" |
		while read -r r n; do record "$r" "$name:$n"; done
	if [ $rc != 0 ] && ! grep -q '^FAIL ' "$dir/${name#host:}.log"; then
		record FAIL "$name (exit $rc)"
	fi
done

# One guest run: run_guest NAME MODE CMD [IMAGE INITRAMFS]. The guest's
# results are recorded as "guest:<prefix><its name>"; a timeout, a panic or
# any kernel report in the console fails the run.
run_guest() {
	local name=$1 mode=$2 cmd=$3
	local image=${4:-${IMAGE:-build/obj/arch/arm64/boot/Image}}
	local initramfs=${5:-${INITRAMFS:-build/obj/initramfs.cpio}}
	local log=$dir/${name#guest:} gres=$dir/${name#guest:}.results rc
	local prefix=${name#guest:}

	prefix=${prefix%"$mode"}
	echo "-- $name (log: $log.console.log)"
	echo "$cmd" > "$log.cmd"
	MODE=$mode TIMEOUT=$CHECK_TIMEOUT LOGNAME_RUN=${log#build/logs/} RESULTS_OUT=$gres \
		IMAGE=$image INITRAMFS=$initramfs \
		scripts/run-qemu.sh "$log.cmd" > "$log.out" 2>&1
	rc=$?
	grep '^WHY ' "$log.out" >> "$why"
	tr -d '\r' < "$gres" | while read -r r n; do
		[ -n "$n" ] && record "$r" "guest:$prefix$n"
	done
	if [ $rc != 0 ]; then
		record FAIL "$name (guest run exit $rc: timeout or panic; see $log.console.log)"
		tail -n 15 "$log.out" | sed 's/^/   | /'
	fi
	# Any kernel report in the console fails the run, whatever the tests said;
	# of KCSAN's (DEBUG=kcsan), only those that involve our code.
	kcsan_filter "$log.console.log" "$log.kcsan-others" > "$log.reports" 2>/dev/null
	if [ -s "$log.kcsan-others" ]; then
		echo "   $(grep -c 'BUG: KCSAN' "$log.kcsan-others") KCSAN reports elsewhere in the kernel: $log.kcsan-others"
	fi
	if grep -qE "$SPLATS" "$log.reports"; then
		record FAIL "$name:kernel-reports (see $log.console.log)"
		grep -E "$SPLATS" "$log.reports" | head -n 5 | sed 's/^/   | /'
	else
		record PASS "$name:kernel-reports"
	fi
	# A KCSAN kernel shows that it catches races: its boot selftest passes.
	if [ "${DEBUG:-0}" = kcsan ]; then
		if grep -qE 'kcsan: selftest: ([0-9]+)/\1 tests passed' "$log.console.log"; then
			record PASS "$name:kcsan-selftest"
		else
			record FAIL "$name:kcsan-selftest (see $log.console.log)"
		fi
	fi
}

# The background builds start once the host tests, some of which rebuild
# build/obj or edit the assembled tree, are done.
rm -f "$dir"/build-*.rc
if [ -n "$builds" ]; then
	(
		for b in $builds; do
			case $b in llvm) var=LLVM=1 ;; debug) var=DEBUG=1 ;; esac
			echo "-- build $b in the background (log: $dir/build-$b.log)"
			nice -n 19 make --no-print-directory "$var" all > "$dir/build-$b.log" 2>&1
			echo $? > "$dir/build-$b.rc"
		done
	) &
fi

# built NAME: waits for the background build of NAME (llvm or debug) if make
# check started one; fails if it failed.
built() {
	case " $builds " in *" $1 "*) ;; *) return 0 ;; esac
	while [ ! -f "$dir/build-$1.rc" ]; do
		sleep 2
	done
	if [ "$(cat "$dir/build-$1.rc")" != 0 ]; then
		tail -n 15 "$dir/build-$1.log" | sed 's/^/   | /'
		return 1
	fi
}

# Guest tests, once per KVM mode.
for mode in $normal; do
	if [ "$STRESS" = 1 ]; then
		cmd=$(printf 'MODE=%s DURATION=%d exec /usr/share/guest/stress.sh' \
			"$mode" "$DURATION")
	else
		cmd=$(printf 'MODE=%s FILTER=%q exec /usr/share/guest/check.sh' \
			"$mode" "$(echo "$TESTS" | sed 's/^guest:[a-z]*://')")
	fi
	run_guest "guest:$mode" "$mode" "$cmd"
done

# A buffer of most of the memory on one CPU, in a guest with 3 GiB: its
# page table alone needs more than the page allocator's largest order.
# nVHE mode only, where the test remote is the same as in protected mode.
BIGMEM_TEST=remotes/huge_buffer.tc
if [ "$STRESS" = 0 ] && case " $MODES " in *" nvhe "*) true ;; *) false ;; esac &&
	want "guest:bigmem:nvhe:$BIGMEM_TEST"; then
	SMP=1 MEM=3072 run_guest guest:bigmem:nvhe nvhe \
		"MODE=nvhe FILTER='^$BIGMEM_TEST\$' exec /usr/share/guest/check.sh"
fi

# The kernel as Android builds it (make LLVM=1: Clang and LLD with kCFI, the
# shadow call stack, PAC, BTI, ThinLTO and KASLR), built into build/obj-llvm
# (above): in each mode, the tests of both remotes, function tracing among
# them.
# LLVM_CHECK=0 skips it.
if [ -n "$after_llvm" ]; then
	built llvm
	for t in $after_llvm; do
		host_test "$t"
	done
fi
if llvm_wanted && ! built llvm; then
	record FAIL "guest:llvm (make LLVM=1 all failed: $dir/build-llvm.log)"
elif llvm_wanted; then
	for mode in $MODES; do
		name=guest:llvm:$mode
		# In each mode: every test of the remotes, the hypervisor's and
		# the test remote's, as on the GCC kernel (pnvhe: the
		# hypervisor's), and KVM's hypercalls selftest, but not the
		# kernel's own ftracetest tests. A Linux guest's boot takes a
		# minute: on this kernel, in classic protected mode only (what
		# phones run).
		all='^(kvm-mode|hyp-text-at-boot|kvm-selftest-|remotes/)'
		skip='^remotes/hypervisor/guest_boot\.tc$'
		[ "$mode" = pnvhe ] && all='^(kvm-mode|hyp-text-at-boot|kvm-selftest-|remotes/hypervisor/)' skip=
		case $TESTS in
		. | guest:llvm | guest:llvm:$mode) filter=$all ;;
		guest:llvm:$mode:*) filter=${TESTS#guest:llvm:"$mode":} skip= ;;
		guest:* | host:*) continue ;;
		*) filter=$TESTS ;;
		esac
		if [ ! -f build/obj-llvm/initramfs.cpio ]; then
			record FAIL "$name (no LLVM kernel: make LLVM=1)"
			continue
		fi
		run_guest "$name" "$mode" \
			"$(printf 'MODE=%s FILTER=%q SKIP=%q exec /usr/share/guest/check.sh' \
				"$mode" "$filter" "$skip")" \
			build/obj-llvm/arch/arm64/boot/Image build/obj-llvm/initramfs.cpio
	done
fi

# make check (not make stress, not DEBUG=1 itself): a short stress run of
# both remotes in the debug kernel (KASAN, lockdep, kmemleak), built into
# build/obj-debug (above). DEBUG_STRESS=0 skips it.
if debug_wanted && ! built debug; then
	record FAIL "guest:debug (make DEBUG=1 all failed: $dir/build-debug.log)"
elif debug_wanted; then
	for mode in $MODES; do
		# pnvhe runs the code of protected mode: one debug run of it is enough.
		[ "$mode" = pnvhe ] && continue
		name=guest:debug:$mode
		want "$name:stress" || continue
		if [ ! -f build/obj-debug/initramfs.cpio ]; then
			record FAIL "$name (no debug kernel: make DEBUG=1)"
			continue
		fi
		run_guest "$name" "$mode" \
			"MODE=$mode DURATION=$DEBUG_DURATION exec /usr/share/guest/stress.sh" \
			build/obj-debug/arch/arm64/boot/Image build/obj-debug/initramfs.cpio
	done
fi

pass=$(grep -cE '^(PASS|XFAIL) ' "$results")
fail=$(grep -cvE '^(PASS|XFAIL) ' "$results")
echo
if grep -qE '^(UNSUPPORTED|UNTESTED) ' "$results"; then
	echo "Unsupported or untested (counted as failed):"
	grep -E '^(UNSUPPORTED|UNTESTED) ' "$results" | sed 's/^/  /'
fi
if grep -qE '^(FAIL|UNRESOLVED) ' "$results"; then
	echo "Failed:"
	grep -E '^(FAIL|UNRESOLVED) ' "$results" | sed 's/^/  /'
	# The last lines of each failed guest test (scripts/guest/check.sh).
	tr -d '\r' < "$why" | sed 's/^WHY /  | /'
fi
if [ "$pass" = 0 ] && [ "$fail" = 0 ]; then
	echo "check: no test ran (TESTS='$TESTS')" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
