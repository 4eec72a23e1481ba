// SPDX-License-Identifier: GPL-2.0
/*
 * Native unit tests of kernel/trace/simple_ring_buffer.c.
 *
 * Each test prints "PASS <name>" or "FAIL <name>: why"; the exit status is
 * the number of failures.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srb_reader.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_PAGES	64
#define MAX_EVENTS	1048576

struct buf {
	struct simple_rb_per_cpu cpu_buffer;
	struct simple_buffer_page bpages[MAX_PAGES];
	struct ring_buffer_desc *desc;
	void *pages[MAX_PAGES];
	void *meta;
	struct srb_reader reader;
};

static struct srb_event events[MAX_EVENTS];
static int failures;
static char why[512];

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		snprintf(why, sizeof(why), __VA_ARGS__);		\
		return -1;						\
	}								\
} while (0)

static void *page_alloc(void)
{
	void *p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	memset(p, 0xa5, PAGE_SIZE);	/* garbage, as a recycled page would hold */
	return p;
}

static void buf_free(struct buf *b)
{
	int i;

	simple_ring_buffer_unload(&b->cpu_buffer);
	for (i = 0; i < MAX_PAGES; i++)
		free(b->pages[i]);
	free(b->meta);
	free(b->desc);
	free(b);
}

static struct buf *buf_new(unsigned int nr_pages)
{
	struct buf *b = calloc(1, sizeof(*b));
	unsigned int i;

	b->desc = calloc(1, ring_buffer_desc_size(nr_pages));
	b->desc->nr_page_va = nr_pages;
	b->meta = page_alloc();
	b->desc->meta_va = (unsigned long)b->meta;
	for (i = 0; i < nr_pages; i++) {
		b->pages[i] = page_alloc();
		b->desc->page_va[i] = (unsigned long)b->pages[i];
	}
	if (simple_ring_buffer_init(&b->cpu_buffer, b->bpages, b->desc)) {
		buf_free(b);
		return NULL;
	}
	simple_ring_buffer_enable_tracing(&b->cpu_buffer, true);
	srb_reader_init(&b->reader, &b->cpu_buffer, b->pages);
	return b;
}

static int write_event(struct buf *b, u64 id, u64 ts)
{
	u64 *p = simple_ring_buffer_reserve(&b->cpu_buffer, sizeof(id), ts);

	if (!p)
		return -1;
	*p = id;
	simple_ring_buffer_commit(&b->cpu_buffer);
	return 0;
}

/* Events per data page with an 8-byte payload (16 bytes each; 8 bytes kept free). */
#define PER_PAGE	((PAGE_SIZE - 16 - 8) / 16)

static int check_ids(int n, u64 first, u64 last)
{
	int i;

	CHECK(n == (int)(last - first + 1), "read %d events, want %llu", n,
	      (unsigned long long)(last - first + 1));
	for (i = 0; i < n; i++) {
		CHECK(events[i].id == first + i, "event %d: id %llu, want %llu", i,
		      (unsigned long long)events[i].id, (unsigned long long)(first + i));
		CHECK(!i || events[i].ts >= events[i - 1].ts, "event %d: time went back", i);
	}
	return 0;
}

static int test_basic(void)
{
	struct buf *b = buf_new(4);
	int n, i;

	for (i = 1; i <= 100; i++)
		CHECK(!write_event(b, i, 1000 + i * 10), "reserve %d failed", i);
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n >= 0, "%s", b->reader.error);
	if (check_ids(n, 1, 100))
		return -1;
	for (i = 0; i < n; i++)
		CHECK(events[i].ts == 1000 + (i + 1) * 10, "event %d: ts %llu", i,
		      (unsigned long long)events[i].ts);
	CHECK(b->reader.lost_total == 0, "lost %llu", (unsigned long long)b->reader.lost_total);
	CHECK(b->cpu_buffer.meta->entries == 100, "meta entries %llu",
	      (unsigned long long)b->cpu_buffer.meta->entries);
	CHECK(b->cpu_buffer.meta->meta_struct_len == sizeof(struct trace_buffer_meta) &&
	      b->cpu_buffer.meta->nr_subbufs == 4 && b->cpu_buffer.meta->subbuf_size == PAGE_SIZE,
	      "meta header");
	/* Nothing more to read. */
	CHECK(srb_consume(&b->reader, events, MAX_EVENTS) == 0, "read again");
	buf_free(b);
	return 0;
}

/* 20 pages' worth through a 2-page ring, read as it goes: it wraps, loses nothing. */
static int test_wrap(void)
{
	struct buf *b = buf_new(3);
	int total = 0, n, i;
	u64 id = 1;

	/* Read as we go: no loss however often the ring wraps. */
	for (i = 0; i < 20; i++) {
		int k;

		for (k = 0; k < PER_PAGE; k++, id++)
			CHECK(!write_event(b, id, id), "reserve failed");
		n = srb_consume(&b->reader, events + total, MAX_EVENTS - total);
		CHECK(n >= 0, "%s", b->reader.error);
		total += n;
	}
	if (check_ids(total, 1, id - 1))
		return -1;
	CHECK(b->reader.lost_total == 0, "lost %llu", (unsigned long long)b->reader.lost_total);
	CHECK(b->cpu_buffer.meta->pages_touched >= 19, "pages_touched %llu",
	      (unsigned long long)b->cpu_buffer.meta->pages_touched);
	buf_free(b);
	return 0;
}

/* Flight recorder: the oldest pages are overwritten and counted. */
static int test_overwrite(void)
{
	struct buf *b = buf_new(5);	/* reader + 4 in the ring */
	struct trace_buffer_meta *meta;
	u64 written = 20 * PER_PAGE + 7, first;
	int n;
	u64 i;

	for (i = 1; i <= written; i++)
		CHECK(!write_event(b, i, i), "reserve failed");
	meta = b->cpu_buffer.meta;
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n > 0, "nothing read: %s", b->reader.error);
	first = events[0].id;
	if (check_ids(n, first, written))
		return -1;
	/* Everything before the first id read was reported lost, once. */
	CHECK(events[0].lost_before == first - 1, "lost before first: %llu, want %llu",
	      (unsigned long long)events[0].lost_before, (unsigned long long)(first - 1));
	CHECK(b->reader.lost_total == first - 1, "lost total %llu",
	      (unsigned long long)b->reader.lost_total);
	CHECK(meta->overrun == first - 1, "overrun %llu, want %llu",
	      (unsigned long long)meta->overrun, (unsigned long long)(first - 1));
	CHECK(meta->entries == written, "entries %llu", (unsigned long long)meta->entries);
	CHECK(meta->pages_lost == (first - 1) / PER_PAGE, "pages_lost %llu",
	      (unsigned long long)meta->pages_lost);
	/* The ring holds 3 full pages plus the tail. */
	CHECK(n == 3 * PER_PAGE + 7, "read %d", n);
	buf_free(b);
	return 0;
}

/* The @n events read never go back in time. */
static int check_time_order(int n)
{
	u64 prev = 0;
	int i;

	for (i = 0; i < n; i++) {
		CHECK(events[i].ts >= prev, "event %d at %llu after %llu", i,
		      (unsigned long long)events[i].ts, (unsigned long long)prev);
		prev = events[i].ts;
	}
	return 0;
}

/* Deltas that do not fit in 27 bits need a TIME_EXTEND. */
static int test_time_extend(void)
{
	static const u64 ts[] = { 5, 6, 6 + (1ULL << 27), 7 + (1ULL << 27),
				  (1ULL << 40), (1ULL << 40) + (1ULL << 27) - 1,
				  (1ULL << 50) + 3, (1ULL << 50) + 3 };
	struct buf *b = buf_new(3);
	int n, i;

	for (i = 0; i < 8; i++)
		CHECK(!write_event(b, i + 1, ts[i]), "reserve failed");
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n == 8, "read %d: %s", n, b->reader.error);
	for (i = 0; i < 8; i++)
		CHECK(events[i].ts == ts[i], "event %d: ts %llu, want %llu", i,
		      (unsigned long long)events[i].ts, (unsigned long long)ts[i]);
	/* A time stamp going back is clamped, not wrapped. */
	CHECK(!write_event(b, 9, ts[7] - 100), "reserve failed");
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n == 1 && events[0].ts == ts[7], "backwards ts gave %llu",
	      (unsigned long long)events[0].ts);
	buf_free(b);
	return 0;
}

/* A clock stepping back at any event, page boundaries included. */
static int test_time_monotonic(void)
{
	struct buf *b = buf_new(8);
	u64 ts = 1000000;
	int n, i;

	for (i = 1; i <= 4 * PER_PAGE; i++) {
		/* Back by 500 ns every few events. */
		ts = i % 7 ? ts + 100 : ts - 500;
		CHECK(!write_event(b, i, ts), "reserve failed");
	}
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n == 4 * PER_PAGE, "read %d: %s", n, b->reader.error);
	if (check_time_order(n))
		return -1;	/* why says which */
	buf_free(b);
	return 0;
}

/*
 * A clock that stands still, or was set back, still gives every page a stamp
 * of its own, newer than the previous page's: readers tell pages (and laps)
 * apart by their stamps.
 */
static int test_page_stamps_distinct(void)
{
	u64 stamps[4];
	struct buf *b = buf_new(4);
	int n, i, j, used = 0;

	/* A page at 5000, then the clock is set back to 1000 and stays. */
	for (i = 1; i <= PER_PAGE; i++)
		CHECK(!write_event(b, i, 5000), "reserve failed");
	for (; i <= 6 * PER_PAGE; i++)
		CHECK(!write_event(b, i, 1000), "reserve failed");
	for (i = 0; i < 4; i++) {
		struct simple_buffer_data_page *dpage = b->pages[i];

		stamps[i] = dpage->commit ? dpage->time_stamp : i;
		if (!dpage->commit)
			continue;	/* the reader page */
		used++;
		CHECK(stamps[i] > 5000, "page %d stamped %llu, not after 5000", i,
		      (unsigned long long)stamps[i]);
		for (j = 0; j < i; j++)
			CHECK(stamps[i] != stamps[j], "pages %d and %d both stamped %llu",
			      j, i, (unsigned long long)stamps[i]);
	}
	CHECK(used == 3, "%d pages written, want 3", used);
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n > 0, "read %d: %s", n, b->reader.error);
	if (check_time_order(n))
		return -1;	/* why says which */
	buf_free(b);
	return 0;
}

static int test_reset(void)
{
	struct buf *b = buf_new(4);
	int n, i;

	for (i = 1; i <= 10 * PER_PAGE; i++)
		CHECK(!write_event(b, i, i), "reserve failed");
	/* Read a little, then reset in the middle of the stream. */
	n = srb_read_page(&b->reader, events, 5);
	CHECK(n >= 0, "%s", b->reader.error);
	CHECK(!simple_ring_buffer_reset(&b->cpu_buffer), "reset failed");
	CHECK(b->cpu_buffer.meta->overrun == 0 && b->cpu_buffer.meta->entries == 0 &&
	      b->cpu_buffer.meta->pages_lost == 0 && b->cpu_buffer.meta->reader.id == 0,
	      "counters not cleared");
	srb_reader_init(&b->reader, &b->cpu_buffer, b->pages);
	for (i = 1000; i < 1010; i++)
		CHECK(!write_event(b, i, 100000 + i), "reserve after reset failed");
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n >= 0, "%s", b->reader.error);
	if (check_ids(n, 1000, 1009))
		return -1;
	CHECK(b->reader.lost_total == 0, "lost %llu after reset",
	      (unsigned long long)b->reader.lost_total);
	buf_free(b);
	return 0;
}

/* A reserve inside another (an interrupt on the writer's CPU) fails and counts. */
static int test_nested(void)
{
	struct buf *b = buf_new(3);
	u64 *outer;
	int n;

	CHECK(!write_event(b, 1, 1), "reserve failed");
	outer = simple_ring_buffer_reserve(&b->cpu_buffer, 8, 2);
	CHECK(outer, "outer reserve failed");
	CHECK(!simple_ring_buffer_reserve(&b->cpu_buffer, 8, 3), "nested reserve succeeded");
	CHECK(!simple_ring_buffer_reserve(&b->cpu_buffer, 8, 3), "nested reserve succeeded");
	*outer = 2;
	simple_ring_buffer_commit(&b->cpu_buffer);
	CHECK(!write_event(b, 3, 4), "reserve after nesting failed");
	CHECK(b->cpu_buffer.dropped == 2, "dropped %lu", b->cpu_buffer.dropped);
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n >= 0, "%s", b->reader.error);
	if (check_ids(n, 1, 3))
		return -1;
	/* The drops are reported to the reader as lost events. */
	CHECK(b->reader.lost_total == 2, "lost %llu", (unsigned long long)b->reader.lost_total);
	buf_free(b);
	return 0;
}

static int test_disabled_and_limits(void)
{
	struct buf *b = buf_new(3);

	CHECK(!simple_ring_buffer_reserve(&b->cpu_buffer, SIMPLE_RB_MAX_PAYLOAD + 1, 1),
	      "oversized reserve succeeded");
	CHECK(simple_ring_buffer_reserve(&b->cpu_buffer, SIMPLE_RB_MAX_PAYLOAD, 1),
	      "largest reserve failed");
	simple_ring_buffer_commit(&b->cpu_buffer);
	simple_ring_buffer_enable_tracing(&b->cpu_buffer, false);
	CHECK(!simple_ring_buffer_reserve(&b->cpu_buffer, 8, 2), "reserve while disabled");
	CHECK(b->cpu_buffer.dropped == 1, "dropped %lu (disabled must not count)",
	      b->cpu_buffer.dropped);
	simple_ring_buffer_enable_tracing(&b->cpu_buffer, true);
	CHECK(!write_event(b, 7, 3), "reserve after enable failed");
	simple_ring_buffer_unload(&b->cpu_buffer);
	CHECK(!simple_ring_buffer_reserve(&b->cpu_buffer, 8, 4), "reserve after unload");
	CHECK(simple_ring_buffer_swap_reader_page(&b->cpu_buffer) == -ENODEV, "swap after unload");
	CHECK(simple_ring_buffer_reset(&b->cpu_buffer) == -ENODEV, "reset after unload");
	buf_free(b);
	return 0;
}

/*
 * Two events in one reservation: two well-formed events at one stamp,
 * counted as two, on the fast path and on the slow one (a new page, a time
 * extend); refused while the writer is busy, both counted as lost.
 */
static int test_pair(void)
{
	struct buf *b = buf_new(8);
	struct simple_rb_reservation res;
	u64 i, ts = 1, *p, *q, *outer;
	int n;

	for (i = 1; i <= 2 * PER_PAGE; i += 2) {
		ts += i % 7 == 1 ? 1ULL << 27 : 3;
		p = simple_ring_buffer_reserve_pair(&b->cpu_buffer, 8, 24, ts, &res,
						    (void **)&q);
		CHECK(p, "pair %llu refused", (unsigned long long)i);
		CHECK((u8 *)q == (u8 *)p + 16, "second event at %ld", (long)((u8 *)q - (u8 *)p));
		p[0] = i;
		q[0] = i + 1;
		q[1] = ~0ULL;
		q[2] = ~0ULL;
		simple_ring_buffer_commit_pair(&b->cpu_buffer, &res);
		CHECK(b->cpu_buffer.meta->entries == i + 1, "entries %llu after pair %llu",
		      (unsigned long long)b->cpu_buffer.meta->entries, (unsigned long long)i);
	}
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n >= 0, "read: %s", b->reader.error);
	if (check_ids(n, 1, 2 * PER_PAGE))
		return -1;
	for (i = 0; i < (u64)n; i += 2)
		CHECK(events[i].ts == events[i + 1].ts, "pair %llu: stamps %llu and %llu",
		      (unsigned long long)i, (unsigned long long)events[i].ts,
		      (unsigned long long)events[i + 1].ts);

	buf_free(b);

	b = buf_new(3);
	CHECK(!write_event(b, 1, 1), "reserve failed");
	outer = simple_ring_buffer_reserve(&b->cpu_buffer, 8, 2);
	CHECK(outer, "outer reserve failed");
	CHECK(!simple_ring_buffer_reserve_pair(&b->cpu_buffer, 8, 8, 3, &res, (void **)&q),
	      "nested pair succeeded");
	*outer = 2;
	simple_ring_buffer_commit(&b->cpu_buffer);
	CHECK(b->cpu_buffer.dropped == 2, "dropped %lu, want 2", b->cpu_buffer.dropped);
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n >= 0, "%s", b->reader.error);
	if (check_ids(n, 1, 2))
		return -1;
	CHECK(b->reader.lost_total == 2, "lost %llu", (unsigned long long)b->reader.lost_total);
	buf_free(b);
	return 0;
}

static int loads, unloads, refuse_at;

static void *load_page(unsigned long va)
{
	if (++loads == refuse_at)
		return NULL;
	return (void *)va;
}

static void unload_page(void *va)
{
	unloads++;
}

static int other_unloads;

static void other_unload_page(void *va)
{
	other_unloads++;
}

static int test_init_errors(void)
{
	struct simple_rb_per_cpu cpu_buffer = {};
	struct simple_buffer_page bpages[8];
	struct ring_buffer_desc *desc = calloc(1, ring_buffer_desc_size(8));
	int i, ret;

	desc->meta_va = (unsigned long)page_alloc();
	for (i = 0; i < 8; i++)
		desc->page_va[i] = (unsigned long)page_alloc();

	desc->nr_page_va = 2;
	CHECK(simple_ring_buffer_init(&cpu_buffer, bpages, desc) == -EINVAL, "2 pages accepted");

	/* Refusing page 5 (meta is load 1) unloads exactly what was loaded. */
	desc->nr_page_va = 8;
	loads = 0;
	unloads = 0;
	refuse_at = 5;
	ret = simple_ring_buffer_init_mm(&cpu_buffer, bpages, desc, load_page, unload_page);
	CHECK(ret == -EFAULT, "init returned %d", ret);
	CHECK(unloads == 4, "unloaded %d pages, want 4", unloads);

	loads = 0;
	unloads = 0;
	refuse_at = 0;
	CHECK(!simple_ring_buffer_init_mm(&cpu_buffer, bpages, desc, load_page, unload_page),
	      "init failed");
	CHECK(loads == 9, "loaded %d", loads);
	simple_ring_buffer_unload(&cpu_buffer);
	CHECK(unloads == 9, "unloaded %d", unloads);

	/* unload_mm() hands the pages to the callback it is given. */
	loads = 0;
	unloads = 0;
	CHECK(!simple_ring_buffer_init_mm(&cpu_buffer, bpages, desc, load_page, unload_page),
	      "init failed");
	simple_ring_buffer_unload_mm(&cpu_buffer, other_unload_page);
	CHECK(unloads == 0 && other_unloads == 9, "unloaded %d and %d, want 0 and 9", unloads,
	      other_unloads);

	free((void *)desc->meta_va);
	for (i = 0; i < 8; i++)
		free((void *)desc->page_va[i]);
	free(desc);
	return 0;
}

/*
 * When an event's commit becomes visible, meta->entries already counts it:
 * a reader that has read it never finds more events read than written.
 */
/*
 * What reserve_event() hands commit_event() is the writer's own state, on
 * the fast path and on the slow one (new page, time extend).
 */
static int test_reservation(void)
{
	struct buf *b = buf_new(8);
	struct simple_rb_reservation res;
	u64 i, ts = 1, *p;
	u8 *end;
	int n;

	for (i = 1; i <= 3 * PER_PAGE; i++) {
		ts += i % 7 ? 1 : 1ULL << 27;
		p = simple_ring_buffer_reserve_event(&b->cpu_buffer, sizeof(*p), ts, &res);
		CHECK(p, "reserve %llu failed", (unsigned long long)i);
		end = (u8 *)res.commit - offsetof(struct simple_buffer_data_page, commit) +
		      offsetof(struct simple_buffer_data_page, data) + res.write;
		CHECK(res.commit == b->cpu_buffer.tail_commit &&
		      res.write == b->cpu_buffer.tail_write &&
		      res.meta == b->cpu_buffer.meta && (u8 *)(p + 1) == end,
		      "event %llu: the reservation is not the writer's state",
		      (unsigned long long)i);
		*p = i;
		simple_ring_buffer_commit_event(&b->cpu_buffer, &res);
		CHECK(*res.commit == res.write, "event %llu: commit %lu, want %lu",
		      (unsigned long long)i, *res.commit, res.write);
	}
	n = srb_consume(&b->reader, events, MAX_EVENTS);
	CHECK(n >= 0, "read: %s", b->reader.error);
	if (check_ids(n, 1, 3 * PER_PAGE))
		return -1;
	buf_free(b);
	return 0;
}

static struct buf *published_buf;
static u64 published_want;
static u64 published_bad;

static void published_check(const void *p)
{
	struct simple_rb_per_cpu *cpu_buffer = &published_buf->cpu_buffer;

	if (p == cpu_buffer->tail_commit && cpu_buffer->meta->entries != published_want)
		published_bad++;
}

static int test_entries_published(void)
{
	struct buf *b = buf_new(3);
	u64 i;

	published_buf = b;
	published_bad = 0;
	shim_release_hook = published_check;
	for (i = 1; i <= 3 * PER_PAGE; i++) {
		published_want = i;
		write_event(b, i, i);
	}
	shim_release_hook = NULL;
	buf_free(b);
	CHECK(!published_bad, "%llu of %llu commits published before their entry count",
	      (unsigned long long)published_bad, (unsigned long long)(3 * PER_PAGE));
	return 0;
}

/* A writer thread and a reader thread swapping pages at the same time. */
struct race {
	struct buf *b;
	u64 nr;
	int done;
};

static void *race_writer(void *arg)
{
	struct race *r = arg;
	u64 i;

	for (i = 1; i <= r->nr; i++) {
		while (write_event(r->b, i, i))
			;
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int race_check(struct srb_event *ev, int n, u64 *next, u64 *lost_seen)
{
	int i;

	for (i = 0; i < n; i++) {
		*lost_seen += ev[i].lost_before;
		CHECK(ev[i].id >= *next, "id %llu after %llu", (unsigned long long)ev[i].id,
		      (unsigned long long)(*next - 1));
		/* Every gap is exactly the loss reported before it. */
		CHECK(ev[i].id - *next == ev[i].lost_before,
		      "gap of %llu before id %llu, %llu reported lost",
		      (unsigned long long)(ev[i].id - *next), (unsigned long long)ev[i].id,
		      (unsigned long long)ev[i].lost_before);
		*next = ev[i].id + 1;
	}
	return 0;
}

static int test_race(unsigned int nr_pages, u64 nr)
{
	static struct srb_event ev[4096];
	struct race r = { .b = buf_new(nr_pages), .nr = nr };
	u64 next = 1, lost = 0, read = 0;
	pthread_t t;
	int n, done;

	pthread_create(&t, NULL, race_writer, &r);
	do {
		done = __atomic_load_n(&r.done, __ATOMIC_ACQUIRE);
		while ((n = srb_consume(&r.b->reader, ev, 4096)) > 0) {
			if (race_check(ev, n, &next, &lost))
				break;
			read += n;
		}
	} while (!done && n >= 0 && !why[0]);
	pthread_join(t, NULL);
	if (why[0])
		return -1;
	CHECK(n >= 0, "%s", r.b->reader.error);
	CHECK(read + lost == nr, "read %llu + lost %llu != written %llu",
	      (unsigned long long)read, (unsigned long long)lost, (unsigned long long)nr);
	CHECK(r.b->cpu_buffer.meta->overrun == lost, "overrun %llu, lost %llu",
	      (unsigned long long)r.b->cpu_buffer.meta->overrun, (unsigned long long)lost);
	printf("  race %u pages: %llu written, %llu read, %llu lost\n", nr_pages,
	       (unsigned long long)nr, (unsigned long long)read, (unsigned long long)lost);
	buf_free(r.b);
	return 0;
}

static int test_race_small(void) { return test_race(3, 2000000); }
static int test_race_big(void) { return test_race(32, 2000000); }

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "basic", test_basic },
	{ "wrap-around", test_wrap },
	{ "overwrite-lost-counts", test_overwrite },
	{ "time-extend", test_time_extend },
	{ "time-never-goes-back", test_time_monotonic },
	{ "page-stamps-distinct", test_page_stamps_distinct },
	{ "reset-mid-stream", test_reset },
	{ "nested-reserve-counted", test_nested },
	{ "disabled-and-limits", test_disabled_and_limits },
	{ "pair-in-one-reservation", test_pair },
	{ "init-errors-roll-back", test_init_errors },
	{ "entries-published-with-event", test_entries_published },
	{ "reservation-is-writer-state", test_reservation },
	{ "swap-races-writer-3-pages", test_race_small },
	{ "swap-races-writer-32-pages", test_race_big },
};

int main(int argc, char **argv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		why[0] = 0;
		if (tests[i].fn()) {
			printf("FAIL %s: %s\n", tests[i].name, why);
			failures++;
		} else {
			printf("PASS %s\n", tests[i].name);
		}
		fflush(stdout);
	}
	return failures;
}
