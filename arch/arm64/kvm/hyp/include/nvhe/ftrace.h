/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_NVHE_FTRACE_H
#define __ARM64_KVM_HYP_NVHE_FTRACE_H

#include <linux/errno.h>
#include <linux/types.h>

struct kvm_cpu_context;

/* The host's hypercalls (hyp-main.c), called through this table. */
extern void (* const host_hcall[])(struct kvm_cpu_context *);
extern const unsigned int host_hcall_nr;

#ifdef CONFIG_NVHE_EL2_FTRACE
/* The patch sites (hyp.lds.S) and trampolines (ftrace_tramp.S). */
extern const unsigned long __hyp_ftrace_sites[], __hyp_ftrace_sites_end[];
extern char __hyp_ftrace_tramps[], __hyp_ftrace_return[];
/* Where the hypervisor's text stops being instructions (hyp/switch.h). */
extern struct kvm_exception_table_entry __start___kvm_ex_table;

unsigned long __hyp_ftrace_kimg_offset(void);
unsigned long hyp_ftrace_entry(unsigned long tramp_end, unsigned long *parent,
			       unsigned long sp);
unsigned long hyp_ftrace_exit(void);
int hyp_ftrace_write(unsigned long site, u32 old, u32 new);
int __tracing_ftrace_patch(u64 idx, u64 enable);
void hyp_ftrace_cpu_entry(void);
unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
				  unsigned long va_mask);
#else
static inline int __tracing_ftrace_patch(u64 idx, u64 enable)
{
	return -ENODEV;
}

static inline void hyp_ftrace_cpu_entry(void) { }

static inline unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
						unsigned long va_mask)
{
	return pc;
}
#endif

#endif /* __ARM64_KVM_HYP_NVHE_FTRACE_H */
