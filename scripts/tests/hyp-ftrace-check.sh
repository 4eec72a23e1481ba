#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build-time recursion check of hypervisor function tracing
# (arch/arm64/kvm/hyp/nvhe/ftrace-check.sh) must fail the build when the
# tracer reaches a function with a patch site, or when .hyp.text holds data
# other than kCFI type hashes. Runs its saved kbuild command
# as kbuild runs it (set -e, then the command file is written), with one
# more root that has a site, and the real command, which must pass.
set -euo pipefail
OBJ=${OBJ:-build/obj}
dir=$OBJ/arch/arm64/kvm/hyp/nvhe
cmdfile=$dir/.ftrace-check.stamp.cmd
[ -f "$cmdfile" ] || { echo "no $cmdfile: build the kernel with CONFIG_NVHE_EL2_FTRACE" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
saved=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile")
stamp=arch/arm64/kvm/hyp/nvhe/ftrace-check.stamp
grep -q "$stamp" <<< "$saved" || { echo "FAIL: no stamp in: $saved"; exit 1; }

kbuild_run() { # command with the stamp at $tmp/stamp
	local c=${1//$stamp/$tmp/stamp}
	rm -f "$tmp/stamp"
	(cd "$OBJ" && sh -c "set -e; $c; printf 'x\n' > $tmp/cmd") > "$tmp/log" 2>&1
}

# The real roots: the tracer runs nothing it traces.
if ! kbuild_run "$saved"; then
	echo "FAIL: the check refuses the built hypervisor:"
	cat "$tmp/log"
	exit 1
fi
[ -f "$tmp/stamp" ] || { echo "FAIL: no stamp after a passing check"; exit 1; }
echo "ok: the built hypervisor passes"

# A root that has a patch site: the rule fails and leaves no stamp.
bad=${saved/hyp_ftrace_write/hyp_ftrace_write handle___tracing_write_event}
if kbuild_run "$bad"; then
	echo "FAIL: a traced root passes the check as kbuild runs it:"
	cat "$tmp/log"
	exit 1
fi
[ ! -f "$tmp/stamp" ] || { echo "FAIL: stamp written by a failing check"; exit 1; }
grep -q 'handle___tracing_write_event.*patch site' "$tmp/log" ||
	{ echo "FAIL: not refused for its site:"; cat "$tmp/log"; exit 1; }
echo "ok: a traced root fails the rule"

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
while read -r kind as objdump readelf; do
	cat > "$tmp/data.S" <<'EOS'
	.section .hyp.text, "ax"
	.type	g, %function
g:	nop
	.word	0x94000000
	ret
EOS
	if check_s data; then
		echo "FAIL: $kind: data in .hyp.text passes the check"
		exit 1
	fi
	grep -q 'data in .hyp.text' "$tmp/log" ||
		{ echo "FAIL: $kind: not refused for its data:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: data in .hyp.text fails the rule"

	hashes 0x2a4f5e11 0x3c0ffee5 > "$tmp/hash.S"
	check_s hash || { echo "FAIL: $kind: type hashes refused:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: type hashes before functions pass"

	# 0x97ffffff at 12 reads as "bl 8": the instruction after f's site.
	hashes 0x2a4f5e11 0x97ffffff > "$tmp/hash.S"
	if check_s hash; then
		echo "FAIL: $kind: a type hash that reads as a call to a site passes"
		exit 1
	fi
	grep -q 'type hash at 0xc reads as a call' "$tmp/log" ||
		{ echo "FAIL: $kind: not refused for its hash:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: a type hash that reads as a call fails the rule"

	hashes 0x2a4f5e11 0x3c0ffee5 > "$tmp/hash.S"
	sed -i 's/^g:/h:/; s/\ttype\tg/\ttype\th/' "$tmp/hash.S"
	if check_s hash; then
		echo "FAIL: $kind: a root that is no function passes"
		exit 1
	fi
	grep -q 'no function g' "$tmp/log" ||
		{ echo "FAIL: $kind: not refused for its root:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: a root that is no function fails the rule"
done <<< "$tools"
echo ok
