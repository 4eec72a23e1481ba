/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_NVHE_TRACE_H
#define __ARM64_KVM_HYP_NVHE_TRACE_H

#include <linux/args.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/percpu-defs.h>
#include <linux/simple_ring_buffer.h>
#include <linux/trace_remote_event.h>
#include <linux/types.h>
#include <asm/kvm_asm.h>
#include <asm/kvm_hyp.h>
#include <asm/kvm_hypftrace.h>
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
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
	REMOTE_EVENT_FORMAT(__name, __struct);
#include <asm/kvm_hypevents.h>
#undef HYP_EVENT

/* Aligned: the function tracer reads two neighbours as one (ftrace_tramp.S). */
extern u32 hyp_trace_events[HYP_NR_EVENTS] __aligned(8);
extern u32 hyp_trace_nr_trap_events_on;

/*
 * Whether hyp_enter, hyp_exit or host_hcall is on: handle_trap() tests this
 * once and, while it is false, runs a copy of itself without their sites.
 */
static __always_inline bool hyp_trace_trap_events_on(void)
{
	return READ_ONCE(hyp_trace_nr_trap_events_on);
}

/*
 * A conversion of counter cycles to ns, with one high-half multiply and no
 * branch:
 *
 *	ns = epoch_ns + (((s64)(cycles - epoch_cyc) << shift) * mult) >> 64
 *
 * which is the host's conversion brought to a shift of 32, m (ns per cycle
 * in units of 2^-32 ns, below 2^63), with m's 32 bits of shift split
 * between its two factors: @mult is m shifted left as far as a sign allows
 * (at most by 32) and @shift is what is left. The product of m and the
 * cycles since the epoch is never rounded, and the cycles shifted by @shift
 * keep their sign for at least 2^61 ns after the epoch: a counter read a
 * little before the epoch (it is read unordered) gives a time a little
 * before it.
 *
 * hyp_clock is the host's last conversion, and its @seq is odd while it
 * changes and counts the changes. Each CPU works from its own copy (whose
 * @seq is unused), so that an event reads no shared line and takes no
 * retry loop. __tracing_update_clock() marks every copy stale once it has
 * changed hyp_clock by setting its @mult to 0, which no conversion has: an
 * event tests the @mult it loads anyway.
 */
struct hyp_clock {
	s64		mult;
	u64		shift;
	u64		epoch_cyc;
	u64		epoch_ns;
	unsigned long	seq;
};

extern struct hyp_clock hyp_clock;

struct hyp_trace_cpu {
	struct simple_rb_per_cpu	rb;
	struct hyp_clock		clock;
	bool				loaded;		/* under trace_lock */
#ifdef CONFIG_NVHE_EL2_FTRACE
	/* Next to the buffer, which its trampolines find it with (ftrace.c). */
	struct hyp_ftrace_ret_stack	ftrace_ret;
#endif
};

DECLARE_PER_CPU(struct hyp_trace_cpu, hyp_trace_cpu);

u64 hyp_trace_clock_refresh(struct hyp_trace_cpu *tc);

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

static __always_inline u64 hyp_trace_clock_conv(u64 cycles, const struct hyp_clock *conv)
{
	s64 delta = (cycles - conv->epoch_cyc) << conv->shift;

	return conv->epoch_ns + (u64)(((s128)delta * conv->mult) >> 64);
}

/*
 * Now, in the host's boot clock, as of its last update; out of line when
 * the host changed the conversion since. Another CPU may set @mult to 0
 * while it is read: the copy read is then either whole or marked stale
 * (were @mult loaded again after the test, 0 would give @epoch_ns, a time
 * in the past, and the writer keeps stamps from going back).
 */
static __always_inline u64 hyp_trace_clock(struct hyp_trace_cpu *tc)
{
	struct hyp_clock conv = tc->clock;
	u64 cycles = hyp_trace_read_counter();

	simple_rb_hold(conv.mult, conv.shift);
	if (unlikely(!conv.mult))
		return hyp_trace_clock_refresh(tc);
	return hyp_trace_clock_conv(cycles, &conv);
}

/* Inline, as simple_ring_buffer's fast path: no call on an event's way. */
static __always_inline void *hyp_trace_reserve(struct hyp_trace_cpu *tc, unsigned long length,
					       struct simple_rb_reservation *res)
{
	return simple_ring_buffer_reserve_event(&tc->rb, length, hyp_trace_clock(tc), res);
}

static __always_inline void hyp_trace_commit(struct hyp_trace_cpu *tc,
					     const struct simple_rb_reservation *res)
{
	simple_ring_buffer_commit_event(&tc->rb, res);
}

/*
 * trace_<name>(): one load and a branch (ldr, cbz) while the event is off.
 * __hyp_fill_<name>(): the record of an event, for trace_hyp_pair().
 */
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
static __always_inline void trace_##__name(__proto)			\
{									\
	struct remote_event_format_##__name *__entry;			\
	struct simple_rb_reservation __res;				\
	struct hyp_trace_cpu *__tc;					\
									\
	if (!READ_ONCE(hyp_trace_events[hyp_event_id_##__name]))	\
		return;							\
	__tc = this_cpu_ptr(&hyp_trace_cpu);				\
	__entry = hyp_trace_reserve(__tc, sizeof(*__entry), &__res);	\
	if (!__entry)							\
		return;							\
	__entry->hdr = REMOTE_EVENT_HDR(hyp_event_id_##__name);	\
	__assign							\
	hyp_trace_commit(__tc, &__res);					\
}									\
									\
static __always_inline void						\
__hyp_fill_##__name(struct remote_event_format_##__name *__entry, __proto) \
{									\
	__entry->hdr = REMOTE_EVENT_HDR(hyp_event_id_##__name);	\
	__assign							\
}

#define __HYP_ARGS(...)	__VA_ARGS__

/*
 * trace_hyp_pair(a, (args of a), b, (args of b)) does what
 * "trace_a(args of a); trace_b(args of b);" does, but with both events on,
 * they share one reservation and one time stamp: the clock read and the
 * taking and release of the buffer are paid once. The four loads and
 * branches of two sites while both are off.
 */
#define trace_hyp_pair(__a, __a_args, __b, __b_args)			\
do {									\
	struct remote_event_format_##__a *__ea;				\
	struct remote_event_format_##__b *__eb;				\
	u32 __on_a = READ_ONCE(hyp_trace_events[hyp_event_id_##__a]);	\
	u32 __on_b = READ_ONCE(hyp_trace_events[hyp_event_id_##__b]);	\
	struct simple_rb_reservation __res;				\
	struct hyp_trace_cpu *__tc;					\
									\
	if (!(__on_a | __on_b))						\
		break;							\
	/* Each 0 or 1: __tracing_enable_event() stores a bool. */	\
	if (!(__on_a & __on_b)) {					\
		trace_##__a __a_args;					\
		trace_##__b __b_args;					\
		break;							\
	}								\
	__tc = this_cpu_ptr(&hyp_trace_cpu);				\
	__ea = simple_ring_buffer_reserve_pair(&__tc->rb, sizeof(*__ea), sizeof(*__eb), \
					       hyp_trace_clock(__tc), &__res,	\
					       (void **)&__eb);		\
	if (!__ea)							\
		break;							\
	__hyp_fill_##__a(__ea, __HYP_ARGS __a_args);			\
	__hyp_fill_##__b(__eb, __HYP_ARGS __b_args);			\
	simple_ring_buffer_commit_pair(&__tc->rb, &__res);		\
} while (0)

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

static inline bool hyp_trace_trap_events_on(void)
{
	return false;
}

#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
static __always_inline void trace_##__name(__proto) { }

#define trace_hyp_pair(__a, __a_args, __b, __b_args)			\
do {									\
	trace_##__a __a_args;						\
	trace_##__b __b_args;						\
} while (0)

#endif /* CONFIG_NVHE_EL2_TRACING */

#include <asm/kvm_hypevents.h>
#undef HYP_EVENT

/*
 * hyp_printk(fmt, ...) - Write a hyp_printk event: the format's id and up
 * to four integer arguments. The format string is kept once, in the
 * section .hyp.printk_fmts that the host reads to print the text.
 *
 * Checked at build time: @fmt is a string literal, there are at most four
 * arguments, each an integer (no %s, %p or other pointer), and they match
 * the conversions of @fmt (-Wformat, as errors). Nothing is written while
 * the event is off, and nothing is built in without tracing.
 */
static inline __printf(1, 2) void __hyp_printk_check(const char *fmt, ...) { }

/* Whether @__a is an integer: no pointer, array, float or aggregate. */
#define __HYP_PRINTK_IS_INT(__a)	(__builtin_classify_type(__a) <= 4)
/* Of the arguments padded with zeros: all four integers; a call with them. */
#define __HYP_PRINTK_INTS(__is, __a, __b, __c, __d, ...)		\
	(__is(__a) && __is(__b) && __is(__c) && __is(__d))
#define __HYP_PRINTK_CALL(__fn, __id, __a, __b, __c, __d, ...)		\
	__fn(__id, (u64)(__a), (u64)(__b), (u64)(__c), (u64)(__d))

#ifdef CONFIG_NVHE_EL2_TRACING
extern const char __hyp_printk_fmts_start[];

#define __hyp_printk_emit(__fmt, __args...)				\
do {									\
	static const char __hyp_printk_fmt[]				\
		__section(".hyp_printk_fmts") __aligned(1) = __fmt;	\
									\
	__HYP_PRINTK_CALL(trace_hyp_printk,				\
			  __hyp_printk_fmt - __hyp_printk_fmts_start,	\
			  ##__args, 0, 0, 0, 0);			\
} while (0)
#else
#define __hyp_printk_emit(__fmt, __args...) ((void)(__fmt))
#endif

#define hyp_printk(__fmt, __args...)					\
do {									\
	static_assert(COUNT_ARGS(__args) <= 4,				\
		      "hyp_printk: at most four arguments");		\
	static_assert(__HYP_PRINTK_INTS(__HYP_PRINTK_IS_INT, ##__args,	\
					0, 0, 0, 0),			\
		      "hyp_printk: integer arguments only");		\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic error \"-Wformat\"")			\
	_Pragma("GCC diagnostic error \"-Wformat-extra-args\"")	\
	if (0)								\
		__hyp_printk_check(__fmt, ##__args);			\
	_Pragma("GCC diagnostic pop")					\
	__hyp_printk_emit(__fmt, ##__args);				\
} while (0)

#endif /* __ARM64_KVM_HYP_NVHE_TRACE_H */
