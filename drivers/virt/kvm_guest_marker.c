// SPDX-License-Identifier: GPL-2.0
/*
 * Marks on the hypervisor's timeline, from a KVM guest on arm64.
 *
 * A hypervisor that offers KVM's guest marker service writes each call of
 * it into its own trace, with the vCPU and the host thread that ran it, on
 * the host's clock. This driver gives the guest two ways to call it: the
 * tracefs file hyp_trace_marker, where each write of a line is one marker
 * (as trace_marker is for the guest's own trace), and, with
 * kvm_guest_marker.milestones=1 on the command line, the guest kernel's own
 * milestones: each initcall level reached, each program pid 1 runs, and the
 * shutdown. Without the service nothing is created and nothing is called.
 */
#define pr_fmt(fmt) "kvm_guest_marker: " fmt

#include <linux/arm-smccc.h>
#include <linux/binfmts.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <trace/events/initcall.h>
#include <trace/events/sched.h>
#include <asm/hypervisor.h>

/* x1..x6 carry the text; the hypervisor keeps at most 47 bytes of it. */
#define MARKER_REGS	6
#define MARKER_LEN	(MARKER_REGS * 8 - 1)

static bool milestones;
module_param(milestones, bool, 0444);
MODULE_PARM_DESC(milestones, "Mark initcall levels, the programs of pid 1 and the shutdown");

/*
 * The text goes in the registers in memory order, least significant byte
 * first, whatever the guest's endianness: the hypervisor reads it so.
 * Returns the SMCCC status: NOT_SUPPORTED where the VMM denies the call
 * (its SMCCC filter) while leaving the service listed.
 */
static long kvm_guest_marker(const char *text, size_t len)
{
	struct arm_smccc_res res;
	char buf[MARKER_REGS * 8] = {};
	u64 x[MARKER_REGS];
	int i;

	memcpy(buf, text, min(len, MARKER_LEN));
	for (i = 0; i < MARKER_REGS; i++)
		x[i] = get_unaligned_le64(buf + 8 * i);
	arm_smccc_1_1_invoke(ARM_SMCCC_VENDOR_HYP_KVM_GUEST_MARKER_FUNC_ID,
			     x[0], x[1], x[2], x[3], x[4], x[5], &res);
	return res.a0;
}

static __printf(1, 2) void kvm_guest_markf(const char *fmt, ...)
{
	char text[MARKER_LEN + 1];
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	kvm_guest_marker(text, len);
}

/*
 * One write is one marker of its first 47 bytes, less a final newline; a
 * longer write is taken in part, so that a writer that goes on with the
 * rest (as write(2)'s callers should) sends it in the following markers.
 * A call the VMM denies fails the write with EOPNOTSUPP.
 */
static ssize_t hyp_trace_marker_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	size_t taken = min(count, MARKER_LEN), len = taken;
	char text[MARKER_LEN];

	if (!count)
		return 0;
	if (copy_from_user(text, ubuf, taken))
		return -EFAULT;
	if (text[len - 1] == '\n')
		len--;
	if (len && kvm_guest_marker(text, len) != SMCCC_RET_SUCCESS)
		return -EOPNOTSUPP;
	return taken;
}

static const struct file_operations hyp_trace_marker_fops = {
	.open = nonseekable_open,
	.write = hyp_trace_marker_write,
};

static void marker_initcall_level(void *data, const char *level)
{
	kvm_guest_markf("initcall level %s", level);
}

static void marker_exec(void *data, struct task_struct *p, pid_t old_pid,
			struct linux_binprm *bprm)
{
	if (is_global_init(p))
		kvm_guest_markf("pid 1 runs %s", bprm->filename);
}

static int marker_reboot(struct notifier_block *nb, unsigned long action, void *cmd)
{
	kvm_guest_markf("%s", action == SYS_RESTART ? "restart" :
			      action == SYS_HALT ? "halt" : "power off");
	return NOTIFY_DONE;
}

static struct notifier_block marker_reboot_nb = {
	.notifier_call = marker_reboot,
};

/*
 * Early, to see the levels that follow. The early level has begun when
 * this runs: it is marked here, in its place among the early initcalls.
 */
static int __init kvm_guest_marker_milestones(void)
{
	if (!milestones || !kvm_arm_hyp_service_available(ARM_SMCCC_KVM_FUNC_GUEST_MARKER))
		return 0;
	kvm_guest_markf("initcall level early");
	if (register_trace_initcall_level(marker_initcall_level, NULL))
		pr_warn("initcall levels will not be marked\n");
	if (register_trace_sched_process_exec(marker_exec, NULL))
		pr_warn("the programs of pid 1 will not be marked\n");
	if (register_reboot_notifier(&marker_reboot_nb))
		pr_warn("the shutdown will not be marked\n");
	return 0;
}
early_initcall(kvm_guest_marker_milestones);

static int __init kvm_guest_marker_init(void)
{
	/* Under KVM, say that the service is missing; elsewhere, nothing. */
	if (!kvm_arm_hyp_service_available(ARM_SMCCC_KVM_FUNC_GUEST_MARKER)) {
		if (kvm_arm_hyp_service_available(ARM_SMCCC_KVM_FUNC_FEATURES))
			pr_info("not supported by the hypervisor\n");
		return 0;
	}
	if (IS_ERR_OR_NULL(tracefs_create_file("hyp_trace_marker", 0200, NULL, NULL,
					       &hyp_trace_marker_fops)))
		pr_warn("could not create hyp_trace_marker\n");
	return 0;
}
fs_initcall(kvm_guest_marker_init);
