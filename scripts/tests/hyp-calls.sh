#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# gen-hypcalls (arch/arm64/kvm/hyp/nvhe/gen-hypcalls.c), which moves the
# hypervisor's direct calls to its traceable functions past their NOP at
# build time and lists them, on a hand-made object assembled by GNU as and
# by Clang: a call resolved by the assembler and one left to the linker,
# a tail call to a BTI C landing pad, a loop back to the start of a body,
# a branch to the instruction after another function's site, data that
# reads as a call to a site, a call out of the object, a call in the
# replacement of an alternative. Then on the built
# hypervisor: every call it lists goes past its site in vmlinux.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tool=build/obj/arch/arm64/kvm/hyp/nvhe/gen-hypcalls
[ -x $tool ] || { echo "FAIL: no $tool (build the kernel)"; exit 1; }
cross=${CROSS_COMPILE:-aarch64-linux-gnu-}

cat > "$tmp/t.S" <<'EOS'
	.section .hyp.text, "ax"
	.type	f, %function
f:	nop			// 0x00: site 0
	ret
	.type	g, %function
g:	bti	c		// 0x08
.Lg:	nop			// 0x0c: site 1
	b	.Lg + 4		// 0x10: a loop to the start of g's body
	bl	f		// 0x14: call 0, resolved by the assembler
	b	g		// 0x18: call 1, through g's landing pad
	.word	0x97fffff9	// 0x1c: data, as "bl f"
	bl	ext		// 0x20: out of the object
	bl	h		// 0x24: call 2, a relocation to global h
	b	.Lk		// 0x28: past k's site, no call
	ret
	.globl	h
	.type	h, %function
h:	nop			// 0x30: site 2
	ret
	.type	k, %function
k:	nop			// 0x38: site 3, never called
.Lk:	ret
.Lorig:	nop			// 0x40: an alternative's original,
	.subsection 1
.Lnew:	bl	f		// 0x44: its replacement, which runs there
	.subsection 0
	.section .altinstructions, "a"
	.word	.Lorig - ., .Lnew - .
	.hword	0
	.byte	4, 4
	.section .hyp.ftrace_sites, "a"
	.quad	f, .Lg, h, k
EOS

want_list='0 1 2 3 3 0x14 0x18 0x24'
for as in gnu clang; do
	if [ $as = clang ]; then
		command -v clang-19 > /dev/null || { echo "no clang-19: skipped"; continue; }
		clang-19 --target=aarch64-linux-gnu -c -o "$tmp/t.o" "$tmp/t.S"
	else
		"${cross}as" -o "$tmp/t.o" "$tmp/t.S"
	fi
	cp "$tmp/t.o" "$tmp/orig.o"
	$tool "$tmp/t.o" > "$tmp/list.S"
	$tool "$tmp/t.o" "$tmp/out.o"
	cmp -s "$tmp/t.o" "$tmp/orig.o" || { echo "FAIL: $as: the input was changed"; exit 1; }

	got=$(awk '$1 == ".long" && $2 ~ /^[0-9]+$/ { printf "%s ", $2 }
		   $1 == ".long" && $2 ~ /hyp\.text/ { printf "%s ", $4 }' "$tmp/list.S")
	[ "$got" = "$want_list " ] ||
		{ echo "FAIL: $as: listed '$got', want '$want_list'"; cat "$tmp/list.S"; exit 1; }
	# The list assembles, with its offsets relative to each entry.
	"${cross}as" -o "$tmp/list.o" "$tmp/list.S"
	[ "$("${cross}readelf" -rW "$tmp/list.o" | grep -c R_AARCH64_PREL32)" = 3 ] ||
		{ echo "FAIL: $as: the list is not three PREL32 entries"; exit 1; }

	"${cross}objdump" -dr "$tmp/out.o" > "$tmp/dis"
	for want in '10:	14000000 ' '14:	97fffffc ' '18:	17fffffe ' '1c:	97fffff9 ' \
		    '24: R_AARCH64_CALL26	h+0x4$' '28:	14000005 ' '20: R_AARCH64_CALL26	ext$' \
		    '44:	97ffffef '; do
		grep -q "^[[:space:]]*$want" "$tmp/dis" ||
			{ echo "FAIL: $as: no '$want' in:"; cat "$tmp/dis"; exit 1; }
	done
	# The same input gives the same output.
	$tool "$tmp/t.o" "$tmp/again.o"
	cmp -s "$tmp/out.o" "$tmp/again.o" || { echo "FAIL: $as: two runs differ"; exit 1; }
	echo "ok: $as: calls moved past the sites and listed, the rest left alone"
done

# Not an object of the kind it expects: a clear error, no output.
echo junk > "$tmp/junk.o"
if $tool "$tmp/junk.o" "$tmp/junk.out" 2> "$tmp/err"; then
	echo "FAIL: junk accepted"
	exit 1
fi
grep -q 'gen-hypcalls: .*junk.o: ' "$tmp/err" || { echo "FAIL: no error for junk"; exit 1; }
[ ! -e "$tmp/junk.out" ] || { echo "FAIL: output written for junk"; exit 1; }
echo "ok: junk refused"

# The built hypervisor: every listed call, in vmlinux, goes past its site.
for OBJ in build/obj build/obj-llvm; do
	[ -f $OBJ/vmlinux ] || continue
	[ -f $OBJ/arch/arm64/kvm/hyp/nvhe/hyp-calls.S ] || continue
	list=$OBJ/arch/arm64/kvm/hyp/nvhe/hyp-calls.S
	n=$(grep -c 'hyp\.text + ' $list)
	nm=nm
	command -v llvm-nm-19 > /dev/null && nm=llvm-nm-19
	text=$($nm $OBJ/vmlinux | awk '$3 == "__kvm_nvhe___hyp_section_.hyp.text" { print $1 }')
	[ -n "$text" ] || { echo "FAIL: $OBJ: no hypervisor text in vmlinux"; exit 1; }
	# Each listed call's target: the symbol and offset objdump prints.
	grep -o 'hyp\.text + 0x[0-9a-f]*' $list | sed 's/.* //' |
		while read -r off; do printf '%x\n' $((0x$text + off)); done > "$tmp/pcs"
	sort "$tmp/pcs" > "$tmp/pcs.s"
	"${cross}objdump" -d --no-show-raw-insn --start-address=0x$text \
		--stop-address=0x$(printf '%x' $((0x$text + 0x100000))) $OBJ/vmlinux 2>/dev/null |
		awk 'NR == FNR { want[$1] = 1; next }
		     { a = $1; sub(/:$/, "", a) }
		     (a in want) && ($2 == "bl" || $2 == "b") { print $4 }' "$tmp/pcs.s" - > "$tmp/to"
	[ "$(wc -l < "$tmp/to")" = "$n" ] ||
		{ echo "FAIL: $OBJ: $n calls listed, $(wc -l < "$tmp/to") found as calls"; exit 1; }
	# Past the NOP: the function's second instruction, its third after a BTI C.
	bad=$(grep -vc '+0x[48]>$' "$tmp/to" || :)
	[ "$bad" = 0 ] || { echo "FAIL: $OBJ: $bad listed calls do not go past a site:";
			   grep -v '+0x[48]>$' "$tmp/to" | head; exit 1; }
	echo "ok: $OBJ: the $n listed calls go past their sites in vmlinux"
done
echo ok
