#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A make with nothing changed rebuilds nothing. make check has just built
# the tree: building it again must compile, link or pack nothing (a CC
# that changes between two makes, a generated file rewritten every time,
# a script that always touches its output would each rebuild here).
set -uo pipefail
obj=${OBJ:-build/obj}
[ -f "$obj/.config" ] || exit 4
out=$(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory all 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || exit 1
rebuilt=$(echo "$out" | grep -E '^  (CC|AS|LD|AR|OBJCOPY|CPIO|MODPOST)( |$)')
if [ -n "$rebuilt" ]; then
	echo "rebuilt with nothing changed:"
	echo "$rebuilt" | head -n 20
	exit 1
fi
echo "nothing rebuilt in $obj"
