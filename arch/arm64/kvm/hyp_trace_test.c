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
 * the two clocks can disagree. Writing N to it steps the hypervisor's clock
 * N ns ahead (0: back in step).
 *
 * Forwarded SMC, in protected mode:
 *
 *   echo 0x80000001 > /sys/kernel/debug/kvm/hyp_trace_smc
 *
 * issues an SMC the hypervisor forwards to the firmware, on the writing CPU.
 * FFA_FEATURES (0x84000064) goes to the hypervisor's FF-A proxy instead,
 * which answers it (an error before the host has negotiated a version).
 *
 * Descriptor rewritten while loaded, in nVHE mode (see scribble_show()):
 *
 *   cat /sys/kernel/debug/kvm/hyp_trace_scribble
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
#include <linux/kthread.h>
#include <linux/kvm_host.h>
#include <linux/prandom.h>
#include <linux/seq_file.h>
#include <linux/simple_ring_buffer.h>

#include <asm/arch_timer.h>
#include <asm/kvm_hyptrace.h>
#include <asm/kvm_mmu.h>
#include <asm/sections.h>

#include "hyp_ftrace.h"

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

/*
 * Fuzzer (protected mode): cat /sys/kernel/debug/kvm/hyp_trace_fuzz
 *
 * Runs hyp_trace_fuzz_cases cases from hyp_trace_fuzz_seed. Each case
 * builds a valid descriptor over a pool of pages shared with the hypervisor
 * and mutates one to three of its fields (sizes, alignments, counts, CPUs,
 * addresses: unshared, hypervisor, MMIO and kernel text pages, the descriptor
 * itself, a page listed twice, a descriptor whose second page is not the
 * host's alone...), then loads it. A loaded case is exercised (events,
 * swaps, resets) and unloaded. After every case, each page is checked to be
 * back with the host: every pool page can be unshared and shared again, and
 * every page of the descriptor area shared and unshared, which the
 * hypervisor refuses for a page it still holds or pins. Then a valid
 * descriptor must still load.
 *
 * Then, for hyp_trace_fuzz_ops hypercalls per CPU, every online CPU makes
 * random tracing hypercalls (load, unload, enable, swap, reset, clock,
 * enable_event, write_event, function tracing patches, valid or not) while
 * another thread scribbles over the shared pages; the pages are checked
 * again at the end, and every function tracing site unpatched. Last, a
 * valid buffer is unloaded and loaded again while every CPU writes (one more
 * case, counted as loaded).
 *
 * Prints one line per failure ("FAIL case <n>: ...", rerun one case with
 * its seed and hyp_trace_fuzz_cases=1) and the summary
 * "<N> cases, <M> refused, <K> loaded, <F> failures". Events are left
 * disabled and the hypervisor's clock set to the boot clock.
 */
#define FUZZ_POOL	24	/* shared pages the descriptors list */
#define FUZZ_AREA	2	/* pages of a descriptor area */

static u64 fuzz_seed = 1;
static u32 fuzz_cases = 200;
static u32 fuzz_ops = 2000;

struct fuzz {
	struct seq_file		*m;
	struct rnd_state	rnd;
	u64			case_seed;
	unsigned int		case_nr;
	void			*area;		/* FUZZ_AREA pages */
	void			*copy;
	unsigned long		unshared;
	unsigned long		pool[FUZZ_POOL];
	bool			pool_shared[FUZZ_POOL];
	bool			area_kept;	/* never freed then */
	unsigned int		cases;
	unsigned int		refused;
	unsigned int		loaded;
	unsigned int		failures;
};

static __printf(2, 3) void fuzz_fail(struct fuzz *f, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	seq_printf(f->m, "FAIL case %u (seed %llu): %pV\n", f->case_nr, f->case_seed, &vaf);
	va_end(args);
	f->failures++;
}

static u32 fuzz_rand(struct fuzz *f, u32 n)
{
	return n ? prandom_u32_state(&f->rnd) % n : 0;
}

static int fuzz_share(unsigned long va)
{
	return kvm_call_hyp_nvhe(__pkvm_host_share_hyp, virt_to_pfn((void *)va));
}

static int fuzz_unshare(unsigned long va)
{
	return kvm_call_hyp_nvhe(__pkvm_host_unshare_hyp, virt_to_pfn((void *)va));
}

/*
 * A valid descriptor in @area: @nr_cpus entries of @nr_pages data pages,
 * CPUs and pool pages in a random order. Returns the size to load.
 */
static size_t fuzz_build(struct fuzz *f, void *area, int nr_cpus, int nr_pages)
{
	struct trace_buffer_desc *desc = area;
	struct ring_buffer_desc *rbdesc;
	unsigned int order[FUZZ_POOL];
	int i, p, n = 0, cpu0 = fuzz_rand(f, num_possible_cpus());

	for (i = 0; i < FUZZ_POOL; i++)
		order[i] = i;
	for (i = FUZZ_POOL - 1; i > 0; i--) {
		p = fuzz_rand(f, i + 1);
		swap(order[i], order[p]);
	}

	memset(area, 0, FUZZ_AREA * PAGE_SIZE);
	desc->nr_cpus = nr_cpus;
	desc->struct_len = sizeof(*desc) + nr_cpus * ring_buffer_desc_size(nr_pages);
	for (i = 0; i < nr_cpus; i++) {
		rbdesc = (void *)(desc->__data + i * ring_buffer_desc_size(nr_pages));
		rbdesc->cpu = (cpu0 + i) % num_possible_cpus();
		rbdesc->nr_page_va = nr_pages;
		rbdesc->meta_va = f->pool[order[n++]];
		for (p = 0; p < nr_pages; p++)
			rbdesc->page_va[p] = f->pool[order[n++]];
	}
	return PAGE_SIZE << fuzz_rand(f, 2);
}

/* An address the hypervisor must refuse as a page. */
static unsigned long fuzz_bad_page(struct fuzz *f, unsigned long good)
{
	switch (fuzz_rand(f, 9)) {
	case 0:
		return f->unshared;
	case 1:
		return (unsigned long)lm_alias(__hyp_text_start);
	case 2:
		return (unsigned long)f->area;
	case 3:
		return (unsigned long)f->area + PAGE_SIZE;
	case 4:
		return good + 8 * (1 + fuzz_rand(f, PAGE_SIZE / 8 - 1));
	case 5:
		return good + 1;
	case 6:		/* MMIO: QEMU virt's GIC distributor */
		return (unsigned long)phys_to_virt(0x08000000);
	case 7:
		return 0;
	default:
		return (unsigned long)lm_alias(_stext);
	}
}

/* Entry @i as fuzz_build() laid it out, whatever was mutated since. */
static struct ring_buffer_desc *fuzz_entry(struct trace_buffer_desc *desc, int i, int nr_pages)
{
	return (void *)desc->__data + i * ring_buffer_desc_size(nr_pages);
}

/*
 * One mutation of the descriptor in f->area; may change where it is loaded
 * from and its size. Sizes and addresses that could make the hypervisor
 * take memory that is not the test's are never produced: that would be the
 * host giving away its own pages, not an attack.
 */
static void fuzz_mutate(struct fuzz *f, unsigned long *addr, size_t *size, bool *second_shared,
			int nr_cpus, int nr_pages)
{
	struct trace_buffer_desc *desc = f->area;
	struct ring_buffer_desc *rbdesc = fuzz_entry(desc, fuzz_rand(f, nr_cpus), nr_pages);
	phys_addr_t pa = virt_to_phys(f->area);
	unsigned long hyp_va = kern_hyp_va((unsigned long)f->area);
	static const int deltas[] = { -16, -8, -4, -1, 1, 4, 8, 16, 64 };

	switch (fuzz_rand(f, 14)) {
	case 0:		/* size */
		switch (fuzz_rand(f, 7)) {
		case 0:
			*size = 0;
			break;
		case 1:
			*size = PAGE_SIZE - 8;
			break;
		case 2:
			*size = PAGE_SIZE + 8;
			break;
		case 3:
			*size = 1UL << (40 + fuzz_rand(f, 20));
			break;
		case 4:
			*size = -pa;
			break;
		case 5:
			*size = -hyp_va;
			break;
		default:
			*size = -min(pa, hyp_va);
			break;
		}
		break;
	case 1:		/* where */
		/*
		 * Only addresses of memory the test owns or the hypervisor
		 * owns: the hypervisor turns any other address into a
		 * physical one by masking, and could take a page of the
		 * host's that is not the test's (the host's choice, but not
		 * a test of the hypervisor).
		 */
		switch (fuzz_rand(f, 4)) {
		case 0:
			*addr += 8 * (1 + fuzz_rand(f, 511));
			break;
		case 1:
			*addr = f->pool[fuzz_rand(f, FUZZ_POOL)];
			break;
		case 2:
			*addr = (unsigned long)lm_alias(__hyp_text_start);
			break;
		default:
			*addr = (unsigned long)f->area + PAGE_SIZE;
			break;
		}
		break;
	case 2:		/* a two-page descriptor whose second page is shared */
		*size = 2 * PAGE_SIZE;
		*second_shared = true;
		break;
	case 3:
		desc->struct_len += deltas[fuzz_rand(f, ARRAY_SIZE(deltas))];
		break;
	case 4:
		desc->struct_len = prandom_u32_state(&f->rnd);
		break;
	case 5:
		desc->nr_cpus = (int)fuzz_rand(f, nr_cpu_ids + 4) - 2;
		break;
	case 6:
		desc->nr_cpus = prandom_u32_state(&f->rnd);
		break;
	case 7:
		rbdesc->cpu = (int)fuzz_rand(f, nr_cpu_ids + 8) - 4;
		break;
	case 8:		/* the CPU of another entry */
		rbdesc->cpu = fuzz_entry(desc, fuzz_rand(f, nr_cpus), nr_pages)->cpu;
		break;
	case 9:
		rbdesc->nr_page_va = fuzz_rand(f, 2) ? fuzz_rand(f, nr_pages + 4) :
						     prandom_u32_state(&f->rnd);
		break;
	case 10:	/* a data page */
		rbdesc->page_va[fuzz_rand(f, nr_pages)] =
			fuzz_bad_page(f, rbdesc->page_va[0]);
		break;
	case 11:	/* the meta page */
		rbdesc->meta_va = fuzz_bad_page(f, rbdesc->meta_va);
		break;
	case 12: {	/* a page listed twice, maybe on two CPUs or as a meta page */
		struct ring_buffer_desc *other = fuzz_entry(desc, fuzz_rand(f, nr_cpus), nr_pages);
		unsigned long dup = fuzz_rand(f, 2) ? other->meta_va :
					other->page_va[fuzz_rand(f, nr_pages)];

		rbdesc->page_va[fuzz_rand(f, nr_pages)] = dup;
		break;
	}
	default: {
		/*
		 * A random byte in the header or the first entry's cpu and
		 * nr_page_va, or the low byte of an address. Other bytes of
		 * an address would make it another kernel page: the host
		 * giving that page away.
		 */
		u8 *b = f->area;

		if (fuzz_rand(f, 2))
			b[fuzz_rand(f, 24)] = prandom_u32_state(&f->rnd);
		else
			rbdesc->page_va[fuzz_rand(f, nr_pages)] ^= 1 + fuzz_rand(f, 255);
		break;
	}
	}
}

/* A loaded buffer: use every hypercall on it, then unload. */
static void fuzz_exercise(struct fuzz *f)
{
	int cpu, ret;

	kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_selftest, true);
	kvm_call_hyp_nvhe(__tracing_enable, true);
	for (cpu = 0; cpu < 4; cpu++)
		kvm_call_hyp_nvhe(__tracing_write_event, cpu);
	for_each_possible_cpu(cpu) {
		kvm_call_hyp_nvhe(__tracing_swap_reader, cpu);
		if (fuzz_rand(f, 2))
			kvm_call_hyp_nvhe(__tracing_reset, cpu);
	}
	kvm_call_hyp_nvhe(__tracing_enable, false);
	kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_selftest, false);
	kvm_call_hyp_nvhe(__tracing_unload);
	ret = kvm_call_hyp_nvhe(__tracing_enable, true);
	if (ret != -ENODEV)
		fuzz_fail(f, "enable after unload: %d, expected %d", ret, -ENODEV);
}

/* Every page back with the host, nothing pinned or held by the hypervisor. */
static void fuzz_check_pages(struct fuzz *f)
{
	int i, ret;

	for (i = 0; i < FUZZ_POOL; i++) {
		if (!f->pool_shared[i])
			continue;
		ret = fuzz_unshare(f->pool[i]);
		if (ret) {
			/* Still the hypervisor's: never freed (pool_shared stays). */
			fuzz_fail(f, "pool page %d not back with the host (%d)", i, ret);
			continue;
		}
		ret = fuzz_share(f->pool[i]);
		if (ret) {
			fuzz_fail(f, "pool page %d cannot be shared again (%d)", i, ret);
			f->pool_shared[i] = false;
		}
	}
	for (i = 0; i < FUZZ_AREA; i++) {
		unsigned long va = (unsigned long)f->area + i * PAGE_SIZE;

		ret = fuzz_share(va);
		if (!ret)
			ret = fuzz_unshare(va);
		if (ret) {
			fuzz_fail(f, "descriptor page %d not back with the host (%d)", i, ret);
			f->area_kept = true;
		}
	}
}

static void fuzz_valid_load(struct fuzz *f)
{
	size_t size = fuzz_build(f, f->area, 2, 3);
	int ret = hostile_load(f->area, size);

	if (ret) {
		fuzz_fail(f, "valid descriptor refused (%d)", ret);
		return;
	}
	kvm_call_hyp_nvhe(__tracing_unload);
}

static void fuzz_case(struct fuzz *f)
{
	int nr_cpus = 1 + fuzz_rand(f, min(num_possible_cpus(), 3U));
	int nr_pages = 3 + fuzz_rand(f, FUZZ_POOL / nr_cpus - 3);
	unsigned long addr = (unsigned long)f->area;
	bool second_shared = false;
	size_t size;
	int i, ret;

	size = fuzz_build(f, f->area, nr_cpus, nr_pages);
	for (i = 1 + fuzz_rand(f, 3); i > 0; i--)
		fuzz_mutate(f, &addr, &size, &second_shared, nr_cpus, nr_pages);
	/* From the area's second page, one page: the next is not the test's. */
	if (addr == (unsigned long)f->area + PAGE_SIZE && size == 2 * PAGE_SIZE)
		size = PAGE_SIZE;
	if (second_shared && fuzz_share((unsigned long)f->area + PAGE_SIZE))
		second_shared = false;
	memcpy(f->copy, f->area, FUZZ_AREA * PAGE_SIZE);

	ret = hostile_load((void *)addr, size);
	f->cases++;
	if (!ret) {
		f->loaded++;
		fuzz_exercise(f);
	} else {
		f->refused++;
	}
	if (second_shared)
		fuzz_unshare((unsigned long)f->area + PAGE_SIZE);
	/*
	 * Given back as handed over, no hypervisor pointers left in it. The
	 * second page is not the descriptor's when it was shared: it may
	 * have been listed as a ring buffer page, and written.
	 */
	for (i = 0; i < (second_shared ? 1 : FUZZ_AREA) * PAGE_SIZE / 8; i++) {
		u64 was = ((u64 *)f->copy)[i], is = ((u64 *)f->area)[i];
		size_t len = ((struct trace_buffer_desc *)f->copy)->struct_len;

		/* After struct_len is the writer's room: it may come back zeroed. */
		if (was != is && !(i * 8 >= len && !is)) {
			fuzz_fail(f, "%s (%d), descriptor given back changed at %d: %llx, was %llx",
				  ret ? "refused" : "loaded", ret, i * 8, is, was);
			break;
		}
	}
	fuzz_check_pages(f);
	fuzz_valid_load(f);
}

/* The concurrent phase: random hypercalls on every CPU, scribbled pages. */
struct fuzz_thread {
	struct fuzz		*f;
	struct rnd_state	rnd;
	void			*area;		/* a valid descriptor, never written */
	size_t			size;
	struct completion	done;
	unsigned int		bad_ret;
};

/*
 * A function tracing patch, of a site or not, on or off or neither: whether
 * the hypervisor answered as it should.
 */
static bool fuzz_ftrace_patch(u32 r)
{
	unsigned int nr = hyp_ftrace_nr_sites();
	u64 idx = r & 0x200 ? (u64)r << 32 | r : (r >> 12) % (nr + 3);
	u64 on = (r >> 10) & 3;
	int ret;

	ret = kvm_call_hyp_nvhe(__tracing_ftrace_patch, idx, on);
	if (!nr)
		return ret == -ENODEV;
	return ret == (idx < nr && on <= 1 ? 0 : -EINVAL);
}

static int fuzz_hypercalls(void *arg)
{
	struct fuzz_thread *t = arg;
	unsigned int i;
	int ret;

	for (i = 0; i < fuzz_ops; i++) {
		u32 r = prandom_u32_state(&t->rnd);
		int cpu = (int)((r >> 8) % (nr_cpu_ids + 2)) - 1;

		switch (r % 10) {
		case 0:
			ret = hostile_load(t->area, t->size);
			if (ret && ret != -EBUSY && ret != -EFAULT && ret != -EPERM)
				t->bad_ret++;
			break;
		case 1:
			kvm_call_hyp_nvhe(__tracing_unload);
			break;
		case 2:
			kvm_call_hyp_nvhe(__tracing_enable, r & 0x100);
			break;
		case 3:
			kvm_call_hyp_nvhe(__tracing_swap_reader, cpu);
			break;
		case 4:
			kvm_call_hyp_nvhe(__tracing_reset, cpu);
			break;
		case 5:
			if (r & 0x100)
				hyp_trace_sync_clock();
			else
				kvm_call_hyp_nvhe(__tracing_update_clock, r >> 16,
						  r & 0xff, 0, (u64)r << 20);
			break;
		case 6:
			kvm_call_hyp_nvhe(__tracing_enable_event, (r >> 8) % (HYP_NR_EVENTS + 2),
					  r & 0x100);
			break;
		case 7:
			if (!fuzz_ftrace_patch(r))
				t->bad_ret++;
			break;
		default:
			/* Any id but the one that panics the hypervisor. */
			kvm_call_hyp_nvhe(__tracing_write_event,
					  r == HYP_TRACE_PANIC_ID ? 0 : r);
			break;
		}
		if (!(i % 64))
			cond_resched();
	}
	complete(&t->done);
	return 0;
}

static int fuzz_scribble(void *arg)
{
	struct fuzz_thread *t = arg;
	struct fuzz *f = t->f;

	while (!kthread_should_stop()) {
		u32 r = prandom_u32_state(&t->rnd);
		u64 *p = (u64 *)f->pool[r % FUZZ_POOL];

		p[(r >> 8) % (PAGE_SIZE / 8)] = ((u64)r << 32) | prandom_u32_state(&t->rnd);
		if (!(r & 0xff))
			cond_resched();
	}
	return 0;
}

static void fuzz_concurrent(struct fuzz *f)
{
	struct fuzz_thread *threads, scribbler = { .f = f };
	struct task_struct *scribble_task;
	unsigned int nr = 0, cpu, i;

	threads = kcalloc(nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	if (!threads) {
		fuzz_fail(f, "concurrent phase: out of memory");
		return;
	}
	f->case_nr = f->cases;
	prandom_seed_state(&scribbler.rnd, f->case_seed ^ 0x5c);
	scribble_task = kthread_run(fuzz_scribble, &scribbler, "hyp_trace_scribble");
	for_each_online_cpu(cpu) {
		struct fuzz_thread *t = &threads[nr];
		struct task_struct *task;

		t->f = f;
		init_completion(&t->done);
		prandom_seed_state(&t->rnd, f->case_seed + cpu);
		/* FUZZ_AREA pages: fuzz_build() fills that many. */
		t->area = (void *)__get_free_pages(GFP_KERNEL, get_order(FUZZ_AREA * PAGE_SIZE));
		if (!t->area)
			break;
		t->size = fuzz_build(f, t->area, 1 + (cpu & 1), 3);
		task = kthread_create_on_cpu(fuzz_hypercalls, t, cpu, "hyp_trace_fuzz/%u");
		if (IS_ERR(task)) {
			free_pages((unsigned long)t->area, get_order(FUZZ_AREA * PAGE_SIZE));
			break;
		}
		wake_up_process(task);
		nr++;
	}
	for (i = 0; i < nr; i++)
		wait_for_completion(&threads[i].done);
	if (!IS_ERR(scribble_task))
		kthread_stop(scribble_task);
	kvm_call_hyp_nvhe(__tracing_unload);

	f->cases++;
	for (i = 0; i < nr; i++) {
		unsigned long va = (unsigned long)threads[i].area;
		int p, kept = 0;

		if (threads[i].bad_ret)
			fuzz_fail(f, "concurrent: %u loads failed with an unexpected error",
				  threads[i].bad_ret);
		for (p = 0; p < FUZZ_AREA; p++) {
			if (fuzz_share(va + p * PAGE_SIZE) || fuzz_unshare(va + p * PAGE_SIZE))
				kept++;
		}
		if (kept)
			fuzz_fail(f, "concurrent: descriptor of CPU thread %u kept", i);
		else
			free_pages(va, get_order(FUZZ_AREA * PAGE_SIZE));
	}
	kfree(threads);
	fuzz_check_pages(f);
	fuzz_valid_load(f);
	f->loaded++;
}

/*
 * Unload while every CPU writes: a valid buffer on as many CPUs as the pool
 * allows, every event on, a kthread per online CPU calling write_event (and
 * so writing hyp_enter, host_hcall, selftest and hyp_exit) without pause,
 * unloaded and loaded again FUZZ_UNLOAD_ROUNDS times. Each round must have
 * recorded events, and once unloaded no pool page may change while the
 * writers go on: nothing at EL2 writes through a stale pointer.
 */
#define FUZZ_UNLOAD_ROUNDS	20

static int fuzz_writer(void *arg)
{
	unsigned int *bad_ret = arg;
	u64 n = 0;
	int ret;

	while (!kthread_should_stop()) {
		/* -ENODEV: tracing is being turned off on this CPU. */
		ret = kvm_call_hyp_nvhe(__tracing_write_event, n++);
		if (ret && ret != -ENODEV)
			(*bad_ret)++;
		if (!(n % 64))
			cond_resched();
	}
	return 0;
}

/*
 * The fewest events a CPU of the descriptor wrote in a round. The round's
 * own enable and unload hypercalls write a few on one CPU; the writer
 * threads write hundreds on each.
 */
#define FUZZ_UNLOAD_MIN_EVENTS	32

static u64 fuzz_min_entries(struct trace_buffer_desc *desc)
{
	struct ring_buffer_desc *rbdesc;
	u64 entries = U64_MAX;
	int i;

	for_each_ring_buffer_desc(rbdesc, i, desc) {
		/* A CPU that is offline has no writer. */
		if (!cpu_online(rbdesc->cpu))
			continue;
		entries = min(entries,
			      READ_ONCE(((struct trace_buffer_meta *)rbdesc->meta_va)->entries));
	}
	return entries;
}

static void fuzz_unload_under_writers(struct fuzz *f)
{
	int nr_cpus = min_t(int, num_possible_cpus(), FUZZ_POOL / 4);
	unsigned int cpu, id, round, ms, nr = 0, *bad_ret;
	struct task_struct **writers;
	u64 entries;
	u8 *snap;
	int i, ret = 0;

	f->case_nr = f->cases++;
	writers = kcalloc(nr_cpu_ids, sizeof(*writers), GFP_KERNEL);
	bad_ret = kcalloc(nr_cpu_ids, sizeof(*bad_ret), GFP_KERNEL);
	snap = kvmalloc(FUZZ_POOL * PAGE_SIZE, GFP_KERNEL);
	if (!writers || !bad_ret || !snap) {
		fuzz_fail(f, "unload: out of memory");
		goto out;
	}
	for (id = 1; id < HYP_NR_EVENTS; id++)
		kvm_call_hyp_nvhe(__tracing_enable_event, id, true);
	for_each_online_cpu(cpu) {
		writers[nr] = kthread_create_on_cpu(fuzz_writer, &bad_ret[nr], cpu,
						    "hyp_trace_writer/%u");
		if (IS_ERR(writers[nr]))
			break;
		wake_up_process(writers[nr++]);
	}

	for (round = 0; round < FUZZ_UNLOAD_ROUNDS && !ret; round++) {
		/* The descriptor is the hypervisor's until unloaded: sleep, then look. */
		for (ms = 1; ; ms *= 4) {
			ret = hostile_load(f->area, fuzz_build(f, f->area, nr_cpus, 3));
			if (ret)
				break;
			kvm_call_hyp_nvhe(__tracing_enable, true);
			usleep_range(ms * 1000, ms * 2000);
			kvm_call_hyp_nvhe(__tracing_unload);
			entries = fuzz_min_entries(f->area);
			/* A busy host may not have run every writer yet: sleep longer. */
			if (entries >= FUZZ_UNLOAD_MIN_EVENTS || ms >= 256)
				break;
		}
		if (ret) {
			fuzz_fail(f, "unload: round %u: valid descriptor refused (%d)", round, ret);
			break;
		}
		if (entries < FUZZ_UNLOAD_MIN_EVENTS)
			fuzz_fail(f, "unload: round %u: only %llu events on a CPU", round, entries);
		for (i = 0; i < FUZZ_POOL; i++)
			memcpy(snap + i * PAGE_SIZE, (void *)f->pool[i], PAGE_SIZE);
		usleep_range(1000, 2000);
		for (i = 0; i < FUZZ_POOL; i++) {
			if (memcmp(snap + i * PAGE_SIZE, (void *)f->pool[i], PAGE_SIZE))
				fuzz_fail(f, "unload: round %u: pool page %d written after unload",
					  round, i);
		}
	}

	for (i = 0; i < nr; i++) {
		kthread_stop(writers[i]);
		if (bad_ret[i])
			fuzz_fail(f, "unload: %u writes failed with an unexpected error",
				  bad_ret[i]);
	}
	for (id = 1; id < HYP_NR_EVENTS; id++)
		kvm_call_hyp_nvhe(__tracing_enable_event, id, false);
	fuzz_check_pages(f);
	f->loaded++;
out:
	kvfree(snap);
	kfree(bad_ret);
	kfree(writers);
}

static int fuzz_show(struct seq_file *m, void *v)
{
	struct fuzz f = { .m = m };
	struct page *area;
	unsigned int i, id;
	bool ok = true;

	if (!is_protected_kvm_enabled()) {
		fuzz_fail(&f, "not in protected mode");
		goto summary;
	}
	area = alloc_pages(GFP_KERNEL | __GFP_ZERO, get_order(FUZZ_AREA * PAGE_SIZE));
	f.area = area ? page_address(area) : NULL;
	f.copy = kmalloc(FUZZ_AREA * PAGE_SIZE, GFP_KERNEL);
	f.unshared = get_zeroed_page(GFP_KERNEL);
	for (i = 0; i < FUZZ_POOL; i++) {
		f.pool[i] = get_zeroed_page(GFP_KERNEL);
		f.pool_shared[i] = f.pool[i] && !fuzz_share(f.pool[i]);
		if (!f.pool_shared[i])
			ok = false;
	}
	if (!ok || !f.area || !f.copy || !f.unshared) {
		fuzz_fail(&f, "out of memory, or pages that cannot be shared");
		goto out;
	}

	/* The remote's buffer would make every load -EBUSY. */
	f.case_seed = fuzz_seed;
	prandom_seed_state(&f.rnd, f.case_seed);
	if (hostile_load(f.area, fuzz_build(&f, f.area, 1, 3)) == -EBUSY) {
		fuzz_fail(&f, "a buffer is loaded: is remotes/hypervisor in use?");
		goto out;
	}
	kvm_call_hyp_nvhe(__tracing_unload);

	for (i = 0; i < fuzz_cases; i++) {
		f.case_nr = i;
		f.case_seed = fuzz_seed + i;
		prandom_seed_state(&f.rnd, f.case_seed);
		fuzz_case(&f);
		cond_resched();
	}
	if (fuzz_ops) {
		fuzz_concurrent(&f);
		fuzz_unload_under_writers(&f);
	}

	for (id = 1; id < HYP_NR_EVENTS; id++)
		kvm_call_hyp_nvhe(__tracing_enable_event, id, false);
	hyp_trace_sync_clock();
	/* Each function the concurrent phase traced: none after. */
	for (i = 0; i < hyp_ftrace_nr_sites(); i++) {
		int ret = kvm_call_hyp_nvhe(__tracing_ftrace_patch, i, 0);

		if (ret) {
			fuzz_fail(&f, "function tracing site %u cannot be unpatched (%d)", i, ret);
			break;
		}
	}
out:
	for (i = 0; i < FUZZ_POOL; i++) {
		/* A page the hypervisor still holds must not go back to the allocator. */
		if (f.pool_shared[i] && fuzz_unshare(f.pool[i]))
			continue;
		free_page(f.pool[i]);
	}
	free_page(f.unshared);
	kfree(f.copy);
	if (area && !f.area_kept)
		__free_pages(area, get_order(FUZZ_AREA * PAGE_SIZE));
summary:
	seq_printf(m, "%u cases, %u refused, %u loaded, %u failures\n",
		   f.cases, f.refused, f.loaded, f.failures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fuzz);

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

/*
 * Writing N steps the hypervisor's clock N ns ahead of the boot clock, with
 * a conversion set from the writing CPU; 0 puts it back in step, as the
 * periodic sync does within a second.
 */
static ssize_t clock_write(struct file *file, const char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	u32 mult, shift;
	u64 ahead;
	int ret;

	ret = kstrtou64_from_user(ubuf, count, 0, &ahead);
	if (ret)
		return ret;
	if (ahead) {
		clocks_calc_mult_shift(&mult, &shift, arch_timer_get_cntfrq(), NSEC_PER_SEC,
				       3600);
		ret = kvm_call_hyp_nvhe(__tracing_update_clock, mult, shift,
					ktime_get_boot_fast_ns() + ahead,
					__arch_counter_get_cntpct());
	} else {
		ret = hyp_trace_sync_clock();
	}
	return ret ?: count;
}
DEFINE_SHOW_STORE_ATTRIBUTE(clock);

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

/*
 * In nVHE mode the descriptor stays shared with the host while loaded: a
 * host that rewrites it must not change what the hypervisor unloads or
 * enables. Load this CPU's buffer, turn tracing and hyp_enter on, scribble
 * on the CPU count and the CPU of the entry, then stop and unload: the next
 * host trap writes hyp_enter, which must find no buffer rather than the
 * page descriptors the unload cleared. Then a new load must work and get
 * the events.
 */
static int scribble_show(struct seq_file *m, void *v)
{
	struct trace_buffer_desc *desc;
	struct ring_buffer_desc *rbdesc;
	struct trace_buffer_meta *meta;
	struct hostile h = {};
	int i, ret = 0, cpu;

	for (i = 0; i < NR_TEST_PAGES; i++) {
		void *va = (void *)get_zeroed_page(GFP_KERNEL);

		h.pages[i] = (unsigned long)va;
		if (!va || kvm_share_hyp(va, va + PAGE_SIZE))
			ret = -ENOMEM;
	}
	h.area = (void *)get_zeroed_page(GFP_KERNEL);
	if (ret || !h.area || kvm_share_hyp(h.area, h.area + PAGE_SIZE)) {
		seq_puts(m, "FAIL out of memory\n");
		goto out;
	}
	desc = h.area;
	rbdesc = hostile_rbdesc(desc, 0);
	meta = (void *)h.pages[0];

	cpu = get_cpu();
	hostile_valid(&h, 1);
	rbdesc->cpu = cpu;
	ret = hostile_load(h.area, PAGE_SIZE);
	if (ret) {
		put_cpu();
		seq_printf(m, "FAIL valid descriptor refused (%d): is remotes/hypervisor loaded?\n",
			   ret);
		goto out;
	}
	kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_hyp_enter, true);
	kvm_call_hyp_nvhe(__tracing_enable, true);
	desc->nr_cpus = 0;
	rbdesc->cpu = INT_MAX;
	/* Walking the descriptor now would reach far past the CPUs. */
	kvm_call_hyp_nvhe(__tracing_enable, true);
	rbdesc->cpu = cpu;
	kvm_call_hyp_nvhe(__tracing_unload);
	/* hyp_enter is still on: traps now write it, if a buffer is left. */
	for (i = 0; i < 100; i++)
		kvm_call_hyp_nvhe(__tracing_enable, true);
	kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_hyp_enter, false);
	put_cpu();
	seq_puts(m, "ok scribbled descriptor: hypervisor alive\n");

	/* The hypervisor loads again, on this CPU, and writes there. */
	for (i = 0; i < 4; i++)
		memset((void *)h.pages[i], 0, PAGE_SIZE);
	cpu = get_cpu();
	hostile_valid(&h, 1);
	rbdesc->cpu = cpu;
	ret = hostile_load(h.area, PAGE_SIZE);
	if (!ret) {
		kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_selftest, true);
		kvm_call_hyp_nvhe(__tracing_enable, true);
		ret = kvm_call_hyp_nvhe(__tracing_write_event, 1);
		kvm_call_hyp_nvhe(__tracing_enable, false);
		kvm_call_hyp_nvhe(__tracing_enable_event, hyp_event_id_selftest, false);
		if (!ret && READ_ONCE(meta->entries) != 1)
			ret = -EIO;
		kvm_call_hyp_nvhe(__tracing_unload);
	}
	put_cpu();
	seq_printf(m, "%s reload after the scribbled one (%d)\n", ret ? "FAIL" : "ok", ret);
out:
	for (i = 0; i < NR_TEST_PAGES; i++) {
		if (h.pages[i]) {
			kvm_unshare_hyp((void *)h.pages[i], (void *)h.pages[i] + PAGE_SIZE);
			free_page(h.pages[i]);
		}
	}
	if (h.area) {
		kvm_unshare_hyp(h.area, h.area + PAGE_SIZE);
		free_page((unsigned long)h.area);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(scribble);

static int __init hyp_trace_test_init(void)
{
	struct dentry *kvm;

	if (!is_kvm_arm_initialised() || is_kernel_in_hyp_mode())
		return 0;

	kvm = debugfs_lookup("kvm", NULL);
	debugfs_create_file("hyp_trace_clock", 0600, kvm, NULL, &clock_fops);
	if (is_protected_kvm_enabled()) {
		debugfs_create_file("hyp_trace_hostile", 0400, kvm, NULL, &hostile_fops);
		debugfs_create_file("hyp_trace_smc", 0200, kvm, NULL, &smc_fops);
		debugfs_create_file("hyp_trace_fuzz", 0400, kvm, NULL, &fuzz_fops);
		debugfs_create_u64("hyp_trace_fuzz_seed", 0600, kvm, &fuzz_seed);
		debugfs_create_u32("hyp_trace_fuzz_cases", 0600, kvm, &fuzz_cases);
		debugfs_create_u32("hyp_trace_fuzz_ops", 0600, kvm, &fuzz_ops);
	} else {
		debugfs_create_file("hyp_trace_scribble", 0400, kvm, NULL, &scribble_fops);
	}
	dput(kvm);
	return 0;
}
late_initcall(hyp_trace_test_init);
