// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark module (not part of the series): cost of a host hypercall
 * round trip to the nVHE/pKVM hypervisor, through its host trap path (where
 * hyp_enter, host_hcall and hyp_exit are traced). The hypercall is far
 * past the last one the hypervisor knows: it fails the same way whatever
 * is compiled in, so the loop measures the trap path and its three event
 * sites, nothing else. With write_event=1 it calls __tracing_write_event
 * instead, which
 * writes one selftest event when that event is on: the difference between
 * on and off is the cost of one event at EL2. Prints the best of a few runs
 * and fails to load on purpose (nothing to unload).
 */
#include <linux/arm-smccc.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>
#include <asm/kvm_asm.h>

#include "bench_loop.h"

/* Not "the last one + 1": a hypercall added after it would be that. */
#define BENCH_HCALL_UNKNOWN	KVM_HOST_SMCCC_ID(0x1000)

static unsigned int calls = 20000;
module_param(calls, uint, 0444);

/* 0: an unknown hypercall, the bare trap path; 1: __tracing_write_event. */
static unsigned int write_event;
module_param(write_event, uint, 0444);

static u64 one_run(void)
{
	struct arm_smccc_res res;
	unsigned int i;

	if (write_event)
		return BENCH_TIME_CALLS(calls, i,
			arm_smccc_1_1_hvc(KVM_HOST_SMCCC_FUNC(__tracing_write_event), i, &res));
	return BENCH_TIME_CALLS(calls, i, arm_smccc_1_1_hvc(BENCH_HCALL_UNKNOWN, &res));
}

static int __init hyp_bench_init(void)
{
	u64 best = U64_MAX;
	int run;

	if (!calls)
		return -EINVAL;
	preempt_disable();
	for (run = 0; run < 3; run++)
		best = min(best, one_run());
	preempt_enable();
	pr_info("hyp_bench: %s %llu ns/call (%u calls, best of 3)\n",
		write_event ? "write_event" : "hcall", div_u64(best, calls), calls);
	return -EAGAIN;
}
module_init(hyp_bench_init);

MODULE_DESCRIPTION("Host hypercall round-trip benchmark");
MODULE_LICENSE("GPL");
