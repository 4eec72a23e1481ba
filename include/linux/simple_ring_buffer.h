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
 * @entries:	Events on the page.
 * @first_entry: Number of events committed on this CPU before the page's
 *		first one; gives the exact loss when the page reaches the
 *		reader.
 * @write:	Write offset in page->data.
 * @id:		Index of the page in the descriptor.
 */
struct simple_buffer_page {
	unsigned long			next;
	struct simple_buffer_data_page	*page;
	unsigned long			entries;
	u64				first_entry;
	u32				write;
	u32				id;
};

/**
 * struct simple_rb_per_cpu - Writer state of one CPU's ring buffer
 * @tail_page:		Page being written.
 * @reader_page:	Page handed to the reader, outside the ring.
 * @head_prev:		Page in the ring at or before the one whose link
 *			carries HEAD; where the swap starts looking.
 * @bpages:		All page descriptors, indexed by id.
 * @nr_pages:		Number of pages, reader page included.
 * @meta:		Meta page shared with the reader.
 * @write_stamp:	Time stamp of the last event written.
 * @status:		SIMPLE_RB_* state; reserve takes it from READY to
 *			WRITING, so a nested or concurrent reserve fails.
 * @dropped:		Events refused because the writer was busy.
 * @dropped_at_swap:	@dropped reported to the reader so far.
 * @reader_commit:	Commit of the reader page at the last swap request.
 * @unload_page:	Callback releasing a page at unload, or NULL.
 */
struct simple_rb_per_cpu {
	struct simple_buffer_page	*tail_page;
	struct simple_buffer_page	*reader_page;
	struct simple_buffer_page	*head_prev;
	struct simple_buffer_page	*bpages;
	unsigned int			nr_pages;
	struct trace_buffer_meta	*meta;
	u64				write_stamp;
	int				status;
	unsigned long			dropped;
	unsigned long			dropped_at_swap;
	unsigned long			reader_commit;
	void				(*unload_page)(void *va);
};

enum simple_rb_status {
	SIMPLE_RB_UNAVAILABLE = 0,	/* not initialized, or unloading */
	SIMPLE_RB_DISABLED,		/* initialized, not writing */
	SIMPLE_RB_READY,		/* enabled, no writer inside */
	SIMPLE_RB_WRITING,		/* a writer is between reserve and commit */
};

/* Largest payload reserve accepts. */
#define SIMPLE_RB_MAX_PAYLOAD	(PAGE_SIZE - sizeof(struct simple_buffer_data_page) - 24)

void *simple_ring_buffer_reserve(struct simple_rb_per_cpu *cpu_buffer,
				 unsigned long length, u64 timestamp);
void simple_ring_buffer_commit(struct simple_rb_per_cpu *cpu_buffer);
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

#endif /* _LINUX_SIMPLE_RING_BUFFER_H */
