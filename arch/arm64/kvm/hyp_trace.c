// SPDX-License-Identifier: GPL-2.0
/*
 * Host side of hypervisor tracing: the trace remote "hypervisor", whose
 * writer is the nVHE/pKVM hypervisor (arch/arm64/kvm/hyp/nvhe/trace.c).
 * Not registered under VHE, where the kernel is the hypervisor and traces
 * with its own tracepoints.
 */

#include <linux/cpumask.h>
#include <linux/kallsyms.h>
#include <linux/kvm_host.h>
#include <linux/security.h>
#include <linux/seq_buf.h>
#include <linux/simple_ring_buffer.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/tracefs.h>
#include <linux/trace_remote.h>
#include <linux/workqueue.h>

#include <asm/arch_timer.h>
#include <asm/kvm_mmu.h>

#include <asm/kvm_hyptrace.h>

#include "hyp_ftrace.h"
#include "hyp_printk.h"

#define REMOTE_EVENT_INCLUDE_FILE asm/kvm_hypevents.h
#define REMOTE_EVENT_SECTION "_hyp_events"
#define HYP_EVENT HYP_EVENT_AS_REMOTE_EVENT
#include <trace/define_remote_events.h>
#undef HYP_EVENT

extern struct remote_event __hyp_events_start[], __hyp_events_end[];

/* How often the hypervisor's clock is put back on the boot clock. */
#define HYP_TRACE_CLOCK_SYNC	(HZ)

static struct {
	void				*hyp_desc;	/* handed to EL2 */
	size_t				hyp_desc_size;
	struct delayed_work		clock_work;
} hyp_trace;

/**
 * hyp_trace_sync_clock() - Put the hypervisor's trace clock on the boot clock
 *
 * Gives EL2 the mult, shift and epoch that make its counter read
 * CLOCK_BOOTTIME. EL2 refuses (and keeps its clock) mult 0 or wider than
 * 32 bits, a shift over 32, a cycle of 2^31 ns or more and an epoch after
 * its own counter read, none of which this computes. Also used by the
 * hypervisor tracing tests.
 *
 * Return: 0, or the hypercall's error (-ENODEV without tracing at EL2).
 */
int hyp_trace_sync_clock(void)
{
	u64 cyc = 0, ns = 0, window = U64_MAX;
	unsigned long flags;
	u32 mult, shift;
	int i;

	clocks_calc_mult_shift(&mult, &shift, arch_timer_get_cntfrq(), NSEC_PER_SEC, 3600);
	/*
	 * The epoch pairs a counter value with the boot time of the same
	 * instant: take the middle of the two boot clock reads around the
	 * counter read, from the tightest of a few tries.
	 */
	for (i = 0; i < 4; i++) {
		u64 ns0, ns1, c;

		local_irq_save(flags);
		ns0 = ktime_get_boot_fast_ns();
		c = __arch_counter_get_cntpct();
		ns1 = ktime_get_boot_fast_ns();
		local_irq_restore(flags);
		if (ns1 - ns0 < window) {
			window = ns1 - ns0;
			cyc = c;
			ns = ns0 + window / 2;
		}
	}
	return kvm_call_hyp_nvhe(__tracing_update_clock, mult, shift, ns, cyc);
}

static void hyp_trace_clock_work(struct work_struct *work)
{
	int ret = hyp_trace_sync_clock();

	if (ret)
		pr_warn_once("hypervisor tracing: clock update refused (%d)\n", ret);
	schedule_delayed_work(&hyp_trace.clock_work, HYP_TRACE_CLOCK_SYNC);
}

/* Page @p of a CPU's buffer in the order they are shared: meta page first. */
static void *hyp_trace_page(struct ring_buffer_desc *rbdesc, unsigned int p)
{
	return (void *)(p ? rbdesc->page_va[p - 1] : rbdesc->meta_va);
}

/*
 * Unshare the first @nr pages hyp_trace_share() shared (all: SIZE_MAX).
 * Only those: unsharing a page that was not shared is a WARN.
 */
static void hyp_trace_unshare(struct trace_buffer_desc *desc, size_t nr)
{
	struct ring_buffer_desc *rbdesc;
	unsigned int p;
	int i;

	for_each_ring_buffer_desc(rbdesc, i, desc) {
		for (p = 0; p <= rbdesc->nr_page_va && nr; p++, nr--)
			kvm_unshare_hyp(hyp_trace_page(rbdesc, p),
					hyp_trace_page(rbdesc, p) + PAGE_SIZE);
	}
}

static int hyp_trace_share(struct trace_buffer_desc *desc)
{
	struct ring_buffer_desc *rbdesc;
	size_t nr = 0;
	unsigned int p;
	int i, ret;

	for_each_ring_buffer_desc(rbdesc, i, desc) {
		for (p = 0; p <= rbdesc->nr_page_va; p++, nr++) {
			ret = kvm_share_hyp(hyp_trace_page(rbdesc, p),
					    hyp_trace_page(rbdesc, p) + PAGE_SIZE);
			if (ret) {
				hyp_trace_unshare(desc, nr);
				return ret;
			}
		}
	}
	return 0;
}

static void hyp_trace_unload(struct trace_buffer_desc *desc, void *priv)
{
	cancel_delayed_work_sync(&hyp_trace.clock_work);
	kvm_call_hyp_nvhe(__tracing_unload);
	if (!is_protected_kvm_enabled())
		kvm_unshare_hyp(hyp_trace.hyp_desc, hyp_trace.hyp_desc + hyp_trace.hyp_desc_size);
	free_pages_exact(hyp_trace.hyp_desc, hyp_trace.hyp_desc_size);
	hyp_trace.hyp_desc = NULL;
	hyp_trace_unshare(desc, SIZE_MAX);
	trace_remote_free_buffer(desc);
	kvfree(desc);
}

static struct trace_buffer_desc *hyp_trace_load(unsigned long size, void *priv)
{
	struct trace_buffer_desc *desc;
	struct ring_buffer_desc *rbdesc;
	size_t nr_pages = 0, hyp_size, desc_size;
	int i, ret;

	/*
	 * EL2 gets a copy of the descriptor followed by room for its page
	 * descriptors. In protected mode it takes that memory from us, in one
	 * physically contiguous block: a buffer too large for the biggest
	 * block the page allocator hands out is refused, as one it cannot
	 * find is, before anything is shared. One that cannot fit whatever
	 * the rounding (a page descriptor per page of @size on every CPU) is
	 * refused before it is even allocated.
	 */
	if (get_order(num_possible_cpus() * DIV_ROUND_UP(size, PAGE_SIZE) *
		      sizeof(struct simple_buffer_page)) > MAX_PAGE_ORDER)
		return ERR_PTR(-ENOMEM);

	desc_size = trace_buffer_desc_size(size, num_possible_cpus());
	if (desc_size == SIZE_MAX)
		return ERR_PTR(-EINVAL);
	desc = kvzalloc(desc_size, GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!desc)
		return ERR_PTR(-ENOMEM);
	ret = trace_remote_alloc_buffer(desc, desc_size, size, cpu_possible_mask);
	if (ret) {
		kvfree(desc);
		return ERR_PTR(ret);
	}

	for_each_ring_buffer_desc(rbdesc, i, desc)
		nr_pages += rbdesc->nr_page_va;
	hyp_size = PAGE_ALIGN(desc->struct_len + nr_pages * sizeof(struct simple_buffer_page));
	ret = -ENOMEM;
	if (get_order(hyp_size) > MAX_PAGE_ORDER)
		goto free_desc;
	hyp_trace.hyp_desc = alloc_pages_exact(hyp_size, GFP_KERNEL | __GFP_RETRY_MAYFAIL |
					       __GFP_ZERO | __GFP_NOWARN);
	if (!hyp_trace.hyp_desc)
		goto free_desc;
	hyp_trace.hyp_desc_size = hyp_size;
	memcpy(hyp_trace.hyp_desc, desc, desc->struct_len);

	ret = hyp_trace_share(desc);
	if (ret)
		goto free_hyp_desc;

	if (!is_protected_kvm_enabled()) {
		ret = kvm_share_hyp(hyp_trace.hyp_desc, hyp_trace.hyp_desc + hyp_size);
		if (ret)
			goto unshare;
	}

	ret = hyp_trace_sync_clock();
	if (!ret)
		ret = kvm_call_hyp_nvhe(__tracing_load, (unsigned long)hyp_trace.hyp_desc,
					hyp_size);
	if (ret) {
		if (!is_protected_kvm_enabled())
			kvm_unshare_hyp(hyp_trace.hyp_desc, hyp_trace.hyp_desc + hyp_size);
		goto unshare;
	}
	schedule_delayed_work(&hyp_trace.clock_work, HYP_TRACE_CLOCK_SYNC);
	return desc;

unshare:
	hyp_trace_unshare(desc, SIZE_MAX);
free_hyp_desc:
	free_pages_exact(hyp_trace.hyp_desc, hyp_size);
	hyp_trace.hyp_desc = NULL;
free_desc:
	trace_remote_free_buffer(desc);
	kvfree(desc);
	return ERR_PTR(ret);
}

static int hyp_trace_enable_tracing(bool enable, void *priv)
{
	return kvm_call_hyp_nvhe(__tracing_enable, enable);
}

static int hyp_trace_swap_reader_page(unsigned int cpu, void *priv)
{
	return kvm_call_hyp_nvhe(__tracing_swap_reader, cpu);
}

static int hyp_trace_reset(unsigned int cpu, void *priv)
{
	return kvm_call_hyp_nvhe(__tracing_reset, cpu);
}

static int hyp_trace_enable_event(unsigned short id, bool enable, void *priv)
{
	return kvm_call_hyp_nvhe(__tracing_enable_event, id, enable) ?:
	       hyp_ftrace_enable_event(id, enable);
}

/* write_event: the hypervisor writes a selftest event on the writing CPU. */
static ssize_t hyp_trace_write_event(struct file *filp, const char __user *ubuf, size_t cnt,
				     loff_t *ppos)
{
	u64 id;
	int ret;

	ret = kstrtou64_from_user(ubuf, cnt, 10, &id);
	if (ret)
		return ret;
	/* The hypervisor writes on the CPU that calls it: stay on this one. */
	preempt_disable();
	ret = kvm_call_hyp_nvhe(__tracing_write_event, id);
	preempt_enable();
	return ret ?: cnt;
}

static int hyp_trace_write_event_open(struct inode *inode, struct file *filp)
{
	return security_locked_down(LOCKDOWN_TRACEFS);
}

static const struct file_operations hyp_trace_write_event_fops = {
	.open	= hyp_trace_write_event_open,
	.write	= hyp_trace_write_event,
	.llseek	= noop_llseek,
};

static int hyp_trace_init_files(struct dentry *d, void *priv)
{
	if (!tracefs_create_file("write_event", 0200, d, NULL, &hyp_trace_write_event_fops))
		return -ENOMEM;
	return hyp_ftrace_init_files(d);
}

static const struct trace_remote_callbacks hyp_trace_cbs = {
	.init			= hyp_trace_init_files,
	.load_trace_buffer	= hyp_trace_load,
	.unload_trace_buffer	= hyp_trace_unload,
	.enable_tracing		= hyp_trace_enable_tracing,
	.swap_reader_page	= hyp_trace_swap_reader_page,
	.reset			= hyp_trace_reset,
	.enable_event		= hyp_trace_enable_event,
};

/*
 * hyp_event=EVENT[,EVENT...]: another spelling of
 * trace_remote=hypervisor::EVENT[,EVENT...], tracing those events from boot.
 */
static int __init hyp_event_setup(char *events)
{
	char arg[300];

	if (snprintf(arg, sizeof(arg), "hypervisor::%s", events) >= sizeof(arg) ||
	    trace_remote_boot_param(arg))
		pr_warn("hypervisor tracing: ignoring hyp_event=%s\n", events);
	return 1;
}
__setup("hyp_event=", hyp_event_setup);

/*
 * host_hcall also prints the hypercall's name: that of its handler in the
 * hypervisor's host_hcall[], handle_<name>(), through kallsyms. The table
 * is read once at boot, before pKVM takes the hypervisor's memory from the
 * host. The names go in the print format too, for the tools.
 */
DECLARE_KVM_NVHE_SYM(host_hcall);
DECLARE_KVM_NVHE_SYM(host_hcall_nr);

static struct {
	const char	**name;		/* by id, NULL if unknown */
	unsigned int	nr;
	char		*print_fmt;
} hyp_hcalls;

#define HYP_HCALL_FMT_START						\
	"\"id=%llu invalid=%u name=%s\", REC->id, REC->invalid, __print_symbolic(REC->id"
#define HYP_HCALL_FMT_END	")"

static void hyp_hcall_print(void *rec, struct trace_seq *s)
{
	struct remote_event_format_host_hcall *e = rec;

	trace_seq_printf(s, "id=%llu invalid=%u name=", e->id, e->invalid);
	/* As tools print a value __print_symbolic() does not name. */
	if (e->id < hyp_hcalls.nr && hyp_hcalls.name[e->id])
		trace_seq_puts(s, hyp_hcalls.name[e->id]);
	else
		trace_seq_printf(s, "0x%llx", e->id);
}

static const char * __init hyp_hcall_name(unsigned long va, char *buf)
{
	unsigned long kimg = (unsigned long)kvm_nvhe_sym(host_hcall);
	unsigned long size, off;
	const char *name;

	/* The table holds hypervisor addresses (kvm_apply_hyp_relocations()). */
	va += kimg - (unsigned long)kern_hyp_va(lm_alias(kimg));
	name = kallsyms_lookup(va, &size, &off, NULL, buf);
	if (!name || off || !str_has_prefix(name, "__kvm_nvhe_"))
		return NULL;
	name += strlen("__kvm_nvhe_");
	if (str_has_prefix(name, "handle_"))
		name += strlen("handle_");
	return kstrdup_const(name, GFP_KERNEL);
}

static int __init hyp_hcall_names_init(void)
{
	const unsigned long *table = (const unsigned long *)kvm_nvhe_sym(host_hcall);
	unsigned int i, nr = *(const unsigned int *)kvm_nvhe_sym(host_hcall_nr);
	char buf[KSYM_NAME_LEN];
	size_t len = sizeof(HYP_HCALL_FMT_START HYP_HCALL_FMT_END);
	struct seq_buf s;

	if (!is_hyp_mode_available() || is_kernel_in_hyp_mode())
		return 0;
	hyp_hcalls.name = kcalloc(nr, sizeof(*hyp_hcalls.name), GFP_KERNEL);
	if (!hyp_hcalls.name)
		return -ENOMEM;
	hyp_hcalls.nr = nr;
	for (i = 0; i < nr; i++) {
		if (table[i])
			hyp_hcalls.name[i] = hyp_hcall_name(table[i], buf);
		if (hyp_hcalls.name[i])
			len += strlen(hyp_hcalls.name[i]) + sizeof(", { 4294967295, \"\" }");
	}

	/* No names (no kallsyms): the event's own format. */
	if (len == sizeof(HYP_HCALL_FMT_START HYP_HCALL_FMT_END))
		return 0;
	hyp_hcalls.print_fmt = kmalloc(len, GFP_KERNEL);
	if (!hyp_hcalls.print_fmt)
		return -ENOMEM;
	seq_buf_init(&s, hyp_hcalls.print_fmt, len);
	seq_buf_puts(&s, HYP_HCALL_FMT_START);
	for (i = 0; i < nr; i++) {
		if (hyp_hcalls.name[i])
			seq_buf_printf(&s, ", { %u, \"%s\" }", i, hyp_hcalls.name[i]);
	}
	seq_buf_puts(&s, HYP_HCALL_FMT_END);
	seq_buf_str(&s);
	if (WARN_ON(seq_buf_has_overflowed(&s))) {
		kfree(hyp_hcalls.print_fmt);
		hyp_hcalls.print_fmt = NULL;
	}
	return 0;
}

/* The table is the hypervisor's from finalize_pkvm() (device_initcall_sync). */
subsys_initcall(hyp_hcall_names_init);

static int __init hyp_trace_init(void)
{
	int ret;

	if (!is_kvm_arm_initialised() || is_kernel_in_hyp_mode())
		return 0;

	if (hyp_hcalls.print_fmt) {
		remote_event_host_hcall.print_fmt = hyp_hcalls.print_fmt;
		remote_event_host_hcall.print = hyp_hcall_print;
	}
	remote_event_hyp_printk.print = hyp_printk_print;
#ifdef CONFIG_NVHE_EL2_FTRACE
	remote_event_func.print = hyp_ftrace_print_func;
	remote_event_func_ret.print = hyp_ftrace_print_func_ret;
#endif
	INIT_DELAYED_WORK(&hyp_trace.clock_work, hyp_trace_clock_work);
	ret = trace_remote_register("hypervisor", &hyp_trace_cbs, NULL, __hyp_events_start,
				    __hyp_events_end - __hyp_events_start);
	if (ret)
		return ret;
	/* Where tools that only know instances look for it. */
	ret = trace_remote_show_at_root("hypervisor");
	if (ret)
		pr_warn("hypervisor tracing: no /sys/kernel/tracing/hypervisor/ (%d)\n", ret);
	hyp_printk_init();
	return 0;
}
late_initcall(hyp_trace_init);
