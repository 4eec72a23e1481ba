/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_NVHE_FTRACE_H
#define __ARM64_KVM_HYP_NVHE_FTRACE_H

#include <asm/kvm_hypftrace.h>
#include <asm/page-def.h>

/*
 * What the trampolines (ftrace_tramp.S) write the func and func_ret events
 * with: the offsets in struct hyp_trace_cpu of the fields they use, and the
 * constants of the events and of their buffer. ftrace.c checks each.
 */
#define HYP_FTRACE_EVENT_FUNC		10	/* hyp_event_id_func, then func_ret */
#define HYP_FTRACE_TC_TAIL_WRITE	8	/* rb.tail_write, then write_stamp */
#define HYP_FTRACE_TC_TAIL_COMMIT	24	/* rb.tail_commit, then meta */
#define HYP_FTRACE_TC_MULT		112	/* clock.mult, then shift */
#define HYP_FTRACE_TC_EPOCH		128	/* clock.epoch_cyc, then epoch_ns */
#define HYP_FTRACE_META_ENTRIES		40	/* trace_buffer_meta.entries */
#define HYP_FTRACE_RB_READY		4	/* SIMPLE_RB_READY, rb.status at 0 */
#define HYP_FTRACE_RB_READY_BIT		2
#define HYP_FTRACE_RB_WRITING		2
#define HYP_FTRACE_TS_SHIFT		27
#define HYP_FTRACE_FUNC_LEN		28	/* array[0] of the event */
#define HYP_FTRACE_FUNC_SIZE		32	/* the event, header included */
#define HYP_FTRACE_RET_LEN		44	/* the same for func_ret */
#define HYP_FTRACE_RET_SIZE		48
#define HYP_FTRACE_TC_RET_DEPTH		HYP_FTRACE_TC_RET
#define HYP_FTRACE_TC_RET_FRAME		(HYP_FTRACE_TC_RET + 8)	/* ret, sp, ip, calltime */
#define HYP_FTRACE_DATA_SIZE		(PAGE_SIZE - 24)

#ifndef __ASSEMBLY__

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
/* The direct calls to each site (gen-hypcalls.c). */
extern const u32 __hyp_ftrace_first_call[];
extern const s32 __hyp_ftrace_calls[];

unsigned long hyp_ftrace_entry(unsigned long site, unsigned long *parent, unsigned long sp);
unsigned long hyp_ftrace_hook_return(unsigned long site, unsigned long *parent, unsigned long sp);
unsigned long hyp_ftrace_exit(void);
int hyp_ftrace_write(unsigned long site, u32 old, u32 new);
int __tracing_ftrace_patch(u64 idx, u64 enable);
int hyp_ftrace_nr_text_maps(void);
void hyp_ftrace_cpu_entry(void);
unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
				  unsigned long va_mask);
#else
static inline int __tracing_ftrace_patch(u64 idx, u64 enable)
{
	return -ENODEV;
}

static inline void hyp_ftrace_cpu_entry(void) { }

static inline int hyp_ftrace_nr_text_maps(void)
{
	return 0;
}

static inline unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
						unsigned long va_mask)
{
	return pc;
}
#endif

#endif /* __ASSEMBLY__ */

#endif /* __ARM64_KVM_HYP_NVHE_FTRACE_H */
