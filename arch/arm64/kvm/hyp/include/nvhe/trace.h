/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __ARM64_KVM_HYP_NVHE_TRACE_H
#define __ARM64_KVM_HYP_NVHE_TRACE_H

#include <linux/types.h>

int __pkvm_load_tracing(unsigned long desc_hva, size_t desc_size);
void __pkvm_unload_tracing(void);
int __pkvm_enable_tracing(bool enable);
int __pkvm_swap_reader_tracing(unsigned int cpu);
int __pkvm_reset_tracing(unsigned int cpu);
void __pkvm_update_clock_tracing(u32 mult, u32 shift, u64 epoch_ns, u64 epoch_cyc);
int __pkvm_enable_event(unsigned short id, bool enable);
int __pkvm_write_event(u64 id);

#endif /* __ARM64_KVM_HYP_NVHE_TRACE_H */
