#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build-time recursion check of hypervisor function tracing
# (arch/arm64/kvm/hyp/nvhe/ftrace-check.sh) must fail the build when the
# tracer reaches a function with a patch site, or when .hyp.text holds data
# other than kCFI type hashes. Runs its saved kbuild command
# as kbuild runs it (set -e, then the command file is written), with one
# more root that has a site, and the real command, which must pass.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stamp=arch/arm64/kvm/hyp/nvhe/ftrace-check.stamp

kbuild_run() { # command with the stamp at $tmp/stamp
	local c=${1//$stamp/$tmp/stamp}
	rm -f "$tmp/stamp"
	(cd "$OBJ" && sh -c "set -e; $c; printf 'x\n' > $tmp/cmd") > "$tmp/log" 2>&1
}

# On the GCC kernel and on the LLVM=1 one (kCFI: type hashes in the text),
# if built.
for OBJ in ${OBJ:-build/obj build/obj-llvm}; do
	dir=$OBJ/arch/arm64/kvm/hyp/nvhe
	cmdfile=$dir/.ftrace-check.stamp.cmd
	if [ ! -f "$cmdfile" ]; then
		[ "$OBJ" = build/obj-llvm ] && [ "${LLVM_CHECK:-1}" = 0 ] && continue
		echo "no $cmdfile: build the kernel with CONFIG_NVHE_EL2_FTRACE" >&2
		exit 1
	fi
	saved=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile")
	grep -q "$stamp" <<< "$saved" || { echo "FAIL: no stamp in: $saved"; exit 1; }

	# The real roots: the tracer runs nothing it traces.
	if ! kbuild_run "$saved"; then
		echo "FAIL: $OBJ: the check refuses the built hypervisor:"
		cat "$tmp/log"
		exit 1
	fi
	[ -f "$tmp/stamp" ] || { echo "FAIL: $OBJ: no stamp after a passing check"; exit 1; }
	echo "ok: $OBJ: the built hypervisor passes"

	# A root that has a patch site: the rule fails and leaves no stamp.
	bad=${saved/hyp_ftrace_write/hyp_ftrace_write handle___tracing_write_event}
	if kbuild_run "$bad"; then
		echo "FAIL: $OBJ: a traced root passes the check as kbuild runs it:"
		cat "$tmp/log"
		exit 1
	fi
	[ ! -f "$tmp/stamp" ] || { echo "FAIL: $OBJ: stamp written by a failing check"; exit 1; }
	grep -q 'handle___tracing_write_event.*patch site' "$tmp/log" ||
		{ echo "FAIL: $OBJ: not refused for its site:"; cat "$tmp/log"; exit 1; }
	echo "ok: $OBJ: a traced root fails the rule"
done

# Data in .hyp.text, which the hypervisor could take for a call to rewrite,
# but for kCFI type hashes (one word right before a function) that do not
# read as a call to a patch site. With GNU binutils and with LLVM's.
tools="gnu ${CROSS_COMPILE:-aarch64-linux-gnu-}as ${CROSS_COMPILE:-aarch64-linux-gnu-}objdump ${CROSS_COMPILE:-aarch64-linux-gnu-}readelf"
if command -v clang-19 > /dev/null; then
	tools="$tools
llvm clang-19 llvm-objdump-19 llvm-readelf-19"
fi
check_s() { # name: assemble $tmp/name.S with $as, check it with root g
	if [ "$as" = clang-19 ]; then
		clang-19 --target=aarch64-linux-gnu -c -o "$tmp/$1.o" "$tmp/$1.S"
	else
		"$as" -o "$tmp/$1.o" "$tmp/$1.S"
	fi
	sh arch/arm64/kvm/hyp/nvhe/ftrace-check.sh "$objdump" "$readelf" "$tmp/$1.o" g \
		> "$tmp/log" 2>&1
}
hashes() { # first second: two type hashes, before f (a site) and g
	cat <<EOS
	.section .hyp.text, "ax"
	.word	$1
	.type	f, %function
f:
.Lsite:	nop
	ret
	.word	$2
	.type	g, %function
g:	nop
	ret
	.section .hyp.ftrace_sites, "a"
	.quad	.Lsite
EOS
}
refused() { # name pattern what: the check refuses $tmp/name.S for pattern
	if check_s "$1"; then
		echo "FAIL: $kind: $3 passes the check"
		exit 1
	fi
	grep -q "$2" "$tmp/log" || { echo "FAIL: $kind: $3, not refused for it:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: $3 fails the rule"
}
while read -r kind as objdump readelf; do
	cat > "$tmp/data.S" <<'EOS'
	.section .hyp.text, "ax"
	.type	g, %function
g:	nop
	.word	0x94000000
	ret
EOS
	refused data 'data in .hyp.text' "data in .hyp.text"

	hashes 0x2a4f5e11 0x3c0ffee5 > "$tmp/hash.S"
	check_s hash || { echo "FAIL: $kind: type hashes refused:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: type hashes before functions pass"

	# 0x97ffffff at 12 reads as "bl 8": the instruction after f's site.
	hashes 0x2a4f5e11 0x97ffffff > "$tmp/hash.S"
	refused hash 'type hash at 0xc reads as a call' "a type hash that reads as a call to a site"

	hashes 0x2a4f5e11 0x3c0ffee5 > "$tmp/hash.S"
	sed -i 's/^g:/h:/; s/\ttype\tg/\ttype\th/' "$tmp/hash.S"
	refused hash 'no function g' "a root that is no function"
done <<< "$tools"
echo ok
