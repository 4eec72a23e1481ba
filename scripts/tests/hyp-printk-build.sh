#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hyp_printk()'s build-time checks: with the exact flags the kernel build
# used for an nVHE object (its saved command), good calls compile and each
# kind of bad call is a build error, not a runtime surprise.
set -euo pipefail
OBJ=${OBJ:-build/obj}
cmdfile=$OBJ/arch/arm64/kvm/hyp/nvhe/.trace.nvhe.o.cmd
[ -f "$cmdfile" ] || { echo "no $cmdfile: build the kernel first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile")
# The same compiler and flags, our source, no object, no dependency file.
cmd=$(sed -e 's| -Wp,-MMD,[^ ]*||' -e 's| -o [^ ]* [^ ]*/trace\.c *$||' <<< "$cmd")

try() { # name expect(ok|error) body
	printf '#include <nvhe/trace.h>\nvoid f(int i, unsigned long long u, const char *s, void *p)\n{\n\t%s\n}\n' \
		"$3" > "$tmp/$1.c"
	if (cd "$OBJ" && eval "$cmd -fsyntax-only $tmp/$1.c") > "$tmp/$1.log" 2>&1; then
		got=ok
	else
		got=error
	fi
	if [ $got != "$2" ]; then
		echo "FAIL: $1: $3: expected $2, got $got"
		cat "$tmp/$1.log"
		exit 1
	fi
	# A refused call must fail for the reason the check gives.
	if [ -n "${4:-}" ] && ! grep -q -- "$4" "$tmp/$1.log"; then
		echo "FAIL: $1: no '$4' in:"
		cat "$tmp/$1.log"
		exit 1
	fi
	echo "ok: $1 ($2)"
}
try none ok 'hyp_printk("no arguments");'
try four ok 'hyp_printk("%d %u %llx %c", i, (unsigned int)i, u, (char)i);'
try flags ok 'hyp_printk("%03x|%-4d|%+d 100%%", (unsigned int)i, i, i);'
try string error 'hyp_printk("%s", s);' 'integer arguments only'
try pointer error 'hyp_printk("%p", p);' 'integer arguments only'
try string_int error 'hyp_printk("%s", u);' '%s.* expects argument of type'
try five error 'hyp_printk("%d %d %d %d %d", i, i, i, i, i);' 'at most four arguments'
try missing error 'hyp_printk("%d %d", i);' "expects a matching"
try extra error 'hyp_printk("%d", i, i);' 'too many arguments for format'
try mismatch error 'hyp_printk("%d", u);' '%d.* expects argument of type'
try nonliteral error 'hyp_printk(s);' 'initializer'
echo ok
