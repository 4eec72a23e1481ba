// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the unread events of trace remotes without consuming them: for
 * kernel users (trace_remote_peek_unread()) and on panic
 * (trace_remote.dump_on_panic).
 */

#define pr_fmt(fmt) "trace_remote: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/rculist.h>
#include <linux/trace_seq.h>

#include "trace_remote_internal.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "trace_remote."

static unsigned int dump_on_panic;
module_param(dump_on_panic, uint, 0644);
MODULE_PARM_DESC(dump_on_panic, "On panic, print the last N unread events per CPU of every remote (0: off, 4294967295: all)");

struct trace_remote_unread {
	trace_remote_unread_t	fn;
	void			*data;
	int			cpu;
};

static void trace_remote_unread_event(struct ring_buffer_event *event, u64 ts, void *data)
{
	struct trace_remote_unread *peek = data;

	peek->fn(peek->cpu, ts, ring_buffer_event_data(event), ring_buffer_event_length(event),
		 peek->data);
}

/**
 * trace_remote_peek_unread() - Look at the unread events of a remote
 * @name:	The remote.
 * @fn:		Called for each unread event, per CPU oldest first, with the
 *		record (struct remote_event_hdr first) and its length.
 * @data:	Passed to @fn.
 *
 * Reads the events that no consumer read yet, without consuming them:
 * trace_pipe readers still get every one. A kernel user's way to follow a
 * remote, e.g. to copy some of its events to the kernel log. The shared
 * pages are read as by the dump on panic, while the remote's consumers and
 * its poll are held off; the writer goes on, so an event it overwrites
 * meanwhile may be missed or mixed: @fn must check what it is given. Sleeps;
 * costs a walk of every unread event.
 *
 * Return: 0, or -ENODEV if no remote has that name or it has no buffer.
 */
int trace_remote_peek_unread(const char *name, trace_remote_unread_t fn, void *data)
{
	struct trace_remote_unread peek = { .fn = fn, .data = data };
	struct trace_remote *remote;
	int ret = -ENODEV;

	scoped_guard(mutex, &trace_remotes_lock) {
		remote = trace_remote_find(name);
		if (!remote || !try_module_get(remote->owner))
			return -ENODEV;
		refcount_inc(&remote->ref);
	}

	scoped_guard(mutex, &remote->lock) {
		if (remote->gone || !trace_remote_loaded(remote))
			break;
		trace_remote_access_lock(remote, RING_BUFFER_ALL_CPUS);
		for_each_cpu(peek.cpu, &remote->buffer_cpus)
			ring_buffer_remote_dump(remote->trace_buffer, peek.cpu, 0,
						trace_remote_unread_event, &peek);
		trace_remote_access_unlock(remote, RING_BUFFER_ALL_CPUS);
		ret = 0;
	}
	trace_remote_put(remote);
	return ret;
}
EXPORT_SYMBOL_GPL(trace_remote_peek_unread);

/*
 * The dump on panic: the last dump_on_panic unread events of each CPU of
 * each loaded remote, in the format of trace, read from the shared pages
 * without a lock, an allocation or a call to the remote (a hypervisor that
 * panicked cannot answer). Other CPUs are stopped by then.
 */
struct trace_remote_dump {
	struct trace_remote	*remote;
	int			cpu;
};

static struct trace_seq trace_remote_dump_seq;

static void trace_remote_dump_event(struct ring_buffer_event *event, u64 ts, void *data)
{
	struct trace_remote_dump *dump = data;
	struct trace_seq *s = &trace_remote_dump_seq;

	trace_seq_init(s);
	trace_remote_print(dump->remote, s, event, dump->cpu, ts, 0);
	pr_emerg("%s", seq_buf_str(&s->seq));
}

static int trace_remote_panic(struct notifier_block *nb, unsigned long action, void *msg)
{
	unsigned int max = READ_ONCE(dump_on_panic);
	struct trace_remote_dump dump;
	struct trace_remote *remote;
	struct trace_buffer *buffer;
	long n;

	if (!max)
		return NOTIFY_DONE;
	guard(rcu)();
	list_for_each_entry_rcu(remote, &trace_remotes, list) {
		buffer = READ_ONCE(remote->trace_buffer);
		if (!buffer)
			continue;
		if (max == UINT_MAX)
			pr_emerg("Dumping remote %s, every unread event:\n", remote->name);
		else
			pr_emerg("Dumping remote %s, up to %u unread events per CPU:\n",
				 remote->name, max);
		dump.remote = remote;
		for_each_cpu(dump.cpu, &remote->buffer_cpus) {
			n = ring_buffer_remote_dump(buffer, dump.cpu, 0, NULL, NULL);
			if (n <= 0)
				continue;
			if (n > max)
				pr_emerg("CPU:%d [%ld older events not shown]\n",
					 dump.cpu, n - max);
			ring_buffer_remote_dump(buffer, dump.cpu, n > max ? n - max : 0,
						trace_remote_dump_event, &dump);
		}
		pr_emerg("End of remote %s\n", remote->name);
	}
	return NOTIFY_DONE;
}

static struct notifier_block trace_remote_panic_nb = {
	.notifier_call	= trace_remote_panic,
};

static int __init trace_remote_dump_init(void)
{
	atomic_notifier_chain_register(&panic_notifier_list, &trace_remote_panic_nb);
	return 0;
}
core_initcall(trace_remote_dump_init);
