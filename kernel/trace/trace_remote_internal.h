/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace remotes: what trace_remote.c shares with the files that add to it.
 */
#ifndef _TRACE_REMOTE_INTERNAL_H
#define _TRACE_REMOTE_INTERNAL_H

#include <linux/cleanup.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/ring_buffer.h>
#include <linux/rwsem.h>
#include <linux/trace_remote.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct seq_file;
struct trace_seq;

/*
 * Per-CPU state of a remote: the lock that serializes the consumers of the
 * CPU, and the counters of the last buffer, which the stats file shows once
 * that buffer is unloaded.
 */
struct trace_remote_cpu {
	struct mutex		access;		/* this CPU's consumers */
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
	struct dentry				*root_dentry;	/* view at the root, if any */
	refcount_t				ref;	/* the registration's, an open file's */

	/* Consumers of all CPUs take it for writing, of one CPU for reading. */
	struct rw_semaphore			access_lock;

	struct mutex				lock;	/* protects the fields below */
	bool					gone;	/* unregistered */
	struct trace_buffer			*trace_buffer;
	struct trace_buffer_desc		*trace_buffer_desc;
	struct ring_buffer_remote		rb_remote;
	struct cpumask				buffer_cpus;	/* of the loaded buffer */
	unsigned long				trace_buffer_size;
	bool					tracing_on;
	int					nr_users;	/* open files holding the buffer */
	int					nr_readers;	/* the consuming ones among them */

	wait_queue_head_t			wait;
	/*
	 * The poll timer reads nr_readers, poll_busy and poll_entries without
	 * the lock; they change with WRITE_ONCE(), poll_busy also by readers
	 * that do not hold the lock (trace_remote_busy()).
	 */
	struct work_struct			poll_work;
	struct hrtimer				poll_timer;	/* queues poll_work */
	unsigned long				poll_busy;	/* jiffies when events last came */
	unsigned long				poll_entries;	/* count at the last poll */
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

/* Read without the lock: unregister sets it under the lock, then wakes sleepers. */
static inline bool trace_remote_is_gone(struct trace_remote *remote)
{
	return READ_ONCE(remote->gone);
}

/*
 * Files of an unregistered remote fail with -ENODEV: they lock it with
 * scoped_cond_guard(trace_remote_live, return -ENODEV, remote).
 */
static inline bool trace_remote_lock_live(struct trace_remote *remote)
{
	mutex_lock(&remote->lock);
	if (!remote->gone)
		return true;
	mutex_unlock(&remote->lock);
	return false;
}

DEFINE_GUARD(trace_remote, struct trace_remote *, mutex_lock(&_T->lock), mutex_unlock(&_T->lock))
DEFINE_GUARD_COND(trace_remote, _live, trace_remote_lock_live(_T))

/* The remote of an open file: the file's reference keeps it. */
static inline struct trace_remote *trace_remote_of(const struct file *filp)
{
	return file_inode(filp)->i_private;
}

bool trace_remote_valid_name(const char *name);
struct trace_remote *trace_remote_find(const char *name);
struct trace_remote *trace_remote_get(struct inode *inode);
void trace_remote_put(struct trace_remote *remote);
int trace_remote_single_open(struct inode *inode, struct file *filp,
			     int (*show)(struct seq_file *m, void *v));
int trace_remote_single_release(struct inode *inode, struct file *filp);

/*
 * A control file: NAME_show() prints it (m->private is the remote), @write_fn
 * (or NULL) changes it. As DEFINE_SHOW_STORE_ATTRIBUTE(), holding the remote.
 */
#define DEFINE_TRACE_REMOTE_FILE(name, write_fn)					\
static int name##_open(struct inode *inode, struct file *filp)			\
{										\
	return trace_remote_single_open(inode, filp, name##_show);		\
}										\
										\
static const struct file_operations name##_fops = {				\
	.open		= name##_open,						\
	.read		= seq_read,						\
	.write		= write_fn,						\
	.llseek		= seq_lseek,						\
	.release	= trace_remote_single_release,				\
}

bool trace_remote_loaded(struct trace_remote *remote);
int trace_remote_check_size(unsigned long kb);
int trace_remote_set_tracing(struct trace_remote *remote, bool on);
int trace_remote_create_files(struct trace_remote *remote, struct dentry *top);
void trace_remote_access_lock(struct trace_remote *remote, int cpu);
void trace_remote_access_unlock(struct trace_remote *remote, int cpu);

/* trace_remote_poll.c */
void trace_remote_poll_init(struct trace_remote *remote);
void trace_remote_poll_stop(struct trace_remote *remote);
void trace_remote_busy(struct trace_remote *remote);
int trace_remote_poll_sleep(void);

/* trace_remote_events.c */
/* Events were lost, but how many is not known (as trace.c prints it). */
#define TRACE_REMOTE_LOST_UNKNOWN	ULONG_MAX

void trace_remote_print_lost(struct trace_seq *s, int cpu, unsigned long lost);
void trace_remote_print(struct trace_remote *remote, struct trace_seq *s,
			struct ring_buffer_event *event, int cpu, u64 ts, unsigned long lost);
int trace_remote_check_events(const char *system, const struct remote_event *events,
			      size_t nr);
int trace_remote_init_events(struct trace_remote *remote);
struct remote_event *trace_remote_event_by_name(struct trace_remote *remote, const char *name);
int trace_remote_enable_event(struct trace_remote *remote, struct remote_event *re,
			      bool enable);
int trace_remote_create_events(struct trace_remote *remote, struct dentry *top);

/* trace_remote_boot.c */
void trace_remote_boot_start(struct trace_remote *remote);

#endif /* _TRACE_REMOTE_INTERNAL_H */
