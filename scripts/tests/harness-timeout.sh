#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A guest that hangs is a failure within its timeout, with a console log;
# so is one that panics.
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 'sleep 1000' > "$tmp/hang"
echo 'echo 1 > /proc/sys/kernel/sysrq; echo c > /proc/sysrq-trigger; sleep 30' > "$tmp/panic"
start=$(date +%s)
LOGNAME_RUN=check/hang TIMEOUT=20 scripts/run-qemu.sh "$tmp/hang" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
[ $rc = 124 ] || { echo "FAIL: hang returned $rc, want 124"; exit 1; }
[ $took -lt 60 ] || { echo "FAIL: took ${took}s for a 20 s timeout"; exit 1; }
[ -s build/logs/check/hang.console.log ] || { echo "FAIL: no console log"; exit 1; }

LOGNAME_RUN=check/panic TIMEOUT=60 scripts/run-qemu.sh "$tmp/panic" 2>&1
rc=$?
[ $rc = 125 ] || [ $rc = 124 ] || { echo "FAIL: panic returned $rc"; exit 1; }
grep -q 'Kernel panic' build/logs/check/panic.console.log ||
	{ echo "FAIL: no panic in the console log"; exit 1; }
echo "ok: hang -> 124 after ${took}s, panic -> $rc"
