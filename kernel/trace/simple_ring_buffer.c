// SPDX-License-Identifier: GPL-2.0
/*
 * simple_ring_buffer: a lockless ring buffer writer for trace remotes.
 *
 * Each CPU owns a ring of data pages plus one reader page outside the ring,
 * all in the ftrace page format, and a meta page (struct trace_buffer_meta)
 * that publishes counters and the id of the reader page.
 *
 * Roles:
 *  - The writer runs on its own CPU only, one event at a time: reserve
 *    moves the buffer from READY to WRITING with one cmpxchg, so a nested or
 *    concurrent reserve fails (and is counted in @dropped) instead of
 *    corrupting the page; commit publishes the page's commit offset and
 *    goes back to READY.
 *  - The reader (any CPU) never touches the data pages of the ring. When it
 *    is done with its reader page it asks for a swap: the reader page takes
 *    the place of the head page (the oldest page) in the ring and the old
 *    head becomes the reader page.
 *
 * The head is not a pointer: it is the HEAD tag in the low bits of the
 * @next link of the page before it. Both the writer (when it overwrites the
 * head in flight-recorder mode) and the swap (when it takes the head out)
 * change that link with cmpxchg, so exactly one of them wins:
 *
 *  - swap: reader->next = head->next | HEAD, then
 *          cmpxchg(prev->next, head | HEAD, reader)
 *  - writer pushing the head forward, tail->next == head | HEAD:
 *          cmpxchg(tail->next, head | HEAD, head | UPDATE)  (claim the link)
 *          head->next |= HEAD                               (new head)
 *          tail->next = head                                (release it)
 *
 * Only the writer sets or clears UPDATE, and only the links it owns; a swap
 * that finds UPDATE waits for the writer to finish moving the head.
 *
 * The swap does not scan the ring: it starts at @head_prev, the page it put
 * before the head at the previous swap, unless the writer has pushed the
 * head since; the ring is then full and the head follows the tail page, so
 * it starts there. Either way the HEAD tag is a link or two away, whatever
 * the size of the ring.
 *
 * Time stamps never go backwards (an event stamped before the previous one
 * gets its stamp), page stamps go strictly forward, and a step a time extend
 * cannot hold (2^59 units or more) starts a page.
 *
 * This file must not depend on the rest of the kernel: it is also built into
 * the arm64 nVHE hypervisor and into native tests. The build checks that it
 * references no symbol outside a short allow-list (see the Makefile).
 */

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/simple_ring_buffer.h>

#include <asm/page.h>
#include <linux/processor.h>

#define SIMPLE_RB_FLAG_HEAD	1UL
#define SIMPLE_RB_FLAG_UPDATE	2UL
#define SIMPLE_RB_FLAG_MASK	3UL

#define SIMPLE_RB_TIME_EXTEND	8

static struct simple_buffer_page *simple_bpage_next(struct simple_buffer_page *bpage)
{
	return (struct simple_buffer_page *)(READ_ONCE(bpage->next) & ~SIMPLE_RB_FLAG_MASK);
}

static void simple_bpage_reset(struct simple_buffer_page *bpage)
{
	bpage->entries = 0;
	bpage->first_entry = 0;
	WRITE_ONCE(bpage->page->commit, 0);
}

/*
 * Move the tail to the next page. When that page is the head, the ring is
 * full: push the head one page further and count what it held as lost.
 */
static void simple_rb_move_tail(struct simple_rb_per_cpu *cpu_buffer)
{
	struct simple_buffer_page *tail = cpu_buffer->tail_page;
	struct trace_buffer_meta *meta = cpu_buffer->meta;
	struct simple_buffer_page *next;
	unsigned long link;

	/* Final now: the page's count is what was committed since it began. */
	tail->entries = meta->entries - tail->first_entry;

	for (;;) {
		link = READ_ONCE(tail->next);
		next = (struct simple_buffer_page *)(link & ~SIMPLE_RB_FLAG_MASK);
		if (!(link & SIMPLE_RB_FLAG_HEAD))
			break;

		/* Claim the link; failing means the reader swapped the head out. */
		if (cmpxchg(&tail->next, link, (unsigned long)next | SIMPLE_RB_FLAG_UPDATE) != link)
			continue;

		WRITE_ONCE(meta->overrun, meta->overrun + next->entries);
		WRITE_ONCE(meta->pages_lost, meta->pages_lost + 1);
		/* Release: the statistics are visible before the new head. */
		smp_store_release(&next->next, READ_ONCE(next->next) | SIMPLE_RB_FLAG_HEAD);
		/* Release: the link is plain again and the head is one page on. */
		smp_store_release(&tail->next, (unsigned long)next);
		break;
	}

	simple_bpage_reset(next);
	/*
	 * The page may be read by a non-consuming reader: its commit goes to
	 * 0 before its new time stamp and events are written (see reserve).
	 */
	smp_wmb();
	next->first_entry = meta->entries;
	WRITE_ONCE(meta->pages_touched, meta->pages_touched + 1);
	cpu_buffer->tail_commit = &next->page->commit;
	cpu_buffer->tail_write = SIMPLE_RB_TAIL_NEW;
	/* Pairs with the acquire in swap: our reads of tail->next are done. */
	smp_store_release(&cpu_buffer->tail_page, next);
}

static void simple_rb_write_time_extend(void *at, u64 delta)
{
	struct ring_buffer_event *event = at;

	event->type_len = RINGBUF_TYPE_TIME_EXTEND;
	event->time_delta = delta & (SIMPLE_RB_TS_MAX - 1);
	event->array[0] = delta >> SIMPLE_RB_TS_SHIFT;
}

/**
 * __simple_ring_buffer_refuse() - Out of line part of a refused reserve
 * @cpu_buffer:	The ring buffer passed to simple_ring_buffer_reserve_event().
 * @status:	The status its cmpxchg found.
 * @nr:		The number of events reserved.
 *
 * Counts the events as lost if a writer was busy, or if the payload was too
 * large (the buffer was taken then: give it back).
 *
 * Return: NULL.
 */
void *__simple_ring_buffer_refuse(struct simple_rb_per_cpu *cpu_buffer, int status,
				  unsigned int nr)
{
	if (status == SIMPLE_RB_WRITING || status == SIMPLE_RB_READY)
		WRITE_ONCE(cpu_buffer->dropped, cpu_buffer->dropped + nr);
	if (status == SIMPLE_RB_READY) /* Release: back to READY, as in commit. */
		smp_store_release(&cpu_buffer->status, SIMPLE_RB_READY);
	return NULL;
}
EXPORT_SYMBOL_GPL(__simple_ring_buffer_refuse);

/**
 * __simple_ring_buffer_reserve_slow() - Out of line part of a reserve
 * @cpu_buffer:	The ring buffer passed to simple_ring_buffer_reserve_event(),
 *		taken by it (WRITING).
 * @length:	Payload size, rounded up to 8 bytes.
 * @timestamp:	Time stamp, which may be before the previous event's.
 *
 * The first event of a page (which carries the time stamp), an event that
 * does not fit (move to the next page) or one that needs a time extend.
 *
 * Return: a pointer to @length bytes of payload.
 */
void *__simple_ring_buffer_reserve_slow(struct simple_rb_per_cpu *cpu_buffer,
					unsigned long length, u64 timestamp)
{
	unsigned long size = length + SIMPLE_RB_EVENT_HDR;
	struct ring_buffer_event *event;
	u64 delta = 0;
	void *at;

	/* Time stamps never go backwards. */
	if (timestamp < cpu_buffer->write_stamp)
		timestamp = cpu_buffer->write_stamp;

	if (cpu_buffer->tail_write != SIMPLE_RB_TAIL_NEW) {
		delta = timestamp - cpu_buffer->write_stamp;
		if (delta >= SIMPLE_RB_TS_MAX)
			size += SIMPLE_RB_TIME_EXTEND;
		if (cpu_buffer->tail_write + size > SIMPLE_RB_DATA_SIZE ||
		    delta >> (SIMPLE_RB_TS_SHIFT + 32))
			simple_rb_move_tail(cpu_buffer);
	}

	if (cpu_buffer->tail_write == SIMPLE_RB_TAIL_NEW) {
		/*
		 * First event of the page: the page carries the time stamp. It
		 * is newer than any other page's, even when the clock stands
		 * still or was set back, so that a reader can tell the pages
		 * apart and knows that a page it read was rewritten.
		 */
		if (timestamp <= cpu_buffer->write_stamp)
			timestamp = cpu_buffer->write_stamp + 1;
		WRITE_ONCE(cpu_buffer->tail_page->page->time_stamp, timestamp);
		/*
		 * A reader that copied the previous content of this page checks
		 * the stamp after the copy: the new stamp is visible before the
		 * new events. Pairs with smp_rmb() in the reader.
		 */
		smp_wmb();
		cpu_buffer->tail_write = 0;
		delta = 0;
		size = length + SIMPLE_RB_EVENT_HDR;
	}

	at = cpu_buffer->tail_page->page->data + cpu_buffer->tail_write;
	if (delta >= SIMPLE_RB_TS_MAX) {
		simple_rb_write_time_extend(at, delta);
		at += SIMPLE_RB_TIME_EXTEND;
		delta = 0;
	}

	event = at;
	event->type_len = 0;
	event->time_delta = delta;
	event->array[0] = length + sizeof(event->array[0]);

	cpu_buffer->tail_write += size;
	cpu_buffer->write_stamp = timestamp;

	return &event->array[1];
}
EXPORT_SYMBOL_GPL(__simple_ring_buffer_reserve_slow);

/*
 * Publish the events lost since the previous call: @overwritten events
 * between the previous reader page and the new one, and the events refused
 * while the writer was busy.
 */
static void simple_rb_publish_lost(struct simple_rb_per_cpu *cpu_buffer, u64 overwritten)
{
	unsigned long dropped = READ_ONCE(cpu_buffer->dropped);

	WRITE_ONCE(cpu_buffer->meta->reader.lost_events,
		   overwritten + dropped - cpu_buffer->dropped_at_swap);
	cpu_buffer->dropped_at_swap = dropped;
}

/**
 * simple_ring_buffer_swap_reader_page() - Give the reader the oldest page
 * @cpu_buffer:	The ring buffer of one CPU.
 *
 * Called by the reader side, on any CPU, once it is done with the current
 * reader page. The reader page goes back into the ring in place of the head
 * page, and the head page becomes the reader page; the meta page then holds
 * its id and the number of events lost since the previous swap. While the
 * writer is still writing into the reader page there is nothing newer to
 * give, and the reader page stays.
 *
 * Calls for the same @cpu_buffer must not run concurrently.
 *
 * Return: 0, -ENODEV if the buffer is not loaded, or -EBUSY if the writer
 * kept the head moving for too long.
 */
int simple_ring_buffer_swap_reader_page(struct simple_rb_per_cpu *cpu_buffer)
{
	struct simple_buffer_page *reader, *tail, *head, *bpage, *prev = NULL;
	struct trace_buffer_meta *meta = cpu_buffer->meta;
	unsigned long link, commit;
	unsigned int steps;
	u64 read_up_to, lost;

	if (READ_ONCE(cpu_buffer->status) == SIMPLE_RB_UNAVAILABLE)
		return -ENODEV;

	/*
	 * Keep the reader page while the writer is on it, and while it got
	 * events since the previous call: the reader has not seen those yet
	 * (it reads the page again when the id does not change). Once the
	 * tail has left the page, its commit is final.
	 */
	reader = cpu_buffer->reader_page;
	/* Acquire: pairs with the release of the tail in simple_rb_move_tail(). */
	tail = smp_load_acquire(&cpu_buffer->tail_page);
	if (tail == reader)
		goto keep;
	commit = READ_ONCE(reader->page->commit);
	if (commit != cpu_buffer->reader_commit) {
		cpu_buffer->reader_commit = commit;
		goto keep;
	}
	/* Final now; once back in the ring the writer may reuse the page. */
	read_up_to = reader->first_entry + reader->entries;

	/*
	 * Look for the HEAD tag from the page before the head at the last
	 * swap; but once the writer has pushed the head, the ring stays full
	 * until this swap and the head follows the tail: start there.
	 */
	bpage = cpu_buffer->head_prev;
	if (READ_ONCE(tail->next) & SIMPLE_RB_FLAG_MASK)
		bpage = tail;
	for (steps = 0; steps < 2 * cpu_buffer->nr_pages; steps++) {
		link = READ_ONCE(bpage->next);
		if (link & SIMPLE_RB_FLAG_UPDATE) {
			/* The writer is moving the head past this link. */
			cpu_relax();
			continue;
		}
		if (!(link & SIMPLE_RB_FLAG_HEAD)) {
			bpage = (struct simple_buffer_page *)link;
			continue;
		}
		head = (struct simple_buffer_page *)(link & ~SIMPLE_RB_FLAG_MASK);
		WRITE_ONCE(reader->next,
			   (unsigned long)simple_bpage_next(head) | SIMPLE_RB_FLAG_HEAD);
		if (cmpxchg(&bpage->next, link, (unsigned long)reader) == link) {
			prev = bpage;
			break;
		}
		/* The writer took the head first: look again from here. */
	}
	if (!prev)
		return -EBUSY;
	/* The old reader page now precedes the head. */
	cpu_buffer->head_prev = reader;

	/*
	 * The events between the old reader page and the new one were
	 * overwritten. Count them from the pages themselves: the head may
	 * have gone round the ring between our read of the link and the
	 * cmpxchg, so a counter read earlier could be stale.
	 */
	lost = head->first_entry - read_up_to;
	cpu_buffer->reader_page = head;
	cpu_buffer->reader_commit = READ_ONCE(head->page->commit);
	WRITE_ONCE(meta->reader.read, 0);
	simple_rb_publish_lost(cpu_buffer, lost);
	/* Everything above is visible before the new id. */
	smp_store_release(&meta->reader.id, head->id);
	return 0;

keep:
	simple_rb_publish_lost(cpu_buffer, 0);
	return 0;
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_swap_reader_page);

/*
 * Move the status from one of the stable states (DISABLED, READY) to @to,
 * waiting for a writer between reserve and commit to finish.
 * Returns the previous status, or SIMPLE_RB_UNAVAILABLE.
 */
static int simple_rb_set_status(struct simple_rb_per_cpu *cpu_buffer, int to)
{
	int old;

	for (;;) {
		old = READ_ONCE(cpu_buffer->status);
		if (old == SIMPLE_RB_UNAVAILABLE)
			return old;
		if (old == SIMPLE_RB_WRITING) {
			cpu_relax();
			continue;
		}
		if (cmpxchg(&cpu_buffer->status, old, to) == old)
			return old;
	}
}

/**
 * simple_ring_buffer_enable_tracing() - Start or stop the writer
 * @cpu_buffer:	The ring buffer of one CPU.
 * @enable:	true to accept events, false to refuse them.
 *
 * Return: 0, or -ENODEV if the buffer is not loaded.
 */
int simple_ring_buffer_enable_tracing(struct simple_rb_per_cpu *cpu_buffer, bool enable)
{
	int old = simple_rb_set_status(cpu_buffer,
				       enable ? SIMPLE_RB_READY : SIMPLE_RB_DISABLED);

	return old == SIMPLE_RB_UNAVAILABLE ? -ENODEV : 0;
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_enable_tracing);

/* Link pages 1..n-1 into a ring with page 1 as head; page 0 is the reader. */
static void simple_rb_setup_ring(struct simple_rb_per_cpu *cpu_buffer)
{
	struct simple_buffer_page *bpages = cpu_buffer->bpages;
	unsigned int i, n = cpu_buffer->nr_pages;

	for (i = 0; i < n; i++)
		simple_bpage_reset(&bpages[i]);

	for (i = 1; i < n; i++)
		bpages[i].next = (unsigned long)&bpages[i + 1 < n ? i + 1 : 1];
	/* The last page precedes the head. */
	bpages[n - 1].next |= SIMPLE_RB_FLAG_HEAD;
	bpages[0].next = 0;

	cpu_buffer->reader_page = &bpages[0];
	cpu_buffer->head_prev = &bpages[n - 1];
	cpu_buffer->tail_page = &bpages[1];
	cpu_buffer->tail_commit = &bpages[1].page->commit;
	cpu_buffer->tail_write = SIMPLE_RB_TAIL_NEW;
	cpu_buffer->reader_commit = 0;
	cpu_buffer->write_stamp = 0;
	cpu_buffer->dropped = 0;
	cpu_buffer->dropped_at_swap = 0;
}

static void simple_rb_setup_meta(struct simple_rb_per_cpu *cpu_buffer)
{
	struct trace_buffer_meta *meta = cpu_buffer->meta;

	meta->meta_page_size = PAGE_SIZE;
	meta->meta_struct_len = sizeof(*meta);
	meta->subbuf_size = PAGE_SIZE;
	meta->nr_subbufs = cpu_buffer->nr_pages;
	meta->reader.lost_events = 0;
	meta->reader.read = 0;
	meta->flags = 0;
	meta->entries = 0;
	meta->overrun = 0;
	meta->read = 0;
	meta->pages_lost = 0;
	meta->pages_touched = 0;
	/* Release: the reader sees the counters above with the id. */
	smp_store_release(&meta->reader.id, 0);
}

/* Empty the ring and the meta page, then set @status. */
static void simple_rb_setup(struct simple_rb_per_cpu *cpu_buffer, int status)
{
	simple_rb_setup_ring(cpu_buffer);
	simple_rb_setup_meta(cpu_buffer);
	/* Release: a writer that sees the new status sees the empty ring too. */
	smp_store_release(&cpu_buffer->status, status);
}

/**
 * simple_ring_buffer_reset() - Drop every event of one CPU
 * @cpu_buffer:	The ring buffer of one CPU.
 *
 * Empties all pages and zeroes the counters of the meta page; the reader
 * gets page 0 again. The enabled state is kept.
 *
 * Return: 0, or -ENODEV if the buffer is not loaded.
 */
int simple_ring_buffer_reset(struct simple_rb_per_cpu *cpu_buffer)
{
	int old = simple_rb_set_status(cpu_buffer, SIMPLE_RB_UNAVAILABLE);

	if (old != SIMPLE_RB_UNAVAILABLE)
		simple_rb_setup(cpu_buffer, old);
	return old == SIMPLE_RB_UNAVAILABLE ? -ENODEV : 0;
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_reset);

/**
 * simple_ring_buffer_init_mm() - Set up one CPU's ring buffer
 * @cpu_buffer:	Writer state to initialize.
 * @bpages:	Array of @desc->nr_page_va page descriptors.
 * @desc:	The pages: meta page and data pages, page 0 the reader page.
 * @load_page:	Called for the meta page and each data page with the address
 *		from @desc; returns the address the writer uses, or NULL to
 *		refuse the page. NULL means the addresses are used as is.
 * @unload_page: Undoes @load_page, at unload or when init fails.
 *
 * The buffer starts disabled. @desc is read once per field; a caller that
 * does not trust its author must have checked it (and its size) first.
 *
 * Return: 0, -EINVAL if @desc has fewer than 3 pages, or -EFAULT if
 * @load_page refused a page (everything loaded so far is unloaded).
 */
int simple_ring_buffer_init_mm(struct simple_rb_per_cpu *cpu_buffer,
			       struct simple_buffer_page *bpages,
			       const struct ring_buffer_desc *desc,
			       void *(*load_page)(unsigned long va),
			       void (*unload_page)(void *va))
{
	unsigned int i, nr_pages = READ_ONCE(desc->nr_page_va);
	void *va;

	if (nr_pages < 3)
		return -EINVAL;

	cpu_buffer->status = SIMPLE_RB_UNAVAILABLE;
	cpu_buffer->unload_page = unload_page;
	cpu_buffer->bpages = bpages;
	cpu_buffer->nr_pages = 0;

	va = load_page ? load_page(READ_ONCE(desc->meta_va)) : (void *)READ_ONCE(desc->meta_va);
	if (!va)
		return -EFAULT;
	cpu_buffer->meta = va;

	for (i = 0; i < nr_pages; i++) {
		unsigned long page_va = READ_ONCE(desc->page_va[i]);

		va = load_page ? load_page(page_va) : (void *)page_va;
		if (!va) {
			simple_ring_buffer_unload(cpu_buffer);
			return -EFAULT;
		}
		bpages[i].page = va;
		bpages[i].id = i;
		cpu_buffer->nr_pages = i + 1;
	}

	simple_rb_setup(cpu_buffer, SIMPLE_RB_DISABLED);
	return 0;
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_init_mm);

/**
 * simple_ring_buffer_init() - Set up one CPU's ring buffer on local pages
 * @cpu_buffer:	Writer state to initialize.
 * @bpages:	Array of @desc->nr_page_va page descriptors.
 * @desc:	The pages, used at the addresses it gives.
 *
 * Return: see simple_ring_buffer_init_mm().
 */
int simple_ring_buffer_init(struct simple_rb_per_cpu *cpu_buffer,
			    struct simple_buffer_page *bpages,
			    const struct ring_buffer_desc *desc)
{
	return simple_ring_buffer_init_mm(cpu_buffer, bpages, desc, NULL, NULL);
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_init);

/**
 * simple_ring_buffer_unload() - Stop one CPU's ring buffer and release it
 * @cpu_buffer:	The ring buffer of one CPU.
 *
 * Waits for a writer inside reserve/commit, then hands every page to the
 * unload_page callback given at init. Safe on a buffer that failed init.
 */
void simple_ring_buffer_unload(struct simple_rb_per_cpu *cpu_buffer)
{
	unsigned int i;

	simple_rb_set_status(cpu_buffer, SIMPLE_RB_UNAVAILABLE);

	if (cpu_buffer->unload_page) {
		for (i = 0; i < cpu_buffer->nr_pages; i++)
			cpu_buffer->unload_page(cpu_buffer->bpages[i].page);
		if (cpu_buffer->meta)
			cpu_buffer->unload_page(cpu_buffer->meta);
	}
	cpu_buffer->nr_pages = 0;
	cpu_buffer->meta = NULL;
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_unload);

/**
 * simple_ring_buffer_unload_mm() - Release a ring buffer through @unload_page
 * @cpu_buffer:	The ring buffer of one CPU, set up by simple_ring_buffer_init_mm().
 * @unload_page: Undoes the load_page given at init, or NULL.
 *
 * As simple_ring_buffer_unload(), with the callback given here rather than
 * the one given at init.
 */
void simple_ring_buffer_unload_mm(struct simple_rb_per_cpu *cpu_buffer,
				  void (*unload_page)(void *va))
{
	cpu_buffer->unload_page = unload_page;
	simple_ring_buffer_unload(cpu_buffer);
}
EXPORT_SYMBOL_GPL(simple_ring_buffer_unload_mm);
