/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_NVHE_TRACE_H
#define __ARM64_KVM_HYP_NVHE_TRACE_H

#include <linux/errno.h>
#include <linux/percpu-defs.h>
#include <linux/simple_ring_buffer.h>
#include <linux/types.h>
#include <asm/kvm_asm.h>
#include <asm/kvm_hyp.h>
#include <asm/kvm_hyptrace.h>

#ifdef CONFIG_NVHE_EL2_TRACING

int __pkvm_load_tracing(unsigned long desc_hva, size_t desc_size);
void __pkvm_unload_tracing(void);
int __pkvm_enable_tracing(bool enable);
int __pkvm_swap_reader_tracing(u64 cpu);
int __pkvm_reset_tracing(u64 cpu);
int __pkvm_update_clock_tracing(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc);
int __pkvm_enable_event(u64 id, bool enable);
int __pkvm_write_event(u64 id);

/* The records: struct remote_event_format_<name>. */
#define REMOTE_EVENT_INCLUDE_FILE asm/kvm_hypevents.h
#define REMOTE_EVENT_FORMAT_ONLY
#define HYP_EVENT HYP_EVENT_AS_REMOTE_EVENT
#include <trace/define_remote_events.h>
#undef HYP_EVENT
#undef REMOTE_EVENT_FORMAT_ONLY
#undef REMOTE_EVENT_INCLUDE_FILE

extern u32 hyp_trace_events[HYP_NR_EVENTS];
DECLARE_PER_CPU(struct simple_rb_per_cpu, hyp_trace_rb);
void *hyp_trace_reserve(unsigned long length);

/* Inline: one call less per event. */
static __always_inline void hyp_trace_commit(void)
{
	simple_ring_buffer_commit(this_cpu_ptr(&hyp_trace_rb));
}

/* trace_<name>(): one load and a branch (ldrb, cbz) while the event is off. */
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
static __always_inline void trace_##__name(__proto)			\
{									\
	struct remote_event_format_##__name *__entry;			\
									\
	if (!READ_ONCE(hyp_trace_events[hyp_event_id_##__name]))	\
		return;							\
	__entry = hyp_trace_reserve(sizeof(*__entry));			\
	if (!__entry)							\
		return;							\
	__entry->hdr.id = hyp_event_id_##__name;			\
	__assign							\
	hyp_trace_commit();						\
}

#else

/* Compiled out: the hypercalls exist and fail, the events cost nothing. */
static inline int __pkvm_load_tracing(unsigned long desc_hva, size_t desc_size)
{
	return -ENODEV;
}

static inline void __pkvm_unload_tracing(void) { }

static inline int __pkvm_enable_tracing(bool enable)
{
	return -ENODEV;
}

static inline int __pkvm_swap_reader_tracing(u64 cpu)
{
	return -ENODEV;
}

static inline int __pkvm_reset_tracing(u64 cpu)
{
	return -ENODEV;
}

static inline int __pkvm_update_clock_tracing(u64 mult, u64 shift, u64 epoch_ns,
					      u64 epoch_cyc)
{
	return -ENODEV;
}

static inline int __pkvm_enable_event(u64 id, bool enable)
{
	return -ENODEV;
}

static inline int __pkvm_write_event(u64 id)
{
	return -ENODEV;
}

#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
static __always_inline void trace_##__name(__proto) { }

#endif /* CONFIG_NVHE_EL2_TRACING */

#include <asm/kvm_hypevents.h>
#undef HYP_EVENT

#endif /* __ARM64_KVM_HYP_NVHE_TRACE_H */
