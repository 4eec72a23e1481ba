#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the series' test programs for the guest (static arm64) from the
# assembled tree into OBJ/guest-bin; mkinitramfs puts them in /usr/local/bin.
# Each line of the list below: program name, then its sources in SRC.
set -eu
out=$OBJ/guest-bin
mkdir -p "$out"
CC=${CROSS_COMPILE:-aarch64-linux-gnu-}gcc
CFLAGS="-static -O2 -Wall -Wextra -Werror -pthread"

while read -r prog srcs; do
	[ -n "$prog" ] || continue
	files=
	for s in $srcs; do
		files="$files $SRC/$s"
	done
	# shellcheck disable=SC2086
	if [ ! -x "$out/$prog" ] || [ -n "$(find $files -newer "$out/$prog")" ]; then
		echo "  GUESTCC $prog"
		# shellcheck disable=SC2086
		$CC $CFLAGS -o "$out/$prog" $files
	fi
done <<'LIST'
remote_reader tools/testing/selftests/ftrace/remote_reader.c
remote_race tools/testing/selftests/ftrace/remote_race.c
remote_stall tools/testing/selftests/ftrace/remote_stall.c
hyp_workload tools/tracing/hyp_workload.c
hyp-stat tools/tracing/hyp-stat.c
LIST
