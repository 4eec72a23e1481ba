#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run CMD=...: a multi-line script of more than 64 KiB, full of shell
# metacharacters, reaches the guest intact, its output comes back, and make
# fails with the script's status.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	echo 'cat > /tmp/blob <<"EOF_BLOB"'
	for i in $(seq 1 1700); do
		printf 'line %d $HOME `x` "q" '\''s'\'' # %% \\ %s\n' "$i" "$(printf '%08x' $((i * 2654435761 % 4294967296)))"
	done
	echo 'EOF_BLOB'
	echo 'md5sum < /tmp/blob'
	echo 'exit 7'
} > "$tmp/cmd"
size=$(wc -c < "$tmp/cmd")
[ "$size" -gt 65536 ] || { echo "script is only $size bytes"; exit 1; }
want=$(sed -n '2,1701p' "$tmp/cmd" | md5sum | cut -d' ' -f1)

set +e
make -s run CMD="$(cat "$tmp/cmd")" TIMEOUT=120 > "$tmp/out" 2>&1
rc=$?
set -e
cat "$tmp/out"
grep -q "^$want" "$tmp/out" || { echo "FAIL: the guest saw a different script (want md5 $want)"; exit 1; }
[ $rc != 0 ] || { echo "FAIL: make run exited 0 for a script that exits 7"; exit 1; }
grep -q 'Error 7' "$tmp/out" || { echo "FAIL: exit status 7 not reported"; exit 1; }
# The script runner itself returns the exact status.
set +e
echo 'exit 7' > "$tmp/s"; scripts/run-qemu.sh "$tmp/s"; rc=$?
set -e
[ $rc = 7 ] || { echo "FAIL: run-qemu.sh returned $rc, want 7"; exit 1; }
echo "ok: $size-byte script intact, status 7 propagated"
