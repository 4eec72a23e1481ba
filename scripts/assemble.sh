#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Assemble the kernel tree build/linux = pristine base + added files + patches.
#
# The base is copied once.  After that only "managed" files are considered:
# the files this repo adds and the files its patches touch.  They are built in
# a small staging directory and copied into build/linux only when their
# content differs, so make rebuilds exactly what changed.  A managed file that
# is no longer managed goes back to its base version.
#
# A managed file edited by hand in build/linux is never overwritten: we stop
# and say so (see "make refresh" in the README).
set -euo pipefail

BASE=${BASE:-build/base}
SRC=${SRC:-build/linux}
STAGE=${STAGE:-build/stage}
MANIFEST=$SRC/.assembled
CURDIR_ABS=$(pwd)
. scripts/series-lib.sh

die() { echo "assemble: $*" >&2; exit 1; }

[ -f "$BASE/.extracted" ] || die "no base in $BASE (run make base)"

rm -rf "$STAGE"
mkdir -p "$STAGE/tree"
: > "$STAGE/list"

# 1. Added files, at their kernel paths.
added_files > "$STAGE/added"
while read -r f; do
	[ -e "$BASE/$f" ] && die "$f is an added file but exists in the base: change it with a patch"
	mkdir -p "$STAGE/tree/$(dirname "$f")"
	cp "$f" "$STAGE/tree/$f"
	echo "$f" >> "$STAGE/list"
done < "$STAGE/added"

# 2. Patches, in series order, applied without fuzz.
series_patches > "$STAGE/series"
while read -r p; do
	[ -f "patches/$p" ] || die "patches/series names $p, which does not exist"
	for f in $(patch_files "patches/$p"); do
		grep -qxF "$f" "$STAGE/list" && continue
		if [ -e "$BASE/$f" ]; then
			mkdir -p "$STAGE/tree/$(dirname "$f")"
			cp -p "$BASE/$f" "$STAGE/tree/$f"
		fi
		echo "$f" >> "$STAGE/list"
	done
	if ! out=$(patch -d "$STAGE/tree" -p1 -F0 -N -s --no-backup-if-mismatch \
			-r - -i "$CURDIR_ABS/patches/$p" 2>&1); then
		echo "$out" >&2
		die "patch $p does not apply (base $BASE_VERSION)"
	fi
done < "$STAGE/series"

sort -u -o "$STAGE/list" "$STAGE/list"

# ASSEMBLE_DRY=1: stop once the staging tree is built (used by the tests).
[ "${ASSEMBLE_DRY:-0}" = 1 ] && exit 0

if [ ! -f "$SRC/.copied" ]; then
	echo "  COPY    $BASE -> $SRC"
	rm -rf "$SRC"
	cp -a "$BASE" "$SRC"
	rm -f "$SRC/.extracted"
	touch "$SRC/.copied"
fi

# 3. Refuse to clobber hand edits of managed files.
if [ -f "$MANIFEST" ]; then
	while read -r sum f; do
		[ -e "$SRC/$f" ] || continue
		cur=$(md5sum < "$SRC/$f" | cut -d' ' -f1)
		[ "$cur" = "$sum" ] && continue
		# Edited by hand; fine only if the repo already says the same.
		if [ -e "$STAGE/tree/$f" ] && cmp -s "$SRC/$f" "$STAGE/tree/$f"; then
			continue
		fi
		# No longer managed, and already back to the base version.
		if [ ! -e "$STAGE/tree/$f" ] && [ -e "$BASE/$f" ] && cmp -s "$SRC/$f" "$BASE/$f"; then
			continue
		fi
		die "$SRC/$f was edited by hand. Save it to the repo first
  (added file: copy it to ./$f; existing file: make refresh P=<patch>), or
  restore it with: rm $SRC/$f"
	done < "$MANIFEST"
fi

# 4. Sync: write what changed, restore what is no longer managed.
changed=0
: > "$STAGE/manifest"
while read -r f; do
	if [ -e "$STAGE/tree/$f" ]; then
		if ! cmp -s "$STAGE/tree/$f" "$SRC/$f" 2>/dev/null; then
			mkdir -p "$SRC/$(dirname "$f")"
			cp "$STAGE/tree/$f" "$SRC/$f"
			echo "  UPDATE  $f"
			changed=$((changed + 1))
		fi
		echo "$(md5sum < "$SRC/$f" | cut -d' ' -f1) $f" >> "$STAGE/manifest"
	elif [ -e "$SRC/$f" ]; then
		rm -f "$SRC/$f"
		echo "  REMOVE  $f"
	fi
done < "$STAGE/list"

if [ -f "$MANIFEST" ]; then
	while read -r sum f; do
		grep -qxF "$f" "$STAGE/list" && continue
		if [ -e "$BASE/$f" ]; then
			cp "$BASE/$f" "$SRC/$f"
			echo "  RESTORE $f"
		else
			rm -f "$SRC/$f"
			echo "  REMOVE  $f"
		fi
	done < "$MANIFEST"
fi
mv "$STAGE/manifest" "$MANIFEST"
