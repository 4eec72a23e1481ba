#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tracing from boot: trace_remote= and hyp_event= on the kernel command line
# start the hypervisor remote before /init, with the buffer size and events
# asked for, and the test remote when its module loads. Malformed settings
# are refused with a warning and change nothing.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cmd" <<'CMD'
set -e
cd /sys/kernel/tracing/remotes/hypervisor
[ "$(cat tracing_on)" = 1 ]
grep -q '^2048 (loaded)$' buffer_size_kb
for e in host_mem_abort hyp_enter hyp_exit; do
	[ "$(cat events/hypervisor/$e/enable)" = 1 ]
done
for e in host_hcall host_smc vcpu_exit selftest; do
	[ "$(cat events/hypervisor/$e/enable)" = 0 ]
done
dmesg | grep 'trace_remote: hypervisor: tracing from the command line'
dmesg | grep 'trace_remote: ignoring trace_remote=/bad'
dmesg | grep 'trace_remote: ignoring trace_remote=test:12Q$'
dmesg | grep 'trace_remote: ignoring trace_remote=test:0:selftest$'
dmesg | grep 'trace_remote: ignoring trace_remote=a23456789012345678901234567890123$'
dmesg | grep 'trace_remote: hypervisor: cannot enable no_such_event'
# The first events predate /init, on the boot clock.
init=$(cat /run/init-uptime)
first=$(grep -m 1 -o '^\[[0-9]*\][[:space:]]*[0-9.]*:' trace | sed 's/.*[[:space:]]//; s/:$//')
echo "first event at $first, /init at $init"
awk -v f=$first -v i=$init 'BEGIN { exit !(f > 0 && f < i) }'
grep -m 3 'host_mem_abort\|hyp_enter' trace
echo 0 > tracing_on
now=$(cut -d' ' -f1 /proc/uptime)
last=$(grep -o '^\[[0-9]*\][[:space:]]*[0-9.]*:' trace | sed 's/.*[[:space:]]//; s/:$//' | sort -n | tail -n 1)
echo "last event at $last, stopped at $now"
# /proc/uptime is cut to 10 ms.
awk -v l=$last -v n=$now 'BEGIN { exit !(l <= n + 0.01) }'
# The test remote starts when its module registers it: every event on.
modprobe remote_test
cd ../test
[ "$(cat tracing_on)" = 1 ]
grep -q '^64 (loaded)$' buffer_size_kb
[ "$(cat events/test/selftest/enable)" = 1 ]
echo 7 > write_event
grep -q 'selftest id=7$' trace
echo boot-trace-ok
CMD
set +e
MODE=protected TIMEOUT=180 LOGNAME_RUN=boot-trace \
	APPEND="trace_remote=hypervisor:2M hyp_event=host_mem_abort,hyp_enter,hyp_exit,no_such_event trace_remote=/bad trace_remote=test:64K trace_remote=test:12Q trace_remote=test:0:selftest trace_remote=a23456789012345678901234567890123" \
	scripts/run-qemu.sh "$tmp/cmd" > "$tmp/out" 2>&1
rc=$?
set -e
cat "$tmp/out"
[ $rc = 0 ] && grep -q '^boot-trace-ok' "$tmp/out"
