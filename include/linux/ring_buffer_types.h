/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring buffer types shared by the kernel's ring buffer and by writers that
 * live outside the kernel (trace remotes, see Documentation/trace/remotes.rst).
 * This header must stay free of kernel dependencies beyond <linux/types.h>:
 * it is included by code that runs at EL2 and by native host tests.
 */
#ifndef _LINUX_RING_BUFFER_TYPES_H
#define _LINUX_RING_BUFFER_TYPES_H

#include <linux/types.h>

/*
 * Don't refer to this struct directly, use functions below.
 */
struct ring_buffer_event {
	u32		type_len:5, time_delta:27;

	u32		array[];
};

/**
 * enum ring_buffer_type - internal ring buffer types
 *
 * @RINGBUF_TYPE_PADDING:	Left over page padding or discarded event
 *				 If time_delta is 0:
 *				  array is ignored
 *				  size is variable depending on how much
 *				  padding is needed
 *				 If time_delta is non zero:
 *				  array[0] holds the actual length
 *				  size = 4 + length (bytes)
 *
 * @RINGBUF_TYPE_TIME_EXTEND:	Extend the time delta
 *				 array[0] = time delta (28 .. 59)
 *				 size = 8 bytes
 *
 * @RINGBUF_TYPE_TIME_STAMP:	Absolute timestamp
 *				 Same format as TIME_EXTEND except that the
 *				 value is an absolute timestamp, not a delta
 *				 event.time_delta contains bottom 27 bits
 *				 array[0] = top (28 .. 59) bits
 *				 size = 8 bytes
 *
 * <= @RINGBUF_TYPE_DATA_TYPE_LEN_MAX:
 *				Data record
 *				 If type_len is zero:
 *				  array[0] holds the actual length
 *				  array[1..(length+3)/4] holds data
 *				  size = 4 + length (bytes)
 *				 else
 *				  length = type_len << 2
 *				  array[0..(length+3)/4-1] holds data
 *				  size = 4 + length (bytes)
 */
enum ring_buffer_type {
	RINGBUF_TYPE_DATA_TYPE_LEN_MAX = 28,
	RINGBUF_TYPE_PADDING,
	RINGBUF_TYPE_TIME_EXTEND,
	RINGBUF_TYPE_TIME_STAMP,
};

/**
 * struct ring_buffer_desc - Pages of one CPU of a remote ring buffer
 * @cpu:	CPU this ring buffer belongs to.
 * @nr_page_va:	Number of data pages in @page_va. Page 0 is the initial
 *		reader page, the others form the ring. A page's id is its
 *		index in @page_va.
 * @meta_va:	Address of the meta page (struct trace_buffer_meta).
 * @page_va:	Addresses of the data pages.
 *
 * Addresses are virtual addresses in the address space of whoever built the
 * descriptor; a writer that lives elsewhere translates them.
 */
struct ring_buffer_desc {
	int		cpu;
	unsigned int	nr_page_va;
	unsigned long	meta_va;
	unsigned long	page_va[];
};

/**
 * struct trace_buffer_desc - Description of a remote ring buffer
 * @nr_cpus:	Number of struct ring_buffer_desc that follow.
 * @struct_len:	Size of the whole descriptor, header included, in bytes.
 * @__data:	The struct ring_buffer_desc, one per CPU, back to back.
 */
struct trace_buffer_desc {
	int		nr_cpus;
	size_t		struct_len;
	char		__data[];
};

/* Size of a struct ring_buffer_desc with @nr_pages data pages. */
static inline size_t ring_buffer_desc_size(unsigned int nr_pages)
{
	return sizeof(struct ring_buffer_desc) + nr_pages * sizeof(unsigned long);
}

/* The ring buffer descriptor after @desc. */
static inline struct ring_buffer_desc *
__next_ring_buffer_desc(struct ring_buffer_desc *desc)
{
	return (struct ring_buffer_desc *)((char *)desc +
					   ring_buffer_desc_size(desc->nr_page_va));
}

/*
 * Iterate over the per-CPU descriptors of a trusted trace_buffer_desc (one
 * built by the caller). A writer handed a descriptor by someone it does not
 * trust must check every size against @struct_len instead.
 */
#define for_each_ring_buffer_desc(__desc, __i, __trace_desc)			\
	for (__i = 0, __desc = (struct ring_buffer_desc *)(__trace_desc)->__data; \
	     __i < (__trace_desc)->nr_cpus;					\
	     __i++, __desc = __next_ring_buffer_desc(__desc))

#endif /* _LINUX_RING_BUFFER_TYPES_H */
