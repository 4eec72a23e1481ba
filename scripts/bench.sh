#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench: print the writer's cost per event, natively on the host and in
# the guest next to the kernel's own ring buffer (same loop, same boot).
# Numbers, not a test: compare the ratio.
set -eu
echo "== host (x86_64, native build of kernel/trace/simple_ring_buffer.c)"
make -s -C "$SRC/tools/testing/simple_ring_buffer" srb_bench
"$SRC/tools/testing/simple_ring_buffer/srb_bench"

echo "== guest ($MODE mode, TCG): simple_ring_buffer vs ring_buffer"
rm -rf build/bench
cp -r scripts/bench build/bench
make -s -C "$SRC" O="$(pwd)/$OBJ" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	M="$(pwd)/build/bench" modules
printf '%s\n' 'insmod /bench/rb_bench.ko 2>/dev/null; dmesg | grep "rb_bench: [0-9]" | tail -n 1' > build/bench/run.sh
mkdir -p build/bench/cpio/bench
cp build/bench/rb_bench.ko build/bench/cpio/bench/
(cd build/bench/cpio && find . | cpio -o -H newc -R 0:0 --quiet) > build/bench/extra.cpio
cat "$INITRAMFS" build/bench/extra.cpio > build/bench/initrd
INITRAMFS=build/bench/initrd LOGNAME_RUN=bench scripts/run-qemu.sh build/bench/run.sh
