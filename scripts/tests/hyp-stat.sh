#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hyp-stat, built for the host from the assembled tree, reports known events
# exactly: the remote's own text and trace-cmd's, LOST marks, bad lines;
# its timeline is JSON and UTF-8 whatever the input; time going backwards
# gives no absurd figure.
set -euo pipefail
SRC=${SRC:-build/linux}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# With ASan and UBSan: any report fails the test.
gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Wall -Wextra -Werror \
	-o "$tmp/hyp-stat" "$SRC"/tools/tracing/hyp-stat/*.c \
	$(pkg-config --cflags --libs libtracecmd libtracefs libtraceevent)
# libtracefs keeps what its constructor allocates until exit.
echo 'leak:libtracefs.so' > "$tmp/lsan.supp"
export LSAN_OPTIONS=suppressions=$tmp/lsan.supp

# Two exits of vCPU 0 (pid 55): an HVC of 13 us (host hypercall 33 of 3 us
# on the way back in) and a WFI cut by a LOST mark on CPU 1, counted but not
# timed; one SMC of 3 us in trace-cmd's raw-nanosecond form.
printf '%b' \
'[000]\t    0.100000: hyp_enter reason=guest_exit vcpu=0 pid=55\n' \
'[000]\t    0.100001: vcpu_exit vcpu=0 pid=55 code=trap ec=hvc64 esr=0x5a000000\n' \
'[000]\t    0.100002: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' \
'[001]\t    0.100010: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[001]\t    0.100011: host_hcall id=33 invalid=0\n' \
'[001]\t    0.100013: hyp_exit reason=eret_guest vcpu=0 pid=55\n' \
'[001]\t    0.200000: hyp_enter reason=guest_exit vcpu=0 pid=55\n' \
'[001]\t    0.200001: vcpu_exit vcpu=0 pid=55 code=trap ec=wfx esr=0x4a000000\n' \
'CPU:1 [LOST 3 EVENTS]\n' \
'[001]\t    0.200040: hyp_exit reason=eret_guest vcpu=0 pid=55\n' \
'[0x1] garbage\n' \
'       <...>--1    [001]  5906025784: hyp_enter:            reason=smc vcpu=-1 pid=-1\n' \
'   <...>--1    [001]  5906026784: host_smc:            id=0x84000000 forwarded=1\n' \
'   <...>--1    [001]  5906028784: hyp_exit:            reason=eret_host vcpu=-1 pid=-1\n' \
> "$tmp/events"
"$tmp/hyp-stat" report "$tmp/events" | tee "$tmp/report"
row() { # first words of the row
	grep -E "^ *$1 " "$tmp/report" | tr -s ' ' | sed 's/^ //'
}
[ "$(row '55 +0 +hvc64')" = "55 0 hvc64 1 13.000 13.000 13.000 13.000 13.000" ]
[ "$(row '55 +0 +wfx')" = "55 0 wfx 1 - - - - -" ]
[ "$(row 'hvc 33')" = "hvc 33 1 3.000 3.000 3.000 3.000 3.000" ]
[ "$(row 'smc 0x84000000')" = "smc 0x84000000 1 3.000 3.000 3.000 3.000 3.000" ]
[ "$(row 0 | cut -d' ' -f1-3)" = "0 1 2.000" ]
grep -q '^1 LOST marks' "$tmp/report"
grep -q '^1 lines not understood' "$tmp/report"
# Standard input, and the same figures.
"$tmp/hyp-stat" report < "$tmp/events" | cmp - "$tmp/report"
# Per VM: the VMs "record" noted (two vCPU threads of VM 60) and a
# thread of a VM not noted, its own; the timeline's tracks go by VM.
printf '%b' \
'# hyp-stat: vCPU thread 61 of VM 60 (vmm"a)\n' \
'# hyp-stat: vCPU thread 62 of VM 60 (vmm"a)\n' \
'[000]\t    0.100000: hyp_enter reason=guest_exit vcpu=0 pid=61\n' \
'[000]\t    0.100001: vcpu_exit vcpu=0 pid=61 code=trap ec=hvc64 esr=0x5a000000\n' \
'[000]\t    0.100002: guest_marker vcpu=0 pid=61 text=hello\n' \
'[000]\t    0.100003: hyp_exit reason=eret_guest vcpu=0 pid=61\n' \
'[001]\t    0.100010: hyp_enter reason=guest_exit vcpu=1 pid=62\n' \
'[001]\t    0.100011: vcpu_exit vcpu=1 pid=62 code=trap ec=sys64 esr=0x62000000\n' \
'[001]\t    0.100015: hyp_exit reason=eret_guest vcpu=1 pid=62\n' \
'[001]\t    0.100020: hyp_enter reason=guest_exit vcpu=0 pid=70\n' \
'[001]\t    0.100021: vcpu_exit vcpu=0 pid=70 code=trap ec=wfx esr=0x4a000000\n' \
'[001]\t    0.100025: hyp_exit reason=eret_guest vcpu=0 pid=70\n' \
'# hyp-stat: vCPU thread 80 of VM 1 (init)\n' \
'# hyp-stat: vCPU thread 81 of VM 90 ()\n' \
'[002]\t    0.100030: guest_marker vcpu=0 pid=80 text=CPU:1 [LOST 5 EVENTS]\n' \
'[002]\t    0.100031: guest_marker vcpu=1 pid=81 text=x\n' > "$tmp/vms"
"$tmp/hyp-stat" report --timeline "$tmp/vms.json" "$tmp/vms" | tee "$tmp/vms.report"
vm_row() { # vm
	awk -v vm="$1" '/^Per VM/ { on = 1; next } on && !NF { on = 0 } on && $1 == vm' \
		"$tmp/vms.report" | tr -s ' ' | sed 's/^ //'
}
[ "$(vm_row 60)" = '60 vmm"a 2 2 8.000 1' ]
[ "$(vm_row 70)" = '70 ? 1 1 5.000 0' ]
# A VMM of pid 1 is not one (pid 1 is the hypervisor's in the timeline); a
# note without a name does not count; a marker that reads as a LOST mark
# is a marker.
[ "$(vm_row 80)" = '80 ? 1 0 0.000 1' ]
[ "$(vm_row 81)" = '81 ? 1 0 0.000 1' ]
if grep -q 'LOST' "$tmp/vms.report"; then exit 1; fi
python3 - "$tmp/vms.json" <<'EOF2'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
assert procs[60] == 'VM 60 (vmm"a)' and procs[70] == "VM of vCPU thread 70", procs
tracks = {(e["pid"], e["tid"]) for e in ev if e["ph"] in "Xi" and e["pid"] != 1}
assert tracks == {(60, 1000000), (60, 1000001), (70, 1000000), (80, 1000000),
                  (81, 1000001)}, tracks
EOF2
# Nearest-rank p99 of 1..200 us: 198.
for i in $(seq 1 200); do
	printf '[002]\t %d.000000: hyp_enter reason=hvc vcpu=-1 pid=-1\n' $((i * 2))
	printf '[002]\t %d.%06d: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' $((i * 2)) $i
done | "$tmp/hyp-stat" report > "$tmp/p99"
grep -E '^hvc ' "$tmp/p99" | tr -s ' ' | grep -qx 'hvc 200 20100.000 100.500 1.000 200.000 198.000'
# trace-cmd's drop mark ends what was open; a stamp before its entry (a
# merge out of order) is not timed; headers are skipped.
printf '%b' 'cpus=2\n' \
'   <...>--1    [003]  1000: hyp_enter:  reason=hvc vcpu=-1 pid=-1\n' \
'CPU:3 [7 EVENTS DROPPED]\n' \
'   <...>--1    [003]  1500: hyp_exit:  reason=eret_host vcpu=-1 pid=-1\n' \
'   <...>--1    [003]  2000: hyp_enter:  reason=smc vcpu=-1 pid=-1\n' \
'   <...>--1    [003]  1900: hyp_exit:  reason=eret_host vcpu=-1 pid=-1\n' |
	"$tmp/hyp-stat" report > "$tmp/drops"
cat "$tmp/drops"
grep -q '^1 LOST marks' "$tmp/drops"
if grep -qE '^(hvc|smc) ' "$tmp/drops"; then exit 1; fi
if grep -q 'not understood' "$tmp/drops"; then exit 1; fi
# The timeline: valid JSON; on every track, slices follow one another
# without overlap; one slice per stay in the hypervisor and per timed exit,
# with the report's durations; guest-run slices between re-entry and exit.
"$tmp/hyp-stat" report --timeline "$tmp/t.json" "$tmp/events" | cmp - "$tmp/report"
python3 - "$tmp/t.json" <<'EOF2'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "thread_name"}
assert names[(1, 0)] == "pkVM Hypervisor CPU 0", names
assert names[(1, 1)] == "pkVM Hypervisor CPU 1", names
assert names[(55, 1000000)] == "vCPU 0", names
sl = [e for e in ev if e["ph"] == "X"]
tracks = {}
for e in sl:
    tracks.setdefault((e["pid"], e["tid"]), []).append(e)
for k, v in tracks.items():
    v.sort(key=lambda e: e["ts"])
    for a, b in zip(v, v[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 1e-9, (k, a, b)
got = sorted((e["pid"], e["tid"], e["name"], round(e["ts"], 3), round(e["dur"], 3)) for e in sl)
want = sorted([
    (1, 0, "guest_exit hvc64", 100000.0, 2.0),	# CPU 0: 100000 - 100002
    (1, 1, "hvc 33", 100010.0, 3.0),		# the report's hvc 33 row
    (1, 1, "smc 0x84000000", 5906025.784, 3.0),
    (55, 1000000, "hvc64", 100000.0, 13.0),	# the report's hvc64 row
    (55, 1000000, "guest", 100013.0, 99987.0),	# re-entry to the next exit
])
assert got == want, got
hvc = [e for e in sl if e["name"] == "hvc 33"][0]
assert hvc["args"] == {"hyp_enter": "reason=hvc vcpu=-1 pid=-1",
                       "host_hcall": "id=33 invalid=0",
                       "hyp_exit": "reason=eret_guest vcpu=0 pid=55"}, hvc
EOF2
# A field with quotes and backslashes stays valid JSON.
printf '%b' '[000]\t 1.000000: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[000]\t 1.000001: host_hcall id="a\\\\b" invalid=0\n' \
'[000]\t 1.000002: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' |
	"$tmp/hyp-stat" report --timeline "$tmp/q.json" > /dev/null
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/q.json"
grep -q 'id=\\"a' "$tmp/q.json"
if "$tmp/hyp-stat" report --timeline /nonexistent/t.json "$tmp/events" 2> /dev/null; then
	exit 1
fi
# Function tracing: one row per function from its func_ret events, in the
# remote's text and trace-cmd's (kallsyms names), most time first; func
# events and a malformed return are not counted.
printf '%b' '[000]\t 1.000000: func handle_trap <- __host_enter_restore_full\n' \
'[000]\t 1.000001: func_ret handle___kvm_vcpu_run depth=1 (250.000 us)\n' \
'[000]\t 1.000002: func_ret handle_trap depth=0 (259.500 us)\n' \
'[000]\t 1.000003: func_ret handle_trap depth=0 (1.500 us)\n' \
'  <idle>-0  [001]  2.000000: func_ret:  __kvm_nvhe_handle___kvm_vcpu_run depth=1 (50.000 us)\n' \
'  <idle>-0  [001]  2.000001: func_ret:  __kvm_nvhe_pkvm_load_hyp_vcpu depth=2 (0.001 us)\n' \
'[000]\t 1.000004: func_ret handle_trap depth=0 (-3.000 us)\n' \
'[000]\t 1.000005: func_ret handle_trap depth=0\n' |
	"$tmp/hyp-stat" report > "$tmp/funcs"
cat "$tmp/funcs"
grep -A4 '^Hypervisor functions' "$tmp/funcs" | tail -n 3 | tr -s ' ' > "$tmp/frows"
printf '%s\n' 'handle___kvm_vcpu_run 2 300.000 150.000 50.000 250.000 250.000' \
	'handle_trap 2 261.000 130.500 1.500 259.500 259.500' \
	'pkvm_load_hyp_vcpu 1 0.001 0.001 0.001 0.001 0.001' | cmp - "$tmp/frows"
grep -q '^2 lines not understood' "$tmp/funcs"
# Any bytes in names and fields: the timeline is still JSON, and UTF-8
# (what is not UTF-8 becomes U+FFFD, what is stays).
printf '%b' '[000]\t 1.000000: hyp_enter reason=hv\xffc"\\\\ vcpu=-1 pid=-1\n' \
'[000]\t 1.000001: we"ird\\\\ev\x01\xfe id=\xff\xc3"\x02 name=\xc3\xa9t\xc3\xa9\n' \
'[000]\t 1.000002: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' \
'[001]\t 1.000000: hyp_enter reason=guest_exit vcpu=0 pid=7\n' \
'[001]\t 1.000001: vcpu_exit vcpu=0 pid=7 code=\xe2\x82 ec=x\n' \
'[001]\t 1.000002: hyp_exit reason=eret_guest vcpu=0 pid=7\n' |
	"$tmp/hyp-stat" report --timeline "$tmp/u.json" > /dev/null
python3 - "$tmp/u.json" <<'EOF2'
import json, sys
t = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
sl = [e for e in t["traceEvents"] if e["ph"] == "X"]
names = sorted(e["name"] for e in sl)
assert names == ["guest_exit \ufffd\ufffd", 'hv\ufffdc"\\\\', "\ufffd\ufffd"], names
args = [e for e in sl if e["pid"] == 1 and e["tid"] == 0][0]["args"]
assert args['we"ird\\\\ev\x01\ufffd'] == 'id=\ufffd\ufffd"\x02 name=\u00e9t\u00e9', args
EOF2
# Time going backwards (a clock stepped back, CPUs merged out of order): a
# stay that starts before the last one on its CPU ended, or ends before it
# started, is not timed but counted; no wrapped figure, no share over 100 %,
# no overlap on any track of the timeline.
printf '%b' '[002]\t 5.000000: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[002]\t 5.000010: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' \
'[002]\t 4.000000: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[002]\t 4.000005: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' \
'[002]\t 3.000000: hyp_enter reason=smc vcpu=-1 pid=-1\n' \
'[002]\t 6.000000: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' \
'[002]\t 6.000100: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[002]\t 6.000120: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' \
'[003]\t 9.000000: hyp_enter reason=guest_exit vcpu=1 pid=8\n' \
'[003]\t 9.000004: hyp_exit reason=eret_guest vcpu=1 pid=8\n' \
'[001]\t 8.000000: hyp_enter reason=guest_exit vcpu=1 pid=8\n' \
'[001]\t 8.000002: hyp_exit reason=eret_guest vcpu=1 pid=8\n' \
'[003]\t 9.000010: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[003]\t 2.000000: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' |
	"$tmp/hyp-stat" report --timeline "$tmp/b.json" > "$tmp/back"
cat "$tmp/back"
back() { # first words of the row
	grep -E "^ *$1 " "$tmp/back" | tr -s ' ' | sed 's/^ //'
}
[ "$(back hvc | cut -d' ' -f1-4)" = "hvc 2 30.000 15.000" ]
[ "$(back 2 | cut -d' ' -f1-3)" = "2 4 30.000" ]
[ "$(back 3 | cut -d' ' -f1-3)" = "3 2 4.000" ]
grep -q '^4 intervals not timed: time went backwards' "$tmp/back"
if awk '/per CPU/ { on = 1; next } on && $5 ~ /%$/ && $5 + 0 > 100' "$tmp/back" | grep -q .; then
	exit 1
fi
if grep -qE '[0-9]{9}\.' "$tmp/back"; then exit 1; fi
python3 - "$tmp/b.json" <<'EOF2'
import json, sys
sl = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
tracks = {}
for e in sl:
    assert e["dur"] >= 0, e
    tracks.setdefault((e["pid"], e["tid"]), []).append(e)
for k, v in tracks.items():
    v.sort(key=lambda e: e["ts"])
    for a, b in zip(v, v[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 1e-9, (k, a, b)
EOF2
# Guest markers: counted, and on the track of their vCPU in the timeline,
# with their text (quotes and backslashes included) whole.
printf '%b' '[000]\t    0.100000: hyp_enter reason=guest_exit vcpu=1 pid=55\n' \
'[000]\t    0.100001: vcpu_exit vcpu=1 pid=55 code=trap ec=hvc64 esr=0x5a000000\n' \
'[000]\t    0.100002: guest_marker vcpu=1 pid=55 text=initcall "device" \\ text=x\n' \
'[000]\t    0.100003: hyp_exit reason=eret_guest vcpu=1 pid=55\n' |
	"$tmp/hyp-stat" report --timeline "$tmp/m.json" > "$tmp/marker"
grep -q '^1 guest markers' "$tmp/marker"
python3 - "$tmp/m.json" <<'EOF2'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
i = [e for e in ev if e["ph"] == "i"]
assert len(i) == 1, i
assert (i[0]["pid"], i[0]["tid"], i[0]["ts"]) == (55, 1000001, 100002.0), i
assert i[0]["name"] == 'initcall "device" \\ text=x', i
EOF2
# Time stamps near 2^64 ns (584 years): those past it are refused, with a
# clear message, rather than wrapped into the "traced" column (a negative
# one is not understood); one below it
# stepped over twice saturates that column, rather than wrapping it below
# the time in the hypervisor (a share over 100 %).
printf '%b' '[000]\t1: host_hcall id=1 invalid=0\n' \
'[000]\t73709551615.: host_hcall id=2 invalid=0\n' \
'[000]\t-1.5: host_hcall id=3 invalid=0\n' \
'[000]\t18446744073709551616: host_hcall id=4 invalid=0\n' \
'[000]\t2: host_hcall id=5 invalid=0\n' \
'[001]\t0: host_hcall id=1 invalid=0\n' \
'[001]\t18446744073.709551615: host_hcall id=1 invalid=0\n' \
'[001]\t1: hyp_enter reason=hvc vcpu=-1 pid=-1\n' \
'[001]\t4661: hyp_exit reason=eret_host vcpu=-1 pid=-1\n' |
	"$tmp/hyp-stat" report > "$tmp/wrap"
cat "$tmp/wrap"
[ "$(grep -E '^ +0 ' "$tmp/wrap" | tr -s ' ')" = " 0 0 0.000 0.001 0.00%" ]
grep -q '^2 lines with a time stamp past 2^64 ns: not used' "$tmp/wrap"
grep -q '^1 lines not understood' "$tmp/wrap"
if awk '/per CPU/ { on = 1; next } on && $5 ~ /%$/ && $5 + 0 > 100' "$tmp/wrap" | grep -q .; then
	exit 1
fi
# record, in binary: a tracefs stand-in (plain files) holding a real
# recording of the remote (scripts/tests/hyp-stat-corpus/remote: the pages
# of its per_cpu/cpuN/trace_pipe_raw, its event formats and its trace, of
# "hyp_workload -v 2 -r 2 -c 3 -s 1 -w 1" on CPU 1 in protected mode, with
# func_ret on handle___kvm_vcpu_run; kallsyms: the hypervisor's symbols of
# that kernel). The events -o saves give the same report; the remote's own
# text the same counts; every table has rows.
remote=$tmp/fs/remotes/hypervisor
mkdir -p "$tmp/fs/remotes"
cp -r scripts/tests/hyp-stat-corpus/remote "$remote"
touch "$remote/"{tracing_on,trace,buffer_size_kb,events/enable,events/hypervisor/enable}
for e in "$remote"/events/hypervisor/*/; do
	touch "$e/enable"
done
"$tmp/hyp-stat" record -t "$tmp/fs" -k "$remote/kallsyms" -o "$tmp/saved" -- true > "$tmp/rec"
cat "$tmp/rec"
"$tmp/hyp-stat" report "$tmp/saved" | cmp - "$tmp/rec"
counts() { # the rows to their counts (the text has times to the us), not
	# per VM: "record" finds the VMs of the vCPU threads among this host's
	# processes, if it has those pids.
	awk '/^[A-Z]/ { t = $1; h = 1; next } h { h = 0; next } t == "Per" { next }
		NF > 4 { $(NF - 4) = $(NF - 3) = $(NF - 2) = $(NF - 1) = $NF = ""; print t, $0 }' "$1"
}
"$tmp/hyp-stat" report "$remote/trace.txt" > "$tmp/text"
[ "$(counts "$tmp/rec")" = "$(counts "$tmp/text")" ]
grep -qE '^ +59 +0 +hvc64 +6 ' "$tmp/rec"
grep -qE '^ +60 +1 +hvc64 +6 ' "$tmp/rec"
grep -qE '^ +59 +0 +wfx +2 ' "$tmp/rec"
grep -qE '^hvc 12 +25 ' "$tmp/rec"
grep -qE '^handle___kvm_vcpu_run +25 ' "$tmp/rec"
# Every table has a row: after each header line, a line of numbers.
for t in 'Guest exits' 'Host traps' 'Hypervisor functions' 'Time in the hypervisor'; do
	awk -v t="$t" 'index($0, t) == 1 { on = 1; next } on == 1 { on = 2; next }
		on == 2 { ok = NF >= 5; on = 3 } END { exit !ok }' "$tmp/rec"
done
# Every event is read once, in order, with the fields the remote's own
# text shows (to the us; functions with the kallsyms prefix), after the
# notes of the VMs of the vCPU threads (this host's processes, if any).
grep -v '^# hyp-stat: vCPU thread [0-9]* of VM ' "$tmp/saved" |
	sed 's/^\(\[...\]\)\t *\([0-9]*\.[0-9]\{6\}\)[0-9]*: /\1 \2 /; s/ __kvm_nvhe_/ /' \
	> "$tmp/saved.us"
sed 's/^\(\[...\]\)\t *\([0-9.]*\): /\1 \2 /' "$remote/trace.txt" | cmp - "$tmp/saved.us"
[ "$(wc -l < "$tmp/saved.us")" -eq 838 ]
# The same pages under the host_hcall format of a kernel that names the
# hypercalls (from this kernel's remote): hypercalls by name, in the report
# and in the saved events.
cp scripts/tests/hyp-stat-corpus/host_hcall.format "$remote/events/hypervisor/host_hcall/format"
"$tmp/hyp-stat" record -t "$tmp/fs" -k "$remote/kallsyms" -o "$tmp/named" -- true > "$tmp/rec"
"$tmp/hyp-stat" report "$tmp/named" | cmp - "$tmp/rec"
grep -qE '^hvc __kvm_vcpu_run +25 ' "$tmp/rec"
grep -qE '^hvc __kvm_timer_set_cntvoff +' "$tmp/rec"
if grep -qE '^hvc [0-9]' "$tmp/rec"; then exit 1; fi
[ "$(grep -c ' host_hcall id=12 invalid=0 name=__kvm_vcpu_run$' "$tmp/named")" -eq 25 ]
# The remote's CPUs are those of its per_cpu/, not this system's: CPU 1's
# pages as CPU 300's give the same events, on CPU 300.
mv "$remote/per_cpu/cpu1" "$remote/per_cpu/cpu300"
"$tmp/hyp-stat" record -t "$tmp/fs" -k "$remote/kallsyms" -o "$tmp/cpu300" -- true > /dev/null
[ "$(grep -c '^\[300\]' "$tmp/cpu300")" -eq "$(grep -c '^\[001\]' "$remote/trace.txt")" ]
[ "$(grep -vc "^# hyp-stat: vCPU thread" "$tmp/cpu300")" -eq 838 ]
# A remote with no trace_pipe_raw: a clear error, the command not run.
rm -r "$remote/per_cpu"
if "$tmp/hyp-stat" record -t "$tmp/fs" -- touch "$tmp/ran" 2> "$tmp/err"; then exit 1; fi
grep -q 'cannot read .*/per_cpu/cpu\*/trace_pipe_raw' "$tmp/err"
[ ! -e "$tmp/ran" ]
# Usage errors.
if "$tmp/hyp-stat" bogus 2> /dev/null; then exit 1; fi
if "$tmp/hyp-stat" report /nonexistent 2> /dev/null; then exit 1; fi
# Built in its own directory, as its header says, it leaves nothing that
# git or the series would take for a source. In a clone, with what the
# working tree changed or added: a build of the developer's own stays.
git clone -q . "$tmp/clone"
git ls-files -m -o --exclude-standard | while read -r f; do
	if [ -f "$f" ]; then
		mkdir -p "$tmp/clone/$(dirname "$f")"
		cp "$f" "$tmp/clone/$f"
	fi
done
cd "$tmp/clone"
make -s -C tools/tracing/hyp-stat > /dev/null
[ -x tools/tracing/hyp-stat/hyp-stat ]
if git status --porcelain -- tools/tracing/hyp-stat | grep '^??'; then exit 1; fi
. scripts/series-lib.sh
if added_files | grep -E '^tools/tracing/hyp-stat/(hyp-stat|.*\.o)$'; then exit 1; fi
echo ok
