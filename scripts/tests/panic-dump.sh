#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The dump of remotes on panic (trace_remote.dump_on_panic=N): a guest makes
# the hypervisor panic right after writing known events (a test id of
# CONFIG_NVHE_EL2_TRACING_TEST); the console shows, after the panic message,
# the last N unread events of each CPU of each remote, in order, and how many
# older ones it left out. Consumed events are not shown again.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
panic_id=$(printf '%d' 0x686e6963)	# HYP_TRACE_PANIC_ID
cat > "$tmp/cmd" <<CMD
set -e
write() { # remote cpu first last
	taskset -c \$2 sh -c "i=\$3; while [ \\\$i -le \$4 ]; do echo \\\$i > /sys/kernel/tracing/remotes/\$1/write_event; i=\\\$((i + 1)); done"
}
modprobe remote_test
for r in hypervisor test; do
	echo 0 > /sys/kernel/tracing/remotes/\$r/events/enable
	echo 1 > /sys/kernel/tracing/remotes/\$r/events/\$r/selftest/enable
	echo 1 > /sys/kernel/tracing/remotes/\$r/tracing_on
done
write hypervisor 0 1 10
timeout 2 cat /sys/kernel/tracing/remotes/hypervisor/trace_pipe > /dev/null || true
write hypervisor 0 11 30
write test 1 1 3
echo panicking
taskset -c 0 sh -c 'echo $panic_id > /sys/kernel/tracing/remotes/hypervisor/write_event'
echo survived
CMD
set +e
MODE=protected SMP=2 TIMEOUT=180 LOGNAME_RUN=panic-dump \
	APPEND="trace_remote.dump_on_panic=5" \
	scripts/run-qemu.sh "$tmp/cmd" > "$tmp/out" 2>&1
set -e
log=build/logs/panic-dump.console.log
cat "$tmp/out"
grep -q '^panicking' "$tmp/out"
if grep -q '^survived' "$tmp/out"; then exit 1; fi
# What follows the panic message, without the "trace_remote: " prefix.
sed -n '/Kernel panic - not syncing: HYP panic/,$p' "$log" | sed 's/^trace_remote: //' |
	tr -d '\r' > "$tmp/after"
grep -A 12 '^Dumping remote' "$tmp/after"
grep -E 'Dumping remote|older events|selftest id=|End of remote' "$tmp/after" |
	sed 's/^\[\([0-9]*\)\][[:space:]]*[0-9]*\.[0-9]*: /[\1] /' > "$tmp/dump"
cat > "$tmp/want.hypervisor" <<WANT
Dumping remote hypervisor, up to 5 unread events per CPU:
CPU:0 [16 older events not shown]
[000] selftest id=27
[000] selftest id=28
[000] selftest id=29
[000] selftest id=30
[000] selftest id=$panic_id
End of remote hypervisor
WANT
cat > "$tmp/want.test" <<WANT
Dumping remote test, up to 5 unread events per CPU:
[001] selftest id=1
[001] selftest id=2
[001] selftest id=3
End of remote test
WANT
for r in hypervisor test; do
	sed -n "/^Dumping remote $r,/,/^End of remote $r\$/p" "$tmp/dump" > "$tmp/got.$r"
	diff -u "$tmp/want.$r" "$tmp/got.$r"
done
# Time stamps: positive, in order.
sed -n '/^Dumping remote hypervisor,/,/^End of remote hypervisor$/p' "$tmp/after" |
	sed -n 's/^\[000\][[:space:]]*\([0-9.]*\): .*/\1/p' |
	awk 'NR == 1 && $1 <= 0 { exit 1 } $1 < prev { exit 1 } { prev = $1 }'
echo panic-dump-ok
