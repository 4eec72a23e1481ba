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
make -s -C "$SRC" O="$(cd "$obj" && pwd)" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	KCONFIG_ALLCONFIG="$(cd "$obj" && pwd)/fragments.config" allnoconfig
bad=0
grep -E '^CONFIG_[A-Za-z0-9_]+=' "$obj/fragments.config" | while IFS= read -r line; do
	if ! grep -qxF "$line" "$obj/.config"; then
		echo "mkconfig: $line requested, .config has: $(grep "^${line%%=*}=" "$obj/.config" || echo "not set")" >&2
		echo bad
	fi
done | grep -q bad && bad=1
if [ $bad = 1 ]; then
	rm -f "$obj/.config"
	exit 1
fi
exit 0
