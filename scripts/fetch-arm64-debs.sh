#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Download Debian arm64 packages (and what they depend on) and unpack them into
# a directory, without touching the host's dpkg architectures: apt gets its own
# lists, cache and status under build/apt-arm64.
# Usage: fetch-arm64-debs.sh DESTDIR PACKAGE...
set -euo pipefail
dest=$1
shift
apt=$(pwd)/build/apt-arm64
stamp="$dest/.packages"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$*" ]; then
	exit 0
fi

mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
: > "$apt/status"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
{
	echo "deb [arch=arm64] $mirror $codename main"
	echo "deb [arch=arm64] $mirror $codename-updates main"
	echo "deb [arch=arm64] ${mirror%/debian}/debian-security $codename-security main"
} > "$apt/sources.list"

aptx() {
	local cmd=$1
	shift
	"$cmd" -q -o APT::Architecture=arm64 -o APT::Architectures=arm64 \
		-o Dir::State::Lists="$apt/lists" -o Dir::State::Status="$apt/status" \
		-o Dir::Cache="$apt/cache" -o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Debug::NoLocking=1 "$@"
}

echo "  APT     arm64 package lists"
aptx apt-get update > "$apt/update.log" 2>&1 || {
	cat "$apt/update.log" >&2
	echo "fetch-arm64-debs: apt-get update for arm64 failed" >&2
	exit 1
}
pkgs=$(aptx apt-cache depends --recurse --no-recommends --no-suggests \
	--no-conflicts --no-breaks --no-replaces --no-enhances --no-pre-depends "$@" |
	grep -v -e '^ ' -e '^<' | sort -u)
echo "  APT     download:" $pkgs
rm -f "$apt"/debs/*.deb
(cd "$apt/debs" && aptx apt-get download $pkgs > "$apt/download.log" 2>&1) || {
	cat "$apt/download.log" >&2
	echo "fetch-arm64-debs: download failed" >&2
	exit 1
}
rm -rf "$dest"
mkdir -p "$dest"
for deb in "$apt"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dest"
done
echo "$*" > "$stamp"
