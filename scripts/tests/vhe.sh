#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Under VHE the kernel is the hypervisor: KVM comes up in VHE mode, there is
# no remotes/hypervisor, and other remotes still work.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cmd" <<'CMD'
set -e
dmesg | grep 'VHE mode initialized successfully'
if dmesg | grep -q -e 'nVHE mode' -e 'Protected'; then exit 1; fi
if [ -e /sys/kernel/tracing/remotes/hypervisor ]; then exit 1; fi
modprobe remote_test
[ -e /sys/kernel/tracing/remotes/test/write_event ]
echo vhe-ok
CMD
set +e
MODE=vhe TIMEOUT=120 LOGNAME_RUN=vhe scripts/run-qemu.sh "$tmp/cmd" > "$tmp/out" 2>&1
rc=$?
set -e
cat "$tmp/out"
[ $rc = 0 ] && grep -q '^vhe-ok' "$tmp/out"
