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

/*
 * A hypercall of the host: id is its number (__KVM_HOST_SMCCC_FUNC_*),
 * invalid 1 if refused. The host prints its name too, as name= at the end
 * (hyp_trace.c).
 */
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

/*
 * An FF-A call of the host, at the FF-A proxy: handled by the hypervisor
 * (then res_a1..res_a4 are what the host finds in x1..x4 on return, and err
 * the FF-A error code if it returns FFA_ERROR, 0 otherwise) or forwarded to
 * the secure world (handled 0, the rest 0).
 */
HYP_EVENT(host_ffa_call,
	HE_PROTO(u64 func_id, u64 res_a1, u64 res_a2, u64 res_a3, u64 res_a4, int handled,
		 int err),
	HE_STRUCT(
		he_field(u64, func_id)
		he_field(u64, res_a1)
		he_field(u64, res_a2)
		he_field(u64, res_a3)
		he_field(u64, res_a4)
		he_field(int, handled)
		he_field(int, err)
	),
	HE_ASSIGN(
		__entry->func_id = func_id;
		__entry->res_a1 = res_a1;
		__entry->res_a2 = res_a2;
		__entry->res_a3 = res_a3;
		__entry->res_a4 = res_a4;
		__entry->handled = handled;
		__entry->err = err;
	),
	HE_PRINTK("func_id=0x%llx res=0x%llx,0x%llx,0x%llx,0x%llx handled=%d err=%d",
		  __entry->func_id, __entry->res_a1, __entry->res_a2, __entry->res_a3,
		  __entry->res_a4, __entry->handled, __entry->err)
)

/*
 * The hypervisor injects an undefined exception into a protected guest for
 * a trap it does not allow (esr: the trap's ESR_EL2).
 */
HYP_EVENT(vcpu_illegal_trap,
	HE_PROTO(struct kvm_vcpu *vcpu, u64 esr),
	HE_STRUCT(
		he_field(u64, esr)
		he_field(int, vcpu)
		he_field(int, pid)
	),
	HE_ASSIGN(
		__entry->esr = esr;
		__entry->vcpu = vcpu->vcpu_id;
		__entry->pid = vcpu->arch.run_pid;
	),
	HE_PRINTK("esr=0x%llx vcpu=%d pid=%d", __entry->esr, __entry->vcpu, __entry->pid)
)

#ifdef CONFIG_NVHE_EL2_FTRACE
/*
 * Function tracing (set_ftrace_filter): the traced function at ip was called
 * from parent_ip. Both are kernel image addresses, as in /proc/kallsyms
 * (__kvm_nvhe_<name>).
 */
HYP_EVENT(func,
	HE_PROTO(unsigned long ip, unsigned long parent_ip),
	HE_STRUCT(
		he_field(unsigned long, ip)
		he_field(unsigned long, parent_ip)
	),
	HE_ASSIGN(
		__entry->ip = ip;
		__entry->parent_ip = parent_ip;
	),
	HE_PRINTK("%ps <- %pS", (void *)__entry->ip, (void *)__entry->parent_ip)
)

/*
 * The return of a call traced by func: depth is the number of traced calls
 * it was made in, calltime and rettime when it was made and when it
 * returned, in the trace clock (calltime is the time of its func event but
 * for the few cycles between the two reads).
 */
HYP_EVENT(func_ret,
	HE_PROTO(unsigned long ip, unsigned int depth, u64 calltime, u64 rettime),
	HE_STRUCT(
		he_field(unsigned long, ip)
		he_field(u64, calltime)
		he_field(u64, rettime)
		he_field(unsigned int, depth)
	),
	HE_ASSIGN(
		__entry->ip = ip;
		__entry->calltime = calltime;
		__entry->rettime = rettime;
		__entry->depth = depth;
	),
	HE_PRINTK("%ps depth=%u (%llu.%03llu us)", (void *)__entry->ip, __entry->depth,
		  (__entry->rettime - __entry->calltime) / 1000,
		  (__entry->rettime - __entry->calltime) % 1000)
)
#endif

/*
 * hyp_printk() (nvhe/trace.h): fmt_id is the offset of the format string in
 * the hypervisor's .hyp.printk_fmts section, a0..a3 the arguments (unused
 * ones 0). The host prints the formatted text; tools get the raw fields.
 */
HYP_EVENT(hyp_printk,
	HE_PROTO(u32 fmt_id, u64 a0, u64 a1, u64 a2, u64 a3),
	HE_STRUCT(
		he_field(u32, fmt_id)
		he_field(u64, a0)
		he_field(u64, a1)
		he_field(u64, a2)
		he_field(u64, a3)
	),
	HE_ASSIGN(
		__entry->fmt_id = fmt_id;
		__entry->a0 = a0;
		__entry->a1 = a1;
		__entry->a2 = a2;
		__entry->a3 = a3;
	),
	HE_PRINTK("fmt_id=%u a0=0x%llx a1=0x%llx a2=0x%llx a3=0x%llx", __entry->fmt_id,
		  __entry->a0, __entry->a1, __entry->a2, __entry->a3)
)

/*
 * A mark a guest wrote into the hypervisor's trace (the guest marker
 * hypercall): @text is what it gave, up to 47 bytes, made printable at EL2.
 */
HYP_EVENT(guest_marker,
	HE_PROTO(struct kvm_vcpu *vcpu, const char *text),
	HE_STRUCT(
		he_field(int, vcpu)
		he_field(int, pid)
		he_array(char, text, 48)
	),
	HE_ASSIGN(
		__entry->vcpu = vcpu->vcpu_id;
		__entry->pid = vcpu->arch.run_pid;
		memcpy(__entry->text, text, sizeof(__entry->text));
	),
	HE_PRINTK("vcpu=%d pid=%d text=%.48s", __entry->vcpu, __entry->pid, __entry->text)
)

