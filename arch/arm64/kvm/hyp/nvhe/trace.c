// SPDX-License-Identifier: GPL-2.0
/*
 * Hypervisor tracing: one simple_ring_buffer per CPU in pages the host
 * shares with the hypervisor, read by the host through trace_remote
 * (remotes/hypervisor/, see arch/arm64/kvm/hyp_trace.c).
 *
 * In protected mode the host is not trusted: the descriptor it hands over is
 * donated to the hypervisor before it is looked at, every count is checked
 * against its size, and each page must be host memory shared with the
 * hypervisor that nothing has pinned; it is pinned while the buffer is
 * loaded, so a page listed twice is refused when it comes the second time.
 * In nVHE mode the host is trusted (it can change the hypervisor at will):
 * the descriptor is still checked, so that a host bug is an error and not
 * a fault, but pages are not pinned.
 */

#include <linux/overflow.h>
#include <linux/simple_ring_buffer.h>

#include <asm/arch_timer.h>
#include <asm/kvm_mmu.h>
#include <asm/kvm_pkvm.h>
#include <asm/sections.h>

#include <nvhe/ftrace.h>
#include <nvhe/mem_protect.h>
#include <nvhe/memory.h>
#include <nvhe/mm.h>
#include <nvhe/spinlock.h>
#include <nvhe/trace.h>

DEFINE_PER_CPU(struct hyp_trace_cpu, hyp_trace_cpu);
/* load, unload, swap, reset, clock, event switches */
static DEFINE_HYP_SPINLOCK(trace_lock);

/*
 * The donated (protected) or shared (nVHE) descriptor, while loaded, and the
 * writer's page descriptors that follow it.
 */
static struct trace_buffer_desc *trace_desc;
static size_t trace_desc_size;
static struct simple_buffer_page *trace_bpages;
static size_t trace_nr_bpages;
/* Tracing on (the last __tracing_enable() of a loaded buffer). */
static bool trace_on;
/* u32, not bool or u8: a site tests it with ldr and cbz, no masking. */
u32 hyp_trace_events[HYP_NR_EVENTS];
/* How many of those handle_trap() writes itself are on. */
u32 hyp_trace_nr_trap_events_on;

struct hyp_clock hyp_clock;

static struct simple_rb_per_cpu *trace_rb(u64 cpu)
{
	return &per_cpu_ptr(&hyp_trace_cpu, cpu)->rb;
}

/*
 * CPUs the hypervisor has per-CPU data for: in protected mode the ones it
 * manages; in nVHE mode, where hyp_nr_cpus is not set, the bound is the
 * size of kvm_arm_hyp_percpu_base[] (NR_CPUS, as hyp-smp.c declares it),
 * and trace_cpu_ok() also requires the host gave that CPU a per-CPU area.
 */
static unsigned int trace_nr_cpus(void)
{
	return is_protected_kvm_enabled() ? hyp_nr_cpus : NR_CPUS;
}

/*
 * Take a copy of the host's conversion for this CPU's events, and return
 * the time with it.
 */
u64 hyp_trace_clock_refresh(struct hyp_trace_cpu *tc)
{
	struct hyp_clock conv;

	do {
		do {
			/* Acquire: pairs with the release of the even sequence. */
			conv.seq = smp_load_acquire(&hyp_clock.seq);
			conv.epoch_cyc = READ_ONCE(hyp_clock.epoch_cyc);
			conv.mult = READ_ONCE(hyp_clock.mult);
			conv.epoch_ns = READ_ONCE(hyp_clock.epoch_ns);
			conv.shift = READ_ONCE(hyp_clock.shift);
			/* Pairs with the barrier in __tracing_update_clock(). */
			smp_rmb();
		} while ((conv.seq & 1) || conv.seq != READ_ONCE(hyp_clock.seq));

		tc->clock.epoch_cyc = conv.epoch_cyc;
		tc->clock.epoch_ns = conv.epoch_ns;
		tc->clock.shift = conv.shift;
		WRITE_ONCE(tc->clock.mult, conv.mult);
		/*
		 * An update that marked the copy before this store is seen
		 * below, and the copy taken again: the update has the same
		 * barrier between its change and its marks.
		 */
		smp_mb();
	} while (conv.seq != READ_ONCE(hyp_clock.seq));

	return hyp_trace_clock_conv(hyp_trace_read_counter(), &conv);
}

/*
 * Refuses (-EINVAL), keeping the clock in use, a conversion that makes no
 * sense or that events cannot use: mult 0 stops time; a mult wider than 32
 * bits or a shift over 32 are not what the host computes
 * (clocks_calc_mult_shift() starts at 32; the registers are checked whole,
 * not truncated), and a larger shift would lose bits of mult at the
 * events' shift of 32; a cycle of 2^31 ns or more makes mult at that shift
 * too wide for a sign; an epoch after the current counter value.
 */
int __tracing_update_clock(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc)
{
	unsigned int cpu, sign;
	u64 mult32;

	if (!mult || mult > U32_MAX || shift > 32 || epoch_cyc > __arch_counter_get_cntpct())
		return -EINVAL;
	/* mult < 2^32 shifted left by 32 at most: it fits 64 bits. */
	mult32 = mult << (32 - shift);
	if (mult32 > S64_MAX)
		return -EINVAL;
	/* How far mult32 goes left and keeps a sign bit clear; see hyp_clock. */
	sign = min(__builtin_clzll(mult32) - 1, 32);

	hyp_spin_lock(&trace_lock);
	WRITE_ONCE(hyp_clock.seq, hyp_clock.seq + 1);
	/* Odd sequence visible before the new values. */
	smp_wmb();
	WRITE_ONCE(hyp_clock.epoch_cyc, epoch_cyc);
	WRITE_ONCE(hyp_clock.mult, mult32 << sign);
	WRITE_ONCE(hyp_clock.epoch_ns, epoch_ns);
	WRITE_ONCE(hyp_clock.shift, 32 - sign);
	/* Release: the values are visible before the even sequence. */
	smp_store_release(&hyp_clock.seq, hyp_clock.seq + 1);
	/* See hyp_trace_clock_refresh(). */
	smp_mb();
	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		if (kvm_arm_hyp_percpu_base[cpu])
			WRITE_ONCE(per_cpu_ptr(&hyp_trace_cpu, cpu)->clock.mult, 0);
	}
	hyp_spin_unlock(&trace_lock);
	return 0;
}

static void *trace_load_page(unsigned long va)
{
	void *hyp_va = (void *)kern_hyp_va(va);

	if (!PAGE_ALIGNED(va))
		return NULL;
	/* One pass refuses duplicates: the second pin of a page fails. */
	if (is_protected_kvm_enabled() && hyp_pin_shared_page_once(hyp_va))
		return NULL;
	return hyp_va;
}

static void trace_unload_page(void *hyp_va)
{
	if (is_protected_kvm_enabled())
		hyp_unpin_shared_mem(hyp_va, hyp_va + PAGE_SIZE);
}

/* @cpu as the host passed it, whole: a negative int is a huge u64. */
static bool trace_cpu_ok(u64 cpu)
{
	return cpu < trace_nr_cpus() && kvm_arm_hyp_percpu_base[cpu];
}

/*
 * The per-CPU entries of the descriptor are read as longs, and the writer's
 * page descriptors go right after it (at struct_len): the writer updates
 * their links with atomics, and a misaligned exclusive or LSE access faults
 * at EL2. The header and every entry are multiples of TRACE_DESC_ALIGN long,
 * so with the descriptor page aligned and struct_len exactly the header plus
 * the entries, everything is aligned.
 */
#define TRACE_DESC_ALIGN	8
static_assert(__alignof__(struct ring_buffer_desc) <= TRACE_DESC_ALIGN);
static_assert(__alignof__(struct simple_buffer_page) <= TRACE_DESC_ALIGN);
static_assert(IS_ALIGNED(offsetof(struct trace_buffer_desc, __data), TRACE_DESC_ALIGN));
static_assert(IS_ALIGNED(sizeof(struct ring_buffer_desc), TRACE_DESC_ALIGN));
static_assert(IS_ALIGNED(sizeof(unsigned long), TRACE_DESC_ALIGN));

/*
 * Check the descriptor (already out of the host's reach): sizes, alignment,
 * and CPUs, each once. Pages listed twice are refused when they are pinned
 * (trace_load_page()), in one pass. Returns the number of data pages, 0 if
 * bad.
 */
static size_t trace_check_desc(struct trace_buffer_desc *desc, size_t size)
{
	struct ring_buffer_desc *rbdesc, *other;
	size_t left, total = 0, len;
	int i, j;

	if (size < sizeof(*desc) || desc->struct_len > size ||
	    desc->struct_len < sizeof(*desc) ||
	    !IS_ALIGNED(desc->struct_len, TRACE_DESC_ALIGN) ||
	    desc->nr_cpus <= 0 || desc->nr_cpus > trace_nr_cpus())
		return 0;

	left = desc->struct_len - sizeof(*desc);
	rbdesc = (struct ring_buffer_desc *)desc->__data;
	for (i = 0; i < desc->nr_cpus; i++) {
		if (left < sizeof(*rbdesc))
			return 0;
		if (rbdesc->nr_page_va < 3 ||
		    rbdesc->nr_page_va > (left - sizeof(*rbdesc)) / sizeof(unsigned long))
			return 0;
		if (!trace_cpu_ok(rbdesc->cpu))
			return 0;
		len = ring_buffer_desc_size(rbdesc->nr_page_va);
		total += rbdesc->nr_page_va;
		left -= len;
		rbdesc = (struct ring_buffer_desc *)((char *)rbdesc + len);
	}
	/* Nothing between the entries and the writer's page descriptors. */
	if (left)
		return 0;

	/* The writer's page descriptors live after the descriptor. */
	if (total > (size - desc->struct_len) / sizeof(struct simple_buffer_page))
		return 0;

	/* Each CPU once: at most trace_nr_cpus() entries. */
	for_each_ring_buffer_desc(rbdesc, i, desc) {
		for_each_ring_buffer_desc(other, j, desc) {
			if (j == i)
				break;
			if (other->cpu == rbdesc->cpu)
				return 0;
		}
	}
	return total;
}

/*
 * A CPU with a loaded buffer. The host may rewrite the descriptor after the
 * load in nVHE mode, where it is only shared: what was loaded is known from
 * here, never from the descriptor.
 */
static bool trace_cpu_loaded(u64 cpu)
{
	return trace_cpu_ok(cpu) && per_cpu_ptr(&hyp_trace_cpu, cpu)->loaded;
}

static void trace_unload_cpus(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
		if (!trace_cpu_loaded(cpu))
			continue;
		simple_ring_buffer_unload(trace_rb(cpu));
		per_cpu_ptr(&hyp_trace_cpu, cpu)->loaded = false;
	}
}

/*
 * The largest descriptor that can be valid, in protected mode. It lists each
 * page once, and every page must be host memory: at most as many pages as
 * the memory the hypervisor knows of (hyp_memory). Each costs an address in
 * its CPU's entry and a struct simple_buffer_page after the descriptor, and
 * each hypervisor CPU an entry header. This is a bound, not a target: the
 * host asks for at most totalram / num_possible_cpus bytes of data pages per
 * CPU (remotes/hypervisor/buffer_size_kb), whose descriptor is about 1/85 of
 * that.
 */
static size_t trace_max_desc_size(void)
{
	size_t nr_pages = 0;
	unsigned int i;

	for (i = 0; i < hyp_memblock_nr; i++)
		nr_pages += hyp_memory[i].size >> PAGE_SHIFT;

	return PAGE_ALIGN(sizeof(struct trace_buffer_desc) +
			  trace_nr_cpus() * sizeof(struct ring_buffer_desc) +
			  nr_pages * (sizeof(unsigned long) + sizeof(struct simple_buffer_page)));
}

static int trace_take_desc(unsigned long desc_hva, size_t size, struct trace_buffer_desc **desc)
{
	void *hyp_va = (void *)kern_hyp_va(desc_hva);
	unsigned long end;

	if (!PAGE_ALIGNED(desc_hva) || !size || !PAGE_ALIGNED(size))
		return -EINVAL;
	/*
	 * __pkvm_host_donate_hyp() does not check a range that wraps: its
	 * check of the host's ownership would pass without looking at a page.
	 */
	if (check_add_overflow((unsigned long)hyp_va, size, &end) ||
	    check_add_overflow((unsigned long)hyp_virt_to_phys(hyp_va), size, &end))
		return -EINVAL;
	if (is_protected_kvm_enabled()) {
		int ret;

		if (size > trace_max_desc_size())
			return -E2BIG;
		ret = __pkvm_host_donate_hyp(hyp_virt_to_pfn(hyp_va), size >> PAGE_SHIFT);
		if (ret)
			return ret;
	}
	*desc = hyp_va;
	return 0;
}

/*
 * The host gets the descriptor back without hypervisor pointers: the
 * @nr_bpages page descriptors at @bpages, if the writer used the room the
 * host left after the descriptor, are cleared first.
 */
static void trace_give_back_desc(struct trace_buffer_desc *desc, size_t size,
				 struct simple_buffer_page *bpages, size_t nr_bpages)
{
	if (nr_bpages)
		memset(bpages, 0, nr_bpages * sizeof(*bpages));
	if (is_protected_kvm_enabled())
		WARN_ON(__pkvm_hyp_donate_host(hyp_virt_to_pfn(desc), size >> PAGE_SHIFT));
}

int __tracing_load(unsigned long desc_hva, size_t desc_size)
{
	struct simple_buffer_page *bpages, *first = NULL;
	struct ring_buffer_desc *rbdesc;
	struct trace_buffer_desc *desc;
	size_t nr_bpages = 0;
	int i, ret;

	hyp_spin_lock(&trace_lock);
	if (trace_desc) {
		ret = -EBUSY;
		goto unlock;
	}

	ret = trace_take_desc(desc_hva, desc_size, &desc);
	if (ret)
		goto unlock;

	nr_bpages = trace_check_desc(desc, desc_size);
	if (!nr_bpages) {
		ret = -EINVAL;
		goto give_back;
	}

	first = (struct simple_buffer_page *)((char *)desc + desc->struct_len);
	bpages = first;
	for_each_ring_buffer_desc(rbdesc, i, desc) {
		ret = simple_ring_buffer_init_mm(trace_rb(rbdesc->cpu), bpages,
						 rbdesc, trace_load_page, trace_unload_page);
		if (ret) {
			trace_unload_cpus();
			goto give_back;
		}
		per_cpu_ptr(&hyp_trace_cpu, rbdesc->cpu)->loaded = true;
		bpages += rbdesc->nr_page_va;
	}

	trace_desc = desc;
	trace_desc_size = desc_size;
	trace_bpages = first;
	trace_nr_bpages = nr_bpages;
	goto unlock;

give_back:
	trace_give_back_desc(desc, desc_size, first, nr_bpages);
unlock:
	hyp_spin_unlock(&trace_lock);
	return ret;
}

void __tracing_unload(void)
{
	hyp_spin_lock(&trace_lock);
	if (trace_desc) {
		trace_unload_cpus();
		trace_give_back_desc(trace_desc, trace_desc_size, trace_bpages, trace_nr_bpages);
		trace_desc = NULL;
		WRITE_ONCE(trace_on, false);
	}
	hyp_spin_unlock(&trace_lock);
}

int __tracing_enable(bool enable)
{
	unsigned int cpu;
	int ret = -ENODEV;

	hyp_spin_lock(&trace_lock);
	if (trace_desc) {
		for (cpu = 0; cpu < trace_nr_cpus(); cpu++) {
			if (trace_cpu_loaded(cpu))
				simple_ring_buffer_enable_tracing(trace_rb(cpu), enable);
		}
		WRITE_ONCE(trace_on, enable);
		ret = 0;
	}
	hyp_spin_unlock(&trace_lock);
	return ret;
}

int __tracing_swap_reader(u64 cpu)
{
	int ret = -ENODEV;

	if (!trace_cpu_ok(cpu))
		return -EINVAL;

	hyp_spin_lock(&trace_lock);
	if (trace_cpu_loaded(cpu))
		ret = simple_ring_buffer_swap_reader_page(trace_rb(cpu));
	hyp_spin_unlock(&trace_lock);
	return ret;
}

int __tracing_reset(u64 cpu)
{
	int ret = -ENODEV;

	if (!trace_cpu_ok(cpu))
		return -EINVAL;

	hyp_spin_lock(&trace_lock);
	if (trace_cpu_loaded(cpu))
		ret = simple_ring_buffer_reset(trace_rb(cpu));
	hyp_spin_unlock(&trace_lock);
	return ret;
}

int __tracing_enable_event(u64 id, bool enable)
{
	if (!id || id >= HYP_NR_EVENTS)
		return -EINVAL;

	/* Switch and count under the lock: the count stays exact. */
	hyp_spin_lock(&trace_lock);
	if (hyp_trace_events[id] != enable) {
		WRITE_ONCE(hyp_trace_events[id], enable);
		if (id == hyp_event_id_hyp_enter || id == hyp_event_id_hyp_exit ||
		    id == hyp_event_id_host_hcall)
			WRITE_ONCE(hyp_trace_nr_trap_events_on,
				   hyp_trace_nr_trap_events_on + (enable ? 1 : -1));
	}
	hyp_spin_unlock(&trace_lock);
	return 0;
}

/*
 * Write a selftest event on this CPU. -ENODEV if it is not written: tracing
 * or the event is off, this CPU has no buffer in the loaded descriptor, or
 * its buffer is being reset, disabled or unloaded by another CPU right now.
 *
 * Return: 0 if written, -ENODEV.
 */
static __always_inline int hyp_trace_selftest(u64 id)
{
	struct remote_event_format_selftest *entry;
	struct simple_rb_reservation res;
	struct hyp_trace_cpu *tc;

	if (!READ_ONCE(trace_on) || !READ_ONCE(hyp_trace_events[hyp_event_id_selftest]))
		return -ENODEV;

	tc = this_cpu_ptr(&hyp_trace_cpu);
	entry = hyp_trace_reserve(tc, sizeof(*entry), &res);
	if (!entry)
		return -ENODEV;
	entry->hdr = REMOTE_EVENT_HDR(hyp_event_id_selftest);
	entry->id = id;
	hyp_trace_commit(tc, &res);
	return 0;
}

/* The test ids: once the selftest event is written, panic or hyp_printk. */
static noinline int hyp_trace_test_hook(u64 id)
{
	int ret = hyp_trace_selftest(id);

	if (ret)
		return ret;
	if (id == HYP_TRACE_PANIC_ID)
		hyp_panic();
	hyp_printk("hyp_printk test: no arguments");
	hyp_printk("hyp_printk test: %d %u %c", -42, 42U, 'h');
	hyp_printk("hyp_printk test: 0x%llx %lld 100%% %03x|%-4d|", 0xfedcba9876543210ULL,
		   (s64)-1, 0xaU, 7);
	/* Damaged records: no such format, the middle of one. */
	trace_hyp_printk(U32_MAX, 1, 2, 3, 4);
	trace_hyp_printk(1, 5, 6, 7, 8);
	return 0;
}

#ifdef CONFIG_NVHE_EL2_TRACING_TEST
struct hyp_wx_walk {
	phys_addr_t	start[2];
	phys_addr_t	end[2];
	int		count;
};

static int hyp_wx_visit(const struct kvm_pgtable_visit_ctx *ctx,
			enum kvm_pgtable_walk_flags visit)
{
	struct hyp_wx_walk *w = ctx->arg;
	u64 pa, size = kvm_granule_size(ctx->level);
	int i;

	/* AP[2] clear: writable at EL2, whatever AP[1] says of EL0. */
	if (!kvm_pte_valid(ctx->old) ||
	    (FIELD_GET(KVM_PTE_LEAF_ATTR_LO_S1_AP, ctx->old) & 2))
		return 0;
	pa = kvm_pte_to_phys(ctx->old);
	for (i = 0; i < ARRAY_SIZE(w->start); i++) {
		if (pa < w->end[i] && pa + size > w->start[i])
			w->count++;
	}
	return 0;
}

/*
 * The valid entries of the whole stage-1 page table that map some of the
 * hypervisor's text or rodata with write permission, whatever their address.
 */
static int hyp_trace_count_wx(void)
{
	struct hyp_wx_walk w = {
		.start	= { __hyp_pa(__hyp_text_start), __hyp_pa(__hyp_rodata_start) },
		.end	= { __hyp_pa(__hyp_text_end), __hyp_pa(__hyp_rodata_end) },
	};
	struct kvm_pgtable_walker walker = {
		.cb	= hyp_wx_visit,
		.arg	= &w,
		.flags	= KVM_PGTABLE_WALK_LEAF,
	};
	int ret;

	if (!is_protected_kvm_enabled())
		return -EOPNOTSUPP;
	hyp_spin_lock(&pkvm_pgd_lock);
	ret = kvm_pgtable_walk(&pkvm_pgtable, 0, BIT(pkvm_pgtable.ia_bits), &walker);
	hyp_spin_unlock(&pkvm_pgd_lock);
	return ret ?: w.count;
}
#else
static int hyp_trace_count_wx(void)
{
	return -EOPNOTSUPP;
}
#endif

int __tracing_write_event(u64 id)
{
	/*
	 * Test ids first, whether the event is on or off: the benchmark takes
	 * the cost of one event as this call with the event on minus off.
	 */
	if (IS_ENABLED(CONFIG_NVHE_EL2_TRACING_TEST) &&
	    unlikely(id == HYP_TRACE_PANIC_ID || id == HYP_TRACE_PRINTK_ID))
		return hyp_trace_test_hook(id);
	if (IS_ENABLED(CONFIG_NVHE_EL2_TRACING_TEST) && unlikely(id == HYP_TRACE_WX_ID))
		return hyp_trace_count_wx();
	if (IS_ENABLED(CONFIG_NVHE_EL2_TRACING_TEST) && unlikely(id == HYP_TRACE_TEXT_MAPS_ID))
		return hyp_ftrace_nr_text_maps();
	return hyp_trace_selftest(id);
}
