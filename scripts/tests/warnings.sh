#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our C files build without a warning with W=1 and under sparse (C=2), in the
# kernel's own configuration (build/obj). The files the series adds must be
# clean; in the existing files it changes, only the findings listed below,
# which the base 6.12 tree has too, are accepted. It works in a copy of the
# object directory (W=1 rebuilds the prepare step too), so the next make
# rebuilds nothing.
set -euo pipefail
OBJ=${OBJ:-build/obj}
SRC=${SRC:-build/linux}
command -v sparse > /dev/null || { echo "no sparse (make deps installs it)"; exit 1; }

added="kernel/trace/simple_ring_buffer.o kernel/trace/trace_remote.o
kernel/trace/remote_test.o arch/arm64/kvm/hyp_trace.o arch/arm64/kvm/hyp_trace_test.o
arch/arm64/kvm/hyp/nvhe/trace.nvhe.o arch/arm64/kvm/hyp/nvhe/simple_ring_buffer.nvhe.o"
changed="kernel/trace/ring_buffer.o kernel/trace/trace.o arch/arm64/kvm/arm.o
arch/arm64/kvm/hyp/nvhe/hyp-main.nvhe.o arch/arm64/kvm/hyp/nvhe/ffa.nvhe.o
arch/arm64/kvm/hyp/nvhe/sys_regs.nvhe.o arch/arm64/kvm/hyp/nvhe/switch.nvhe.o
arch/arm64/kvm/hyp/nvhe/psci-relay.nvhe.o arch/arm64/kvm/hyp/nvhe/mem_protect.nvhe.o"
# file:what, as sparse words it, of findings the base tree has.
accepted="kernel/vdso/vgetrandom.c:symbol '__kernel_getrandom' was not declared
:context imbalance in 'ring_buffer_peek'
:context imbalance in 'ring_buffer_consume'
ring_buffer.c:context imbalance in 'ring_buffer_read_start'
:context imbalance in 'ring_buffer_empty'
:context imbalance in 'ring_buffer_empty_cpu'
ring_buffer.c:context imbalance in 'ring_buffer_read_page'
trace.c:(different address spaces)
arm.c:symbol 'kvm_arm_hyp_stack_page' was not declared
arm.c:(different address spaces)"

objs=$(echo $added $changed)
for o in $objs; do
	[ -f "$OBJ/$o" ] || { echo "no $OBJ/$o: build the kernel first"; exit 1; }
done
tmp=$(mktemp -d)
work=$OBJ-warn
rm -rf "$work"
cp -a "$OBJ" "$work"
trap 'rm -rf "$tmp" "$work"' EXIT

cc=aarch64-linux-gnu-gcc
command -v ccache > /dev/null && cc="ccache $cc"
# Every object is compiled again (W=1 changes the flags) and checked.
make -s -C "$SRC" O="$(pwd)/$work" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="$cc" \
	W=1 C=2 -j"$(nproc)" $objs > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
grep -E 'warning:|error:' "$tmp/log" > "$tmp/findings" || true
fail=0
while read -r line; do
	ok=0
	for f in $added; do
		src=${f%.o}; src=${src%.nvhe}.c
		case $f in */simple_ring_buffer.nvhe.o) src=kernel/trace/simple_ring_buffer.c ;; esac
		case $line in *"/$src:"*) echo "NEW (added file): $line"; fail=1; ok=2 ;; esac
	done
	[ $ok = 2 ] && continue
	while IFS= read -r a; do
		file=${a%%:*} what=${a#*:}
		case $line in *"$file:"*"$what"*) ok=1 ;; esac
	done <<< "$accepted"
	if [ $ok = 0 ]; then
		echo "NEW: $line"
		fail=1
	fi
done < "$tmp/findings"
echo "$(wc -l < "$tmp/findings") findings, all in the accepted list unless shown above"
exit $fail
