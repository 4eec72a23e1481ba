#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build-time recursion check of hypervisor function tracing
# (arch/arm64/kvm/hyp/nvhe/ftrace-check.sh) must fail the build when the
# tracer reaches a function with a patch site, or when .hyp.text holds data. Runs its saved kbuild command
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

# Data in .hyp.text, which the hypervisor could take for a call to rewrite.
cat > "$tmp/data.S" <<'EOS'
	.section .hyp.text, "ax"
f:	nop
	.word	0x94000000
	ret
EOS
${CROSS_COMPILE:-aarch64-linux-gnu-}as -o "$tmp/data.o" "$tmp/data.S"
if sh arch/arm64/kvm/hyp/nvhe/ftrace-check.sh ${CROSS_COMPILE:-aarch64-linux-gnu-}objdump \
	${CROSS_COMPILE:-aarch64-linux-gnu-}readelf "$tmp/data.o" f > "$tmp/log" 2>&1; then
	echo "FAIL: data in .hyp.text passes the check"
	exit 1
fi
grep -q 'data in .hyp.text' "$tmp/log" || { echo "FAIL: not refused for its data:"; cat "$tmp/log"; exit 1; }
echo "ok: data in .hyp.text fails the rule"
echo ok
