#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the built kernel under QEMU (virt, virtualization=on, GICv3, -cpu max).
#
#   run-qemu.sh              interactive shell (stdin a terminal) or the demo
#   run-qemu.sh SCRIPT       run SCRIPT in the guest, print its output, power
#                            off, exit with its status
#
# The script travels as a second cpio archive appended to the initramfs, so it
# may be any size.  Its output comes back on a virtio port (not the console,
# where kernel messages interleave) and its exit status on another; a guest
# that hangs or panics exits with status 124/125 and keeps its console log.
#
# Environment: MODE (protected|pnvhe|nvhe|vhe), SMP, MEM, TIMEOUT (seconds), APPEND,
# IMAGE, INITRAMFS, LOGNAME_RUN (log file stem), RESULTS_OUT (file that
# receives the "results" port), ICOUNT=1 (-icount shift=0,sleep=off: one
# guest instruction is one ns of guest time, and timings inside the guest
# count instructions, the same on every run).
set -euo pipefail

MODE=${MODE:-protected}
SMP=${SMP:-2}
MEM=${MEM:-1024}
TIMEOUT=${TIMEOUT:-600}
IMAGE=${IMAGE:-build/obj/arch/arm64/boot/Image}
INITRAMFS=${INITRAMFS:-build/obj/initramfs.cpio}
name=${LOGNAME_RUN:-run}
logs=build/logs
script=${1:-}

case "$MODE" in
protected|nvhe) kvm_mode="kvm-arm.mode=$MODE" ;;
# Protected mode as on CPUs without VHE: classic nVHE at EL2, not hVHE.
pnvhe) kvm_mode="kvm-arm.mode=protected arm64_sw.hvhe=0 id_aa64mmfr1.vh=0" ;;
vhe) kvm_mode= ;;	# the default on a CPU with VHE (-cpu max)
*) echo "run-qemu: MODE must be protected, pnvhe, nvhe or vhe, not '$MODE'" >&2; exit 2 ;;
esac
case "$TIMEOUT" in
''|*[!0-9]*) echo "run-qemu: TIMEOUT must be a number of seconds" >&2; exit 2 ;;
esac
for f in "$IMAGE" "$INITRAMFS"; do
	[ -f "$f" ] || { echo "run-qemu: $f missing (run make)" >&2; exit 2; }
done
if [ -n "$script" ] && [ ! -f "$script" ]; then
	echo "run-qemu: script $script not found" >&2
	exit 2
fi

mkdir -p "$logs/$(dirname "$name")"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-qemu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
console=$logs/$name.console.log
out=$tmp/out
status=$tmp/status
results=${RESULTS_OUT:-$tmp/results}
: > "$out"
: > "$status"
: > "$results"

if [ -z "$script" ] && [ ! -t 0 ]; then
	# No terminal and no script: run the demo and power off.
	script=$tmp/demo.sh
	echo 'exec /usr/share/guest/demo.sh' > "$script"
fi

append="console=ttyAMA0 rdinit=/init panic=-1 oops=panic $kvm_mode ${APPEND:-}"
initrd=$INITRAMFS
if [ -n "$script" ]; then
	mkdir -p "$tmp/cpio"
	cp "$script" "$tmp/cpio/cmd.sh"
	(cd "$tmp/cpio" && echo cmd.sh | cpio -o -H newc -R 0:0 --quiet) > "$tmp/cmd.cpio"
	cat "$INITRAMFS" "$tmp/cmd.cpio" > "$tmp/initrd"
	initrd=$tmp/initrd
fi

qemu=(qemu-system-aarch64
	-M virt,virtualization=on,gic-version=3
	-cpu max,pauth-impdef=on -smp "$SMP" -m "$MEM"
	-kernel "$IMAGE" -initrd "$initrd" -append "$append"
	-no-reboot -nodefaults -display none
	-device virtio-serial-device
	-chardev file,id=out,path="$out"
	-device virtserialport,chardev=out,name=out
	-chardev file,id=status,path="$status"
	-device virtserialport,chardev=status,name=status
	-chardev file,id=results,path="$results"
	-device virtserialport,chardev=results,name=results)
if [ "${ICOUNT:-0}" = 1 ]; then
	qemu+=(-icount shift=0,sleep=off)
fi

if [ -z "$script" ] && [ -t 0 ]; then
	# Interactive: console and monitor on the terminal (Ctrl-A X quits),
	# copied to the log.
	echo "run-qemu: $MODE mode, $SMP CPUs; Ctrl-A X quits, console log in $console"
	"${qemu[@]}" -chardev stdio,id=con,mux=on,signal=off,logfile="$console" \
		-serial chardev:con -mon chardev=con
	exit 0
fi

timeout --kill-after=10 "$TIMEOUT" "${qemu[@]}" -serial file:"$console" \
	< /dev/null &
qpid=$!
tail -n +1 -f --pid=$qpid "$out" 2>/dev/null &
tpid=$!
set +e
wait $qpid
qrc=$?
wait $tpid
set -e

rc=$(sed -n 's/^EXIT=\([0-9]*\).*/\1/p' "$status" | tail -n 1)
if [ -n "$rc" ]; then
	exit "$rc"
fi
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	echo "run-qemu: guest timed out after ${TIMEOUT}s; console log: $console" >&2
	exit 124
fi
echo "run-qemu: guest stopped without an exit status (panic?); console log: $console" >&2
tail -n 20 "$console" >&2
exit 125
