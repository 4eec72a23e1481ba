/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_PRINTK_H__
#define __ARM64_KVM_HYP_PRINTK_H__

struct trace_seq;

void hyp_printk_print(void *rec, struct trace_seq *seq);
void hyp_printk_init(void);

#endif /* __ARM64_KVM_HYP_PRINTK_H__ */
