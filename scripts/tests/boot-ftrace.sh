#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Function tracing in the hypervisor from boot: hyp_ftrace_filter= and
# hyp_ftrace_notrace= set the lists, trace_remote= (or hyp_event=) turns on
# func and func_ret before /init runs, and the calls from then on are in the
# buffer. A glob that matches nothing is reported and skipped. Run in both
# protected flavours: hVHE, and classic nVHE, where the hypervisor's text is
# mapped and patched differently.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cmd" <<'CMD'
set -e
start=$(cut -d' ' -f1 /proc/uptime)
cd /sys/kernel/tracing/remotes/hypervisor
[ "$(cat tracing_on)" = 1 ]
[ "$(cat events/hypervisor/func/enable)" = 1 ]
[ "$(cat events/hypervisor/func_ret/enable)" = 1 ]
[ "$(cat events/hypervisor/hyp_enter/enable)" = 0 ]
n=$(grep -c '^handle___tracing_' available_filter_functions)
[ $(wc -l < set_ftrace_filter) -eq $((n + 1)) ]
grep -qx handle_trap set_ftrace_filter
[ "$(cat set_ftrace_notrace)" = handle___tracing_swap_reader ]
[ $(wc -l < enabled_functions) -eq $n ]
fails() { ! "$@"; }
fails grep -qx handle___tracing_swap_reader enabled_functions
dmesg | grep 'hypervisor function tracing: hyp_ftrace_filter: no function matches no_such_function'
dmesg | grep 'trace_remote: hypervisor: tracing from the command line'
# Tracing started before /init ran, and the calls since are in the
# buffer, on the boot clock, from before this script: entries and returns.
# (That the hypervisor is entered between the start and /init is not
# certain: after a fast boot, nothing may trap to it in that window.)
[ "$(dmesg | grep -o 'hypervisor: tracing from the command line\|Run /init as init process' |
	tr '\n' ';')" = 'hypervisor: tracing from the command line;Run /init as init process;' ]
init=$(cat /run/init-uptime)
first=$(grep -m 1 ' func handle_trap ' trace | grep -o '^\[[0-9]*\][[:space:]]*[0-9.]*:' |
	sed 's/.*[[:space:]]//; s/:$//')
echo "first func event at $first, /init at $init, this script at $start"
awk -v f=$first -v s=$start 'BEGIN { exit !(f > 0 && f < s) }'
grep -q ' func_ret handle_trap depth=0 ' trace
# Refused while selftest is off, but its handler runs.
echo 1 > write_event 2>/dev/null || :
grep -q ' func_ret handle___tracing_[a-z_]* depth=1 ' trace
fails grep -q ' func handle___tracing_swap_reader ' trace
echo 0 > events/hypervisor/func/enable
echo 0 > events/hypervisor/func_ret/enable
[ -z "$(cat enabled_functions)" ]
echo boot-ftrace-ok
CMD
for flavour in hvhe nvhe; do
	append="hyp_ftrace_filter=handle_trap,no_such_function hyp_ftrace_filter=handle___tracing_*"
	append="$append hyp_ftrace_notrace=handle___tracing_swap_reader"
	append="$append trace_remote=hypervisor::func hyp_event=func_ret"
	[ $flavour = nvhe ] && append="$append arm64_sw.hvhe=0 id_aa64mmfr1.vh=0"
	set +e
	MODE=protected TIMEOUT=180 LOGNAME_RUN=boot-ftrace-$flavour APPEND="$append" \
		scripts/run-qemu.sh "$tmp/cmd" > "$tmp/out" 2>&1
	rc=$?
	set -e
	cat "$tmp/out"
	if [ $rc != 0 ] || ! grep -q '^boot-ftrace-ok' "$tmp/out"; then
		echo "FAIL: protected $flavour"
		exit 1
	fi
	want="Protected hVHE mode"
	[ $flavour = nvhe ] && want="Protected nVHE mode"
	grep -q "$want initialized" build/logs/boot-ftrace-$flavour.console.log ||
		{ echo "FAIL: not booted in $want"; exit 1; }
	echo "ok: protected $flavour"
done
