#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build-time recursion check of hypervisor function tracing
# (arch/arm64/kvm/hyp/nvhe/ftrace-check.sh) must fail the build when the
# tracer reaches a function with a patch site, or is given a root that is
# no function. Runs its saved kbuild command
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

# A root that is no function of the object would check nothing: refused,
# with GNU binutils and with LLVM's.
tools="gnu ${CROSS_COMPILE:-aarch64-linux-gnu-}as ${CROSS_COMPILE:-aarch64-linux-gnu-}objdump ${CROSS_COMPILE:-aarch64-linux-gnu-}readelf"
if command -v clang-19 > /dev/null; then
	tools="$tools
llvm clang-19 llvm-objdump-19 llvm-readelf-19"
fi
while read -r kind as objdump readelf; do
	cat > "$tmp/f.S" <<'EOS'
	.section .hyp.text, "ax"
	.type	f, %function
f:	nop
	ret
	.type	h, %function
h:	ret
EOS
	if [ "$as" = clang-19 ]; then
		clang-19 --target=aarch64-linux-gnu -c -o "$tmp/f.o" "$tmp/f.S"
	else
		"$as" -o "$tmp/f.o" "$tmp/f.S"
	fi
	check() { sh arch/arm64/kvm/hyp/nvhe/ftrace-check.sh "$objdump" "$readelf" "$tmp/f.o" "$1" \
		> "$tmp/log" 2>&1; }
	check h || { echo "FAIL: $kind: a root without a site refused:"; cat "$tmp/log"; exit 1; }
	if check g; then
		echo "FAIL: $kind: a root that is no function passes the check"
		exit 1
	fi
	grep -q 'no function g' "$tmp/log" || { echo "FAIL: $kind: not refused for it:"; cat "$tmp/log"; exit 1; }
	echo "ok: $kind: a root that is no function fails the rule"
done <<< "$tools"
echo ok
