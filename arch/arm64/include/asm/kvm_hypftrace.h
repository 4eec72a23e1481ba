/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function tracing in the nVHE/pKVM hypervisor, shared by its trampolines,
 * its linker script and the host (arch/arm64/kvm/hyp_ftrace.c).
 *
 * Every function of the hypervisor built with -fpatchable-function-entry=1
 * starts with a NOP, its patch site; the sites are listed, in link order, in
 * __hyp_ftrace_sites[]. Tracing function i turns its NOP into a branch to
 * trampoline i, at __hyp_ftrace_tramps + i * HYP_FTRACE_TRAMP_SIZE.
 */
#ifndef __ARM64_KVM_HYPFTRACE_H
#define __ARM64_KVM_HYPFTRACE_H

/* Most patch sites the hypervisor may have: the link fails beyond. */
#define HYP_FTRACE_MAX_SITES	2048
/* mov x9, x30; bl __hyp_ftrace_caller */
#define HYP_FTRACE_TRAMP_SIZE	8

#endif /* __ARM64_KVM_HYPFTRACE_H */
