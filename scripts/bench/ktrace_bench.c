// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark module (not part of the series): the kernel's own tracers on
 * the work the hypervisor benchmark traces, for make bench's side-by-side
 * rows. It stays loaded, so that its function can be filtered; writing 1
 * to /sys/module/ktrace_bench/parameters/run times calls of a traceable
 * function, 2 an event site with the payload of the hypervisor's selftest
 * event (one u64). Prints the best of 3 runs of 20000, per call, for
 * whatever tracer or event is on: the difference between on and off is
 * the cost of tracing one call or writing one event.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>

#include "bench_loop.h"

#define CREATE_TRACE_POINTS
#include "ktrace_bench_trace.h"

static unsigned int calls = 20000;
static u64 ktrace_bench_sink;

/* What the function tracer traces: a call that cannot be optimized away. */
static noinline void ktrace_bench_func(u64 id)
{
	WRITE_ONCE(ktrace_bench_sink, id);
}

static u64 one_run(bool event)
{
	unsigned int i;

	if (event)
		return BENCH_TIME_CALLS(calls, i, trace_ktrace_bench(i));
	return BENCH_TIME_CALLS(calls, i, ktrace_bench_func(i));
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	u64 best = U64_MAX;
	unsigned int what;
	int ret, run;

	ret = kstrtouint(val, 0, &what);
	if (ret)
		return ret;
	if (what != 1 && what != 2)
		return -EINVAL;
	preempt_disable();
	for (run = 0; run < 3; run++)
		best = min(best, one_run(what == 2));
	preempt_enable();
	pr_info("ktrace_bench: %s %llu ns/call (%u calls, best of 3)\n",
		what == 2 ? "event" : "call", div_u64(best, calls), calls);
	return 0;
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
};
module_param_cb(run, &run_ops, NULL, 0200);

MODULE_DESCRIPTION("The kernel's tracers on the hypervisor benchmark's work");
MODULE_LICENSE("GPL");
