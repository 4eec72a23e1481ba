#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hyp-stat's cost per million events (host build, -O2): time and peak
# memory over generated guest exits of 10, 1000 and 100000 vCPU threads,
# each exit four events (hyp_enter, vcpu_exit, hyp_exit of the host,
# hyp_exit back to the guest) on one of 4 CPUs; "text" is "hyp-stat
# report" of the remote's trace text, "binary" "hyp-stat record" of the
# same events as ring buffer pages, in per_cpu/cpuN/trace_pipe_raw of a
# tracefs stand-in with the formats of the test corpus. Times are CPU
# time (user + system): record's wall clock also holds its polls for the
# last events. Numbers, not a test: the time per million should not grow with vCPUs.
set -eu
SRC=${SRC:-build/linux}
EVENTS=${EVENTS:-1000000}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/hyp-stat" "$SRC"/tools/tracing/hyp-stat/*.c \
	$(pkg-config --cflags --libs libtracecmd libtracefs libtraceevent)
corpus=scripts/tests/hyp-stat-corpus/remote
remote=$tmp/fs/remotes/hypervisor
mkdir -p "$remote/per_cpu"
cp -r "$corpus/events" "$remote/"
for f in tracing_on trace buffer_size_kb events/enable events/hypervisor/enable; do
	touch "$remote/$f"
done
for e in "$remote"/events/hypervisor/*/; do
	touch "$e/enable"
done
printf '%-6s %8s %10s %10s %12s\n' input vcpus events "s/M ev" "peak MiB"
for vcpus in 10 1000 100000; do
	awk -v n=$((EVENTS / 4)) -v v=$vcpus 'BEGIN {
		t = 1000000
		for (i = 0; i < n; i++) {
			cpu = i % 4; pid = 1000 + i % v; t += 1000
			printf "[%03d]\t %d.%09d: hyp_enter reason=guest_exit vcpu=0 pid=%d\n", cpu, t / 1e9, t % 1e9, pid
			printf "[%03d]\t %d.%09d: vcpu_exit vcpu=0 pid=%d code=trap ec=hvc64 esr=0x5a000000\n", cpu, t / 1e9, (t + 100) % 1e9, pid
			printf "[%03d]\t %d.%09d: hyp_exit reason=eret_host vcpu=-1 pid=-1\n", cpu, t / 1e9, (t + 200) % 1e9
			printf "[%03d]\t %d.%09d: hyp_exit reason=eret_guest vcpu=0 pid=%d\n", cpu, t / 1e9, (t + 700) % 1e9, pid
		}
	}' > "$tmp/events"
	# The same events, in 4 KiB ring buffer pages: 16 bytes of header
	# (time stamp, commit), then records of a 4-byte header (type_len:5
	# in 4-byte words, time_delta:27 in ns) and the event.
	python3 - "$remote/per_cpu" $((EVENTS / 4)) $vcpus <<'EOF'
import os, struct, sys
out, n, v = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ids = {}
for e in ("hyp_enter", "hyp_exit", "vcpu_exit"):
    ids[e] = int(open(f"{out}/../events/hypervisor/{e}/id").read())
def hyp(e, reason, vcpu, pid):     # u8 reason @8, int vcpu @12, int pid @16
    return struct.pack("<HBBiBxxxii", ids[e], 0, 0, 0, reason, vcpu, pid)
def exit_(pid):                     # vcpu @8, pid @12, code @16, esr @24
    return struct.pack("<HBBiiiIxxxxQ", ids["vcpu_exit"], 0, 0, 0, 0, pid, 2, 0x5a000000)
pages = [[] for _ in range(4)]
cur = [None] * 4    # [page ts, last ts, data]
def put(cpu, ts, rec):
    c = cur[cpu]
    rec += b"\0" * (-len(rec) % 4)
    if c is None or len(c[2]) + 4 + len(rec) > 4080:
        if c:
            pages[cpu].append(c)
        c = cur[cpu] = [ts, ts, bytearray()]
    c[2] += struct.pack("<I", (len(rec) // 4) | ((ts - c[1]) << 5)) + rec
    c[1] = ts
t = 1000000
for i in range(n):
    cpu, pid = i % 4, 1000 + i % v
    t += 1000
    put(cpu, t, hyp("hyp_enter", 4, 0, pid))
    put(cpu, t + 100, exit_(pid))
    put(cpu, t + 200, hyp("hyp_exit", 6, -1, -1))
    put(cpu, t + 700, hyp("hyp_exit", 7, 0, pid))
for cpu in range(4):
    if cur[cpu]:
        pages[cpu].append(cur[cpu])
    os.makedirs(f"{out}/cpu{cpu}", exist_ok=True)
    with open(f"{out}/cpu{cpu}/trace_pipe_raw", "wb") as f:
        for ts, _, data in pages[cpu]:
            f.write(struct.pack("<QQ", ts, len(data)) + bytes(data) + b"\0" * (4080 - len(data)))
EOF
	for input in text binary; do
		if [ $input = text ]; then
			set -- report "$tmp/events"
		else
			set -- record -t "$tmp/fs" -- true
		fi
		/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$tmp/hyp-stat" "$@" > "$tmp/out"
		# Exits i < EVENTS / 4 with i % vcpus == 0 are pid 1000's.
		grep -q "^ *1000 *0 hvc64 *$(((EVENTS / 4 - 1) / vcpus + 1)) " "$tmp/out" ||
			{ echo "bench-hyp-stat: unexpected report of the $input input" >&2; exit 1; }
		read -r u sys kb < "$tmp/time"
		awk -v i=$input -v v=$vcpus -v e=$EVENTS -v s="$u + $sys" -v kb="$kb" \
			'BEGIN { split(s, t, " [+] "); s = t[1] + t[2]
				printf "%-6s %8d %10d %10.2f %12.1f\n", i, v, e, s * 1e6 / e, kb / 1024 }'
	done
done
