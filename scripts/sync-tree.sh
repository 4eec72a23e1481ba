#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make DST a copy of SRC, rewriting only files whose content changed (so their
# time stamps keep meaning "changed"), then remove SRC.
# Usage: sync-tree.sh SRC DST
set -eu
mkdir -p "$2"
rsync -a --checksum --delete "$1/" "$2/"
rm -rf "$1"
