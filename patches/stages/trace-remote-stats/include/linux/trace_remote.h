/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_remote: tracefs front end for ring buffers written outside the
 * kernel, shown under /sys/kernel/tracing/remotes/<name>/ (and, if the
 * remote asks, at /sys/kernel/tracing/<name>/ too).
 * See Documentation/trace/remotes.rst.
 */
#ifndef _LINUX_TRACE_REMOTE_H
#define _LINUX_TRACE_REMOTE_H

#include <linux/cpumask.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/ring_buffer_types.h>
#include <linux/trace_remote_event.h>
#include <linux/types.h>

#include <asm/page.h>

struct dentry;
struct module;

/**
 * struct trace_remote_callbacks - What a remote does for trace_remote
 * @init:		Optional. Add the remote's own files to @d, the remote's
 *			directory, called for each directory it is shown in,
 *			with the list of remotes locked (no trace_remote_*()
 *			call). An error fails the registration or the view.
 * @load_trace_buffer:	Allocate a descriptor (trace_buffer_desc_size()),
 *			fill it (trace_remote_alloc_buffer()) and hand the
 *			writer a buffer of @size bytes per CPU; return the
 *			descriptor or an ERR_PTR().
 * @unload_trace_buffer: Take the buffer back from the writer, free its pages
 *			(trace_remote_free_buffer()) and the descriptor.
 * @enable_tracing:	Start or stop the writer on every CPU.
 * @swap_reader_page:	Hand the oldest page of @cpu to the reader. Called
 *			with a spinlock held: must not sleep.
 * @reset:		Drop everything the writer holds for @cpu. Mandatory. On
 *			error the writer must have kept its pages as they were.
 *			Called with a spinlock held: must not sleep.
 * @enable_event:	Start or stop writing the event @id.
 */
struct trace_remote_callbacks {
	int	(*init)(struct dentry *d, void *priv);
	struct trace_buffer_desc *(*load_trace_buffer)(unsigned long size, void *priv);
	void	(*unload_trace_buffer)(struct trace_buffer_desc *desc, void *priv);
	int	(*enable_tracing)(bool enable, void *priv);
	int	(*swap_reader_page)(unsigned int cpu, void *priv);
	int	(*reset)(unsigned int cpu, void *priv);
	int	(*enable_event)(unsigned short id, bool enable, void *priv);
};

/*
 * Lifetime: every open file of a remote holds a reference on the module that
 * registered it, so that module cannot be unloaded (rmmod fails with EBUSY)
 * while one is open. After trace_remote_unregister(), files still open fail
 * every operation with -ENODEV; the callbacks of a remote built into the
 * kernel may still be called until the last of them is closed, to unload the
 * buffer a reader held. Files a remote adds from @init are its own: their
 * file_operations need an owner.
 */
int __trace_remote_register(struct module *owner, const char *name,
			    const struct trace_remote_callbacks *cbs, void *priv,
			    struct remote_event *events, size_t nr_events);
#define trace_remote_register(name, cbs, priv, events, nr_events)		\
	__trace_remote_register(THIS_MODULE, name, cbs, priv, events, nr_events)
void trace_remote_unregister(const char *name);

/*
 * Bytes of a descriptor of @nr_cpus buffers of @buffer_size bytes each, for
 * trace_remote_alloc_buffer(); SIZE_MAX if that does not fit.
 */
static inline size_t trace_buffer_desc_size(size_t buffer_size, unsigned int nr_cpus)
{
	size_t nr_pages;

	if (buffer_size > SIZE_MAX - PAGE_SIZE)
		return SIZE_MAX;
	nr_pages = max(DIV_ROUND_UP(buffer_size, PAGE_SIZE), 2UL) + 1;
	if (nr_pages > UINT_MAX)
		return SIZE_MAX;
	return size_add(sizeof(struct trace_buffer_desc),
			size_mul(nr_cpus, ring_buffer_desc_size(nr_pages)));
}

int trace_remote_alloc_buffer(struct trace_buffer_desc *desc, size_t desc_size,
			      size_t buffer_size, const struct cpumask *cpumask);
void trace_remote_free_buffer(struct trace_buffer_desc *desc);

#endif /* _LINUX_TRACE_REMOTE_H */
