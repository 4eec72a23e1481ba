#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# patches/mails stages (PATH@STAGE): a mail that adds an earlier version of
# a file must carry exactly that version, made by undoing the diffs of
# patches/stages/ from the file, and make series must refuse a stage that
# does not exist, names a file the series does not add, comes after the file
# itself, or whose diff no longer applies to the file.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(pwd)
BASE=$(realpath "${BASE:-build/base}")
export BASE

git clone -q "$top" "$tmp/repo"
# The working tree's patches/ and scripts/, committed or not.
cp -r patches scripts "$tmp/repo/"
cd "$tmp/repo"
series() { SERIES_OUT=$tmp/series SERIES_WORK=$tmp/work scripts/mkseries.sh > "$tmp/out" 2>&1; }

stages=$(grep -E '^[^#=].*@' patches/mails || true)
if [ -z "$stages" ]; then
	echo "no stages in patches/mails"
	exit 4
fi

# Each stage is in its mail, whole: the file as of that mail is the stage.
series || { cat "$tmp/out"; exit 1; }
scripts/stages.py extract "$tmp/stages"
for item in $stages; do
	f=${item%@*}
	s=${item##*@}
	m=$(awk -v i="$item" '/^== / { m = $2 } $1 == i { print m }' patches/mails)
	n=$(awk '/^== / { print $2 }' patches/mails | grep -nxF "$m" | cut -d: -f1)
	mail=$(ls "$tmp/series" | grep "^$(printf '%04d' "$n")-")
	# Commit n + 1 of the scratch repository: the base, then one per mail.
	git -C "$tmp/work" show "$(git -C "$tmp/work" rev-list --reverse HEAD | sed -n "$((n + 1))p"):$f" \
		> "$tmp/at-mail"
	[ -s "$tmp/at-mail" ] || { echo "FAIL: $f is empty after $mail"; exit 1; }
	cmp -s "$tmp/at-mail" "$tmp/stages/$s/$f" ||
		{ echo "FAIL: $f after $mail is not stage $s"; exit 1; }
	echo "ok: $mail adds $f as stage $s"
done

# Refusals: each edit of patches/mails must make series fail with its reason.
item=$(echo "$stages" | head -n 1)
f=${item%@*}
cp patches/mails "$tmp/mails"
refused() { # reason
	if series; then
		echo "FAIL: make series accepted a mails file that $1"
		exit 1
	fi
	grep -q "$2" "$tmp/out" || { echo "FAIL: refused for another reason:"; cat "$tmp/out"; exit 1; }
	echo "ok: refused a stage that $1"
	cp "$tmp/mails" patches/mails
}
sed -i "s|^$item\$|$f@no-such-stage|" patches/mails
refused "does not exist" "does not exist"
mkdir -p patches/stages/x/kernel/trace
: > patches/stages/x/kernel/trace/Makefile.diff
sed -i "s|^$item\$|$item\nkernel/trace/Makefile@x|" patches/mails
refused "names a file the series does not add" "is not an added file"
sed -i "\|^$item\$|d" patches/mails
echo "$item" >> patches/mails
refused "comes after the file itself" "after $f itself"

# A diff that no longer applies: the file changed where the stage differs.
cp "$f" "$tmp/file"
d=patches/stages/${item##*@}/$f.diff
# A context line found once in the file: changing it must break the diff.
ctx=$(sed -n '/^@@/,$p' "$d" | grep '^ [^[:space:]]' | cut -c2- |
	while IFS= read -r l; do
		[ "$(grep -cxF -- "$l" "$f")" = 1 ] && { printf '%s\n' "$l"; break; }
	done || true)
grep -qxF -- "$ctx" "$f" || { echo "FAIL: cannot find a line of $d in $f"; exit 1; }
python3 - "$f" "$ctx" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
text = open(path).read().split("\n")
i = text.index(line)
text[i] = line + " /* changed */"
open(path, "w").write("\n".join(text))
PY
refused "no longer applies to its file" "does not apply"
cp "$tmp/file" "$f"
series || { echo "FAIL: make series fails once the file is back"; cat "$tmp/out"; exit 1; }
echo "ok: the series builds again once the file is back"

# A C stage that drops a definition the next version does not have.
d=$(ls patches/stages/*/kernel/trace/*.c.diff | head -n 1)
cp "$d" "$tmp/diff"
sed -i '1i Drop: no_such_definition' "$d"
refused "drops a definition that is not there" "drops what the next version does not have"
cp "$tmp/diff" "$d"
