/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HYP_EVENT(name, HE_PROTO(...), HE_STRUCT(...), HE_ASSIGN(...), HE_PRINTK(...))
 * defines a hypervisor event once, in asm/kvm_hypevents.h: the host gets a
 * remote event (include/trace/define_remote_events.h) and the hypervisor an
 * always-inline trace_<name>() (nvhe/trace.h). Ids are the position in that
 * file, from 1, the same on both sides.
 */
#ifndef __ARM64_KVM_HYPTRACE_H
#define __ARM64_KVM_HYPTRACE_H

#include <linux/types.h>

/* Why the hypervisor was entered or left (hyp_enter, hyp_exit). */
enum hyp_reason {
	HYP_REASON_HVC		= 1,
	HYP_REASON_SMC		= 2,
	HYP_REASON_HOST_ABORT	= 3,
	HYP_REASON_GUEST_EXIT	= 4,
	HYP_REASON_PSCI		= 5,
	HYP_REASON_ERET_HOST	= 6,
	HYP_REASON_ERET_GUEST	= 7,
	HYP_REASON_FIRMWARE	= 8,	/* to (exit) or back from (enter) an SMC */
};

/* Numbers, not names: tools read this in the events' print format. */
#define HYP_REASONS							\
	{ 1, "hvc" }, { 2, "smc" }, { 3, "host_abort" }, { 4, "guest_exit" }, \
	{ 5, "psci" }, { 6, "eret_host" }, { 7, "eret_guest" }, { 8, "firmware" }

/* vcpu_exit: ARM_EXCEPTION_* codes and the common exception classes. */
#define HYP_EXIT_CODES							\
	{ 0, "irq" }, { 1, "el1_serror" }, { 2, "trap" }, { 3, "il" }

#define HYP_EXIT_CLASSES						\
	{ 0x00, "unknown" }, { 0x01, "wfx" }, { 0x07, "fp_asimd" },	\
	{ 0x16, "hvc64" }, { 0x17, "smc64" }, { 0x18, "sys64" },	\
	{ 0x19, "sve" }, { 0x20, "iabt_low" }, { 0x24, "dabt_low" },	\
	{ 0x30, "breakpt_low" }, { 0x32, "softstp_low" },		\
	{ 0x34, "watchpt_low" }, { 0x3c, "brk64" }

#define HE_PROTO(__args...)		__args
#define HE_STRUCT(__fields...)		RE_STRUCT(__fields)
#define he_field(__type, __name)	re_field(__type, __name)
#define he_array(__type, __name, __len) re_array(__type, __name, __len)
#define HE_ASSIGN(__code...)		__code
#define HE_PRINTK(__fmt, __args...)	RE_PRINTK(__fmt, ##__args)

enum hyp_event_id {
	__HYP_EVENT_ID_NONE,
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk) hyp_event_id_##__name,
#include <asm/kvm_hypevents.h>
#undef HYP_EVENT
	HYP_NR_EVENTS
};

/* The remote event of each HYP_EVENT, for define_remote_events.h. */
#define HYP_EVENT_AS_REMOTE_EVENT(__name, __proto, __struct, __assign, __printk) \
	REMOTE_EVENT(__name, hyp_event_id_##__name, __struct, __printk);

/*
 * With CONFIG_NVHE_EL2_TRACING_TEST, a selftest event of this id (written
 * through write_event) is followed by a hypervisor panic: a test of the
 * dump of the trace on panic.
 */
#define HYP_TRACE_PANIC_ID	0x686e6963ULL

/*
 * With CONFIG_NVHE_EL2_TRACING_TEST, a selftest event of this id is followed
 * by hyp_printk() calls with known arguments (see nvhe/trace.c).
 */
#define HYP_TRACE_PRINTK_ID	0x7072696eULL

/*
 * With CONFIG_NVHE_EL2_TRACING_TEST, in protected mode, writing this id
 * writes no event: the hypervisor returns how many valid entries of its
 * stage-1 page table map its text or rodata writable (see nvhe/trace.c).
 */
#define HYP_TRACE_WX_ID		0x77786d61ULL

/*
 * With CONFIG_NVHE_EL2_TRACING_TEST, writing this id writes no event: the
 * hypervisor returns how often it has mapped its text to patch it.
 */
#define HYP_TRACE_TEXT_MAPS_ID	0x74786d70ULL

#ifndef __KVM_NVHE_HYPERVISOR__
int hyp_trace_sync_clock(void);
#endif

#endif /* __ARM64_KVM_HYPTRACE_H */
