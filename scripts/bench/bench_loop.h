/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timed loop of the benchmark modules (not part of the series): ns for
 * @calls runs of @body, with preemption off but for a cond_resched() every
 * 1000, which is not timed. @i is the loop index, usable in @body.
 */
#ifndef BENCH_LOOP_H
#define BENCH_LOOP_H

#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#define BENCH_TIME_CALLS(calls, i, body)				\
({									\
	u64 __t0 = 0, __t = 0;						\
									\
	for (i = 0; i < (calls); i++) {					\
		if (!(i % 1000)) {					\
			if (i)						\
				__t += ktime_get_ns() - __t0;		\
			preempt_enable();				\
			cond_resched();					\
			preempt_disable();				\
			__t0 = ktime_get_ns();				\
		}							\
		body;							\
	}								\
	__t + ktime_get_ns() - __t0;					\
})

#endif /* BENCH_LOOP_H */
