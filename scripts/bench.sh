#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench: print the writer's cost per event, natively on the host and in
# the guest next to the kernel's own ring buffer (same loop, same boot).
# Numbers, not a test: compare the ratio.
#
# The guest runs under QEMU's -icount shift=0,sleep=off: one guest
# instruction is one ns of guest time, so every guest figure counts
# instructions and two runs print the same numbers. Instructions ignore
# caches and TLBs: a floor, not a time on hardware. WALLCLOCK=1 runs the
# guest at TCG speed instead and prints (noisy) nanoseconds.
set -eu
if [ "${WALLCLOCK:-0}" = 1 ]; then
	export ICOUNT=0
	unit=ns
	how="TCG, wall-clock ns"
else
	# One CPU: with two, QEMU's round-robin TCG switches vCPUs on a
	# real-time timer and the guest-exit loop moves by about 0.5 %.
	export ICOUNT=1 SMP=1
	unit=insns
	how="TCG -icount, 1 CPU, instructions"
fi
echo "== host (x86_64, native build of kernel/trace/simple_ring_buffer.c)"
make -s -C "$SRC/tools/testing/simple_ring_buffer" srb_bench
"$SRC/tools/testing/simple_ring_buffer/srb_bench"

echo "== host: hyp-stat, text and binary input, per million events (scripts/bench-hyp-stat.sh)"
SRC=$SRC scripts/bench-hyp-stat.sh

echo "== guest ($MODE mode, $how): simple_ring_buffer vs ring_buffer"
rm -rf build/bench
cp -r scripts/bench build/bench
make -s -C "$SRC" O="$(pwd)/$OBJ" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	M="$(pwd)/build/bench" modules
for prog in remote_bench remote_latency; do
	${CROSS_COMPILE:-aarch64-linux-gnu-}gcc -static -O2 -Wall -Wextra -Werror -pthread \
		-o build/bench/$prog scripts/bench/$prog.c
done
cat > build/bench/run.sh <<'EOF'
insmod /bench/rb_bench.ko 2>/dev/null; dmesg | grep "rb_bench: " | tail -n 4
modprobe remote_test && /bench/remote_bench test test
[ -d /sys/kernel/tracing/remotes/hypervisor ] && /bench/remote_bench hypervisor hypervisor
EOF
mkdir -p build/bench/cpio/bench
cp build/bench/rb_bench.ko build/bench/remote_bench build/bench/remote_latency \
	scripts/bench/record-loss.sh build/bench/cpio/bench/
(cd build/bench/cpio && find . | cpio -o -H newc -R 0:0 --quiet) > build/bench/extra.cpio
cat "$INITRAMFS" build/bench/extra.cpio > build/bench/initrd
INITRAMFS=build/bench/initrd LOGNAME_RUN=bench scripts/run-qemu.sh build/bench/run.sh |
	sed "s/\([0-9]\) ns/\1 $unit/g" | tee build/bench/rb.out

# Latency and idle cost are about real time: this boot runs at TCG speed
# (no -icount) with the default number of CPUs.
echo "== guest ($MODE mode, TCG real time): write-to-visible latency, idle cost, trace-cmd loss"
cat > build/bench/latency.sh <<'EOF'
modprobe remote_test && /bench/remote_latency test test
[ -d /sys/kernel/tracing/remotes/hypervisor ] && /bench/remote_latency hypervisor hypervisor
/bench/record-loss.sh
EOF
ICOUNT=0 SMP=2 INITRAMFS=build/bench/initrd LOGNAME_RUN=bench-latency \
	scripts/run-qemu.sh build/bench/latency.sh | tee build/bench/latency.out
# The same latency with one vCPU: reader, poll and writer share it, so no
# wakeup crosses QEMU's vCPU threads (its "LBENCH1" lines).
cat > build/bench/latency1.sh <<'EOF'
modprobe remote_test && /bench/remote_latency test test
[ -d /sys/kernel/tracing/remotes/hypervisor ] && /bench/remote_latency hypervisor hypervisor
EOF
ICOUNT=0 SMP=1 INITRAMFS=build/bench/initrd LOGNAME_RUN=bench-latency1 \
	scripts/run-qemu.sh build/bench/latency1.sh | sed 's/^LBENCH /LBENCH1 /' |
	tee build/bench/latency1.out

# Hypervisor tracing overhead: the same loops on the kernel with tracing
# compiled in (disabled, then enabled) and on build/obj-notrace (compiled
# out), both in $MODE mode.
hyp_boot() { # objdir name [ktrace: the kernel's tracers too]
	d=build/bench/$2
	rm -rf "$d"
	mkdir -p "$d/src" "$d/cpio/bench"
	cp scripts/bench/hyp_bench.c scripts/bench/ktrace_bench.c \
		scripts/bench/ktrace_bench_trace.h scripts/bench/bench_loop.h "$d/src/"
	printf 'obj-m += hyp_bench.o ktrace_bench.o\nccflags-y += -I$(src)\n' > "$d/src/Kbuild"
	case $1 in *-llvm) llvm="LLVM=${KLLVM:--19}" ;; *) llvm= ;; esac
	make -s -C "$SRC" O="$(pwd)/$1" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- $llvm \
		M="$(pwd)/$d/src" modules
	cp "$d/src/hyp_bench.ko" "$d/cpio/bench/"
	[ "${3:-}" = ktrace ] && cp "$d/src/ktrace_bench.ko" "$d/cpio/bench/"
	(cd "$d/cpio" && find . | cpio -o -H newc -R 0:0 --quiet) > "$d/extra.cpio"
	cat "$1/initramfs.cpio" "$d/extra.cpio" > "$d/initrd"
	IMAGE=$1/arch/arm64/boot/Image INITRAMFS=$d/initrd LOGNAME_RUN=bench-$2 \
		scripts/run-qemu.sh scripts/bench/hyp-bench.sh | tee "$d/out"
}

echo "== hypervisor tracing overhead ($MODE mode, $how): tracing compiled in"
hyp_boot "$OBJ" traced ktrace
echo "== hypervisor tracing overhead ($MODE mode, $how): tracing compiled out"
hyp_boot build/obj-notrace notrace
# Function tracing's own cost: tracing compiled in, function tracing not
# (its rows are renamed nof_disabled, nof_enabled).
echo "== hypervisor tracing overhead ($MODE mode, $how): function tracing compiled out"
hyp_boot build/obj-noftrace noftrace
sed -i 's/^\(BENCH [a-z]* \)\([a-z]*\)/\1nof_\2/' build/bench/noftrace/out
# The same with the kernel built as Android builds it (make LLVM=1: Clang,
# LLD, kCFI, SCS, PAC, BTI, ThinLTO), tracing compiled in: its rows are
# BENCHL. LLVM_BENCH=0 leaves it out.
: > build/bench/llvm.out
if [ "${LLVM_BENCH:-1}" = 1 ]; then
	echo "== hypervisor tracing overhead ($MODE mode, $how): the LLVM=1 kernel"
	hyp_boot build/obj-llvm llvm ktrace
	sed 's/^BENCH /BENCHL /' build/bench/llvm/out > build/bench/llvm.out
fi
cat build/bench/rb.out build/bench/latency.out build/bench/latency1.out \
	build/bench/traced/out build/bench/notrace/out build/bench/noftrace/out \
	build/bench/llvm.out |
	tr -d '\r' | awk -v unit="$unit" -v mode="$MODE" -f scripts/bench/report.awk
