#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series: every added file and patch is in exactly one mail, and the
# mails apply with "git am" to the pristine base, giving the assembled tree.
set -euo pipefail
. scripts/series-lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BASE=${BASE:-build/base}
SRC=${SRC:-build/linux}

SERIES_OUT=$tmp/series SERIES_WORK=$tmp/work scripts/mkseries.sh
mails=$(ls "$tmp/series" 2>/dev/null | grep -v cover-letter || true)
if [ -z "$mails" ]; then
	echo "no mails yet"
	exit 0
fi

# A pristine tree holding the base files the series touches or adds next to.
mkdir "$tmp/pristine"
cd "$tmp/pristine"
for f in $(cd "$OLDPWD" && for p in $(series_patches); do patch_files "patches/$p"; done); do
	if [ -e "$OLDPWD/$BASE/$f" ]; then
		mkdir -p "$(dirname "$f")"
		cp "$OLDPWD/$BASE/$f" "$f"
	fi
done
top=$OLDPWD
git init -q
git add -A
git -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
for m in $mails; do
	git -c user.name=t -c user.email=t@t am -q "$tmp/series/$m" ||
		{ echo "FAIL: git am $m"; exit 1; }
done
# The result equals the assembled tree.
for f in $(git ls-files); do
	cmp -s "$f" "$top/$SRC/$f" || { echo "FAIL: $f differs from $SRC/$f"; exit 1; }
done
echo "ok: $(echo "$mails" | wc -w) mails applied with git am"
