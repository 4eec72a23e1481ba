// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile-host test of hypervisor tracing: hand the hypervisor crafted
 * buffer descriptors and check that it refuses each one, gives the memory
 * back, and keeps running. Protected mode only: in plain nVHE mode the host
 * is trusted.
 *
 *   cat /sys/kernel/debug/kvm/hyp_trace_hostile
 *
 * prints one line per case, "ok" or "FAIL", then a summary
 * "<N> cases, <M> refused, <K> loaded, <F> failures" that a test compares
 * with the exact numbers it expects, so that a case cannot go missing
 * silently. The buffer of remotes/hypervisor must be unloaded. The clock
 * and write cases leave the selftest event enabled in the hypervisor, and
 * every other event off.
 *
 * Clock check, in both modes:
 *
 *   cat /sys/kernel/debug/kvm/hyp_trace_clock
 *
 * makes the hypervisor write HYP_CLOCK_SAMPLES selftest events (ids from
 * HYP_CLOCK_FIRST_ID) and prints, for each, "<id> <t0> <t1>": the kernel's
 * boot clock in ns just before and just after the hypercall, interrupts
 * off. The event's time stamp must fall in between; t1 - t0 bounds how far
 * the two clocks can disagree.
 *
 * Forwarded SMC, in protected mode:
 *
 *   echo 0x80000001 > /sys/kernel/debug/kvm/hyp_trace_smc
 *
 * issues an SMC the hypervisor forwards to the firmware, on the writing CPU.
 * FFA_FEATURES (0x84000064) goes to the hypervisor's FF-A proxy instead,
 * which answers it (an error before the host has negotiated a version).
 *
 * Panic, in both modes: the selftest event HYP_TRACE_PANIC_ID, written with
 * remotes/hypervisor/write_event, makes the hypervisor panic right after
 * recording it (see the dump on panic of trace_remote).
 */

#include <linux/arm-smccc.h>
#include <linux/arm_ffa.h>
#include <linux/clocksource.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kvm_host.h>
#include <linux/seq_file.h>
#include <linux/simple_ring_buffer.h>

#include <asm/arch_timer.h>
#include <asm/kvm_hyptrace.h>
#include <asm/kvm_mmu.h>
#include <asm/sections.h>

#define NR_TEST_PAGES	8	/* 2 CPUs x (meta + 3 data pages) */

struct hostile {
	void			*area;		/* handed to the hypervisor */
	void			*area2;		/* while it holds @area */
	void			*copy;		/* @area as handed over */
	unsigned long		pages[NR_TEST_PAGES];
	bool			shared[NR_TEST_PAGES];
	unsigned long		unshared;
	unsigned int		cases;
	unsigned int		refused;
	unsigned int		loaded;
	unsigned int		failures;
};

/* Report one case: @ok or not, and whether it counts as refused or loaded. */
static __printf(5, 6) void hostile_result(struct seq_file *m, struct hostile *h,
					  bool ok, bool loaded, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	seq_printf(m, "%s %pV\n", ok ? "ok" : "FAIL", &vaf);
	va_end(args);

	h->cases++;
	if (!ok)
		h->failures++;
	else if (loaded)
		h->loaded++;
	else
		h->refused++;
}

static struct ring_buffer_desc *hostile_rbdesc(struct trace_buffer_desc *desc, int i)
{
	return (struct ring_buffer_desc *)(desc->__data + i * ring_buffer_desc_size(3));
}

/* A valid descriptor: @nr_cpus CPUs from 0, meta page + 3 data pages each. */
static void hostile_valid(struct hostile *h, int nr_cpus)
{
	struct trace_buffer_desc *desc = h->area;
	struct ring_buffer_desc *rbdesc;
	int i, p;

	memset(h->area, 0, PAGE_SIZE);
	desc->nr_cpus = nr_cpus;
	desc->struct_len = sizeof(*desc) + nr_cpus * ring_buffer_desc_size(3);
	for (i = 0; i < nr_cpus; i++) {
		rbdesc = hostile_rbdesc(desc, i);
		rbdesc->cpu = i;
		rbdesc->nr_page_va = 3;
		rbdesc->meta_va = h->pages[i * 4];
		for (p = 0; p < 3; p++)
			rbdesc->page_va[p] = h->pages[i * 4 + 1 + p];
	}
}

static int hostile_load(void *area, size_t size)
{
	return kvm_call_hyp_nvhe(__tracing_load, (unsigned long)area, size);
}

/* Clock values that make no sense: refused with -EINVAL. */
static void hostile_clock_case(struct seq_file *m, struct hostile *h, const char *name,
			       u64 mult, u64 shift, u64 epoch_cyc)
{
	int ret = kvm_call_hyp_nvhe(__tracing_update_clock, mult, shift, 0, epoch_cyc);

	if (ret == -EINVAL)
		hostile_result(m, h, true, false, "%s: refused (%d)", name, ret);
	else
		hostile_result(m, h, false, false, "%s: %d, expected %d", name, ret, -EINVAL);
}

/* A hypercall that must be refused with -EINVAL: @ret is what it returned. */
static void hostile_einval(struct seq_file *m, struct hostile *h, const char *name, int ret)
{
	if (ret == -EINVAL)
		hostile_result(m, h, true, false, "%s: refused (%d)", name, ret);
	else
		hostile_result(m, h, false, false, "%s: %d, expected %d", name, ret, -EINVAL);
}

/*
 * After the refused clocks, the hypervisor still uses the one set before
 * them (@set_ret: what setting it returned): an event written now is
 * time-stamped between two boot clock reads around it, give or take a
 * millisecond.
 */
static void hostile_clock_kept(struct seq_file *m, struct hostile *h, int set_ret)
{
	struct simple_buffer_data_page *dpage;
	bool found = false;
	u64 t0, t1, ts = 0;
	int p, ret;

	if (set_ret) {
		hostile_result(m, h, false, false, "clock kept: valid clock refused (%d)", set_ret);
		return;
	}
	hostile_valid(h, 1);
	hostile_rbdesc(h->area, 0)->cpu = get_cpu();
	ret = hostile_load(h->area, PAGE_SIZE);
	if (ret) {
		put_cpu();
		hostile_result(m, h, false, false, "clock kept: valid descriptor refused (%d)",
			       ret);
		return;
	}
	t0 = ktime_get_boottime_ns();
	kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_selftest, true);
	kvm_call_hyp_nvhe(__tracing_enable, true);
	kvm_call_hyp_nvhe(__tracing_write_event, 1);
	t1 = ktime_get_boottime_ns();
	kvm_call_hyp_nvhe(__tracing_enable, false);
	kvm_call_hyp_nvhe(__tracing_unload);
	put_cpu();

	/* The meta page and the 3 data pages of the descriptor's CPU. */
	for (p = 0; p < 4; p++) {
		dpage = (void *)h->pages[p];
		if (p && dpage->commit && !found) {
			ts = dpage->time_stamp;
			found = true;
		}
		memset(dpage, 0, PAGE_SIZE);
	}
	if (!found)
		hostile_result(m, h, false, false, "clock kept: no event written");
	else
		hostile_result(m, h, ts + NSEC_PER_MSEC >= t0 && ts <= t1 + NSEC_PER_MSEC, true,
			       "clock kept: event at %llu ns, written between %llu and %llu",
			       ts, t0, t1);
}

/*
 * Events @meta counted during a hypercall that writes none itself, with
 * interrupts off: 0, or 1 with hyp_enter on (more if a host stage-2 fault
 * came between).
 */
static u64 hostile_trap_entries(struct trace_buffer_meta *meta)
{
	unsigned long flags;
	u64 entries;

	local_irq_save(flags);
	entries = READ_ONCE(meta->entries);
	kvm_call_hyp_nvhe(__tracing_write_event, 1);
	entries = READ_ONCE(meta->entries) - entries;
	local_irq_restore(flags);
	return entries;
}

static void hostile_switch(unsigned int id, bool enable)
{
	kvm_call_hyp_nvhe(__tracing_enable_event, id, enable);
}

/*
 * Event switches set, they do not count: switched off while off, an event
 * still comes on with one switch, and on twice then off once it is off. The
 * hypervisor counts the events of the host trap's own sites (hyp_enter,
 * host_hcall, hyp_exit) that are on, and skips those sites while the count
 * is 0; a count that drifted down would lose hyp_enter here. Leaves every
 * event off.
 */
static void hostile_event_switches(struct seq_file *m, struct hostile *h)
{
	struct trace_buffer_meta *meta = (void *)h->pages[0];
	u64 first, off, on;
	int id, ret;

	hostile_valid(h, 1);
	hostile_rbdesc(h->area, 0)->cpu = get_cpu();
	ret = hostile_load(h->area, PAGE_SIZE);
	if (ret) {
		put_cpu();
		hostile_result(m, h, false, false,
			       "event switches: valid descriptor refused (%d)", ret);
		return;
	}
	for (id = 1; id < HYP_NR_EVENTS; id++)
		hostile_switch(id, false);
	kvm_call_hyp_nvhe(__tracing_enable, true);

	hostile_switch(hyp_event_id_hyp_enter, false);
	hostile_switch(hyp_event_id_hyp_enter, true);
	first = hostile_trap_entries(meta);

	hostile_switch(hyp_event_id_hyp_enter, true);
	hostile_switch(hyp_event_id_hyp_enter, false);
	off = hostile_trap_entries(meta);

	hostile_switch(hyp_event_id_hyp_enter, true);
	hostile_switch(hyp_event_id_host_hcall, false);
	hostile_switch(hyp_event_id_hyp_exit, false);
	on = hostile_trap_entries(meta);

	hostile_switch(hyp_event_id_hyp_enter, false);
	kvm_call_hyp_nvhe(__tracing_enable, false);
	kvm_call_hyp_nvhe(__tracing_unload);
	put_cpu();
	for (id = 0; id < 4; id++)
		memset((void *)h->pages[id], 0, PAGE_SIZE);
	hostile_result(m, h, first && !off && on, true,
		       "event switches: hyp_enter written %llu, %llu, %llu times (1, 0, 1)",
		       first, off, on);
}

/* Load what @h->area holds; it must be refused and the memory given back. */
static void hostile_case(struct seq_file *m, struct hostile *h, const char *name,
			 void *area, size_t size)
{
	int ret;

	memcpy(h->copy, h->area, PAGE_SIZE);
	ret = hostile_load(area, size);
	if (!ret) {
		kvm_call_hyp_nvhe(__tracing_unload);
		hostile_result(m, h, false, false, "%s: accepted", name);
		return;
	}
	/* Given back as it was: no hypervisor pointers left in it. */
	if (memcmp(h->area, h->copy, PAGE_SIZE)) {
		hostile_result(m, h, false, false, "%s: refused (%d), area changed", name, ret);
		return;
	}
	/* Faults (and fails the test loudly) if the hypervisor kept it. */
	memset(h->area, 0, PAGE_SIZE);
	hostile_result(m, h, true, false, "%s: refused (%d)", name, ret);
}

/* Unload the valid descriptor in @h->area: given back as handed over? */
static void hostile_unload_valid(struct seq_file *m, struct hostile *h, const char *name)
{
	kvm_call_hyp_nvhe(__tracing_unload);
	if (memcmp(h->area, h->copy, PAGE_SIZE))
		hostile_result(m, h, false, false, "%s: loaded, given back changed", name);
	else
		hostile_result(m, h, true, true, "%s: loaded", name);
	memset(h->area, 0, PAGE_SIZE);
}

/*
 * A write_event on a CPU the loaded descriptor leaves out cannot be
 * recorded: it must fail, not look like a write.
 */
static void hostile_write_no_buffer(struct seq_file *m, struct hostile *h)
{
	const char *name = "write on a CPU without a buffer";
	unsigned int other;
	int ret, cpu = get_cpu();

	if (num_possible_cpus() < 2) {
		put_cpu();
		hostile_result(m, h, true, false, "%s: no other CPU", name);
		return;
	}
	hostile_valid(h, 1);
	other = cpumask_next(cpu, cpu_possible_mask);
	if (other >= nr_cpu_ids)
		other = cpumask_first(cpu_possible_mask);
	hostile_rbdesc(h->area, 0)->cpu = other;
	memcpy(h->copy, h->area, PAGE_SIZE);
	ret = hostile_load(h->area, PAGE_SIZE);
	if (ret) {
		put_cpu();
		hostile_result(m, h, false, false, "%s: valid descriptor refused (%d)", name, ret);
		return;
	}
	kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_selftest, true);
	kvm_call_hyp_nvhe(__tracing_enable, true);
	ret = kvm_call_hyp_nvhe(__tracing_write_event, 1);
	kvm_call_hyp_nvhe(__tracing_enable, false);
	put_cpu();
	if (ret == -ENODEV)
		hostile_result(m, h, true, false, "%s: refused (%d)", name, ret);
	else
		hostile_result(m, h, false, false, "%s: %d, expected %d", name, ret, -ENODEV);
	hostile_unload_valid(m, h, name);
}

static int hostile_show(struct seq_file *m, void *v)
{
	struct trace_buffer_desc *desc;
	struct ring_buffer_desc *rbdesc;
	struct hostile h = {};
	unsigned long hyp_va;
	phys_addr_t pa;
	int i, ret = 0;

	if (!is_protected_kvm_enabled()) {
		hostile_result(m, &h, false, false, "not in protected mode");
		goto summary;
	}

	h.area = (void *)get_zeroed_page(GFP_KERNEL);
	h.area2 = (void *)get_zeroed_page(GFP_KERNEL);
	h.copy = (void *)get_zeroed_page(GFP_KERNEL);
	h.unshared = get_zeroed_page(GFP_KERNEL);
	for (i = 0; i < NR_TEST_PAGES; i++) {
		void *va;

		h.pages[i] = get_zeroed_page(GFP_KERNEL);
		va = (void *)h.pages[i];
		h.shared[i] = va && !kvm_share_hyp(va, va + PAGE_SIZE);
		if (!h.shared[i])
			ret = -ENOMEM;
	}
	if (ret || !h.area || !h.area2 || !h.copy || !h.unshared) {
		hostile_result(m, &h, false, false, "out of memory");
		goto out;
	}
	desc = h.area;
	rbdesc = hostile_rbdesc(desc, 0);
	pa = virt_to_phys(h.area);
	hyp_va = kern_hyp_va((unsigned long)h.area);

	/* A valid descriptor loads: the refusals below are not just EBUSY. */
	hostile_valid(&h, 2);
	memcpy(h.copy, h.area, PAGE_SIZE);
	ret = hostile_load(h.area, PAGE_SIZE);
	if (ret) {
		hostile_result(m, &h, false, false, "valid descriptor refused (%d): %s", ret,
			       "is remotes/hypervisor loaded?");
		goto out;
	}
	/* h.area is the hypervisor's now: a second load from another area. */
	ret = hostile_load(h.area2, PAGE_SIZE);
	if (ret == -EBUSY)
		hostile_result(m, &h, true, false, "second load: refused (-EBUSY)");
	else
		hostile_result(m, &h, false, false, "second load: %d, expected -EBUSY", ret);
	hostile_unload_valid(m, &h, "valid descriptor");

	hostile_valid(&h, 1);
	hostile_case(m, &h, "size not page aligned", h.area, PAGE_SIZE - 8);
	hostile_valid(&h, 1);
	hostile_case(m, &h, "size zero", h.area, 0);
	hostile_valid(&h, 1);
	hostile_case(m, &h, "size beyond the area", h.area, 1UL << 40);
	/* __pkvm_host_donate_hyp() does not check a range that wraps. */
	hostile_valid(&h, 1);
	hostile_case(m, &h, "size wrapping the PA", h.area, -pa);
	hostile_valid(&h, 1);
	hostile_case(m, &h, "size wrapping the hyp VA", h.area, -hyp_va);
	hostile_valid(&h, 1);
	hostile_case(m, &h, "size wrapping the PA and the hyp VA", h.area, -min(pa, hyp_va));
	hostile_valid(&h, 1);
	hostile_case(m, &h, "size of all memory", h.area, totalram_pages() << PAGE_SHIFT);
	hostile_valid(&h, 1);
	hostile_case(m, &h, "area not page aligned", h.area + 8, PAGE_SIZE);
	hostile_valid(&h, 1);
	hostile_case(m, &h, "area in hypervisor memory", lm_alias(__hyp_text_start), PAGE_SIZE);

	hostile_valid(&h, 1);
	desc->struct_len = 2 * PAGE_SIZE;
	hostile_case(m, &h, "struct_len beyond the size", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	desc->struct_len = 4;
	hostile_case(m, &h, "struct_len too small", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	desc->struct_len += 4;
	hostile_case(m, &h, "struct_len not a multiple of 8", h.area, PAGE_SIZE);
	hostile_valid(&h, 2);
	desc->struct_len += 4;
	hostile_case(m, &h, "struct_len not a multiple of 8, 2 CPUs", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	desc->struct_len += 8;
	hostile_case(m, &h, "struct_len beyond the entries", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	desc->nr_cpus = -1;
	hostile_case(m, &h, "nr_cpus negative", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	desc->nr_cpus = 1 << 30;
	hostile_case(m, &h, "nr_cpus huge", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	desc->nr_cpus = 2;
	hostile_case(m, &h, "nr_cpus beyond struct_len", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->nr_page_va = UINT_MAX;
	hostile_case(m, &h, "nr_page_va overflowing", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->nr_page_va = 2;
	hostile_case(m, &h, "nr_page_va below 3", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->cpu = 4096;
	hostile_case(m, &h, "cpu out of range", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->cpu = -1;
	hostile_case(m, &h, "cpu negative", h.area, PAGE_SIZE);
	hostile_valid(&h, 2);
	hostile_rbdesc(desc, 1)->cpu = 0;
	hostile_case(m, &h, "cpu listed twice", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->page_va[2] = h.unshared;
	hostile_case(m, &h, "page not shared", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->page_va[1] = (unsigned long)lm_alias(__hyp_text_start);
	hostile_case(m, &h, "hypervisor page", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->page_va[1] = (unsigned long)h.area;
	hostile_case(m, &h, "the descriptor as a page", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->page_va[2] = rbdesc->page_va[1];
	hostile_case(m, &h, "page listed twice", h.area, PAGE_SIZE);
	hostile_valid(&h, 2);
	hostile_rbdesc(desc, 1)->page_va[0] = rbdesc->page_va[0];
	hostile_case(m, &h, "page listed on two CPUs", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->meta_va = rbdesc->page_va[0];
	hostile_case(m, &h, "meta page is a data page", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->page_va[1] += 8;
	hostile_case(m, &h, "page not aligned", h.area, PAGE_SIZE);
	hostile_valid(&h, 1);
	rbdesc->meta_va += 8;
	hostile_case(m, &h, "meta page not aligned", h.area, PAGE_SIZE);

	/* A valid clock, then clocks that must not replace it. */
	ret = hyp_trace_sync_clock();
	hostile_clock_case(m, &h, "clock mult 0", 0, 10, 0);
	hostile_clock_case(m, &h, "clock shift 64", 1, 64, 0);
	hostile_clock_case(m, &h, "clock mult 0, shift 200", 0, 200, 0);
	hostile_clock_case(m, &h, "clock epoch in the future", 1, 0,
			   __arch_counter_get_cntpct() + 3600ULL * arch_timer_get_cntfrq());
	/* Registers are checked whole: truncated, these would be valid. */
	hostile_clock_case(m, &h, "clock shift 2^32 + 5", 1, BIT_ULL(32) + 5, 0);
	hostile_clock_case(m, &h, "clock mult 2^32 + 1", BIT_ULL(32) + 1, 5, 0);
	/* Bits of mult lost at the hypervisor's shift of 32; a mult too wide there. */
	hostile_clock_case(m, &h, "clock shift 33", 3, 33, 0);
	hostile_clock_case(m, &h, "clock of 2^31 ns per cycle", BIT_ULL(31), 0, 0);
	hostile_clock_kept(m, &h, ret);
	hostile_event_switches(m, &h);

	hostile_einval(m, &h, "swap on CPU 2^32",
		       kvm_call_hyp_nvhe(__tracing_swap_reader, BIT_ULL(32)));
	hostile_einval(m, &h, "reset of CPU 2^32 + 1",
		       kvm_call_hyp_nvhe(__tracing_reset, BIT_ULL(32) + 1));
	hostile_einval(m, &h, "event id 2^16 + 1",
		       kvm_call_hyp_nvhe(__tracing_enable_event, BIT_ULL(16) + 1, true));
	hostile_write_no_buffer(m, &h);

	/* Still alive, and still able to load after all that. */
	hostile_valid(&h, 2);
	memcpy(h.copy, h.area, PAGE_SIZE);
	ret = hostile_load(h.area, PAGE_SIZE);
	if (ret)
		hostile_result(m, &h, false, false,
			       "valid descriptor refused after the attacks (%d)", ret);
	else
		hostile_unload_valid(m, &h, "valid descriptor after the attacks");

out:
	for (i = 0; i < NR_TEST_PAGES; i++) {
		/* Only what was shared: unsharing anything else is a WARN. */
		if (h.shared[i])
			kvm_unshare_hyp((void *)h.pages[i], (void *)h.pages[i] + PAGE_SIZE);
		free_page(h.pages[i]);
	}
	free_page(h.unshared);
	free_page((unsigned long)h.copy);
	free_page((unsigned long)h.area2);
	free_page((unsigned long)h.area);
summary:
	seq_printf(m, "%u cases, %u refused, %u loaded, %u failures\n",
		   h.cases, h.refused, h.loaded, h.failures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hostile);

#define HYP_CLOCK_SAMPLES	100
#define HYP_CLOCK_FIRST_ID	1000000

static int clock_show(struct seq_file *m, void *v)
{
	unsigned long flags;
	u64 t0, t1;
	int i, ret;

	for (i = 0; i < HYP_CLOCK_SAMPLES; i++) {
		local_irq_save(flags);
		t0 = ktime_get_boottime_ns();
		ret = kvm_call_hyp_nvhe(__tracing_write_event, HYP_CLOCK_FIRST_ID + i);
		t1 = ktime_get_boottime_ns();
		local_irq_restore(flags);
		if (ret)
			return ret;
		seq_printf(m, "%d %llu %llu\n", HYP_CLOCK_FIRST_ID + i, t0, t1);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(clock);

/*
 * Forwarded SMC (protected mode, where the hypervisor traps the host's
 * SMCs): writing 0x80000000 (SMCCC_VERSION) or 0x80000001
 * (SMCCC_ARCH_FEATURES, asking about function 0) issues that SMC on the
 * writing CPU. The hypervisor handles neither and forwards them to the
 * firmware; both only read. FFA_FEATURES goes to the hypervisor's FF-A
 * proxy, which answers it. Any other id is refused.
 */
static ssize_t smc_write(struct file *file, const char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct arm_smccc_res res;
	u32 id;
	int ret;

	ret = kstrtou32_from_user(ubuf, count, 0, &id);
	if (ret)
		return ret;
	if (id != ARM_SMCCC_VERSION_FUNC_ID && id != ARM_SMCCC_ARCH_FEATURES_FUNC_ID &&
	    id != FFA_FEATURES)
		return -EINVAL;
	arm_smccc_1_1_smc(id, 0, &res);
	return count;
}

static const struct file_operations smc_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= smc_write,
};

static int __init hyp_trace_test_init(void)
{
	struct dentry *kvm;

	if (!is_kvm_arm_initialised() || is_kernel_in_hyp_mode())
		return 0;

	kvm = debugfs_lookup("kvm", NULL);
	debugfs_create_file("hyp_trace_clock", 0400, kvm, NULL, &clock_fops);
	if (is_protected_kvm_enabled()) {
		debugfs_create_file("hyp_trace_hostile", 0400, kvm, NULL, &hostile_fops);
		debugfs_create_file("hyp_trace_smc", 0200, kvm, NULL, &smc_fops);
	}
	dput(kvm);
	return 0;
}
late_initcall(hyp_trace_test_init);
