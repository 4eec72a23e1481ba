#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series with hypervisor tracing compiled out (scripts/configs/
# notrace.config): the objects it changes compile and the hypervisor links,
# in build/obj-notrace, with no warning. "make bench" builds and boots the
# whole kernel of this variant; this catches a break in make check.
set -euo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! make -s --no-print-directory NOTRACE=1 tracing-objs > "$log" 2>&1; then
	cat "$log"
	exit 1
fi
cat "$log"
# Compiler, linker and modpost warnings; not kconfig's notes on the
# options the notrace fragment overrides on purpose.
if grep -E '\.(c|h|S|lds)(:[0-9]+)*: (warning|error):|WARNING: modpost|ld: warning' "$log"; then
	echo "new warnings with tracing compiled out"
	exit 1
fi
obj=build/obj-notrace
grep -q '^# CONFIG_NVHE_EL2_TRACING is not set' $obj/.config
[ -f $obj/arch/arm64/kvm/hyp/nvhe/kvm_nvhe.o ]
[ -f $obj/kernel/trace/trace_remote.o ]
# Nothing of the hypervisor's tracing is built in.
if aarch64-linux-gnu-nm $obj/arch/arm64/kvm/hyp/nvhe/kvm_nvhe.o | grep -q 'hyp_trace_events'; then
	echo "hypervisor tracing symbols with tracing compiled out"
	exit 1
fi
echo ok
