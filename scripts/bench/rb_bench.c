// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark module (not part of the series): cost per event of
 * simple_ring_buffer reserve+commit against the kernel ring buffer's
 * ring_buffer_lock_reserve()+ring_buffer_unlock_commit(), 8-byte payload,
 * same loop, same boot, interrupts off. Both read the same clock for every
 * event (trace_clock_local(), the ring buffer's default); the cost of that
 * read alone is measured too, to give the writers' own cost. Prints and
 * unloads itself.
 */
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/simple_ring_buffer.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>

#define NR_PAGES	8

static unsigned int events = 200000;
module_param(events, uint, 0444);

static u64 bench_simple(void)
{
	struct simple_buffer_page *bpages = kcalloc(NR_PAGES, sizeof(*bpages), GFP_KERNEL);
	struct ring_buffer_desc *desc = kzalloc(ring_buffer_desc_size(NR_PAGES), GFP_KERNEL);
	struct simple_rb_per_cpu *cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	unsigned long flags;
	u64 t0, t = 0;
	unsigned int i;

	if (!bpages || !desc || !cb)
		goto out;
	desc->nr_page_va = NR_PAGES;
	desc->meta_va = get_zeroed_page(GFP_KERNEL);
	for (i = 0; i < NR_PAGES; i++)
		desc->page_va[i] = get_zeroed_page(GFP_KERNEL);
	if (simple_ring_buffer_init(cb, bpages, desc))
		goto out;
	simple_ring_buffer_enable_tracing(cb, true);

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < events; i++) {
		u64 *p = simple_ring_buffer_reserve(cb, sizeof(u64), trace_clock_local());

		if (p) {
			*p = i;
			simple_ring_buffer_commit(cb);
		}
	}
	t = ktime_get_ns() - t0;
	local_irq_restore(flags);
	simple_ring_buffer_unload(cb);
	free_page(desc->meta_va);
	for (i = 0; i < NR_PAGES; i++)
		free_page(desc->page_va[i]);
out:
	kfree(cb);
	kfree(desc);
	kfree(bpages);
	return t;
}

static u64 bench_ftrace(void)
{
	struct trace_buffer *buffer = ring_buffer_alloc(NR_PAGES * PAGE_SIZE, RB_FL_OVERWRITE);
	struct ring_buffer_event *event;
	unsigned long flags;
	unsigned int i;
	u64 t0, t;

	if (!buffer)
		return 0;
	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < events; i++) {
		event = ring_buffer_lock_reserve(buffer, sizeof(u64));
		if (event) {
			*(u64 *)ring_buffer_event_data(event) = i;
			ring_buffer_unlock_commit(buffer);
		}
	}
	t = ktime_get_ns() - t0;
	local_irq_restore(flags);
	ring_buffer_free(buffer);
	return t;
}

static u64 bench_clock(void)
{
	unsigned long flags;
	u64 t0, t, sum = 0;
	unsigned int i;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < events; i++)
		sum += trace_clock_local();
	t = ktime_get_ns() - t0;
	local_irq_restore(flags);
	return sum ? t : 0;
}

static int __init rb_bench_init(void)
{
	u64 s = U64_MAX, f = U64_MAX, c = U64_MAX, t;
	int round;

	for (round = 0; round < 5; round++) {
		t = bench_simple();
		if (t && t < s)
			s = t;
		t = bench_ftrace();
		if (t && t < f)
			f = t;
		t = bench_clock();
		if (t && t < c)
			c = t;
	}
	s = div_u64(s, events);
	f = div_u64(f, events);
	c = div_u64(c, events);
	pr_info("rb_bench: %u events x 5 rounds, best: simple_ring_buffer %llu ns/event, ring_buffer %llu ns/event, ratio %llu.%02llu\n",
		events, s, f, div64_u64(s, f), div64_u64(s * 100, f) % 100);
	if (c < s)
		pr_info("rb_bench: of which the clock read: %llu ns; writers alone: %llu vs %llu ns, ratio %llu.%02llu\n",
			c, s - c, f - c, div64_u64(s - c, f - c),
			div64_u64((s - c) * 100, f - c) % 100);
	return -EAGAIN;	/* nothing to keep loaded */
}
module_init(rb_bench_init);

MODULE_DESCRIPTION("simple_ring_buffer vs ring_buffer benchmark");
MODULE_LICENSE("GPL");
