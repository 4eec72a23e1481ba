#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series-check: the gates a maintainer applies to the series.
#
#   1. make series; per mail: added lines (at most MAX_ADDED), checkpatch
#      --strict findings (those of the accepted list below are counted, not
#      shown);
#   2. the mails applied one at a time to a copy of the pristine base
#      (build/sc/linux), and the kernel (Image, modules) built after each,
#      with the configuration of make (allnoconfig + the fragments; options
#      a later mail adds are simply absent before it), in build/sc/obj, with
#      ccache: every step must build (a bisectable series), and so must
#      every added kernel object present, configured in or not;
#   3. W=1 and sparse (C=2) on our files (scripts/tests/warnings.sh).
#
# Prints a table and how long it took; exits non-zero on any new finding or
# failed step. Not part of make check (the first run builds the kernel once
# per mail that changes a widely included header; later runs hit ccache).
set -euo pipefail
. scripts/series-lib.sh
start=$(date +%s)
BASE=${BASE:-build/base}
W=${SC_DIR:-build/sc}
CHECKPATCH=${CHECKPATCH:-$BASE/scripts/checkpatch.pl}
FRAGMENTS=${FRAGMENTS:-scripts/configs/qemu-pkvm.config}
JOBS=${JOBS:-$(nproc)}

# Accepted checkpatch findings: TYPE and a pattern of the "FILE:" line (or
# "-" for any). They come from multi-pass macro headers, which checkpatch
# reads as ordinary macros (include/trace/trace_events.h gets the same),
# from include-path macros, and from user-space test shims. hyp_ftrace.c
# and hyp_printk.c expand the event header as nvhe/trace.h does; the return hook of
# hypervisor function tracing has nowhere to return to without its frame.
# checkpatch reads "extern T kvm_nvhe_sym(x);" as a prototype, as it does in
# the kernel's kvm_hyp.h, which declares the hypervisor's variables so.
# gen-hypcalls.c, a host program, uses <elf.h>'s and <stdint.h>'s types, as
# gen-hyprel.c does.
accepted="MACRO_ARG_UNUSED -
OPEN_ENDED_LINE events.h
PARENTHESIS_ALIGNMENT events.h
MACRO_ARG_REUSE -
COMPLEX_MACRO -
MULTISTATEMENT_MACRO_USE_DO_WHILE define_remote_events.h
TRAILING_SEMICOLON define_remote_events.h
TRAILING_SEMICOLON trace_remote_event.h
TRAILING_SEMICOLON kvm_hyptrace.h
TRAILING_SEMICOLON nvhe/trace.h
MULTISTATEMENT_MACRO_USE_DO_WHILE trace_remote_event.h
NEW_TYPEDEFS define_remote_events.h
LINE_SPACING define_remote_events.h
SPACING REMOTE_EVENT_INCLUDE_FILE
CAMELCASE _Pragma
FILE_PATH_CHANGES -
BIT_MACRO tools/testing/selftests
MEMORY_BARRIER tools/testing/simple_ring_buffer/shim
PREFER_DEFINED_ATTRIBUTE_MACRO tools/testing/simple_ring_buffer/shim
MACRO_WITH_FLOW_CONTROL tools/testing/simple_ring_buffer
AVOID_EXTERNS tools/tracing/hyp_workload.c
AVOID_EXTERNS kvm_nvhe_sym(hyp_ftrace_kimg_off)
NR_CPUS arch/arm64/kvm/hyp/nvhe/trace.c
EMBEDDED_FUNCTION_NAME tools/tracing/hyp-stat/hyp-stat.c
TRAILING_SEMICOLON hyp_ftrace.c
TRAILING_SEMICOLON hyp_printk.c
AVOID_BUG arch/arm64/kvm/hyp/nvhe/ftrace.c
CAMELCASE arch/arm64/kvm/hyp/nvhe/gen-hypcalls.c
PREFER_KERNEL_TYPES arch/arm64/kvm/hyp/nvhe/gen-hypcalls.c"

# A mail adds at most MAX_ADDED lines: what a reviewer reads in a sitting.
MAX_ADDED=${MAX_ADDED:-600}

# The object directory stays from one run to the next: kbuild rebuilds what
# changed, ccache most of the rest.
rm -rf "$W/linux" "$W/series" "$W/series-git" "$W"/*.cp "$W"/*.log "$W"/*.txt
mkdir -p "$W"
SERIES_OUT=$W/series SERIES_WORK=$W/series-git scripts/mkseries.sh > /dev/null
mails=$(cd "$W/series" && ls | grep -v cover-letter)

# 1. checkpatch, per mail.
new=0 big=
printf '%-62s %6s %5s %5s\n' mail added found new > "$W/checkpatch.txt"
for m in $mails; do
	"$CHECKPATCH" --strict --no-tree --show-types -q "$W/series/$m" > "$W/$m.cp" 2>&1 || true
	found=0 n=0
	while read -r type; do
		found=$((found + 1))
		where=$(grep -m1 -A3 -F "$type" "$W/$m.cp" | grep -m1 -E 'FILE:|^\+' || true)
		ok=0
		while read -r t pat; do
			[ "$type" = "$t" ] || continue
			# Not grep -q: under pipefail, the first grep could
			# die of SIGPIPE when the second stops reading early.
			if [ "$pat" = - ] ||
			   grep -A4 -E "^[A-Z]+:$t:" "$W/$m.cp" | grep -F "$pat" > /dev/null; then
				ok=1
			fi
		done <<< "$accepted"
		if [ $ok = 0 ]; then
			n=$((n + 1))
			echo "NEW $m: $type ${where}"
		fi
	done < <(grep -oE '^(ERROR|WARNING|CHECK):[A-Z_]+' "$W/$m.cp" | cut -d: -f2)
	new=$((new + n))
	added=$(grep -c '^+[^+]' "$W/series/$m" || true)
	[ "$added" -le "$MAX_ADDED" ] || big="$big $m"
	printf '%-62s %6d %5d %5d\n' "$m" "$added" $found $n >> "$W/checkpatch.txt"
done
cat "$W/checkpatch.txt"

# 2. Apply one mail at a time and build.
echo "  COPY    $BASE -> $W/linux"
cp -a "$BASE" "$W/linux"
mkdir -p "$W/obj"
cat $FRAGMENTS > "$W/obj/fragments.config"
cc=aarch64-linux-gnu-gcc
command -v ccache > /dev/null && cc="ccache $cc"
export CCACHE_BASEDIR=$(pwd)
failed=0
# The kernel objects the series adds (hypervisor objects are built by their
# own rules, under an option that defaults to y).
kernel_c=$(added_files | grep -E '^(kernel/.*|arch/arm64/kvm/[^/]*)\.c$' || true)
printf '%-62s %6s %s\n' mail secs build > "$W/steps.txt"
for m in $mails; do
	t0=$(date +%s)
	if ! patch -s -p1 -d "$W/linux" --no-backup-if-mismatch < "$W/series/$m" > "$W/$m.patch.log" 2>&1; then
		printf '%-62s %6d %s\n' "$m" 0 "DOES NOT APPLY" >> "$W/steps.txt"
		failed=1
		break
	fi
	k="make -s -C $W/linux O=$(pwd)/$W/obj ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
	res=ok
	if ! { $k KCONFIG_ALLCONFIG="$(pwd)/$W/obj/fragments.config" allnoconfig &&
	       $k CC="$cc" -j"$JOBS" Image modules; } > "$W/$m.build.log" 2>&1; then
		res="FAILED (see $W/$m.build.log)"
		failed=1
	elif grep -qE 'warning:|error:' "$W/$m.build.log"; then
		res="warnings (see $W/$m.build.log)"
		failed=1
	else
		# An added object no option selects yet (trace_remote.c before
		# its first user) is compiled on its own, so that every step
		# of it builds too.
		objs=$(cd "$W/linux" && for f in $kernel_c; do if [ -f "$f" ]; then echo "${f%.c}.o"; fi; done)
		if [ -n "$objs" ] && ! $k CC="$cc" $objs >> "$W/$m.build.log" 2>&1; then
			res="FAILED (see $W/$m.build.log)"
			failed=1
		elif grep -qE 'warning:|error:' "$W/$m.build.log"; then
			res="warnings (see $W/$m.build.log)"
			failed=1
		fi
	fi
	printf '%-62s %6d %s\n' "$m" $(($(date +%s) - t0)) "$res" | tee -a "$W/steps.txt"
done

# 3. W=1 and sparse on the assembled tree's build.
echo "W=1 and sparse on our files (build/obj):"
warn=ok
scripts/tests/warnings.sh || warn=FAILED

echo
[ -z "$big" ] || echo "over $MAX_ADDED added lines:$big"
echo "series-check: $(echo $mails | wc -w) mails, $new new checkpatch findings," \
	"$(echo $big | wc -w) mails over $MAX_ADDED lines," \
	"steps: $([ $failed = 0 ] && echo 'all build' || echo 'FAILURES'), W=1/sparse: $warn," \
	"$(($(date +%s) - start)) s"
[ $new = 0 ] && [ -z "$big" ] && [ $failed = 0 ] && [ $warn = ok ]
