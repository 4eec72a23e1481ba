#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The repository holds only the layout of DEVELOPERS.md: the driver files,
# the files the series adds (at their kernel paths), patches/, scripts/
# and CI. A file left behind by a command (generated mails, a scratch
# copy) fails this test; so does an added kernel file no mail carries.
set -uo pipefail
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || exit 4

allowed='^(Makefile|README|MAINTAINERS|\.gitignore|\.ci/|arch/|drivers/|include/|kernel/|tools/|Documentation/|patches/|scripts/)'
stray=$(git ls-files | grep -vE "$allowed")
rc=0
if [ -n "$stray" ]; then
	echo "tracked files outside the layout:"
	echo "$stray" | sed 's/^/  /'
	rc=1
fi

# Every file the series adds is in exactly one mail of patches/mails.
unlisted=$(git ls-files arch drivers include kernel tools Documentation |
	while read -r f; do
		n=$(grep -cxF "$f" patches/mails)
		[ "$n" -eq 1 ] || echo "$f (in $n mails)"
	done)
if [ -n "$unlisted" ]; then
	echo "added files not in exactly one mail of patches/mails:"
	echo "$unlisted" | sed 's/^/  /'
	rc=1
fi
[ $rc -eq 0 ] && echo "$(git ls-files | wc -l) tracked files, all in the layout"
exit $rc
