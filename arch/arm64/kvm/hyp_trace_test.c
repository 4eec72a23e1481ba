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
 * cases leave the selftest event enabled in the hypervisor.
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
 */

#include <linux/clocksource.h>
#include <linux/debugfs.h>
#include <linux/kvm_host.h>
#include <linux/seq_file.h>
#include <linux/simple_ring_buffer.h>
#include <linux/vmalloc.h>

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
	return kvm_call_hyp_nvhe(__pkvm_load_tracing, (unsigned long)area, size);
}

/* Clock values that make no sense: refused with -EINVAL. */
static void hostile_clock_case(struct seq_file *m, struct hostile *h, const char *name,
			       u32 mult, u32 shift, u64 epoch_cyc)
{
	int ret = kvm_call_hyp_nvhe(__pkvm_update_clock_tracing, mult, shift, 0, epoch_cyc);

	if (ret == -EINVAL)
		hostile_result(m, h, true, false, "%s: refused (%d)", name, ret);
	else
		hostile_result(m, h, false, false, "%s: %d, expected %d", name, ret, -EINVAL);
}

/*
 * Set the hypervisor's clock to the boot clock, as hyp_trace.c does: the
 * epoch is the middle of two boot clock reads around a counter read, from
 * the tightest of a few tries (the vCPU can be descheduled in between).
 */
static int hostile_set_clock(void)
{
	u64 ns = 0, cyc = 0, window = U64_MAX;
	unsigned long flags;
	u32 mult, shift;
	int i;

	clocks_calc_mult_shift(&mult, &shift, arch_timer_get_cntfrq(), NSEC_PER_SEC, 3600);
	for (i = 0; i < 8; i++) {
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
	return kvm_call_hyp_nvhe(__pkvm_update_clock_tracing, mult, shift, ns, cyc);
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
	kvm_call_hyp_nvhe(__pkvm_enable_event, hyp_event_id_selftest, true);
	kvm_call_hyp_nvhe(__pkvm_enable_tracing, true);
	kvm_call_hyp_nvhe(__pkvm_write_event, 1);
	t1 = ktime_get_boottime_ns();
	kvm_call_hyp_nvhe(__pkvm_enable_tracing, false);
	kvm_call_hyp_nvhe(__pkvm_unload_tracing);
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

/* Load what @h->area holds; it must be refused and the memory given back. */
static void hostile_case(struct seq_file *m, struct hostile *h, const char *name,
			 void *area, size_t size)
{
	int ret;

	memcpy(h->copy, h->area, PAGE_SIZE);
	ret = hostile_load(area, size);
	if (!ret) {
		kvm_call_hyp_nvhe(__pkvm_unload_tracing);
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
	kvm_call_hyp_nvhe(__pkvm_unload_tracing);
	if (memcmp(h->area, h->copy, PAGE_SIZE))
		hostile_result(m, h, false, false, "%s: loaded, given back changed", name);
	else
		hostile_result(m, h, true, true, "%s: loaded", name);
	memset(h->area, 0, PAGE_SIZE);
}

static int hostile_show(struct seq_file *m, void *v)
{
	struct trace_buffer_desc *desc;
	struct ring_buffer_desc *rbdesc;
	struct hostile h = {};
	unsigned long hyp_va;
	void *vmalloc_area;
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
	vmalloc_area = vzalloc(PAGE_SIZE);
	for (i = 0; i < NR_TEST_PAGES; i++) {
		void *va;

		h.pages[i] = get_zeroed_page(GFP_KERNEL);
		va = (void *)h.pages[i];
		if (!va || kvm_share_hyp(va, va + PAGE_SIZE))
			ret = -ENOMEM;
	}
	if (ret || !h.area || !h.area2 || !h.copy || !h.unshared || !vmalloc_area) {
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
	hostile_case(m, &h, "area not in the linear map", vmalloc_area, PAGE_SIZE);

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
	ret = hostile_set_clock();
	hostile_clock_case(m, &h, "clock mult 0", 0, 10, 0);
	hostile_clock_case(m, &h, "clock shift 64", 1, 64, 0);
	hostile_clock_case(m, &h, "clock mult 0, shift 200", 0, 200, 0);
	hostile_clock_case(m, &h, "clock epoch in the future", 1, 0,
			   __arch_counter_get_cntpct() + 3600ULL * arch_timer_get_cntfrq());
	hostile_clock_kept(m, &h, ret);

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
		if (h.pages[i]) {
			kvm_unshare_hyp((void *)h.pages[i], (void *)h.pages[i] + PAGE_SIZE);
			free_page(h.pages[i]);
		}
	}
	vfree(vmalloc_area);
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
		ret = kvm_call_hyp_nvhe(__pkvm_write_event, HYP_CLOCK_FIRST_ID + i);
		t1 = ktime_get_boottime_ns();
		local_irq_restore(flags);
		if (ret)
			return ret;
		seq_printf(m, "%d %llu %llu\n", HYP_CLOCK_FIRST_ID + i, t0, t1);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(clock);

static int __init hyp_trace_test_init(void)
{
	struct dentry *kvm;

	if (!is_kvm_arm_initialised() || is_kernel_in_hyp_mode())
		return 0;

	kvm = debugfs_lookup("kvm", NULL);
	debugfs_create_file("hyp_trace_clock", 0400, kvm, NULL, &clock_fops);
	if (is_protected_kvm_enabled())
		debugfs_create_file("hyp_trace_hostile", 0400, kvm, NULL, &hostile_fops);
	dput(kvm);
	return 0;
}
late_initcall(hyp_trace_test_init);
