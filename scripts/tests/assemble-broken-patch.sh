#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A patch that does not apply stops the assembly and names the patch.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(pwd)
cp -a scripts patches "$tmp/"
for d in arch drivers include kernel tools Documentation; do
	[ -d "$d" ] && cp -a "$d" "$tmp/"
done
cat > "$tmp/patches/9999-broken.patch" <<'P'
Subject: [PATCH] broken: context that is not in the base

--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 # SPDX-License-Identifier: GPL-2.0
-VERSION = 5
+VERSION = 7
 PATCHLEVEL = 12
P
echo 9999-broken.patch >> "$tmp/patches/series"
cd "$tmp"
set +e
BASE=$top/build/base SRC=$tmp/nosrc STAGE=$tmp/stage ASSEMBLE_DRY=1 \
	BASE_VERSION=test scripts/assemble.sh > out 2>&1
rc=$?
set -e
cat out
[ -e nosrc/.copied ] && rm -rf nosrc
[ $rc != 0 ] || { echo "FAIL: assembly succeeded with a broken patch"; exit 1; }
grep -q '9999-broken.patch does not apply' out || { echo "FAIL: patch not named"; exit 1; }
echo "ok"
