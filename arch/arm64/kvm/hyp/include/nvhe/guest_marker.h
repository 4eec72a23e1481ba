/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest marker: a guest's vendor hypervisor call that puts a mark in the
 * hypervisor's trace, answered at EL2 without a return to the host.
 */
#ifndef __ARM64_KVM_HYP_NVHE_GUEST_MARKER_H
#define __ARM64_KVM_HYP_NVHE_GUEST_MARKER_H

#include <linux/arm-smccc.h>
#include <linux/bitops.h>
#include <linux/kvm_host.h>
#include <linux/string.h>
#include <asm/kvm_emulate.h>
#include <asm/kvm_mmu.h>
#include <nvhe/trace.h>

#ifdef CONFIG_NVHE_EL2_TRACING

#define HYP_GUEST_MARKER_LEN	48

/*
 * The text of a marker, into a zeroed @text: the bytes of x1..x6, least
 * significant first (the text's memory order in a little-endian guest), up
 * to the first NUL and at most 47; a byte that is not printable ASCII reads
 * '?', so that no escape sequence reaches a reader's terminal. No memset()
 * of a variable length: FORTIFY_SOURCE would check it with a call EL2 does
 * not have.
 */
static inline void hyp_guest_marker_text(struct kvm_vcpu *vcpu, char *text)
{
	int i;

	for (i = 0; i < HYP_GUEST_MARKER_LEN - 1; i++) {
		u8 c = vcpu_get_reg(vcpu, 1 + i / 8) >> (8 * (i % 8));

		if (!c)
			break;
		text[i] = c >= ' ' && c <= '~' ? c : '?';
	}
}

/*
 * An HVC of the guest: the guest marker is answered here if the host said
 * so when the VM first ran (its VMM left it in the vendor hypervisor bitmap
 * and no SMCCC filter of the VMM takes it), with the event on or off. Any
 * other call, or a marker not answered here, goes to the host.
 */
static inline bool kvm_hyp_handle_guest_marker(struct kvm_vcpu *vcpu, u64 *exit_code)
{
	struct kvm *kvm = kern_hyp_va(vcpu->kvm);
	char text[HYP_GUEST_MARKER_LEN] = {};

	/* The function id is w0, as smccc_get_function() reads it. */
	if ((u32)vcpu_get_reg(vcpu, 0) != ARM_SMCCC_VENDOR_HYP_KVM_GUEST_MARKER_FUNC_ID ||
	    !test_bit(KVM_ARCH_FLAG_GUEST_MARKER, &kvm->arch.flags))
		return false;

	if (READ_ONCE(hyp_trace_events[hyp_event_id_guest_marker])) {
		hyp_guest_marker_text(vcpu, text);
		trace_guest_marker(vcpu, text);
	}
	vcpu_set_reg(vcpu, 0, SMCCC_RET_SUCCESS);
	return true;
}

#else

static inline bool kvm_hyp_handle_guest_marker(struct kvm_vcpu *vcpu, u64 *exit_code)
{
	return false;
}

#endif /* CONFIG_NVHE_EL2_TRACING */

#endif /* __ARM64_KVM_HYP_NVHE_GUEST_MARKER_H */
