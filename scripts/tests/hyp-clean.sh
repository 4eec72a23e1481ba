#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make clean removes what the hypervisor's build leaves in its object
# directory, whatever the configuration: the per-directory clean reads the
# Makefile with no options set. Every file a full build left there is made
# again in a scratch object tree, which the clean of that directory must
# empty but for what the top-level clean deletes by name (objects, .cmd,
# modules.order).
set -euo pipefail
obj=build/obj/arch/arm64/kvm/hyp/nvhe
src=$(pwd)/build/linux
[ -d $obj ] || { echo "FAIL: no $obj (build the kernel)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/arch/arm64/kvm/hyp/nvhe"
files=$(cd $obj && find . -maxdepth 1 -type f ! -name '*.[aios]' ! -name '.*' ! -name modules.order | sed 's|^\./||')
[ -n "$files" ]
for f in $files; do
	touch "$tmp/arch/arm64/kvm/hyp/nvhe/$f"
done
make -s -C "$tmp" -f "$src/scripts/Makefile.clean" obj=arch/arm64/kvm/hyp/nvhe \
	srctree="$src" VPATH="$src" ARCH=arm64
left=$(ls -A "$tmp/arch/arm64/kvm/hyp/nvhe")
if [ -n "$left" ]; then
	echo "FAIL: make clean leaves: $left"
	exit 1
fi
echo "ok: $(echo $files)"
