#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Check the host packages the build needs; install them when we can (root or
# password-less sudo), otherwise say exactly what is missing.
set -eu

# command-or-file  package
need="
aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
/usr/aarch64-linux-gnu/lib/libc.a libc6-dev-arm64-cross
depmod kmod
qemu-system-aarch64 qemu-system-arm
flex flex
bison bison
bc bc
cpio cpio
ccache ccache
sparse sparse
rsync rsync
patch patch
git git
perl perl
python3 python3
/usr/include/openssl/ssl.h libssl-dev
/usr/include/libelf.h libelf-dev
pkg-config pkg-config
/usr/include/traceevent/event-parse.h libtraceevent-dev
/usr/include/tracefs/tracefs.h libtracefs-dev
/usr/include/trace-cmd/trace-cmd.h libtracecmd-dev
/usr/src/linux-source-6.12.tar.xz linux-source-6.12
clang-19 clang-19
ld.lld-19 lld-19
llvm-objdump-19 llvm-19
"

missing=
printf '%s\n' "$need" | while read -r what pkg; do
	[ -n "$what" ] || continue
	case "$what" in
	/*) [ -e "$what" ] || echo "$pkg" ;;
	*) command -v "$what" >/dev/null 2>&1 || echo "$pkg" ;;
	esac
done > "${TMPDIR:-/tmp}/deps.$$"
missing=$(sort -u "${TMPDIR:-/tmp}/deps.$$" | tr '\n' ' ')
rm -f "${TMPDIR:-/tmp}/deps.$$"
[ -n "$missing" ] || exit 0

if [ "$(id -u)" = 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "deps: missing host packages: $missing" >&2
	echo "deps: install them with: sudo apt-get install $missing" >&2
	exit 1
fi
echo "  INSTALL $missing"
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
