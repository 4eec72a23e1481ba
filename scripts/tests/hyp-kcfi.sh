#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The hypervisor of the LLVM=1 kernel (build/obj-llvm) is built with kCFI,
# BTI and pointer authentication, and function tracing keeps what they
# check: the host's hypercalls, indirect calls through host_hcall[] in
# handle_trap(), check the type hash right before their handler, and a
# traceable handler has that hash before its BTI landing pad, its patch
# site (a NOP) after it and its PAC signing after the site, where the
# tracer's return hook gets signed as the return address was. The calls
# themselves, traced and not, run in the guest tests of that kernel
# (remotes/hypervisor/ftrace*.tc, whose hypercalls go through the table).
set -euo pipefail
o=build/obj-llvm/arch/arm64/kvm/hyp/nvhe/kvm_nvhe.tmp.o
if [ ! -f "$o" ]; then
	[ "${LLVM_CHECK:-1}" = 0 ] && { echo "LLVM_CHECK=0: nothing to check"; exit 0; }
	echo "FAIL: no $o (make LLVM=1)"
	exit 1
fi
dis=$(mktemp)
trap 'rm -f "$dis"' EXIT
llvm-objdump-19 -d --no-show-raw-insn -j .hyp.text "$o" > "$dis"

# The kCFI checks before handle_trap()'s indirect calls: the hash each
# expects (movk w17 low; movk w17 high, lsl #16), then brk #0x82xx.
hashes=$(awk 'function pad(x) {
		sub(/^#0x/, "", x); sub(/,$/, "", x)
		while (length(x) < 4)
			x = "0" x
		return x
	}
	/^[0-9a-f]+ <handle_trap>:$/ { in_fn = 1; next }
	/^[0-9a-f]+ <.*>:$/ { in_fn = 0 }
	in_fn && $2 == "movk" && $3 == "w17," && NF == 4 { lo = $4 }
	in_fn && $2 == "movk" && $3 == "w17," && $5 == "lsl" && $6 == "#16" { hi = $4 }
	in_fn && $2 == "brk" && $3 ~ /^#0x82/ && lo != "" && hi != "" {
		print "0x" pad(hi) pad(lo); lo = hi = ""
	}' "$dis" | sort -u)
[ -n "$hashes" ] || { echo "FAIL: no kCFI check in handle_trap"; exit 1; }
echo "kCFI hashes checked in handle_trap: $hashes"

for f in handle___tracing_write_event handle___kvm_vcpu_run handle___tracing_ftrace_patch; do
	# The word before the function, then its first three instructions.
	got=$(awk -v f="$f" '
		$0 ~ "^[0-9a-f]+ <" f ">:$" { want = 1; print word; next }
		want && n < 3 && NF >= 2 { print $NF == "c" ? $(NF - 1) " c" : $NF; n++ }
		NF >= 2 && $(NF - 1) == ".word" { word = $NF }' "$dis" | tr '\n' ' ')
	set -- $got
	echo "$f: hash $1, then $2 $3, $4, $5"
	grep -qx "$1" <<< "$hashes" || { echo "FAIL: $f: hash $1 is not one handle_trap checks"; exit 1; }
	[ "$2 $3" = "bti c" ] || { echo "FAIL: $f: no BTI landing pad first"; exit 1; }
	[ "$4" = nop ] || { echo "FAIL: $f: no patch site after the landing pad"; exit 1; }
	[ "$5" = paciasp ] || { echo "FAIL: $f: return address not signed after the site"; exit 1; }
done
echo ok
