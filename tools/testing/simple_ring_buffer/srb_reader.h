/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader for the native tests: it decodes pages the way the kernel's ring
 * buffer does (ftrace page format, TIME_EXTEND, length in array[0]) and
 * follows the meta page like the kernel's remote mode.
 */
#ifndef _SRB_READER_H
#define _SRB_READER_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/simple_ring_buffer.h>

struct srb_event {
	u64 ts;
	u64 id;
	u64 lost_before;	/* events reported lost just before this one */
};

struct srb_reader {
	struct simple_rb_per_cpu *cpu_buffer;
	void **pages;			/* by id, as the descriptor lists them */
	u32 id;				/* reader page being read */
	unsigned long read;		/* offset read on it */
	u64 pending_lost;
	u64 lost_total;
	char error[256];
};

static inline void srb_reader_init(struct srb_reader *r, struct simple_rb_per_cpu *cpu_buffer,
				   void **pages)
{
	memset(r, 0, sizeof(*r));
	r->cpu_buffer = cpu_buffer;
	r->pages = pages;
	r->id = __atomic_load_n(&cpu_buffer->meta->reader.id, __ATOMIC_ACQUIRE);
}

/*
 * Decode the events of the reader page past r->read. Returns the number
 * stored in @out (at most @max), -1 on a malformed page.
 */
static inline int srb_read_page(struct srb_reader *r, struct srb_event *out, int max)
{
	struct simple_buffer_data_page *page = r->pages[r->id];
	unsigned long commit = __atomic_load_n(&page->commit, __ATOMIC_ACQUIRE);
	unsigned long off = 0;
	u64 ts = page->time_stamp;
	int n = 0;

	if (commit > PAGE_SIZE - sizeof(*page)) {
		snprintf(r->error, sizeof(r->error), "page %u: commit %lu", r->id, commit);
		return -1;
	}
	while (off < commit && n < max) {
		struct ring_buffer_event *e = (void *)(page->data + off);

		switch (e->type_len) {
		case RINGBUF_TYPE_TIME_EXTEND:
			ts += e->time_delta + ((u64)e->array[0] << 27);
			off += 8;
			continue;
		case 0:
			ts += e->time_delta;
			if (off >= r->read) {
				out[n].ts = ts;
				memcpy(&out[n].id, &e->array[1], sizeof(u64));
				out[n].lost_before = r->pending_lost;
				n++;
			}
			off += 4 + e->array[0];
			break;
		default:
			snprintf(r->error, sizeof(r->error), "page %u off %lu: type_len %u",
				 r->id, off, e->type_len);
			return -1;
		}
		if (off > r->read) {
			r->read = off;
			r->pending_lost = 0;
		}
	}
	return n;
}

/*
 * Read everything available, swapping pages like the kernel's reader does.
 * Returns the number of events stored, or -1 on error.
 */
static inline int srb_consume(struct srb_reader *r, struct srb_event *out, int max)
{
	int total = 0, n;

	for (;;) {
		struct trace_buffer_meta *meta = r->cpu_buffer->meta;
		u32 id;

		n = srb_read_page(r, out + total, max - total);
		if (n < 0)
			return -1;
		total += n;
		if (total == max)
			return total;

		if (simple_ring_buffer_swap_reader_page(r->cpu_buffer))
			return total;
		id = __atomic_load_n(&meta->reader.id, __ATOMIC_ACQUIRE);
		r->pending_lost += meta->reader.lost_events;
		r->lost_total += meta->reader.lost_events;
		if (id == r->id) {
			/* Same page: anything new on it? */
			n = srb_read_page(r, out + total, max - total);
			if (n < 0)
				return -1;
			total += n;
			if (!n)
				return total;
			continue;
		}
		r->id = id;
		r->read = 0;
	}
}

#endif /* _SRB_READER_H */
