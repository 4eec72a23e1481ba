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

#define HYP_MARKER_REP8(b)	((b) * 0x0101010101010101ULL)

/*
 * The text of a marker, into a zeroed @text: the bytes of x1..x6, least
 * significant first (the text's memory order in a little-endian guest), up
 * to the first NUL and at most 47; a byte that is not printable ASCII reads
 * '?', so that no escape sequence reaches a reader's terminal. A register
 * of eight printable bytes is stored whole: per byte, the top bit of
 * "bad" is set if the byte is below ' ' (NUL included: the low seven bits
 * plus 0x60 do not reach 0x80), DEL (plus 1 reaches it) or past ASCII; no
 * byte's sum carries into the next. Only a register with such a byte is
 * read byte by byte.
 */
static inline void hyp_guest_marker_text(struct kvm_vcpu *vcpu, u64 *text)
{
	int r, i;

	for (r = 0; r < HYP_GUEST_MARKER_LEN / 8; r++) {
		u64 x = vcpu_get_reg(vcpu, 1 + r), lo, bad;

		/* The 48th byte stays NUL. */
		if (r == HYP_GUEST_MARKER_LEN / 8 - 1)
			x &= GENMASK_ULL(55, 0);
		lo = x & HYP_MARKER_REP8(0x7f);
		bad = (~(lo + HYP_MARKER_REP8(0x60)) | (lo + HYP_MARKER_REP8(0x01)) | x) &
		      HYP_MARKER_REP8(0x80);
		if (!bad) {
			text[r] = cpu_to_le64(x);
			continue;
		}
		for (i = 0; i < 8; i++) {
			u8 c = x >> (8 * i);

			if (!c)
				return;
			((char *)text)[8 * r + i] = c >= ' ' && c <= '~' ? c : '?';
		}
	}
}

/*
 * The guest marker is answered here if the host said so when the VM first
 * ran (its VMM left it in the vendor hypervisor bitmap and no SMCCC filter
 * of the VMM takes it), with the event on or off. Out of line: every other
 * HVC of a guest pays only for the test of its function id.
 */
static noinline bool hyp_guest_marker(struct kvm_vcpu *vcpu)
{
	struct kvm *kvm = kern_hyp_va(vcpu->kvm);
	u64 text[HYP_GUEST_MARKER_LEN / 8] = {};

	if (!test_bit(KVM_ARCH_FLAG_GUEST_MARKER, &kvm->arch.flags))
		return false;

	if (READ_ONCE(hyp_trace_events[hyp_event_id_guest_marker])) {
		hyp_guest_marker_text(vcpu, text);
		trace_guest_marker(vcpu, (char *)text);
	}
	vcpu_set_reg(vcpu, 0, SMCCC_RET_SUCCESS);
	return true;
}

/*
 * An HVC of the guest: any call but the marker, or a marker not answered
 * here, goes to the host.
 */
static inline bool kvm_hyp_handle_guest_marker(struct kvm_vcpu *vcpu, u64 *exit_code)
{
	/* The function id is w0, as smccc_get_function() reads it. */
	if ((u32)vcpu_get_reg(vcpu, 0) != ARM_SMCCC_VENDOR_HYP_KVM_GUEST_MARKER_FUNC_ID)
		return false;
	return hyp_guest_marker(vcpu);
}

#else

static inline bool kvm_hyp_handle_guest_marker(struct kvm_vcpu *vcpu, u64 *exit_code)
{
	return false;
}

#endif /* CONFIG_NVHE_EL2_TRACING */

#endif /* __ARM64_KVM_HYP_NVHE_GUEST_MARKER_H */
