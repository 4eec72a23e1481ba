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
/* 8-byte payload events: 16 bytes each, 4072 bytes of events per page. */
#define EVENTS_PER_PAGE	254

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

/* A writer on @n pages of its own, enabled; NULL if memory ran out. */
static struct simple_rb_per_cpu *swap_writer(unsigned int n, struct ring_buffer_desc **descp)
{
	struct simple_rb_per_cpu *cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	struct ring_buffer_desc *desc = kvzalloc(ring_buffer_desc_size(n), GFP_KERNEL);
	struct simple_buffer_page *bpages = kvcalloc(n, sizeof(*bpages), GFP_KERNEL);
	unsigned int i;

	*descp = desc;
	if (!cb || !desc || !bpages)
		goto fail;
	desc->meta_va = get_zeroed_page(GFP_KERNEL);
	for (i = 0; i < n; i++) {
		desc->page_va[i] = get_zeroed_page(GFP_KERNEL);
		desc->nr_page_va = i + 1;
		if (!desc->page_va[i])
			goto fail;
	}
	if (!desc->meta_va || simple_ring_buffer_init(cb, bpages, desc))
		goto fail;
	simple_ring_buffer_enable_tracing(cb, true);
	return cb;
fail:
	kfree(cb);
	kvfree(bpages);
	return NULL;
}

static void swap_writer_free(struct simple_rb_per_cpu *cb, struct ring_buffer_desc *desc)
{
	unsigned int i;

	if (cb) {
		simple_ring_buffer_unload(cb);
		kvfree(cb->bpages);
		kfree(cb);
	}
	if (!desc)
		return;
	free_page(desc->meta_va);
	for (i = 0; i < desc->nr_page_va; i++)
		free_page(desc->page_va[i]);
	kvfree(desc);
}

static void swap_write(struct simple_rb_per_cpu *cb, unsigned int nr)
{
	/* A clock that moves: a still one makes every event clamp its stamp. */
	static u64 ts;

	while (nr--) {
		u64 *p = simple_ring_buffer_reserve(cb, sizeof(u64), ++ts);

		if (p) {
			*p = nr;
			simple_ring_buffer_commit(cb);
		}
	}
}

/*
 * The guest's counter ticks every 16 ns (62.5 MHz), 16 instructions under
 * -icount: a swap of about 50 lasts 3 or 4 ticks depending on where the
 * first read falls, and a loop that repeats the same instructions falls
 * there the same way each time. Shift the start by 0 to 15 steps of a few
 * instructions, in turn, so that the mean over the rounds is exact.
 */
static noinline void dither(unsigned int i)
{
	unsigned int n = (i * 7) % 16;

	while (n--)
		barrier();
}

/*
 * The writer's side of a reader swap (simple_ring_buffer_swap_reader_page),
 * on @n pages: after each round of writes, time one swap. A round is one
 * page of events (a reader that keeps up) or, with @lap, one and a half
 * times the ring (the writer overwrote everything since the last swap, and
 * the head is half a ring away from where that swap left it).
 * Returns the mean per swap, clock overhead removed, or 0.
 */
static u64 bench_swap(unsigned int n, bool lap, unsigned int rounds)
{
	struct ring_buffer_desc *desc;
	struct simple_rb_per_cpu *cb = swap_writer(n, &desc);
	u64 t0, t = 0, overhead;
	unsigned long flags;
	unsigned int i;

	if (!cb) {
		swap_writer_free(cb, desc);
		return 0;
	}
	local_irq_save(flags);
	/* Averaged, dithered as below: one read is a tick or two. */
	overhead = 0;
	for (i = 0; i < 256; i++) {
		dither(i);
		t0 = ktime_get_ns();
		overhead += ktime_get_ns() - t0;
	}
	for (i = 0; i < rounds; i++) {
		swap_write(cb, (lap ? n + n / 2 : 1) * EVENTS_PER_PAGE);
		dither(i);
		t0 = ktime_get_ns();
		simple_ring_buffer_swap_reader_page(cb);
		t += ktime_get_ns() - t0;
	}
	local_irq_restore(flags);
	t -= div_u64(overhead * rounds, 256);
	swap_writer_free(cb, desc);
	return div_u64(t, rounds);
}

static void bench_swaps(void)
{
	/* The smallest ring (3 pages) and 4 MiB plus the reader page. */
	static const unsigned int sizes[] = { 3, 1025 };
	int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		pr_info("rb_bench: writer swap, %u pages: %llu ns after one page, %llu ns after a lap\n",
			sizes[i], bench_swap(sizes[i], false, 200),
			bench_swap(sizes[i], true, 50));
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
	bench_swaps();
	return -EAGAIN;	/* nothing to keep loaded */
}
module_init(rb_bench_init);

MODULE_DESCRIPTION("simple_ring_buffer vs ring_buffer benchmark");
MODULE_LICENSE("GPL");
