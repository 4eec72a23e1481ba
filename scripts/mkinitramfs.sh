#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build OBJ/initramfs.cpio: Debian's arm64 busybox-static, trace-cmd and
# libtracecmd1 (with their libraries), the assembled tree's ftrace selftests, the kernel modules,
# the series' test programs and our guest scripts.
set -euo pipefail
PKGS="busybox-static trace-cmd libtracecmd1"
root=$OBJ/initramfs-root

scripts/fetch-arm64-debs.sh build/pkgroot $PKGS

rm -rf "$root"
mkdir -p "$root"/{proc,sys,dev,tmp,run,root,etc,usr/share/guest,lib/modules}
cp -a build/pkgroot/. "$root/"
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/.packages"
ln -s lib "$root/lib64" 2>/dev/null || true
cp scripts/guest/init "$root/init"
cp scripts/guest/*.sh "$root/usr/share/guest/" 2>/dev/null || true
cp scripts/guest/*.list "$root/usr/share/guest/" 2>/dev/null || true
# The KVM guest of the guest boot tests: this Image, and an initramfs of
# busybox and scripts/guest/vm-init.
mkdir -p "$root/usr/share/guest/vm"
cp "$IMAGE" "$root/usr/share/guest/vm/Image"
printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" "nod /dev/kmsg 0644 0 0 c 1 11" \
	"dir /bin 0755 0 0" "file /bin/busybox build/pkgroot/bin/busybox 0755 0 0" \
	"file /init scripts/guest/vm-init 0755 0 0" |
	"$OBJ/usr/gen_init_cpio" -t 0 - > "$root/usr/share/guest/vm/initramfs.cpio"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"

# ftracetest and its tests, as assembled (base + the series' test.d/)
mkdir -p "$root/usr/share/selftests"
cp -a "$SRC/tools/testing/selftests/ftrace" "$root/usr/share/selftests/"

# Modules
if [ -d "$OBJ/modroot/lib/modules" ]; then
	cp -a "$OBJ/modroot/lib/modules/." "$root/lib/modules/"
fi

# Test programs built for the guest (static arm64), if any
if [ -d "$OBJ/guest-bin" ]; then
	mkdir -p "$root/usr/local/bin"
	cp -a "$OBJ/guest-bin/." "$root/usr/local/bin/"
fi
# and the series' tool scripts
mkdir -p "$root/usr/local/bin"
install -m 755 "$SRC/tools/tracing/trace-remote-record.sh" "$root/usr/local/bin/trace-remote-record"

# Every dynamic executable must find its libraries.
missing=0
while read -r f; do
	for lib in $(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
		     sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
		if [ -z "$(find "$root/lib" "$root/usr/lib" -name "$lib")" ]; then
			echo "mkinitramfs: $f needs $lib, not in the initramfs" >&2
			missing=1
		fi
	done
done < <(find "$root/usr/bin" "$root/usr/local/bin" -type f 2>/dev/null)
[ $missing = 0 ] || exit 1

# Fixed time stamps: the archive changes only when its content does.
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --reproducible --quiet) > "$INITRAMFS.tmp"
if cmp -s "$INITRAMFS.tmp" "$INITRAMFS"; then
	rm -f "$INITRAMFS.tmp"
else
	mv "$INITRAMFS.tmp" "$INITRAMFS"
	echo "  CPIO    $INITRAMFS ($(du -h "$INITRAMFS" | cut -f1))"
fi
