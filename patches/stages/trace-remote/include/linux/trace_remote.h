/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_remote: tracefs front end for ring buffers written outside the
 * kernel, shown under /sys/kernel/tracing/remotes/<name>/.
 * See Documentation/trace/remotes.rst.
 */
#ifndef _LINUX_TRACE_REMOTE_H
#define _LINUX_TRACE_REMOTE_H

#include <linux/ring_buffer_types.h>
#include <linux/trace_remote_event.h>
#include <linux/types.h>

struct module;

/**
 * struct trace_remote_callbacks - What a remote does for trace_remote
 * @load_trace_buffer:	Allocate and hand the writer a buffer of @size bytes
 *			per CPU; return its descriptor or an ERR_PTR().
 * @unload_trace_buffer: Take the buffer back from the writer and free it.
 * @enable_tracing:	Start or stop the writer on every CPU.
 * @swap_reader_page:	Hand the oldest page of @cpu to the reader. Called
 *			with a spinlock held: must not sleep.
 * @reset:		Drop everything the writer holds for @cpu. Mandatory. On
 *			error the writer must have kept its pages as they were.
 *			Called with a spinlock held: must not sleep.
 * @enable_event:	Start or stop writing the event @id.
 */
struct trace_remote_callbacks {
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
 * every operation with -ENODEV.
 */
int __trace_remote_register(struct module *owner, const char *name,
			    const struct trace_remote_callbacks *cbs, void *priv,
			    struct remote_event *events, size_t nr_events);
#define trace_remote_register(name, cbs, priv, events, nr_events)		\
	__trace_remote_register(THIS_MODULE, name, cbs, priv, events, nr_events)
void trace_remote_unregister(const char *name);

#endif /* _LINUX_TRACE_REMOTE_H */
