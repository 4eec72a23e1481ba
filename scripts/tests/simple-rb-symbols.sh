#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build refuses a simple_ring_buffer.o that references a symbol outside
# its allow-list (the nVHE hypervisor, which links the same source, has none
# of the kernel's symbols). Links a printk() call into a copy of the built
# object, asks kbuild for the check target, then puts the object back.
set -euo pipefail
OBJ=${OBJ:-build/obj}
SRC=${SRC:-build/linux}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
o=$OBJ/kernel/trace/simple_ring_buffer.o
if [ ! -f "$o" ]; then
	echo "no $o (run make)"
	exit 1
fi
tmp=$(mktemp -d)
cp -p "$o" "$tmp/orig.o"
restore() {
	cp -p "$tmp/orig.o" "$o"
	# If anything was re-archived with the doctored object, make the
	# next build redo it.
	[ "$(stat -c %Y "$archive")" = "$stamp" ] || touch "$o"
	rm -f "$o.syms"
	rm -rf "$tmp"
}

# Build the directory: its always-y target is the check. The doctored
# object keeps the original's time stamp, so nothing else is rebuilt (the
# archive in particular): checked below.
archive=$OBJ/kernel/trace/built-in.a
stamp=$(stat -c %Y "$archive")
trap restore EXIT
# The same compiler command as the Makefile, or kbuild rebuilds everything.
cc=${CROSS_COMPILE}gcc
command -v ccache > /dev/null && cc="ccache $cc"
check() {
	make -s -C "$SRC" O="$(pwd)/$OBJ" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" \
		CC="$cc" kernel/trace/ > "$tmp/out" 2>&1
}

# The real object passes.
rm -f "$o.syms"
if ! check; then
	cat "$tmp/out"
	echo "FAIL: the built simple_ring_buffer.o does not pass its own check"
	exit 1
fi

echo 'extern int printk(const char *fmt, ...); void srb_extra(void) { printk("x"); }' > "$tmp/extra.c"
"${CROSS_COMPILE}gcc" -c -o "$tmp/extra.o" "$tmp/extra.c"
"${CROSS_COMPILE}ld" -r -o "$o" "$tmp/orig.o" "$tmp/extra.o"
touch -r "$tmp/orig.o" "$o"
rm -f "$o.syms"
if check; then
	echo "FAIL: an object calling printk passed the symbol check"
	exit 1
fi
cat "$tmp/out"
grep -q 'uses symbols outside the allow-list: printk' "$tmp/out"
if [ "$(stat -c %Y "$archive")" != "$stamp" ]; then
	echo "FAIL: $archive was rebuilt with the doctored object"
	exit 1
fi
echo "PASS: printk refused"

# The LLVM=1 kernel (ThinLTO): the object is bitcode, for which nm lists
# the functions EXPORT_SYMBOL()'s assembly refers to as undefined too. The
# check, as kbuild saved it, passes the real object, and refuses a bitcode
# object that refers to printk, naming printk alone.
llvm=build/obj-llvm
cmdfile=$llvm/kernel/trace/.simple_ring_buffer.o.syms.cmd
if [ ! -f "$cmdfile" ]; then
	[ "${LLVM_CHECK:-1}" = 0 ] && exit 0
	echo "FAIL: no $cmdfile (make LLVM=1)"
	exit 1
fi
# The .cmd file has make's syntax: "$$" for "$".
saved=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdfile")
saved=${saved//\$\$/\$}
lo=kernel/trace/simple_ring_buffer.o
lto_check() { # object: run the saved check on it
	local c=${saved//$lo.syms/$tmp/stamp}
	(cd "$llvm" && sh -c "set -e; ${c//$lo/$1}") > "$tmp/out" 2>&1
}
if ! lto_check "$lo"; then
	cat "$tmp/out"
	echo "FAIL: the LLVM build's simple_ring_buffer.o does not pass its own check"
	exit 1
fi
echo "PASS: the LTO object passes"
cat > "$tmp/lto.c" <<'EOC'
int srb_fn(void) { return 1; }
asm(".section .export_sym, \"a\"\n.quad srb_fn\n.previous");
EOC
cp "$tmp/lto.c" "$tmp/lto-printk.c"
echo 'extern int printk(const char *fmt, ...); void srb_extra(void) { printk("x"); }' >> "$tmp/lto-printk.c"
for f in lto lto-printk; do
	clang-19 --target=aarch64-linux-gnu -O2 -flto=thin -c -o "$tmp/$f.o" "$tmp/$f.c"
done
lto_check "$tmp/lto.o" || { cat "$tmp/out"; echo "FAIL: bitcode using only itself refused"; exit 1; }
if lto_check "$tmp/lto-printk.o"; then
	echo "FAIL: bitcode calling printk passed the symbol check"
	exit 1
fi
cat "$tmp/out"
grep -q 'uses symbols outside the allow-list: printk$' "$tmp/out"
echo "PASS: printk refused in bitcode, and only printk"
