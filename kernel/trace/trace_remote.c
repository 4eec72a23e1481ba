// SPDX-License-Identifier: GPL-2.0
/*
 * Trace remotes: the tracefs files of ring buffers written outside the
 * kernel, read through the ring buffer's remote mode.
 * See Documentation/trace/remotes.rst.
 *
 * A remote's buffer is loaded when tracing is turned on or a consuming
 * reader opens, and unloaded once tracing is off, no open file holds it and
 * nothing is left to read. remote->lock protects that state: the buffer,
 * tracing_on, the events' switches and the count of files that hold the
 * buffer. Consumers take the access lock around the reads that move the
 * reader page, as trace_access_lock() does for the kernel's own buffers;
 * reader->lock serializes the users of one open file and is dropped while
 * they sleep. The locks nest in that order: reader->lock, remote->lock, the
 * access lock.
 */

#define pr_fmt(fmt) "trace_remote: " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/pipe_fs_i.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/splice.h>
#include <linux/tracefs.h>
#include <linux/trace_seq.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include "trace.h"	/* TRACE_MODE_READ, TRACE_MODE_WRITE */
#include "trace_remote_internal.h"

#define TRACE_REMOTE_DEFAULT_SIZE	(7 << 10)

/* Writers of trace_remotes, and creation of the remotes' directories. */
DEFINE_MUTEX(trace_remotes_lock);
LIST_HEAD(trace_remotes);
static struct dentry *remotes_dir;

/* Pages of a buffer of @size bytes per CPU, meta pages included. */
static unsigned long trace_remote_buffer_pages(unsigned long size, unsigned int nr_cpus)
{
	return (max(DIV_ROUND_UP(size, PAGE_SIZE), 2UL) + 2) * nr_cpus;
}

/* The CPUs @cpu stands for: itself, or all for RING_BUFFER_ALL_CPUS. */
static const struct cpumask *trace_remote_cpus(int cpu)
{
	return cpu == RING_BUFFER_ALL_CPUS ? cpu_possible_mask : cpumask_of(cpu);
}

bool trace_remote_loaded(struct trace_remote *remote)
{
	return !!remote->trace_buffer;
}

static void trace_remote_forget_stats(struct trace_remote *remote, int cpu)
{
	int c;

	for_each_cpu(c, trace_remote_cpus(cpu)) {
		remote->cpus[c].released_overrun = 0;
		remote->cpus[c].released_read = 0;
	}
}

static int trace_remote_load(struct trace_remote *remote)
{
	struct ring_buffer_desc *rbdesc;
	struct trace_buffer_desc *desc;
	struct trace_buffer *buffer;
	int i;

	lockdep_assert_held(&remote->lock);

	if (trace_remote_loaded(remote))
		return 0;

	desc = remote->cbs->load_trace_buffer(remote->trace_buffer_size, remote->priv);
	if (IS_ERR(desc))
		return PTR_ERR(desc);

	remote->rb_remote.desc = desc;
	buffer = ring_buffer_alloc_remote(&remote->rb_remote);
	if (!buffer) {
		remote->cbs->unload_trace_buffer(desc, remote->priv);
		return -ENOMEM;
	}

	remote->trace_buffer_desc = desc;
	remote->trace_buffer = buffer;
	/* No count has been seen yet, so the first poll looks at the pages. */
	WRITE_ONCE(remote->poll_entries, ULONG_MAX);
	trace_remote_forget_stats(remote, RING_BUFFER_ALL_CPUS);
	cpumask_clear(&remote->buffer_cpus);
	for_each_ring_buffer_desc(rbdesc, i, desc)
		cpumask_set_cpu(rbdesc->cpu, &remote->buffer_cpus);
	return 0;
}

static bool trace_remote_empty(struct trace_remote *remote, int cpu)
{
	struct trace_buffer *buffer = remote->trace_buffer;

	return !buffer || (cpu == RING_BUFFER_ALL_CPUS ? ring_buffer_empty(buffer) :
			   ring_buffer_empty_cpu(buffer, cpu));
}

/*
 * Unload if nobody needs the buffer any more: once unregistered, what is
 * left unread goes too.
 */
static void trace_remote_try_unload(struct trace_remote *remote)
{
	struct trace_buffer *buffer;
	int cpu;

	lockdep_assert_held(&remote->lock);

	if (!trace_remote_loaded(remote) || remote->tracing_on || remote->nr_users)
		return;

	if (!remote->gone) {
		ring_buffer_poll_remote(remote->trace_buffer, RING_BUFFER_ALL_CPUS);
		if (!trace_remote_empty(remote, RING_BUFFER_ALL_CPUS))
			return;
	}

	/* What a reader lost and read stays in stats, read at the end of a recording. */
	for_each_cpu(cpu, &remote->buffer_cpus) {
		remote->cpus[cpu].released_overrun =
			ring_buffer_overrun_cpu(remote->trace_buffer, cpu);
		remote->cpus[cpu].released_read =
			ring_buffer_read_events_cpu(remote->trace_buffer, cpu);
	}
	/* The poll timer reads the meta pages, so it stops before they go. */
	hrtimer_cancel(&remote->poll_timer);
	buffer = remote->trace_buffer;
	WRITE_ONCE(remote->trace_buffer, NULL);
	/* The dump on panic reads it without a lock: unset it before freeing it. */
	smp_wmb();
	ring_buffer_free(buffer);
	remote->cbs->unload_trace_buffer(remote->trace_buffer_desc, remote->priv);
	remote->trace_buffer_desc = NULL;
}

/*
 * Consumers of one CPU exclude each other and the consumers of all CPUs,
 * as trace_access_lock() does for the kernel's own buffers.
 */
void trace_remote_access_lock(struct trace_remote *remote, int cpu)
{
	if (cpu == RING_BUFFER_ALL_CPUS) {
		down_write(&remote->access_lock);
	} else {
		down_read(&remote->access_lock);
		mutex_lock(&remote->cpus[cpu].access);
	}
}

void trace_remote_access_unlock(struct trace_remote *remote, int cpu)
{
	if (cpu == RING_BUFFER_ALL_CPUS) {
		up_write(&remote->access_lock);
	} else {
		mutex_unlock(&remote->cpus[cpu].access);
		up_read(&remote->access_lock);
	}
}

/*
 * Readers: trace (non-consuming), trace_pipe and trace_pipe_raw (consuming),
 * for all CPUs or one. What a read returns is built in @seq, or in @page for
 * trace_pipe_raw: @len bytes, of which @pos were read already. @lock
 * serializes the users of one open file (threads, pread, splice).
 */
struct trace_remote_reader {
	struct trace_remote		*remote;
	int				cpu;
	bool				consuming;
	bool				holds_buffer;	/* set under both locks */
	struct mutex			lock;		/* users of this open file */
	atomic_t			nr_waiting;	/* in trace_remote_wait() */
	struct ring_buffer_iter		**iters;	/* non-consuming, by CPU */
	struct buffer_data_read_page	*page;		/* trace_pipe_raw's */
	struct trace_seq		seq;
	size_t				pos;
	size_t				len;
};

/*
 * A task in trace_remote_wait(), on trace_remote_waiters: a reader killed
 * there lets the buffer go on its way out, and buffer_size_kb waits for
 * that (trace_remote_settle()).
 */
struct trace_remote_waiter {
	struct list_head		list;
	struct task_struct		*task;
	struct trace_remote		*remote;
};

static LIST_HEAD(trace_remote_waiters);
static DEFINE_SPINLOCK(trace_remote_waiters_lock);

/* The next event in time order, not consumed yet. */
static struct ring_buffer_event *
trace_remote_peek(struct trace_remote_reader *reader, int *cpu, u64 *ts,
		  unsigned long *lost)
{
	struct trace_buffer *buffer = reader->remote->trace_buffer;
	struct ring_buffer_event *event, *next = NULL;
	unsigned long l;
	u64 t;
	int c;

	for_each_cpu(c, trace_remote_cpus(reader->cpu)) {
		if (reader->consuming) {
			l = 0;
			event = ring_buffer_peek(buffer, c, &t, &l);
		} else {
			if (!reader->iters[c])
				continue;
			event = ring_buffer_iter_peek(reader->iters[c], &t);
			/* The writer came round to the page being read. */
			l = ring_buffer_iter_dropped(reader->iters[c]) ?
			    TRACE_REMOTE_LOST_UNKNOWN : 0;
		}
		if (event && (!next || t < *ts)) {
			next = event;
			*ts = t;
			*cpu = c;
			*lost = l;
		}
	}
	return next;
}

static void trace_remote_advance(struct trace_remote_reader *reader, int cpu)
{
	if (reader->consuming)
		ring_buffer_consume(reader->remote->trace_buffer, cpu, NULL, NULL);
	else
		ring_buffer_iter_advance(reader->iters[cpu]);
}

/*
 * Read the oldest page into reader->page (whole pages, as the tools size
 * their reads on them), or as many whole lines as fit into reader->seq.
 */
static void trace_remote_fill(struct trace_remote_reader *reader)
{
	struct trace_seq *s = &reader->seq;
	struct ring_buffer_event *event;
	unsigned long lost;
	unsigned int save;
	size_t size;
	int cpu;
	u64 ts;

	reader->pos = 0;
	reader->len = 0;
	if (reader->page) {
		size = ring_buffer_read_page_size(reader->page);
		memset(ring_buffer_read_page_data(reader->page), 0, size);
		if (ring_buffer_read_page(reader->remote->trace_buffer, reader->page, size,
					  reader->cpu, 0) >= 0)
			reader->len = size;
		return;
	}
	trace_seq_init(s);

	while ((event = trace_remote_peek(reader, &cpu, &ts, &lost))) {
		save = s->seq.len;
		trace_remote_print(reader->remote, s, event, cpu, ts, lost);
		if (trace_seq_has_overflowed(s)) {
			s->seq.len = save;
			s->full = 0;
			/* A line no read can hold is left out, as trace.c does. */
			if (save)
				break;
			trace_remote_print_lost(s, cpu, lost);
			trace_seq_puts(s, "[LINE TOO BIG]\n");
		}
		trace_remote_advance(reader, cpu);
	}
	reader->len = trace_seq_used(s);
}

/* Makes @reader hold the buffer; a consuming reader loads it and polls it. */
static int trace_remote_hold(struct trace_remote_reader *reader)
{
	struct trace_remote *remote = reader->remote;
	int ret;

	guard(mutex)(&remote->lock);
	if (remote->gone)
		return -ENODEV;
	if (reader->consuming) {
		ret = trace_remote_load(remote);
		if (ret)
			return ret;
	}
	if (!trace_remote_loaded(remote))
		return 0;
	if (reader->cpu != RING_BUFFER_ALL_CPUS &&
	    !cpumask_test_cpu(reader->cpu, &remote->buffer_cpus)) {
		trace_remote_try_unload(remote);
		return -ENODEV;
	}
	if (reader->consuming) {
		WRITE_ONCE(remote->nr_readers, remote->nr_readers + 1);
		/* A new reader starts the poll at its full rate. */
		trace_remote_busy(remote);
		queue_work(system_wq, &remote->poll_work);
	}
	remote->nr_users++;
	reader->holds_buffer = true;
	return 0;
}

static void trace_remote_release_buffer(struct trace_remote_reader *reader)
{
	struct trace_remote *remote = reader->remote;

	guard(mutex)(&remote->lock);
	if (!reader->holds_buffer)
		return;
	if (reader->consuming)
		WRITE_ONCE(remote->nr_readers, remote->nr_readers - 1);
	remote->nr_users--;
	reader->holds_buffer = false;
	trace_remote_try_unload(remote);
}

/*
 * Called with reader->lock held, which it drops: sleep until there is
 * something to read, the remote goes or a signal comes, or for one poll
 * interval if the buffer has events the writer did not hand over yet.
 * Returns 0 with the lock held again.
 */
static int trace_remote_wait(struct trace_remote_reader *reader, struct kiocb *iocb)
{
	struct trace_remote *remote = reader->remote;
	struct trace_remote_waiter waiter = { .task = current, .remote = remote };
	bool ready;
	int ret;

	lockdep_assert_held(&reader->lock);
	if ((iocb->ki_filp->f_flags & O_NONBLOCK) || (iocb->ki_flags & IOCB_NOWAIT)) {
		mutex_unlock(&reader->lock);
		return -EAGAIN;
	}
	ready = !trace_remote_empty(remote, reader->cpu);
	atomic_inc(&reader->nr_waiting);
	scoped_guard(spinlock, &trace_remote_waiters_lock)
		list_add(&waiter.list, &trace_remote_waiters);
	mutex_unlock(&reader->lock);

	if (ready)
		ret = trace_remote_poll_sleep();
	else
		ret = wait_event_interruptible(remote->wait, trace_remote_is_gone(remote) ||
					       !trace_remote_empty(remote, reader->cpu));
	/*
	 * A killed reader lets the buffer go on its way out of read(), rather
	 * than once its exit has torn down its memory and closed its files,
	 * unless another user of the file waits too and may be looking at the
	 * buffer. A later read of the file takes the buffer again. The pages
	 * of trace_pipe_raw come from the buffer, which must outlive them.
	 * The wait may also have ended on its condition as the kill came.
	 */
	if (fatal_signal_pending(current) && !reader->page && mutex_trylock(&reader->lock)) {
		bool alone = atomic_read(&reader->nr_waiting) == 1;

		if (alone)
			trace_remote_release_buffer(reader);
		mutex_unlock(&reader->lock);
	}
	/* Order the wait's reads of the buffer before the buffer may go. */
	smp_mb__before_atomic();
	atomic_dec(&reader->nr_waiting);
	scoped_guard(spinlock, &trace_remote_waiters_lock)
		list_del(&waiter.list);
	/*
	 * Wake trace_remote_settle(), and pollers of the file: if the buffer
	 * went, the file is readable, as a read takes the buffer again.
	 */
	if (fatal_signal_pending(current))
		wake_up_interruptible(&remote->wait);
	if (ret)
		return ret;
	return mutex_lock_interruptible(&reader->lock) ? -ERESTARTSYS : 0;
}

static ssize_t trace_remote_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct trace_remote_reader *reader = iocb->ki_filp->private_data;
	struct trace_remote *remote = reader->remote;
	size_t copied;
	void *data;
	ssize_t ret;

	if (!iov_iter_count(to))
		return 0;

	if (mutex_lock_interruptible(&reader->lock))
		return -ERESTARTSYS;
	for (;;) {
		ret = -ENODEV;
		if (trace_remote_is_gone(remote))
			goto unlock;
		if (reader->pos < reader->len)
			break;

		ret = 0;
		if (!reader->holds_buffer) {
			if (!reader->consuming)
				goto unlock;
			/* A killed user of the file let the buffer go. */
			ret = fatal_signal_pending(current) ? -ERESTARTSYS :
			      trace_remote_hold(reader);
			if (ret)
				goto unlock;
		}

		if (reader->consuming)
			trace_remote_access_lock(remote, reader->cpu);
		trace_remote_fill(reader);
		if (reader->consuming)
			trace_remote_access_unlock(remote, reader->cpu);
		if (reader->len) {
			if (reader->consuming)
				trace_remote_busy(remote);
			continue;
		}

		/* Nothing to read. */
		if (!reader->consuming)
			goto unlock;
		ret = trace_remote_wait(reader, iocb);
		if (ret)
			return ret;
	}

	data = reader->page ? ring_buffer_read_page_data(reader->page) : reader->seq.buffer;
	copied = copy_to_iter(data + reader->pos, reader->len - reader->pos, to);
	reader->pos += copied;
	ret = copied ?: -EFAULT;
unlock:
	mutex_unlock(&reader->lock);
	return ret;
}

static __poll_t trace_remote_poll_read(struct file *filp, struct poll_table_struct *pt)
{
	struct trace_remote_reader *reader = filp->private_data;
	struct trace_remote *remote = reader->remote;

	__poll_t mask = 0;

	poll_wait(filp, &remote->wait, pt);
	if (trace_remote_is_gone(remote))
		return EPOLLIN | EPOLLRDNORM | EPOLLERR;
	/* A read holds it while it fills or copies, so a read is worth trying. */
	if (!mutex_trylock(&reader->lock))
		return EPOLLIN | EPOLLRDNORM;
	if (reader->pos < reader->len || (!reader->holds_buffer && reader->consuming) ||
	    (reader->holds_buffer && !trace_remote_empty(remote, reader->cpu)))
		mask = EPOLLIN | EPOLLRDNORM;
	mutex_unlock(&reader->lock);
	return mask;
}

/* Reset one CPU or all: consumers see the whole buffer before it or after it. */
static int trace_remote_reset(struct trace_remote *remote, int cpu)
{
	int c, ret = 0;

	guard(mutex)(&remote->lock);
	if (remote->gone)
		return -ENODEV;
	trace_remote_forget_stats(remote, cpu);
	if (!trace_remote_loaded(remote))
		return 0;

	trace_remote_access_lock(remote, cpu);
	for_each_cpu_and(c, &remote->buffer_cpus, trace_remote_cpus(cpu)) {
		ret = ring_buffer_reset_remote_cpu(remote->trace_buffer, c);
		if (ret)
			break;
	}
	trace_remote_access_unlock(remote, cpu);
	/* The counters start again, so a count the poll saw may come back. */
	WRITE_ONCE(remote->poll_entries, ULONG_MAX);
	if (!ret)
		trace_remote_try_unload(remote);
	return ret;
}

/*
 * Take a reference on the remote of a file being opened, and on its module.
 * As trace_array_get(): the inode may outlive its remote, which is only
 * used if still listed. A removed file has no link left, and is refused: its
 * i_private may now be the address of another remote.
 */
struct trace_remote *trace_remote_get(struct inode *inode)
{
	struct trace_remote *remote;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ERR_PTR(ret);

	guard(mutex)(&trace_remotes_lock);
	if (!READ_ONCE(inode->i_nlink))
		return ERR_PTR(-ENODEV);
	list_for_each_entry_rcu(remote, &trace_remotes, list,
				lockdep_is_held(&trace_remotes_lock)) {
		if (remote != inode->i_private)
			continue;
		if (!try_module_get(remote->owner))
			return ERR_PTR(-ENODEV);
		refcount_inc(&remote->ref);
		return remote;
	}
	return ERR_PTR(-ENODEV);
}

/* Called on the last put: the remote is unregistered and no file is open. */
static void trace_remote_free(struct trace_remote *remote)
{
	int cpu;

	trace_remote_poll_stop(remote);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		mutex_destroy(&remote->cpus[cpu].access);
	mutex_destroy(&remote->lock);
	kfree(remote->cpus);
	kfree(remote);
}

void trace_remote_put(struct trace_remote *remote)
{
	struct module *owner = remote->owner;

	if (refcount_dec_and_test(&remote->ref))
		trace_remote_free(remote);
	module_put(owner);
}

/* The control files: seq_file, with a reference on the remote. */
int trace_remote_single_open(struct inode *inode, struct file *filp,
			     int (*show)(struct seq_file *m, void *v))
{
	struct trace_remote *remote = trace_remote_get(inode);
	int ret;

	if (IS_ERR(remote))
		return PTR_ERR(remote);
	ret = single_open(filp, show, remote);
	if (ret)
		trace_remote_put(remote);
	return ret;
}

int trace_remote_single_release(struct inode *inode, struct file *filp)
{
	single_release(inode, filp);
	trace_remote_put(inode->i_private);
	return 0;
}

static void trace_remote_put_reader(struct trace_remote_reader *reader)
{
	struct trace_remote *remote = reader->remote;
	int cpu;

	if (reader->iters) {
		for_each_possible_cpu(cpu) {
			if (reader->iters[cpu])
				ring_buffer_read_finish(reader->iters[cpu]);
		}
		kfree(reader->iters);
	}
	/* The page is the buffer's, which the reader still holds. */
	if (reader->page)
		ring_buffer_free_read_page(remote->trace_buffer, reader->cpu, reader->page);
	trace_remote_release_buffer(reader);
	trace_remote_put(remote);
	kfree(reader);
}

static int trace_remote_open(struct inode *inode, struct file *filp, bool consuming)
{
	struct trace_remote_reader *reader;
	struct trace_remote *remote;
	int cpu, ret;

	remote = trace_remote_get(inode);
	if (IS_ERR(remote))
		return PTR_ERR(remote);

	reader = kzalloc(sizeof(*reader), GFP_KERNEL);
	if (!reader) {
		trace_remote_put(remote);
		return -ENOMEM;
	}
	reader->remote = remote;
	reader->cpu = tracing_get_cpu(inode);
	reader->consuming = consuming;
	mutex_init(&reader->lock);

	ret = trace_remote_hold(reader);
	if (ret)
		goto fail;

	if (!consuming && reader->holds_buffer) {
		reader->iters = kcalloc(nr_cpu_ids, sizeof(*reader->iters), GFP_KERNEL);
		if (!reader->iters) {
			ret = -ENOMEM;
			goto fail;
		}
		for_each_cpu_and(cpu, &remote->buffer_cpus, trace_remote_cpus(reader->cpu)) {
			ring_buffer_poll_remote(remote->trace_buffer, cpu);
			reader->iters[cpu] = ring_buffer_read_start(remote->trace_buffer, cpu,
								    GFP_KERNEL);
			if (!reader->iters[cpu]) {
				ret = -ENOMEM;
				goto fail;
			}
		}
	}

	filp->private_data = reader;
	return 0;

fail:
	trace_remote_put_reader(reader);
	return ret;
}

static int trace_remote_release(struct inode *inode, struct file *filp)
{
	if (filp->private_data)
		trace_remote_put_reader(filp->private_data);
	else
		trace_remote_put(inode->i_private);
	return 0;
}

static int trace_remote_pipe_open(struct inode *inode, struct file *filp)
{
	int ret = trace_remote_open(inode, filp, true);

	return ret ?: stream_open(inode, filp);
}

/*
 * trace: opened for reading, a non-consuming reader; opened with O_TRUNC, or
 * written, it resets the buffer (of one CPU for per_cpu/cpuN/trace).
 */
static int trace_remote_trace_open(struct inode *inode, struct file *filp)
{
	struct trace_remote *remote = inode->i_private;
	int ret;

	if (filp->f_mode & FMODE_READ) {
		ret = trace_remote_open(inode, filp, false);
		if (ret)
			return ret;
	} else {
		remote = trace_remote_get(inode);
		if (IS_ERR(remote))
			return PTR_ERR(remote);
	}

	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC)) {
		ret = trace_remote_reset(remote, tracing_get_cpu(inode));
		if (ret) {
			trace_remote_release(inode, filp);
			return ret;
		}
	}
	/* An offset in the text means nothing, so pread() and seeks fail. */
	return nonseekable_open(inode, filp);
}

static ssize_t trace_remote_trace_write(struct file *filp, const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	int ret = trace_remote_reset(trace_remote_of(filp), tracing_get_cpu(file_inode(filp)));

	return ret ?: cnt;
}

/*
 * copy_splice_read(), but SPLICE_F_NONBLOCK does not sleep with the pipe
 * locked. A read returns at most a page of trace_pipe_raw or a trace_seq.
 */
#define TRACE_REMOTE_SPLICE_PAGES	2

static ssize_t trace_remote_splice_read(struct file *in, loff_t *ppos,
					struct pipe_inode_info *pipe, size_t len,
					unsigned int flags)
{
	struct bio_vec bv[TRACE_REMOTE_SPLICE_PAGES];
	unsigned int i, nr = 0;
	struct iov_iter to;
	struct kiocb kiocb;
	size_t chunk, size;
	ssize_t ret;

	BUILD_BUG_ON(TRACE_REMOTE_SPLICE_PAGES * PAGE_SIZE < TRACE_SEQ_BUFFER_SIZE);
	/* The caller left room in the pipe for @len. */
	len = min_t(size_t, len, ARRAY_SIZE(bv) * PAGE_SIZE);
	for (size = 0; size < len; size += chunk, nr++) {
		struct page *page = alloc_page(GFP_USER);

		if (!page)
			break;
		chunk = min_t(size_t, len - size, PAGE_SIZE);
		bvec_set_page(&bv[nr], page, chunk, 0);
	}
	if (!size)
		return len ? -ENOMEM : 0;

	iov_iter_bvec(&to, ITER_DEST, bv, nr, size);
	init_sync_kiocb(&kiocb, in);
	if (flags & SPLICE_F_NONBLOCK)
		kiocb.ki_flags |= IOCB_NOWAIT;
	ret = in->f_op->read_iter(&kiocb, &to);
	/* Splice callers expect EAGAIN for "nothing went in". */
	if (ret == -EFAULT)
		ret = -EAGAIN;

	for (i = 0, size = 0; i < nr; i++) {
		chunk = ret > 0 ? min_t(size_t, ret - size, PAGE_SIZE) : 0;
		if (!chunk) {
			__free_page(bv[i].bv_page);
			continue;
		}
		*pipe_head_buf(pipe) = (struct pipe_buffer) {
			.ops	= &default_pipe_buf_ops,
			.page	= bv[i].bv_page,
			.len	= chunk,
		};
		pipe->head++;
		size += chunk;
	}
	return ret;
}

static const struct file_operations trace_remote_pipe_fops = {
	.open		= trace_remote_pipe_open,
	.read_iter	= trace_remote_read_iter,
	.splice_read	= trace_remote_splice_read,
	.poll		= trace_remote_poll_read,
	.release	= trace_remote_release,
};

static const struct file_operations trace_remote_trace_fops = {
	.open		= trace_remote_trace_open,
	.read_iter	= trace_remote_read_iter,
	.splice_read	= copy_splice_read,
	.write		= trace_remote_trace_write,
	.release	= trace_remote_release,
};

/*
 * trace_pipe_raw: the pages themselves, consumed; a read() returns at most
 * what is left of the current page.
 */
static int trace_remote_raw_open(struct inode *inode, struct file *filp)
{
	struct trace_remote_reader *reader;
	int ret;

	ret = trace_remote_open(inode, filp, true);
	if (ret)
		return ret;

	reader = filp->private_data;
	ret = ring_buffer_alloc_read_page(reader->remote->trace_buffer, reader->cpu, &reader->page);
	if (ret) {
		trace_remote_release(inode, filp);
		return ret;
	}
	return stream_open(inode, filp);
}

static const struct file_operations trace_remote_raw_fops = {
	.open		= trace_remote_raw_open,
	.read_iter	= trace_remote_read_iter,
	.splice_read	= trace_remote_splice_read,
	.poll		= trace_remote_poll_read,
	.release	= trace_remote_release,
};

static int tracing_on_show(struct seq_file *m, void *v)
{
	struct trace_remote *remote = m->private;

	scoped_cond_guard(trace_remote_live, return -ENODEV, remote)
		seq_printf(m, "%d\n", remote->tracing_on);
	return 0;
}

/* Turn tracing on (loading the buffer) or off (unloading it if unused). */
int trace_remote_set_tracing(struct trace_remote *remote, bool on)
{
	int ret;

	lockdep_assert_held(&remote->lock);
	if (on == remote->tracing_on)
		return 0;

	ret = on ? trace_remote_load(remote) : 0;
	if (ret)
		return ret;
	ret = remote->cbs->enable_tracing(on, remote->priv);
	if (!ret)
		remote->tracing_on = on;
	/* A buffer that tracing failed to start with goes, if nothing holds it. */
	trace_remote_try_unload(remote);
	return ret;
}

static ssize_t tracing_on_write(struct file *filp, const char __user *ubuf, size_t cnt,
				loff_t *ppos)
{
	struct trace_remote *remote = trace_remote_of(filp);
	unsigned long val;
	int ret;

	/* As the kernel's own tracing_on: any number, non-zero is on. */
	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	scoped_cond_guard(trace_remote_live, return -ENODEV, remote)
		ret = trace_remote_set_tracing(remote, !!val);
	return ret ?: cnt;
}

DEFINE_TRACE_REMOTE_FILE(tracing_on, tracing_on_write);

/*
 * The writer's counters, as the kernel's own stats file; once unloaded, those
 * of the released buffer, until the next load or reset.
 */
static int stats_show(struct seq_file *m, void *v)
{
	struct trace_remote *remote = m->private;
	int cpu = tracing_get_cpu(file_inode(m->file));
	unsigned long entries = 0, overrun, read;

	scoped_cond_guard(trace_remote_live, return -ENODEV, remote) {
		struct trace_buffer *buffer = remote->trace_buffer;

		if (!buffer) {
			overrun = remote->cpus[cpu].released_overrun;
			read = remote->cpus[cpu].released_read;
		} else if (cpumask_test_cpu(cpu, &remote->buffer_cpus)) {
			ring_buffer_poll_remote(buffer, cpu);
			entries = ring_buffer_entries_cpu(buffer, cpu);
			overrun = ring_buffer_overrun_cpu(buffer, cpu);
			read = ring_buffer_read_events_cpu(buffer, cpu);
		} else {
			return -ENODEV;
		}
	}
	/* The writer commits what it reserves: no commit overrun. */
	seq_printf(m, "entries: %lu\noverrun: %lu\ncommit overrun: 0\nread events: %lu\n",
		   entries, overrun, read);
	return 0;
}

DEFINE_TRACE_REMOTE_FILE(stats, NULL);

static bool trace_remote_killed_waiter(struct trace_remote *remote)
{
	struct trace_remote_waiter *waiter;
	bool killed = false;

	spin_lock(&trace_remote_waiters_lock);
	list_for_each_entry(waiter, &trace_remote_waiters, list)
		killed |= waiter->remote == remote && fatal_signal_pending(waiter->task);
	spin_unlock(&trace_remote_waiters_lock);
	return killed;
}

/*
 * A kill only wakes the reader it kills, and a reader asleep on another CPU
 * may run well after the killer went on to read buffer_size_kb. This waits,
 * for a second at most, until no reader of @remote killed while it waited
 * is still on its way out, so that the state read or changed right after a
 * kill is the state the reader left, however late it ran.
 */
static void trace_remote_settle(struct trace_remote *remote)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	long timeout = HZ;

	add_wait_queue(&remote->wait, &wait);
	while (timeout && !signal_pending(current) && trace_remote_killed_waiter(remote))
		timeout = wait_woken(&wait, TASK_INTERRUPTIBLE, timeout);
	remove_wait_queue(&remote->wait, &wait);
}

static int buffer_size_kb_show(struct seq_file *m, void *v)
{
	struct trace_remote *remote = m->private;

	trace_remote_settle(remote);
	scoped_cond_guard(trace_remote_live, return -ENODEV, remote)
		seq_printf(m, "%lu (%s)\n", remote->trace_buffer_size >> 10,
			   trace_remote_loaded(remote) ? "loaded" : "unloaded");
	return 0;
}

/* Can a buffer of @kb KiB per CPU be allocated? */
int trace_remote_check_size(unsigned long kb)
{
	/* At most the memory there is, per CPU. */
	if (!kb || kb > (totalram_pages() << (PAGE_SHIFT - 10)) / num_possible_cpus())
		return -EINVAL;
	/* And what is available now, as the kernel's own buffers check. */
	if (trace_remote_buffer_pages(kb << 10, num_possible_cpus()) > si_mem_available())
		return -ENOMEM;
	return 0;
}

static ssize_t buffer_size_kb_write(struct file *filp, const char __user *ubuf, size_t cnt,
				    loff_t *ppos)
{
	struct trace_remote *remote = trace_remote_of(filp);
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val) ?: trace_remote_check_size(val);
	if (ret)
		return ret;
	trace_remote_settle(remote);
	scoped_cond_guard(trace_remote_live, return -ENODEV, remote) {
		if (trace_remote_loaded(remote))
			return -EBUSY;
		remote->trace_buffer_size = val << 10;
	}
	return cnt;
}

DEFINE_TRACE_REMOTE_FILE(buffer_size_kb, buffer_size_kb_write);

static int trace_clock_show(struct seq_file *m, void *v)
{
	if (trace_remote_is_gone(m->private))
		return -ENODEV;
	seq_puts(m, "[boot]\n");
	return 0;
}

/* The only clock: writing its name is accepted. */
static ssize_t trace_clock_write(struct file *filp, const char __user *ubuf, size_t cnt,
				 loff_t *ppos)
{
	char buf[8];

	if (trace_remote_is_gone(trace_remote_of(filp)))
		return -ENODEV;
	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = 0;
	if (strcmp(strim(buf), "boot"))
		return -EINVAL;
	*ppos += cnt;
	return cnt;
}

DEFINE_TRACE_REMOTE_FILE(trace_clock, trace_clock_write);

/* The files of @remote in @top: remotes/<name>/, or its view at the root. */
int trace_remote_create_files(struct trace_remote *remote, struct dentry *top)
{
	struct dentry *percpu, *d;
	char name[16];
	int cpu, ret;

	if (!trace_create_file("tracing_on", TRACE_MODE_WRITE, top, remote, &tracing_on_fops) ||
	    !trace_create_file("buffer_size_kb", TRACE_MODE_WRITE, top, remote,
			       &buffer_size_kb_fops) ||
	    !trace_create_file("trace_clock", TRACE_MODE_WRITE, top, remote, &trace_clock_fops) ||
	    !trace_create_file("trace", TRACE_MODE_WRITE, top, remote, &trace_remote_trace_fops) ||
	    !trace_create_file("trace_pipe", TRACE_MODE_READ, top, remote, &trace_remote_pipe_fops))
		return -ENOMEM;
	percpu = tracefs_create_dir("per_cpu", top);
	if (!percpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		d = tracefs_create_dir(name, percpu);
		if (!d ||
		    !trace_create_cpu_file("trace", TRACE_MODE_WRITE, d, remote, cpu,
					   &trace_remote_trace_fops) ||
		    !trace_create_cpu_file("trace_pipe", TRACE_MODE_READ, d, remote, cpu,
					   &trace_remote_pipe_fops) ||
		    !trace_create_cpu_file("trace_pipe_raw", TRACE_MODE_READ, d, remote, cpu,
					   &trace_remote_raw_fops) ||
		    !trace_create_cpu_file("stats", TRACE_MODE_READ, d, remote, cpu, &stats_fops))
			return -ENOMEM;
	}

	ret = trace_remote_create_events(remote, top);
	if (ret || !remote->cbs->init)
		return ret;
	return remote->cbs->init(top, remote->priv);
}

struct trace_remote *trace_remote_find(const char *name)
{
	struct trace_remote *remote;

	lockdep_assert_held(&trace_remotes_lock);
	list_for_each_entry_rcu(remote, &trace_remotes, list,
				lockdep_is_held(&trace_remotes_lock)) {
		if (!strcmp(remote->name, name))
			return remote;
	}
	return NULL;
}

/* A name that can be a directory, and a word of available_events. */
bool trace_remote_valid_name(const char *name)
{
	size_t i;

	if (!name || !*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; name[i]; i++) {
		if (i == NAME_MAX || !isgraph(name[i]) || name[i] == '/' || name[i] == ':')
			return false;
	}
	return true;
}

/* A remote with one reference, not registered yet: trace_remote_free() frees it. */
static struct trace_remote *
trace_remote_alloc(struct module *owner, const char *name,
		   const struct trace_remote_callbacks *cbs, void *priv,
		   struct remote_event *events, size_t nr_events)
{
	struct trace_remote *remote;
	int cpu;

	remote = kzalloc(struct_size(remote, name, strlen(name) + 1), GFP_KERNEL);
	if (!remote)
		return NULL;
	remote->cpus = kcalloc(nr_cpu_ids, sizeof(*remote->cpus), GFP_KERNEL);
	if (!remote->cpus) {
		kfree(remote);
		return NULL;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		mutex_init(&remote->cpus[cpu].access);
	strscpy(remote->name, name, strlen(name) + 1);
	remote->cbs = cbs;
	remote->priv = priv;
	remote->owner = owner;
	remote->events = events;
	remote->nr_events = nr_events;
	remote->trace_buffer_size = TRACE_REMOTE_DEFAULT_SIZE;
	remote->rb_remote.swap_reader_page = cbs->swap_reader_page;
	remote->rb_remote.reset = cbs->reset;
	remote->rb_remote.priv = priv;
	refcount_set(&remote->ref, 1);
	init_rwsem(&remote->access_lock);
	mutex_init(&remote->lock);
	init_waitqueue_head(&remote->wait);
	trace_remote_poll_init(remote);
	return remote;
}

/* The directory of @remote under remotes/, with the list of remotes locked. */
static int trace_remote_create_dir(struct trace_remote *remote)
{
	int ret;

	if (!remotes_dir)
		remotes_dir = tracefs_create_dir("remotes", NULL);
	if (!remotes_dir)
		return -ENODEV;
	remote->dentry = tracefs_create_dir(remote->name, remotes_dir);
	if (!remote->dentry)
		return -ENOMEM;
	ret = trace_remote_create_files(remote, remote->dentry) ?:
	      trace_remote_init_events(remote);
	if (ret)
		tracefs_remove(remote->dentry);
	return ret;
}

/**
 * __trace_remote_register() - Show a remote under /sys/kernel/tracing/remotes/
 * @owner:	The module of the remote (THIS_MODULE, through
 *		trace_remote_register()), pinned while one of its files is open.
 * @name:	Directory name; also the events' system name.
 * @cbs:	What the remote does; see struct trace_remote_callbacks.
 * @priv:	Passed to the callbacks.
 * @events:	The events the remote can write, with unique ids. The
 *		array belongs to the remote until it is unregistered and the
 *		last of its files is closed.
 * @nr_events:	Number of @events.
 *
 * Return: 0, -EINVAL for a bad name, callbacks or event list, -EEXIST if
 * @name is taken, -ENODEV without tracefs, or -ENOMEM. On error, @events is
 * left as it was.
 */
int __trace_remote_register(struct module *owner, const char *name,
			    const struct trace_remote_callbacks *cbs, void *priv,
			    struct remote_event *events, size_t nr_events)
{
	struct trace_remote *remote;
	int ret;

	if (!trace_remote_valid_name(name) || !cbs || !cbs->load_trace_buffer ||
	    !cbs->unload_trace_buffer || !cbs->enable_tracing || !cbs->swap_reader_page ||
	    !cbs->reset || !cbs->enable_event)
		return -EINVAL;
	ret = trace_remote_check_events(name, events, nr_events);
	if (ret)
		return ret;
	remote = trace_remote_alloc(owner, name, cbs, priv, events, nr_events);
	if (!remote)
		return -ENOMEM;

	mutex_lock(&trace_remotes_lock);
	ret = trace_remote_find(name) ? -EEXIST : trace_remote_create_dir(remote);
	if (ret) {
		mutex_unlock(&trace_remotes_lock);
		trace_remote_free(remote);
		return ret;
	}
	/* Published for the dump on panic too, which walks the list under RCU. */
	list_add_rcu(&remote->list, &trace_remotes);
	/* Held across the boot settings, in case of an unregister meanwhile. */
	refcount_inc(&remote->ref);
	mutex_unlock(&trace_remotes_lock);
	trace_remote_boot_start(remote);
	if (refcount_dec_and_test(&remote->ref))
		trace_remote_free(remote);
	return 0;
}
EXPORT_SYMBOL_GPL(__trace_remote_register);

/**
 * trace_remote_unregister() - Remove a remote
 * @name:	The name given to trace_remote_register().
 *
 * Removes the remote's directory, stops tracing and unloads the buffer.
 * Files still open fail every operation with -ENODEV from now on. A module
 * remote is pinned while any of its files is open, so its module_exit()
 * only runs once they are all closed; a remote built into the kernel may
 * have its @unload_trace_buffer callback called after this returns, by the
 * release of the last reader that held its buffer.
 */
void trace_remote_unregister(const char *name)
{
	struct trace_remote *remote;

	scoped_guard(mutex, &trace_remotes_lock) {
		remote = trace_remote_find(name);
		if (!remote)
			return;
		list_del_rcu(&remote->list);
	}
	tracefs_remove(remote->root_dentry);
	tracefs_remove(remote->dentry);

	scoped_guard(mutex, &remote->lock) {
		WRITE_ONCE(remote->gone, true);
		if (remote->tracing_on)
			remote->cbs->enable_tracing(false, remote->priv);
		remote->tracing_on = false;
		trace_remote_try_unload(remote);
	}
	wake_up_all(&remote->wait);
	trace_remote_poll_stop(remote);

	/* A dump on panic may still be looking at it: free it after a grace period. */
	synchronize_rcu();
	if (refcount_dec_and_test(&remote->ref))
		trace_remote_free(remote);
}
EXPORT_SYMBOL_GPL(trace_remote_unregister);

/**
 * trace_remote_alloc_buffer() - Allocate the pages of a remote buffer
 * @desc:	The descriptor to fill, allocated by the caller.
 * @desc_size:	Its size: at least trace_buffer_desc_size(@buffer_size, CPUs).
 * @buffer_size: Bytes per CPU.
 * @cpumask:	The CPUs to allocate a buffer for.
 *
 * Each CPU gets a zeroed meta page and max(DIV_ROUND_UP(@buffer_size,
 * PAGE_SIZE), 2) + 1 data pages, described in @desc. An allocation that
 * cannot be satisfied fails rather than invoking the OOM killer.
 *
 * Return: 0, and the pages are to be freed with trace_remote_free_buffer();
 * -EINVAL for a bad size, mask or descriptor size; -ENOMEM, with nothing
 * left allocated.
 */
int trace_remote_alloc_buffer(struct trace_buffer_desc *desc, size_t desc_size,
			      size_t buffer_size, const struct cpumask *cpumask)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_ZERO;
	unsigned int nr_cpus = cpumask_weight(cpumask);
	struct ring_buffer_desc *rbdesc;
	unsigned int nr_pages, i;
	size_t len;
	int cpu;

	len = trace_buffer_desc_size(buffer_size, nr_cpus);
	if (!buffer_size || !nr_cpus || len == SIZE_MAX || !desc || desc_size < len)
		return -EINVAL;
	if (trace_remote_buffer_pages(buffer_size, nr_cpus) > si_mem_available())
		return -ENOMEM;
	nr_pages = max(DIV_ROUND_UP(buffer_size, PAGE_SIZE), 2UL) + 1;

	memset(desc, 0, len);
	desc->struct_len = len;
	rbdesc = (struct ring_buffer_desc *)desc->__data;
	for_each_cpu(cpu, cpumask) {
		rbdesc->cpu = cpu;
		desc->nr_cpus++;
		rbdesc->meta_va = __get_free_page(gfp);
		if (!rbdesc->meta_va)
			goto fail;
		for (i = 0; i < nr_pages; i++) {
			rbdesc->page_va[i] = __get_free_page(gfp);
			if (!rbdesc->page_va[i])
				goto fail;
			rbdesc->nr_page_va = i + 1;
			cond_resched();
		}
		rbdesc = __next_ring_buffer_desc(rbdesc);
	}
	return 0;

fail:
	trace_remote_free_buffer(desc);
	return -ENOMEM;
}
EXPORT_SYMBOL_GPL(trace_remote_alloc_buffer);

/**
 * trace_remote_free_buffer() - Free the pages trace_remote_alloc_buffer() allocated
 * @desc:	The descriptor it filled, which stays the caller's to free.
 */
void trace_remote_free_buffer(struct trace_buffer_desc *desc)
{
	struct ring_buffer_desc *rbdesc;
	unsigned int i;
	int n;

	for_each_ring_buffer_desc(rbdesc, n, desc) {
		free_page(rbdesc->meta_va);
		for (i = 0; i < rbdesc->nr_page_va; i++) {
			free_page(rbdesc->page_va[i]);
			cond_resched();
		}
	}
	desc->nr_cpus = 0;
}
EXPORT_SYMBOL_GPL(trace_remote_free_buffer);
