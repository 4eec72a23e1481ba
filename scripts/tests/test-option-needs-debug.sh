#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CONFIG_NVHE_EL2_TRACING_TEST lets the host panic the hypervisor with one
# hypercall (HYP_TRACE_PANIC_ID): it must need CONFIG_NVHE_EL2_DEBUG. Our
# fragment without that option must leave the test option out.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(realpath "${SRC:-build/linux}")
grep -v '^CONFIG_NVHE_EL2_DEBUG=' scripts/configs/qemu-pkvm.config > "$tmp/frag"
make -s -C "$src" O="$tmp/obj" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	KCONFIG_ALLCONFIG="$tmp/frag" allnoconfig
grep -q '^CONFIG_NVHE_EL2_TRACING=y' "$tmp/obj/.config"
if grep -q '^CONFIG_NVHE_EL2_TRACING_TEST=y' "$tmp/obj/.config"; then
	echo "CONFIG_NVHE_EL2_TRACING_TEST without CONFIG_NVHE_EL2_DEBUG"
	exit 1
fi
echo ok
