/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events of the nVHE/pKVM hypervisor, shown in remotes/hypervisor/.
 * No include guard: included once per pass, see asm/kvm_hyptrace.h.
 * Ids follow the order of the definitions, from 1, on both sides.
 *
 * vCPUs: vcpu is the index of the vCPU in its VM, the same number in every
 * VM; pid is the host thread that runs it (KVM_RUN), unique across VMs while
 * the thread lives: /proc/<pid>/status names the VMM process (Tgid) and, for
 * QEMU, the vCPU ("CPU 1/KVM"). Both are -1 for entries from and exits to
 * the host.
 */

HYP_EVENT(hyp_enter,
	HE_PROTO(u8 reason, struct kvm_vcpu *vcpu),
	HE_STRUCT(
		he_field(u8, reason)
		he_field(int, vcpu)
		he_field(int, pid)
	),
	HE_ASSIGN(
		__entry->reason = reason;
		__entry->vcpu = vcpu ? vcpu->vcpu_id : -1;
		__entry->pid = vcpu ? vcpu->arch.run_pid : -1;
	),
	HE_PRINTK("reason=%s vcpu=%d pid=%d",
		  __print_symbolic(__entry->reason, HYP_REASONS),
		  __entry->vcpu, __entry->pid)
)

HYP_EVENT(hyp_exit,
	HE_PROTO(u8 reason, struct kvm_vcpu *vcpu),
	HE_STRUCT(
		he_field(u8, reason)
		he_field(int, vcpu)
		he_field(int, pid)
	),
	HE_ASSIGN(
		__entry->reason = reason;
		__entry->vcpu = vcpu ? vcpu->vcpu_id : -1;
		__entry->pid = vcpu ? vcpu->arch.run_pid : -1;
	),
	HE_PRINTK("reason=%s vcpu=%d pid=%d",
		  __print_symbolic(__entry->reason, HYP_REASONS),
		  __entry->vcpu, __entry->pid)
)

HYP_EVENT(host_hcall,
	HE_PROTO(u64 id, u8 invalid),
	HE_STRUCT(
		he_field(u64, id)
		he_field(u8, invalid)
	),
	HE_ASSIGN(
		__entry->id = id;
		__entry->invalid = invalid;
	),
	HE_PRINTK("id=%llu invalid=%u", __entry->id, __entry->invalid)
)

HYP_EVENT(host_smc,
	HE_PROTO(u64 id, u8 forwarded),
	HE_STRUCT(
		he_field(u64, id)
		he_field(u8, forwarded)
	),
	HE_ASSIGN(
		__entry->id = id;
		__entry->forwarded = forwarded;
	),
	HE_PRINTK("id=0x%llx forwarded=%u", __entry->id, __entry->forwarded)
)

HYP_EVENT(host_mem_abort,
	HE_PROTO(u64 esr, u64 addr),
	HE_STRUCT(
		he_field(u64, esr)
		he_field(u64, addr)
	),
	HE_ASSIGN(
		__entry->esr = esr;
		__entry->addr = addr;
	),
	HE_PRINTK("esr=0x%llx addr=0x%llx", __entry->esr, __entry->addr)
)

HYP_EVENT(selftest,
	HE_PROTO(u64 id),
	HE_STRUCT(
		he_field(u64, id)
	),
	HE_ASSIGN(
		__entry->id = id;
	),
	HE_PRINTK("id=%llu", __entry->id)
)

/* Written right after the guest exits: ESR_EL2 still holds the trap's. */
HYP_EVENT(vcpu_exit,
	HE_PROTO(struct kvm_vcpu *vcpu, u32 code),
	HE_STRUCT(
		he_field(int, vcpu)
		he_field(int, pid)
		he_field(u32, code)
		he_field(u64, esr)
	),
	HE_ASSIGN(
		__entry->vcpu = vcpu->vcpu_id;
		__entry->pid = vcpu->arch.run_pid;
		__entry->code = code;
		__entry->esr = code == ARM_EXCEPTION_TRAP ? read_sysreg_el2(SYS_ESR) : 0;
	),
	HE_PRINTK("vcpu=%d pid=%d code=%s ec=%s esr=0x%llx", __entry->vcpu, __entry->pid,
		  __print_symbolic(__entry->code, HYP_EXIT_CODES),
		  __print_symbolic((__entry->esr >> 26) & 0x3f, HYP_EXIT_CLASSES),
		  __entry->esr)
)
