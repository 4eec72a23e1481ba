#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Extract Debian's linux-source tarball once into build/base/ (the pristine base).
# Usage: extract-base.sh TARBALL DESTDIR
set -eu
tarball=$1
dest=$2

if [ -f "$dest/.extracted" ]; then
	exit 0
fi
if [ ! -f "$tarball" ]; then
	echo "extract-base: $tarball not found (apt-get install linux-source-6.12)" >&2
	exit 1
fi
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
echo "  EXTRACT $tarball"
tar -C "$dest.tmp" --strip-components=1 -xf "$tarball"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
touch "$dest/.extracted"
