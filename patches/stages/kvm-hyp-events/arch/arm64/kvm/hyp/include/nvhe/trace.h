/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_NVHE_TRACE_H
#define __ARM64_KVM_HYP_NVHE_TRACE_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/percpu-defs.h>
#include <linux/simple_ring_buffer.h>
#include <linux/types.h>
#include <asm/kvm_asm.h>
#include <asm/kvm_hyp.h>
#include <asm/kvm_hyptrace.h>

#ifdef CONFIG_NVHE_EL2_TRACING

int __tracing_load(unsigned long desc_hva, size_t desc_size);
void __tracing_unload(void);
int __tracing_enable(bool enable);
int __tracing_swap_reader(u64 cpu);
int __tracing_reset(u64 cpu);
int __tracing_update_clock(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc);
int __tracing_enable_event(u64 id, bool enable);
int __tracing_write_event(u64 id);

/* The records: struct remote_event_format_<name>. */
#define REMOTE_EVENT_INCLUDE_FILE asm/kvm_hypevents.h
#define REMOTE_EVENT_FORMAT_ONLY
#define HYP_EVENT HYP_EVENT_AS_REMOTE_EVENT
#include <trace/define_remote_events.h>
#undef HYP_EVENT
#undef REMOTE_EVENT_FORMAT_ONLY
#undef REMOTE_EVENT_INCLUDE_FILE

extern u32 hyp_trace_events[HYP_NR_EVENTS];

/*
 * Counter cycles to ns: epoch_ns + ((cycles - epoch_cyc) * mult) >> shift.
 * Up to max_delta cycles after the epoch, the product fits 64 bits.
 */
struct hyp_clock_conv {
	u64	epoch_cyc;
	u64	epoch_ns;
	u64	max_delta;
	u32	mult;
	u32	shift;
};

/*
 * The host's last conversion: @seq is odd while it changes, and counts the
 * changes. Each CPU works from its own copy, taken at sequence @seq, so that
 * an event reads no shared line but @seq and takes no retry loop.
 */
struct hyp_clock {
	u32			seq;
	struct hyp_clock_conv	conv;
};

extern struct hyp_clock hyp_clock;

struct hyp_trace_cpu {
	struct simple_rb_per_cpu	rb;
	struct hyp_clock_conv		clock;
	u32				clock_seq;
};

DECLARE_PER_CPU(struct hyp_trace_cpu, hyp_trace_cpu);

void hyp_trace_clock_refresh(struct hyp_trace_cpu *tc);
u64 hyp_trace_clock_wide(struct hyp_clock_conv *conv, u64 delta);

/*
 * The counter, unordered: unlike __arch_counter_get_cntpct(), no isb before
 * and no dependency after. The CPU may read it a few instructions early or
 * late; a time stamp needs no more precision than that, and the ring buffer
 * never lets one go backwards.
 */
static __always_inline u64 hyp_trace_read_counter(void)
{
	return read_sysreg(cntpct_el0);
}

/* Now, in the host's boot clock, as of its last update. */
static __always_inline u64 hyp_trace_clock(struct hyp_trace_cpu *tc)
{
	u64 delta;

	if (unlikely(READ_ONCE(hyp_clock.seq) != tc->clock_seq))
		hyp_trace_clock_refresh(tc);
	delta = hyp_trace_read_counter() - tc->clock.epoch_cyc;
	if (likely(delta <= tc->clock.max_delta))
		return tc->clock.epoch_ns + ((delta * tc->clock.mult) >> tc->clock.shift);
	return hyp_trace_clock_wide(&tc->clock, delta);
}

/* Inline, as simple_ring_buffer's fast path: no call on an event's way. */
static __always_inline void *hyp_trace_reserve(struct hyp_trace_cpu *tc, unsigned long length)
{
	return simple_ring_buffer_reserve(&tc->rb, length, hyp_trace_clock(tc));
}

static __always_inline void hyp_trace_commit(struct hyp_trace_cpu *tc)
{
	simple_ring_buffer_commit(&tc->rb);
}

/* trace_<name>(): one load and a branch (ldr, cbz) while the event is off. */
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
static __always_inline void trace_##__name(__proto)			\
{									\
	struct remote_event_format_##__name *__entry;			\
	struct hyp_trace_cpu *__tc;					\
									\
	if (!READ_ONCE(hyp_trace_events[hyp_event_id_##__name]))	\
		return;							\
	__tc = this_cpu_ptr(&hyp_trace_cpu);				\
	__entry = hyp_trace_reserve(__tc, sizeof(*__entry));		\
	if (!__entry)							\
		return;							\
	__entry->hdr = REMOTE_EVENT_HDR(hyp_event_id_##__name);	\
	__assign							\
	hyp_trace_commit(__tc);						\
}

#else

/* Compiled out: the hypercalls exist and fail, the events cost nothing. */
static inline int __tracing_load(unsigned long desc_hva, size_t desc_size)
{
	return -ENODEV;
}

static inline void __tracing_unload(void) { }

static inline int __tracing_enable(bool enable)
{
	return -ENODEV;
}

static inline int __tracing_swap_reader(u64 cpu)
{
	return -ENODEV;
}

static inline int __tracing_reset(u64 cpu)
{
	return -ENODEV;
}

static inline int __tracing_update_clock(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc)
{
	return -ENODEV;
}

static inline int __tracing_enable_event(u64 id, bool enable)
{
	return -ENODEV;
}

static inline int __tracing_write_event(u64 id)
{
	return -ENODEV;
}

#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
static __always_inline void trace_##__name(__proto) { }

#endif /* CONFIG_NVHE_EL2_TRACING */

#include <asm/kvm_hypevents.h>
#undef HYP_EVENT

#endif /* __ARM64_KVM_HYP_NVHE_TRACE_H */
