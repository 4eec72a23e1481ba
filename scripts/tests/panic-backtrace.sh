#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A hypervisor panic under functions whose return is traced (func_ret):
# their frame records return to the tracer's hook, yet the backtrace must
# name their real callers, in nvhe mode (the host unwinds the hypervisor's
# stack) and in protected mode, as hVHE and as classic nVHE (the hypervisor
# unwinds its own, PROTECTED_NVHE_STACKTRACE). The panic comes from the test
# build's panic id, written to write_event: handle_trap() calls
# handle___tracing_write_event(), both traced, which leads to hyp_panic().
# On every kernel built: build/obj (GCC) and build/obj-llvm (LLVM=1), if
# there.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
panic_id=$(printf '%d' 0x686e6963)	# HYP_TRACE_PANIC_ID
cat > "$tmp/cmd" <<CMD
set -e
cd /sys/kernel/tracing/remotes/hypervisor
echo handle_trap > set_ftrace_filter
echo handle___tracing_write_event >> set_ftrace_filter
echo 1 > events/hypervisor/func_ret/enable
echo 1 > events/hypervisor/selftest/enable
echo 1 > tracing_on
cat enabled_functions
taskset -c 0 sh -c 'echo 1 > write_event'
grep -q 'func_ret.*handle___tracing_write_event' trace
echo panicking
taskset -c 0 sh -c 'echo $panic_id > write_event'
echo survived
CMD

fail=0
for obj in build/obj build/obj-llvm; do
	[ -f "$obj/initramfs.cpio" ] || continue
	for mode in nvhe protected pnvhe; do
		name=panic-backtrace-${obj#build/}-$mode
		echo "== $obj $mode"
		set +e
		MODE=$mode SMP=2 TIMEOUT=300 LOGNAME_RUN=$name \
			IMAGE=$obj/arch/arm64/boot/Image INITRAMFS=$obj/initramfs.cpio \
			scripts/run-qemu.sh "$tmp/cmd" > "$tmp/out" 2>&1
		set -e
		log=build/logs/$name.console.log
		if ! grep -q '^panicking' "$tmp/out" || grep -q '^survived' "$tmp/out"; then
			echo "FAIL: $obj $mode: no panic where expected"
			tail -n 20 "$tmp/out"
			fail=1
			continue
		fi
		# The function names of the call trace, innermost first.
		tr -d '\r' < "$log" | sed -n '/nVHE call trace:/,/end nVHE call trace/p' |
			sed -n 's/.*\] \([^+ ]*\)+0x.*/\1/p' > "$tmp/trace"
		sed 's/^/   /' "$tmp/trace"
		if grep -q ftrace "$tmp/trace"; then
			echo "FAIL: $obj $mode: the tracer's hook in the call trace"
			fail=1
		fi
		# Each traced function, and right after it, its real caller.
		if ! grep -A1 -x __kvm_nvhe_handle___tracing_write_event "$tmp/trace" |
			grep -qx __kvm_nvhe_handle_host_hcall &&
		   ! grep -A1 -x __kvm_nvhe_handle___tracing_write_event "$tmp/trace" |
			grep -qx __kvm_nvhe_handle_trap; then
			echo "FAIL: $obj $mode: no handle___tracing_write_event called from the trap handler"
			fail=1
		fi
		# (__skip_pauth_save: a label in __host_exit with PAC built in.)
		if ! grep -A1 -x __kvm_nvhe_handle_trap "$tmp/trace" |
			grep -qxE '__kvm_nvhe___(host_exit|skip_pauth_save)'; then
			echo "FAIL: $obj $mode: no handle_trap called from __host_exit"
			fail=1
		fi
	done
done
exit $fail
