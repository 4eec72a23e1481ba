#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hyp-stat's cost per million events (host build, -O2): time and peak
# memory of "hyp-stat report" over generated guest exits of 10, 1000 and
# 100000 vCPU threads, each exit four events (hyp_enter, vcpu_exit,
# hyp_exit of the host, hyp_exit back to the guest) on one of 4 CPUs.
# Numbers, not a test: the time per million should not grow with vCPUs.
set -eu
SRC=${SRC:-build/linux}
EVENTS=${EVENTS:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/hyp-stat" "$SRC/tools/tracing/hyp-stat.c" \
	$(pkg-config --cflags --libs libtracecmd libtracefs libtraceevent)
printf '%8s %10s %10s %12s\n' vcpus events "s/M ev" "peak MiB"
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
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$tmp/hyp-stat" report "$tmp/events" > /dev/null
	read -r s kb < "$tmp/time"
	awk -v v=$vcpus -v e=$EVENTS -v s="$s" -v kb="$kb" \
		'BEGIN { printf "%8d %10d %10.2f %12.1f\n", v, e, s * 1e6 / e, kb / 1024 }'
done
