/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_FTRACE_H__
#define __ARM64_KVM_HYP_FTRACE_H__

struct dentry;
struct trace_seq;

#ifdef CONFIG_NVHE_EL2_FTRACE
int hyp_ftrace_init_files(struct dentry *d);
int hyp_ftrace_enable_event(unsigned short id, bool enable);
void hyp_ftrace_print_func(void *rec, struct trace_seq *s);
void hyp_ftrace_print_func_ret(void *rec, struct trace_seq *s);
unsigned int hyp_ftrace_nr_sites(void);
int hyp_ftrace_lookup(const char *name);
int hyp_ftrace_count_calls(unsigned int *past, unsigned int *to_site);
unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
				  unsigned long va_mask);
#else
static inline int hyp_ftrace_init_files(struct dentry *d)
{
	return 0;
}

static inline int hyp_ftrace_enable_event(unsigned short id, bool enable)
{
	return 0;
}

static inline unsigned int hyp_ftrace_nr_sites(void)
{
	return 0;
}

static inline unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
						unsigned long va_mask)
{
	return pc;
}
#endif

#endif /* __ARM64_KVM_HYP_FTRACE_H__ */
