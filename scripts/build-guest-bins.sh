#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the series' test programs for the guest (static arm64) from the
# assembled tree into OBJ/guest-bin; mkinitramfs puts them in /usr/local/bin.
# Each line of the list below: program name, then its sources in SRC.
# hyp-stat links (dynamically) with libtracecmd, libtracefs and
# libtraceevent: built against Debian's arm64 -dev packages in build/pkgdev,
# run with their libraries, which mkinitramfs puts in the guest.
set -eu
out=$OBJ/guest-bin
mkdir -p "$out"
CC=${CROSS_COMPILE:-aarch64-linux-gnu-}gcc
CFLAGS="-static -O2 -Wall -Wextra -Werror -pthread"
TRACE_LIBS="libtraceevent-dev libtracefs-dev libtracecmd-dev"

scripts/fetch-arm64-debs.sh build/pkgdev $TRACE_LIBS
dev=$(pwd)/build/pkgdev
lib=$dev/usr/lib/aarch64-linux-gnu
TRACE_CFLAGS="-O2 -Wall -Wextra -Werror -I$dev/usr/include/traceevent \
	-I$dev/usr/include/tracefs -I$dev/usr/include/trace-cmd -L$lib \
	-Wl,-rpath-link,$lib:$dev/lib/aarch64-linux-gnu"
TRACE_LDLIBS="-ltracecmd -ltracefs -ltraceevent"

while read -r prog srcs; do
	[ -n "$prog" ] || continue
	files=
	for s in $srcs; do
		files="$files $SRC/$s"
	done
	# A header next to a source counts too (hyp-stat.h).
	deps="$files $(for f in $files; do find "$(dirname "$f")" -maxdepth 1 -name '*.h'; done)"
	# shellcheck disable=SC2086
	if [ ! -x "$out/$prog" ] || [ -n "$(find $deps -newer "$out/$prog")" ]; then
		echo "  GUESTCC $prog"
		case $prog in
		hyp-stat)
			# shellcheck disable=SC2086
			$CC $TRACE_CFLAGS -o "$out/$prog" $files $TRACE_LDLIBS ;;
		*)
			# shellcheck disable=SC2086
			$CC $CFLAGS -o "$out/$prog" $files ;;
		esac
	fi
done <<'LIST'
remote_reader tools/testing/selftests/ftrace/remote_reader.c
remote_race tools/testing/selftests/ftrace/remote_race.c
remote_stall tools/testing/selftests/ftrace/remote_stall.c
hyp_workload tools/tracing/hyp_workload.c
guest_boot tools/testing/guest_boot/guest_boot.c
hyp-stat tools/tracing/hyp-stat/hyp-stat.c tools/tracing/hyp-stat/events.c tools/tracing/hyp-stat/table.c tools/tracing/hyp-stat/timeline.c
LIST

# KVM's own selftest of the hypercall firmware registers, which the guest
# marker's patch changes, built as the kernel builds its selftests, against
# this tree's uapi headers. Again only when a source is newer.
kvm=$(pwd)/$OBJ/kvm-selftests
if [ ! -x "$out/kvm-hypercalls" ] ||
   [ -n "$(find "$SRC/tools/testing/selftests/kvm" "$SRC/tools/arch/arm64" \
	"$SRC/include/uapi" "$SRC/arch/arm64/include/uapi" \
	-newer "$out/kvm-hypercalls" -print -quit)" ]; then
	echo "  GUESTCC kvm-hypercalls"
	rm -rf "$kvm"
	mkdir -p "$kvm/objdir/tools"
	make -s -C "$SRC" ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}" \
		O="$kvm/obj" INSTALL_HDR_PATH="$kvm/hdr" headers_install
	make -s -C "$SRC/tools/testing/selftests/kvm" ARCH=arm64 \
		CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}" OUTPUT="$kvm/out" \
		KHDR_INCLUDES="-isystem $kvm/hdr/include" EXTRA_CFLAGS=-static \
		abs_objdir="$kvm/objdir" "$kvm/out/aarch64/hypercalls"
	cp "$kvm/out/aarch64/hypercalls" "$out/kvm-hypercalls"
fi
