/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simple_ring_buffer: a small ring buffer writer for trace remotes.
 *
 * It fills per-CPU rings of shared pages in the ftrace page format, with one
 * meta page (struct trace_buffer_meta) per CPU, for a reader that lives
 * elsewhere (the kernel's ring buffer in remote mode). It depends on nothing
 * but a few inline helpers, so that the same file builds into the kernel, the
 * arm64 nVHE hypervisor and native tests. See Documentation/trace/remotes.rst.
 */
#ifndef _LINUX_SIMPLE_RING_BUFFER_H
#define _LINUX_SIMPLE_RING_BUFFER_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/ring_buffer_types.h>
#include <linux/types.h>
#include <uapi/linux/trace_mmap.h>

#include <asm/page.h>

/**
 * struct simple_buffer_data_page - Layout of a data page (ftrace format)
 * @time_stamp:	Time stamp of the first event on the page.
 * @commit:	Bytes of valid data in @data.
 * @data:	Events, 8-byte aligned.
 */
struct simple_buffer_data_page {
	u64		time_stamp;
	unsigned long	commit;
	u8		data[] __aligned(8);
};

/**
 * struct simple_buffer_page - Writer's descriptor of one data page
 * @next:	Next page in the ring, with the SIMPLE_RB_FLAG_* tags in the
 *		low bits (the link before the head page carries HEAD).
 * @page:	The data page.
 * @entries:	Events on the page, once the writer has left it.
 * @first_entry: Number of events committed on this CPU before the page's
 *		first one; gives the exact loss when the page reaches the
 *		reader.
 * @id:		Index of the page in the descriptor.
 */
struct simple_buffer_page {
	unsigned long			next;
	struct simple_buffer_data_page	*page;
	unsigned long			entries;
	u64				first_entry;
	u32				id;
};

/**
 * struct simple_rb_per_cpu - Writer state of one CPU's ring buffer
 * @status:		SIMPLE_RB_* state; reserve takes it from READY to
 *			WRITING, so a nested or concurrent reserve fails.
 *			First: its atomics then need no address computation.
 * @tail_write:		Write offset in the data page's events; before the
 *			first, which stamps the page, %SIMPLE_RB_TAIL_NEW.
 * @write_stamp:	Time stamp of the last event written.
 * @tail_commit:	The commit field of the data page being written,
 *			which the events follow (&@tail_page->page->commit).
 * @meta:		Meta page shared with the reader.
 * @tail_page:		Page being written.
 * @reader_page:	Page handed to the reader, outside the ring.
 * @head_prev:		Page in the ring at or before the one whose link
 *			carries HEAD; where the swap starts looking.
 * @bpages:		All page descriptors, indexed by id.
 * @nr_pages:		Number of pages, reader page included.
 * @dropped:		Events refused because the writer was busy.
 * @dropped_at_swap:	@dropped reported to the reader so far.
 * @reader_commit:	Commit of the reader page at the last swap request.
 * @unload_page:	Callback releasing a page at unload, or NULL.
 *
 * The fields an event reads and writes come first, in the order it uses
 * them, so that it loads and stores them in pairs.
 */
struct simple_rb_per_cpu {
	int				status;
	unsigned long			tail_write;
	u64				write_stamp;
	unsigned long			*tail_commit;
	struct trace_buffer_meta	*meta;
	struct simple_buffer_page	*tail_page;
	struct simple_buffer_page	*reader_page;
	struct simple_buffer_page	*head_prev;
	struct simple_buffer_page	*bpages;
	unsigned int			nr_pages;
	unsigned long			dropped;
	unsigned long			dropped_at_swap;
	unsigned long			reader_commit;
	void				(*unload_page)(void *va);
};

enum simple_rb_status {
	SIMPLE_RB_UNAVAILABLE = 0,	/* not initialized, or unloading */
	SIMPLE_RB_DISABLED = 1,		/* initialized, not writing */
	SIMPLE_RB_WRITING = 2,		/* a writer is between reserve and commit */
	/* The only one with its bit, which is what a reserve tests. */
	SIMPLE_RB_READY = 4,		/* enabled, no writer inside */
};

/* Largest payload reserve accepts. */
#define SIMPLE_RB_MAX_PAYLOAD	(PAGE_SIZE - sizeof(struct simple_buffer_data_page) - 24)

/*
 * Bytes of events per page. The last 8 stay free: a reader that copies the
 * page out (trace_pipe_raw) stores the number of events lost before it there,
 * as the kernel's ring buffer does.
 */
#define SIMPLE_RB_DATA_SIZE	(PAGE_SIZE - sizeof(struct simple_buffer_data_page) - 8)
/* @tail_write of a page without events: no event fits at it. */
#define SIMPLE_RB_TAIL_NEW	PAGE_SIZE
/* An event header: type_len:5 | time_delta:27, then array[0] = length. */
#define SIMPLE_RB_EVENT_HDR	8
#define SIMPLE_RB_TS_SHIFT	27
#define SIMPLE_RB_TS_MAX	BIT_ULL(SIMPLE_RB_TS_SHIFT)

void *__simple_ring_buffer_refuse(struct simple_rb_per_cpu *cpu_buffer, int status,
				  unsigned int nr);
void *__simple_ring_buffer_reserve_slow(struct simple_rb_per_cpu *cpu_buffer,
					unsigned long length, u64 timestamp);

/**
 * struct simple_rb_reservation - What a reserve tells its commit
 * @commit:	The commit field of the data page written.
 * @write:	Its value once the event is committed.
 * @meta:	The meta page.
 *
 * Kept by the caller (in registers, for an inline reserve and commit), so
 * that the commit reads nothing again that the event's stores might have
 * changed.
 */
struct simple_rb_reservation {
	unsigned long			*commit;
	unsigned long			write;
	struct trace_buffer_meta	*meta;
};

/*
 * Has the compiler hold @a and @b in registers here, at no cost: loaded
 * before a branch, two adjacent fields stay there as one load of a pair
 * rather than sink below it to be loaded one by one, as Clang does.
 */
static __always_inline void simple_rb_hold(unsigned long a, unsigned long b)
{
	asm volatile("" : : "r" (a), "r" (b));
}

/*
 * The first 8 bytes of an event of @length bytes of payload (a multiple of
 * 8), @delta (below %SIMPLE_RB_TS_MAX) after the previous one: type_len 0
 * and time_delta, then array[0], written as one.
 */
static __always_inline u64 simple_rb_event_header(u64 delta, unsigned long length)
{
	u64 len = length + sizeof(u32);

#ifdef CONFIG_CPU_BIG_ENDIAN
	return delta << 32 | len;
#else
	return len << 32 | delta << 5;
#endif
}

/*
 * Reserve @length bytes of payload (a multiple of 8) for @nr events, the
 * first of which has @first bytes of payload and follows the header this
 * writes; the caller writes the others' headers.
 */
static __always_inline void *__simple_ring_buffer_reserve(struct simple_rb_per_cpu *cpu_buffer,
							  unsigned long length, unsigned long first,
							  unsigned int nr, u64 timestamp,
							  struct simple_rb_reservation *res)
{
	struct ring_buffer_event *event;
	struct trace_buffer_meta *meta;
	unsigned long write, size;
	unsigned long *commit;
	void *payload;
	u64 delta;
	int status;

	/*
	 * Acquire is enough: taking the buffer orders what follows, as taking
	 * a lock does; the release in commit (or in reset and unload, which
	 * take it with a full cmpxchg) orders what came before.
	 */
	status = cmpxchg_acquire(&cpu_buffer->status, SIMPLE_RB_READY, SIMPLE_RB_WRITING);
	if (unlikely(!(status & SIMPLE_RB_READY) || length > SIMPLE_RB_MAX_PAYLOAD)) {
		/* NULL, as it returns: a caller's test of it folds away. */
		__simple_ring_buffer_refuse(cpu_buffer, status, nr);
		return NULL;
	}

	size = length + SIMPLE_RB_EVENT_HDR;
	commit = cpu_buffer->tail_commit;
	write = cpu_buffer->tail_write;
	meta = cpu_buffer->meta;
	/* A stamp before the previous one (unsigned: huge) is slow too. */
	delta = timestamp - cpu_buffer->write_stamp;
	simple_rb_hold((unsigned long)commit, (unsigned long)meta);
	/* One test of both: the loads above stay together, in pairs. */
	if (unlikely((delta >> SIMPLE_RB_TS_SHIFT) | (write + size > SIMPLE_RB_DATA_SIZE))) {
		payload = __simple_ring_buffer_reserve_slow(cpu_buffer, length, timestamp);
		/* It wrote the header of a single event of @length. */
		if (first != length)
			((u32 *)payload)[-1] = first + sizeof(u32);
		res->commit = cpu_buffer->tail_commit;
		res->write = cpu_buffer->tail_write;
		res->meta = cpu_buffer->meta;
		return payload;
	}

	res->meta = meta;
	/* The data page's events come after its commit field. */
	event = (struct ring_buffer_event *)((u8 *)commit + write);
	event = (void *)event + offsetof(struct simple_buffer_data_page, data) -
		offsetof(struct simple_buffer_data_page, commit);
	*(u64 *)event = simple_rb_event_header(delta, first);
	res->commit = commit;
	res->write = write + size;
	cpu_buffer->tail_write = write + size;
	cpu_buffer->write_stamp = timestamp;

	/* Not NULL: a caller's test of the result folds away on this path. */
	payload = &event->array[1];
	if (!payload)
		__builtin_unreachable();
	return payload;
}

/**
 * simple_ring_buffer_reserve_event() - Reserve space for an event
 * @cpu_buffer:	The ring buffer of the calling CPU.
 * @length:	Payload size in bytes, at most %SIMPLE_RB_MAX_PAYLOAD.
 * @timestamp:	Time stamp of the event, in the remote's clock.
 * @res:	Filled for simple_ring_buffer_commit_event() on success.
 *
 * Must be called on the CPU that owns @cpu_buffer, and followed by
 * simple_ring_buffer_commit_event() on success. Takes no lock and does a
 * single atomic operation. A reserve nested in another one (or racing with
 * one on another CPU) fails and the event is counted as lost.
 *
 * Inline, so that a caller with a constant @length pays only for the common
 * case: an event that fits on the page being written, less than 2^27 clock
 * units after the previous one. Everything else is out of line.
 *
 * Return: a pointer to @length bytes of payload, 8-byte aligned, or NULL
 * when the buffer is not enabled, busy, or @length is too large.
 */
static __always_inline void *
simple_ring_buffer_reserve_event(struct simple_rb_per_cpu *cpu_buffer, unsigned long length,
				 u64 timestamp, struct simple_rb_reservation *res)
{
	length = (length + 7) & ~7UL;
	return __simple_ring_buffer_reserve(cpu_buffer, length, length, 1, timestamp, res);
}

/**
 * simple_ring_buffer_reserve_pair() - Reserve space for two events at once
 * @cpu_buffer:	The ring buffer of the calling CPU.
 * @length:	Payload size of the first event in bytes.
 * @length2:	Payload size of the second; with @length and a header, at
 *		most %SIMPLE_RB_MAX_PAYLOAD.
 * @timestamp:	Time stamp of both events.
 * @res:	Filled for simple_ring_buffer_commit_pair() on success.
 * @payload2:	Set to the second event's payload on success.
 *
 * As simple_ring_buffer_reserve_event() for each event, but for the price
 * of one: the second event follows the first on the same page, 0 after it.
 * Followed by simple_ring_buffer_commit_pair() on success.
 *
 * Return: a pointer to @length bytes of payload for the first event, or
 * NULL, and both events are counted as lost if the first would have been.
 */
static __always_inline void *simple_ring_buffer_reserve_pair(struct simple_rb_per_cpu *cpu_buffer,
							     unsigned long length,
							     unsigned long length2, u64 timestamp,
							     struct simple_rb_reservation *res,
							     void **payload2)
{
	unsigned long first = (length + 7) & ~7UL, second = (length2 + 7) & ~7UL;
	struct ring_buffer_event *event;
	void *payload;

	payload = __simple_ring_buffer_reserve(cpu_buffer, first + SIMPLE_RB_EVENT_HDR + second,
					       first, 2, timestamp, res);
	if (!payload)
		return NULL;
	event = payload + first;
	*(u64 *)event = simple_rb_event_header(0, second);
	*payload2 = &event->array[1];
	return payload;
}

static __always_inline void __simple_ring_buffer_commit(struct simple_rb_per_cpu *cpu_buffer,
							const struct simple_rb_reservation *res,
							unsigned int nr)
{
	WRITE_ONCE(res->meta->entries, res->meta->entries + nr);
	/* The events and the count that includes them are written before @commit. */
	smp_store_release(res->commit, res->write);
	/* Release: our writes are done before the next reserve or a reset. */
	smp_store_release(&cpu_buffer->status, SIMPLE_RB_READY);
}

/**
 * simple_ring_buffer_commit_event() - Publish the event reserved last
 * @cpu_buffer:	The ring buffer passed to simple_ring_buffer_reserve_event().
 * @res:	What it filled.
 *
 * Makes the event visible to the reader and allows the next reserve.
 */
static __always_inline void
simple_ring_buffer_commit_event(struct simple_rb_per_cpu *cpu_buffer,
				const struct simple_rb_reservation *res)
{
	__simple_ring_buffer_commit(cpu_buffer, res, 1);
}

/**
 * simple_ring_buffer_commit_pair() - Publish the two events reserved last
 * @cpu_buffer:	The ring buffer passed to simple_ring_buffer_reserve_pair().
 * @res:	What it filled.
 *
 * Makes both events visible to the reader and allows the next reserve.
 */
static __always_inline void simple_ring_buffer_commit_pair(struct simple_rb_per_cpu *cpu_buffer,
							   const struct simple_rb_reservation *res)
{
	__simple_ring_buffer_commit(cpu_buffer, res, 2);
}

/**
 * simple_ring_buffer_reserve() - simple_ring_buffer_reserve_event(), keeping nothing
 * @cpu_buffer:	The ring buffer of the calling CPU.
 * @length:	Payload size in bytes, at most %SIMPLE_RB_MAX_PAYLOAD.
 * @timestamp:	Time stamp of the event, in the remote's clock.
 *
 * Followed by simple_ring_buffer_commit() on success.
 *
 * Return: a pointer to @length bytes of payload, 8-byte aligned, or NULL.
 */
static __always_inline void *
simple_ring_buffer_reserve(struct simple_rb_per_cpu *cpu_buffer, unsigned long length,
			   u64 timestamp)
{
	struct simple_rb_reservation res;

	return simple_ring_buffer_reserve_event(cpu_buffer, length, timestamp, &res);
}

/**
 * simple_ring_buffer_commit() - Publish the event reserved last
 * @cpu_buffer:	The ring buffer passed to simple_ring_buffer_reserve().
 *
 * Makes the event visible to the reader and allows the next reserve.
 */
static __always_inline void simple_ring_buffer_commit(struct simple_rb_per_cpu *cpu_buffer)
{
	struct simple_rb_reservation res = {
		.commit = cpu_buffer->tail_commit, .write = cpu_buffer->tail_write,
		.meta = cpu_buffer->meta,
	};

	simple_ring_buffer_commit_event(cpu_buffer, &res);
}

int simple_ring_buffer_swap_reader_page(struct simple_rb_per_cpu *cpu_buffer);
int simple_ring_buffer_enable_tracing(struct simple_rb_per_cpu *cpu_buffer,
				      bool enable);
int simple_ring_buffer_reset(struct simple_rb_per_cpu *cpu_buffer);
int simple_ring_buffer_init_mm(struct simple_rb_per_cpu *cpu_buffer,
			       struct simple_buffer_page *bpages,
			       const struct ring_buffer_desc *desc,
			       void *(*load_page)(unsigned long va),
			       void (*unload_page)(void *va));
int simple_ring_buffer_init(struct simple_rb_per_cpu *cpu_buffer,
			    struct simple_buffer_page *bpages,
			    const struct ring_buffer_desc *desc);
void simple_ring_buffer_unload(struct simple_rb_per_cpu *cpu_buffer);
void simple_ring_buffer_unload_mm(struct simple_rb_per_cpu *cpu_buffer,
				  void (*unload_page)(void *va));

#endif /* _LINUX_SIMPLE_RING_BUFFER_H */
