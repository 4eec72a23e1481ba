#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The report of make bench (scripts/bench/report.awk) reads what the guest
# runs print: from made-up rows, it prints every section and each target
# row with the verdict its figures call for.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

row() { # kind what variant best [median]
	echo "$1 $2 $3 $4 ${5:-$4}"
}
{
	echo "rb_bench: writers alone, 8-byte payload: simple 31 ns, ring_buffer 326 ns, ratio 0.10"
	echo "rb_bench: with the clock read, best: simple 60 ns, ring_buffer 330 ns, ratio 0.18"
	echo "rb_bench: writer swap, 3 pages: after one page, 60 ns"
	echo "rb_bench: writer swap, 1025 pages: after one page, 62 ns"
	for r in "hcall out 89" "exit out 1000" "hcall disabled 93" "exit disabled 1020" \
		 "hcall enabled 189" "exit enabled 1070" "event off 100" "event on 141" \
		 "ftrace off 100" "ftrace func 151" "ftrace funcret 200" "exit ftrace_all 2000" \
		 "hcall nof_disabled 93" "exit nof_disabled 1019" "kcall off 10" \
		 "kcall function 210" "kcall graph 510" "kevent off 5" "kevent on 105"; do
		row BENCH $r
	done
	for r in "event off 200" "event on 239" "ftrace off 200" "ftrace func 330" \
		 "ftrace funcret 321" "kcall off 10" "kcall function 110" "kcall graph 310" \
		 "kevent off 5" "kevent on 85" "hcall disabled 150" "hcall enabled 250" \
		 "exit disabled 3500" "exit enabled 3700"; do
		row BENCHL $r
	done
} > "$tmp/in"

awk -v unit=insns -v mode=protected -f scripts/bench/report.awk "$tmp/in" > "$tmp/out"
cat "$tmp/out"
verdict() { # out row figure verdict
	grep -F -- "$2" "$1" | grep -F -- "$3" | grep -q -- " $4\$" ||
		{ echo "FAIL: \"$2\" is not $3, $4"; exit 1; }
}
for s in '== targets' '== side by side' '== the LLVM=1 kernel' '== reader costs'; do
	grep -q -- "^$s" "$tmp/out" || { echo "FAIL: no section $s"; exit 1; }
done
targets=$tmp/targets llvm=$tmp/llvm
sed -n '/^== targets/,/^== side/p' "$tmp/out" > "$targets"
sed -n '/^== the LLVM=1/,/^== reader/p' "$tmp/out" > "$llvm"
verdict "$targets" "one enabled hypervisor event" " 41 " "NOT MET"
verdict "$targets" "guest exit loop disabled - compiled out" " 20 " "met"
verdict "$targets" "over out" "+7.0%" "met"
verdict "$targets" "function entry (func)" " 51 " "NOT MET"
verdict "$targets" "function, entry and return" " 100 " "met"
verdict "$tmp/out" "EL2 event / kernel trace event" "41 / 100 = 0.41" "met"
verdict "$llvm" "one enabled hypervisor event" " 39 " "met"
verdict "$llvm" "function, entry and return" " 121 " "NOT MET"
verdict "$llvm" "func / function tracer" "130 / 100 = 1.30" "NOT MET"
# nVHE mode has its own goal for the exit loop.
awk -v unit=insns -v mode=nvhe -f scripts/bench/report.awk "$tmp/in" > "$tmp/nvhe"
verdict "$tmp/nvhe" "over out" "<= 13%" "met"
echo "bench-report ok"
