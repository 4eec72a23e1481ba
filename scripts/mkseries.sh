#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: write the series in upstream form to build/series/ - a cover
# letter and one "git format-patch" mail per entry of patches/mails - against
# the pristine base, so that "git am" applies it to an extracted base tree.
#
# The mails are built in a scratch git repository that holds only the base
# files the series touches: the diffs (and blob ids) are the same as in a
# repository of the whole tree.
set -euo pipefail
. scripts/series-lib.sh

BASE=${BASE:-build/base}
out=$(realpath -m "${SERIES_OUT:-build/series}")
work=$(realpath -m "${SERIES_WORK:-build/series-git}")
top=$(pwd)

die() { echo "series: $*" >&2; exit 1; }

[ -f "$BASE/.extracted" ] || die "no base in $BASE (run make base)"

# 1. patches/mails must cover every added file and patch exactly once, with
# the patches in patches/series order.
items=$(mail_items)
if grep -q '^ERROR ' <<< "$items"; then
	die "patches/mails: item before the first '== NAME' line"
fi
claimed=$(echo "$items" | awk '$2 != "-" { print $2 }')
dups=$(echo "$claimed" | sort | uniq -d)
[ -z "$dups" ] || die "patches/mails lists these more than once: $dups"
for f in $(added_files); do
	grep -qxF "$f" <<< "$claimed" || die "added file $f is in no mail (patches/mails)"
done
for p in $(series_patches); do
	grep -qxF "$p" <<< "$claimed" || die "patch $p is in no mail (patches/mails)"
done
for i in $claimed; do
	case $i in
	*.patch) grep -qxF "$i" <<< "$(series_patches)" || die "patches/mails names $i, not in patches/series" ;;
	*@*)
		# An earlier version of an added file, in a mail before the
		# one that has the file as it is.
		f=${i%@*}
		[ -f "patches/stages/${i##*@}/$f.diff" ] ||
			die "patches/mails names $i, but patches/stages/${i##*@}/$f.diff does not exist"
		grep -qxF "$f" <<< "$(added_files)" || die "patches/mails names $i: $f is not an added file"
		[ "$(grep -nxF "$i" <<< "$claimed" | cut -d: -f1)" -lt \
		  "$(grep -nxF "$f" <<< "$claimed" | cut -d: -f1)" ] ||
			die "patches/mails names $i after $f itself"
		;;
	*) [ -f "$i" ] || die "patches/mails names $i, which does not exist" ;;
	esac
done
in_mails=$(echo "$claimed" | grep '\.patch$' || true)
[ "$in_mails" = "$(series_patches)" ] ||
	die "patches/mails and patches/series list the patches in different orders"
for m in $(echo "$items" | awk '{ print $1 }' | uniq); do
	[ -s "patches/msg/$m" ] || die "no commit message patches/msg/$m"
done

# 2. Scratch repository: the base files the patches touch.
rm -rf "$work" "$out" "$work.stages"
mkdir -p "$work" "$out"
scripts/stages.py extract "$work.stages" || die "patches/stages: a stage cannot be made"
git -C "$work" init -q
git -C "$work" config user.name "${GIT_AUTHOR_NAME:-$(git config user.name || echo 'pKVM tracing')}"
git -C "$work" config user.email "${GIT_AUTHOR_EMAIL:-$(git config user.email || echo 'pkvm-tracing@localhost')}"
for p in $(series_patches); do
	for f in $(patch_files "patches/$p"); do
		if [ -e "$BASE/$f" ] && [ ! -e "$work/$f" ]; then
			mkdir -p "$work/$(dirname "$f")"
			cp "$BASE/$f" "$work/$f"
		fi
	done
done
echo "Linux $BASE_VERSION (Debian linux-source-6.12)" > "$work/.base"
git -C "$work" add -A
git -C "$work" commit -q -m "base: Linux $BASE_VERSION"

# 3. One commit per mail.
n=0
for m in $(echo "$items" | awk '{ print $1 }' | uniq); do
	for i in $(echo "$items" | awk -v m="$m" '$1 == m && $2 != "-" { print $2 }'); do
		case $i in
		*.patch)
			patch -d "$work" -p1 -F0 -N -s --no-backup-if-mismatch -r - \
				-i "$top/patches/$i" || die "patch $i does not apply"
			;;
		*@*)
			f=${i%@*}
			mkdir -p "$work/$(dirname "$f")"
			cp "$work.stages/${i##*@}/$f" "$work/$f"
			;;
		*)
			mkdir -p "$work/$(dirname "$i")"
			cp "$i" "$work/$i"
			;;
		esac
	done
	git -C "$work" add -A
	git -C "$work" commit -q -s --allow-empty -F "$top/patches/msg/$m"
	n=$((n + 1))
done

if [ $n = 0 ]; then
	echo "series: patches/mails has no mails yet; nothing to write"
	exit 0
fi

# 4. Mails and cover letter.
git -C "$work" format-patch -q --cover-letter -o "$out" HEAD~$n
cover=$(ls "$out"/0000-cover-letter.patch)
subject=$(head -n 1 patches/msg/cover-letter)
tail -n +3 patches/msg/cover-letter > "$work/.blurb"
python3 - "$cover" "$subject" "$work/.blurb" <<'PY'
import sys
path, subject, blurb = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().rstrip("\n")
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject)
text = text.replace("*** BLURB HERE ***", blurb)
open(path, "w").write(text)
PY
echo "  SERIES  ${out#"$top"/}: cover letter + $n mails"
ls "$out" | sed 's/^/          /'
