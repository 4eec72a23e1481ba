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

#ifdef CONFIG_NVHE_EL2_TRACING

int __tracing_load(unsigned long desc_hva, size_t desc_size);
void __tracing_unload(void);
int __tracing_enable(bool enable);
int __tracing_swap_reader(u64 cpu);
int __tracing_reset(u64 cpu);

struct hyp_trace_cpu {
	struct simple_rb_per_cpu	rb;
};

DECLARE_PER_CPU(struct hyp_trace_cpu, hyp_trace_cpu);

#else

/* Compiled out: the hypercalls exist and fail. */
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

#endif /* CONFIG_NVHE_EL2_TRACING */

#endif /* __ARM64_KVM_HYP_NVHE_TRACE_H */
