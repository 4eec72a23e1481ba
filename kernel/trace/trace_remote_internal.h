/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace remotes: what trace_remote.c shares with the files that add to it.
 */
#ifndef _TRACE_REMOTE_INTERNAL_H
#define _TRACE_REMOTE_INTERNAL_H

#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/ring_buffer.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/trace_remote.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct trace_seq;

/* Per CPU: the access lock of its consumers, the stats of the last buffer. */
struct trace_remote_cpu {
	struct mutex		access;		/* consumers of this CPU */
	unsigned long		released_overrun;
	unsigned long		released_read;
};

struct trace_remote {
	struct list_head			list;
	const struct trace_remote_callbacks	*cbs;
	void					*priv;
	struct module				*owner;
	struct remote_event			*events;
	size_t					nr_events;
	struct dentry				*dentry;
	struct dentry				*root_dentry;	/* or NULL */
	refcount_t				ref;	/* registration + open files */

	/* Consumers: all CPUs take it for writing, one CPU for reading. */
	struct rw_semaphore			access_lock;

	struct mutex				lock;	/* everything below */
	bool					gone;	/* unregistered */
	struct trace_buffer			*trace_buffer;
	struct trace_buffer_desc		*trace_buffer_desc;
	struct ring_buffer_remote		rb_remote;
	struct cpumask				buffer_cpus;	/* when loaded */
	unsigned long				trace_buffer_size;
	bool					tracing_on;
	int					nr_users;	/* holding the buffer */
	int					nr_readers;	/* consuming, see below */

	wait_queue_head_t			wait;
	spinlock_t				waiters_lock;	/* waiters, waiters_seq */
	struct list_head			waiters;	/* trace_remote_wait() */
	unsigned long				waiters_seq;	/* a waiter left */
	wait_queue_head_t			waiters_wait;
	/*
	 * The poll timer reads nr_readers, poll_busy and poll_entries without
	 * the lock; they change with WRITE_ONCE(), poll_busy also by readers
	 * that do not hold the lock (trace_remote_busy()).
	 */
	struct work_struct			poll_work;
	struct hrtimer				poll_timer;	/* queues poll_work */
	unsigned long				poll_busy;	/* jiffies, data seen */
	unsigned long				poll_entries;	/* meta pages', at it */
	struct trace_remote_cpu			*cpus;	/* nr_cpu_ids */
	/*
	 * Tools that take a tracing directory read the formats of
	 * events/ftrace/ and fail on an empty system: one event, never
	 * written, with an id no event of the remote has.
	 */
	struct remote_event			ftrace_event;
	char					name[];
};

/* Registered remotes; written under trace_remotes_lock, read under RCU too. */
extern struct mutex trace_remotes_lock;
extern struct list_head trace_remotes;

struct trace_remote *trace_remote_find(const char *name);
void trace_remote_put(struct trace_remote *remote);
bool trace_remote_loaded(struct trace_remote *remote);
int trace_remote_check_size(unsigned long kb);
int trace_remote_enable_event(struct trace_remote *remote, struct remote_event *re,
			      bool enable);
int trace_remote_set_tracing(struct trace_remote *remote, bool on);
int trace_remote_create_files(struct trace_remote *remote, struct dentry *top);
void trace_remote_access_lock(struct trace_remote *remote, int cpu);
void trace_remote_access_unlock(struct trace_remote *remote, int cpu);
void trace_remote_print(struct trace_remote *remote, struct trace_seq *s,
			struct ring_buffer_event *event, int cpu, u64 ts, unsigned long lost);

/* trace_remote_boot.c */
void trace_remote_boot_start(struct trace_remote *remote);

#endif /* _TRACE_REMOTE_INTERNAL_H */
