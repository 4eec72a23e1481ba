#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make refresh P=NAME.patch [FILES="a b"]: regenerate patches/NAME.patch from
# the edited files in build/linux.  The "before" side is the base plus the
# patches listed before NAME in patches/series; the patch header (Subject and
# body) is kept.  A new NAME is appended to patches/series.
set -euo pipefail
. scripts/series-lib.sh
BASE=${BASE:-build/base}
SRC=${SRC:-build/linux}
name=${1:-}
shift || true

die() { echo "refresh: $*" >&2; exit 1; }
[ -n "$name" ] || die "usage: make refresh P=NAME.patch [FILES=\"path ...\"]"
case $name in *.patch) ;; *) die "patch names end in .patch" ;; esac
[ -f "$BASE/.extracted" ] || die "no base (run make)"

new=1
grep -qxF "$name" <<< "$(series_patches)" && new=0
files="$*"
if [ -z "$files" ]; then
	[ $new = 0 ] || die "new patch $name: say which files with FILES=\"path ...\""
	files=$(patch_files "patches/$name")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/before"
before=1
for p in $(series_patches); do
	if [ "$p" = "$name" ]; then
		before=0
		continue
	fi
	if [ $before = 0 ]; then
		for f in $files; do
			grep -qxF "$f" <<< "$(patch_files "patches/$p")" &&
				die "$f is also changed by the later patch $p; refresh that one instead"
		done
		continue
	fi
	for f in $(patch_files "patches/$p"); do
		if [ -e "$BASE/$f" ] && [ ! -e "$tmp/before/$f" ]; then
			mkdir -p "$tmp/before/$(dirname "$f")"
			cp "$BASE/$f" "$tmp/before/$f"
		fi
	done
	patch -d "$tmp/before" -p1 -F0 -N -s --no-backup-if-mismatch -r - \
		-i "$(pwd)/patches/$p" || die "patch $p does not apply"
done

if [ $new = 0 ]; then
	# Keep everything before the first diff.
	awk '/^(diff |--- |Index: )/ { exit } { print }' "patches/$name" > "$tmp/header"
else
	printf 'Subject: [PATCH] FIXME: subsystem: Imperative summary\n\nFIXME: why.\n\n' > "$tmp/header"
fi

: > "$tmp/diff"
for f in $files; do
	b=$tmp/before/$f
	[ -e "$b" ] || b=$BASE/$f
	[ -e "$b" ] || b=/dev/null
	a=$SRC/$f
	[ -e "$a" ] || a=/dev/null
	if ! cmp -s "$b" "$a"; then
		echo "diff --git a/$f b/$f" >> "$tmp/diff"
		diff -u --label "a/$f" --label "b/$f" "$b" "$a" >> "$tmp/diff" || true
	fi
done
[ -s "$tmp/diff" ] || die "no change in $files"
cat "$tmp/header" "$tmp/diff" > "patches/$name"
[ $new = 0 ] || echo "$name" >> patches/series
echo "  REFRESH patches/$name ($(grep -c '^@@' "$tmp/diff") hunks)"
