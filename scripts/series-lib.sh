# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers shared by the scripts that read patches/mails and patches/series.

ADDED_DIRS="arch drivers include kernel tools Documentation"

# Files the repo adds to the kernel tree, sorted.
added_files() {
	local d

	# What git has or would add: not build output the tree's .gitignore
	# files name, such as tools built in their own directory. A copy
	# outside git (some tests make one) has nothing else in it.
	if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		# shellcheck disable=SC2086
		git ls-files --cached --others --exclude-standard -- $ADDED_DIRS
	else
		for d in $ADDED_DIRS; do
			if [ -d "$d" ]; then
				find "$d" -type f ! -name '*~' ! -name '.*.swp'
			fi
		done
	fi | while read -r f; do
		[ -f "$f" ] && echo "$f"
	done | LC_ALL=C sort -u
}

# Patch names of patches/series, in order.
series_patches() {
	[ -f patches/series ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' patches/series || true
}

# Files a patch touches (new side; deletions use the old side).
patch_files() {
	awk '
	/^--- / { old = $2; next }
	/^\+\+\+ / {
		f = $2
		if (f == "/dev/null") f = old
		sub(/^[ab]\//, "", f)
		print f
	}' "$1" | LC_ALL=C sort -u
}

# patches/mails as "MSG ITEM" lines (one per item, in order; a mail with no
# items yields "MSG -").
mail_items() {
	[ -f patches/mails ] || return 0
	awk '
	/^#/ || /^[[:space:]]*$/ { next }
	/^== / { if (msg != "" && !n) print msg, "-"; msg = $2; n = 0; next }
	{ if (msg == "") { print "ERROR", $1; next } print msg, $1; n++ }
	END { if (msg != "" && !n) print msg, "-" }' patches/mails
}

# The tested base version, from the Makefile (the one place that names it).
BASE_VERSION=${BASE_VERSION:-$(sed -n 's/^BASE_VERSION[[:space:]]*:=[[:space:]]*//p' Makefile)}
