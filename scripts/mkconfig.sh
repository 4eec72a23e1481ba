#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Generate OBJ/.config: allnoconfig + the fragments (KCONFIG_ALLCONFIG), then
# check that every option the fragments ask for made it (a typo or an unmet
# dependency fails here, not at boot).
# Usage: mkconfig.sh OBJDIR FRAGMENT...
set -eu
obj=$1
shift
mkdir -p "$obj"
cat "$@" > "$obj/fragments.config"
echo "  CONFIG  allnoconfig + $*"
make -s -C "$SRC" O="$(cd "$obj" && pwd)" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ${KLLVM:+LLVM=$KLLVM} \
	KCONFIG_ALLCONFIG="$(cd "$obj" && pwd)/fragments.config" allnoconfig
# The last fragment to name an option wins; check the final value of each.
bad=$(awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { n = $0; sub(/=.*/, "", n); want[n] = $0; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = ""; next }
	END { for (n in want) print n " " want[n] }' "$obj/fragments.config" |
while read -r name line; do
	have=$(grep "^$name=" "$obj/.config" || true)
	if [ "$have" != "$line" ]; then
		echo "mkconfig: ${line:-# $name is not set} requested, .config has: ${have:-not set}" >&2
		echo bad
	fi
done)
if [ -n "$bad" ]; then
	rm -f "$obj/.config"
	exit 1
fi
# kconfig leaves an unchanged .config alone: mark it up to date for make.
touch "$obj/.config"
exit 0
