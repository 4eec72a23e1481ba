// SPDX-License-Identifier: GPL-2.0
/*
 * trace_remote: tracefs front end for ring buffers written outside the kernel.
 *
 * A remote (a hypervisor, firmware, a test module...) registers callbacks and
 * its events; this file shows it as /sys/kernel/tracing/remotes/<name>/ and
 * reads its buffer through the ring buffer's remote mode. The kernel never
 * writes into the remote's pages. See Documentation/trace/remotes.rst.
 *
 * Lifecycle: the buffer is loaded (allocated and handed to the writer) when
 * tracing is turned on, and unloaded when tracing is off.
 *
 * Files: every open file holds a reference on its remote and on the module
 * that registered it, so the module cannot go while a file is open; once
 * trace_remote_unregister() ran, every operation fails with -ENODEV.
 */

#define pr_fmt(fmt) "trace_remote: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/ring_buffer.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/trace_remote.h>
#include <linux/uaccess.h>

#include "trace.h"	/* TRACE_MODE_READ, TRACE_MODE_WRITE */

#define TRACE_REMOTE_DEFAULT_SIZE	(7 << 10)

struct trace_remote;

/* The inode private data of the per-CPU files (cpu) and the top files (-1). */
struct trace_remote_cpu {
	struct trace_remote	*remote;	/* first, see trace_remote_of_inode() */
	int			cpu;
};

struct trace_remote {
	struct list_head			list;
	const struct trace_remote_callbacks	*cbs;
	void					*priv;
	struct module				*owner;
	struct remote_event			*events;
	size_t					nr_events;
	struct dentry				*dentry;
	refcount_t				ref;	/* registration + open files */

	struct mutex				lock;	/* everything below */
	bool					gone;	/* unregistered */
	struct trace_buffer			*trace_buffer;
	struct trace_buffer_desc		*trace_buffer_desc;
	struct ring_buffer_remote		rb_remote;
	unsigned long				trace_buffer_size;
	bool					tracing_on;
	struct trace_remote_cpu			*cpus;	/* nr_cpu_ids + 1 */
	char					name[];
};

static DEFINE_MUTEX(trace_remotes_lock);
static LIST_HEAD(trace_remotes);
static struct dentry *remotes_dir;

/* Pages of a buffer of @size bytes per CPU, meta pages included. */
static unsigned long trace_remote_buffer_pages(unsigned long size, unsigned int nr_cpus)
{
	return (max(DIV_ROUND_UP(size, PAGE_SIZE), 2UL) + 2) * nr_cpus;
}

static bool trace_remote_loaded(struct trace_remote *remote)
{
	return !!remote->trace_buffer;
}

static int trace_remote_load(struct trace_remote *remote)
{
	struct trace_buffer_desc *desc;
	struct trace_buffer *buffer;

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
	return 0;
}

/* Unload once tracing is off: nothing reads the buffer yet. */
static void trace_remote_try_unload(struct trace_remote *remote)
{
	lockdep_assert_held(&remote->lock);

	if (!trace_remote_loaded(remote) || remote->tracing_on)
		return;

	ring_buffer_free(remote->trace_buffer);
	remote->trace_buffer = NULL;
	remote->cbs->unload_trace_buffer(remote->trace_buffer_desc, remote->priv);
	remote->trace_buffer_desc = NULL;
}

static struct trace_remote *trace_remote_of_inode(struct inode *inode)
{
	/* struct trace_remote_cpu starts with it. */
	return *(struct trace_remote **)inode->i_private;
}

/* Is @data (an inode's private data) one of the elements of @remote? */
static bool trace_remote_owns(struct trace_remote *remote, void *data)
{
	uintptr_t p = (uintptr_t)data;
	uintptr_t cpus = (uintptr_t)remote->cpus;

	if (p >= cpus && p < cpus + (nr_cpu_ids + 1) * sizeof(*remote->cpus))
		return !((p - cpus) % sizeof(*remote->cpus));
	return false;
}

/*
 * Take a reference on the remote of a file being opened, and on its module.
 * The inode may be one of a remote being unregistered: only a remote still
 * listed is used, found without looking at the inode's private data first.
 */
static struct trace_remote *trace_remote_get(struct inode *inode)
{
	struct trace_remote *remote;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ERR_PTR(ret);

	guard(mutex)(&trace_remotes_lock);
	list_for_each_entry(remote, &trace_remotes, list) {
		if (!trace_remote_owns(remote, inode->i_private))
			continue;
		if (!try_module_get(remote->owner))
			return ERR_PTR(-ENODEV);
		refcount_inc(&remote->ref);
		return remote;
	}
	return ERR_PTR(-ENODEV);
}

static void trace_remote_free(struct trace_remote *remote);

static void trace_remote_put(struct trace_remote *remote)
{
	struct module *owner = remote->owner;

	if (refcount_dec_and_test(&remote->ref))
		trace_remote_free(remote);
	module_put(owner);
}

/* open and release of the files that are not readers. */
static int trace_remote_file_open(struct inode *inode, struct file *filp)
{
	struct trace_remote *remote = trace_remote_get(inode);

	return PTR_ERR_OR_ZERO(remote);
}

static int trace_remote_file_release(struct inode *inode, struct file *filp)
{
	trace_remote_put(trace_remote_of_inode(inode));
	return 0;
}

/* Small text files */

static __printf(4, 5)
ssize_t trace_remote_read_text(char __user *ubuf, size_t cnt, loff_t *ppos, const char *fmt, ...)
{
	char buf[128];
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static int trace_remote_parse_ulong(const char __user *ubuf, size_t cnt, unsigned long *val)
{
	char buf[32];

	if (!cnt || cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	/*
	 * kstrtoul() refuses a minus sign, junk, empty strings and overflow;
	 * it takes a leading '+', as the kernel's own tracing files do.
	 */
	return kstrtoul(strim(buf), 10, val);
}

/* "0" or "1", nothing else. */
static int trace_remote_parse_bool(const char __user *ubuf, size_t cnt, bool *val)
{
	unsigned long v;
	int ret;

	ret = trace_remote_parse_ulong(ubuf, cnt, &v);
	if (ret)
		return ret;
	if (v > 1)
		return -EINVAL;
	*val = v;
	return 0;
}

/* The remote of an open file: its reference keeps it. */
static struct trace_remote *trace_remote_of(struct file *filp)
{
	return trace_remote_of_inode(file_inode(filp));
}

static bool trace_remote_gone(struct file *filp)
{
	return READ_ONCE(trace_remote_of(filp)->gone);
}

static ssize_t tracing_on_read(struct file *filp, char __user *ubuf, size_t cnt, loff_t *ppos)
{
	if (trace_remote_gone(filp))
		return -ENODEV;
	return trace_remote_read_text(ubuf, cnt, ppos, "%d\n",
				      READ_ONCE(trace_remote_of(filp)->tracing_on));
}

/* Turn tracing on (loading the buffer) or off (unloading it if unused). */
static int trace_remote_set_tracing(struct trace_remote *remote, bool on)
{
	int ret;

	lockdep_assert_held(&remote->lock);
	if (on == remote->tracing_on)
		return 0;

	if (on) {
		ret = trace_remote_load(remote);
		if (ret)
			return ret;
		ret = remote->cbs->enable_tracing(true, remote->priv);
		if (ret) {
			trace_remote_try_unload(remote);
			return ret;
		}
		remote->tracing_on = true;
	} else {
		ret = remote->cbs->enable_tracing(false, remote->priv);
		if (ret)
			return ret;
		remote->tracing_on = false;
		trace_remote_try_unload(remote);
	}
	return 0;
}

static ssize_t tracing_on_write(struct file *filp, const char __user *ubuf, size_t cnt,
				loff_t *ppos)
{
	struct trace_remote *remote = trace_remote_of(filp);
	bool val;
	int ret;

	ret = trace_remote_parse_bool(ubuf, cnt, &val);
	if (ret)
		return ret;

	guard(mutex)(&remote->lock);
	if (remote->gone)
		return -ENODEV;
	ret = trace_remote_set_tracing(remote, val);
	return ret ? ret : cnt;
}

static const struct file_operations tracing_on_fops = {
	.open		= trace_remote_file_open,
	.read		= tracing_on_read,
	.write		= tracing_on_write,
	.llseek		= default_llseek,
	.release	= trace_remote_file_release,
};

static ssize_t buffer_size_kb_read(struct file *filp, char __user *ubuf, size_t cnt,
				   loff_t *ppos)
{
	struct trace_remote *remote = trace_remote_of(filp);

	guard(mutex)(&remote->lock);
	if (remote->gone)
		return -ENODEV;
	return trace_remote_read_text(ubuf, cnt, ppos, "%lu (%s)\n",
				      remote->trace_buffer_size >> 10,
				      trace_remote_loaded(remote) ? "loaded" : "unloaded");
}

/* Can a buffer of @kb KiB per CPU be allocated? */
static int trace_remote_check_size(unsigned long kb)
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

	ret = trace_remote_parse_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	ret = trace_remote_check_size(val);
	if (ret)
		return ret;

	guard(mutex)(&remote->lock);
	if (remote->gone)
		return -ENODEV;
	if (trace_remote_loaded(remote))
		return -EBUSY;
	remote->trace_buffer_size = val << 10;
	return cnt;
}

static const struct file_operations buffer_size_kb_fops = {
	.open		= trace_remote_file_open,
	.read		= buffer_size_kb_read,
	.write		= buffer_size_kb_write,
	.llseek		= default_llseek,
	.release	= trace_remote_file_release,
};

static ssize_t trace_clock_read(struct file *filp, char __user *ubuf, size_t cnt, loff_t *ppos)
{
	if (trace_remote_gone(filp))
		return -ENODEV;
	return trace_remote_read_text(ubuf, cnt, ppos, "[boot]\n");
}

/* The only clock: writing its name (as Perfetto does) is accepted. */
static ssize_t trace_clock_write(struct file *filp, const char __user *ubuf, size_t cnt,
				 loff_t *ppos)
{
	char buf[8];

	if (trace_remote_gone(filp))
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

static const struct file_operations trace_clock_fops = {
	.open		= trace_remote_file_open,
	.read		= trace_clock_read,
	.write		= trace_clock_write,
	.llseek		= default_llseek,
	.release	= trace_remote_file_release,
};

/* Like trace.c's files: root only, writable ones TRACE_MODE_WRITE. */
static bool trace_remote_file(struct dentry *parent, const char *name, umode_t mode,
			      void *data, const struct file_operations *fops)
{
	return tracefs_create_file(name, mode, parent, data, fops);
}

/* The files of @remote in @top, remotes/<name>/. */
static int trace_remote_create_files(struct trace_remote *remote, struct dentry *top)
{
	struct trace_remote_cpu *all = &remote->cpus[nr_cpu_ids];

	if (!trace_remote_file(top, "tracing_on", TRACE_MODE_WRITE, all, &tracing_on_fops) ||
	    !trace_remote_file(top, "buffer_size_kb", TRACE_MODE_WRITE, all,
			       &buffer_size_kb_fops) ||
	    !trace_remote_file(top, "trace_clock", TRACE_MODE_WRITE, all, &trace_clock_fops))
		return -ENOMEM;
	return 0;
}

static struct trace_remote *trace_remote_find(const char *name)
{
	struct trace_remote *remote;

	lockdep_assert_held(&trace_remotes_lock);
	list_for_each_entry(remote, &trace_remotes, list) {
		if (!strcmp(remote->name, name))
			return remote;
	}
	return NULL;
}

/* The last reference is gone: no file is open, unregistered. */
static void trace_remote_free(struct trace_remote *remote)
{
	mutex_destroy(&remote->lock);
	kfree(remote->cpus);
	kfree(remote);
}

/**
 * __trace_remote_register() - Show a remote under /sys/kernel/tracing/remotes/
 * @owner:	The module of the remote (THIS_MODULE, through
 *		trace_remote_register()), pinned while one of its files is open.
 * @name:	Directory name; also the events' system name.
 * @cbs:	What the remote does; see struct trace_remote_callbacks.
 * @priv:	Passed to the callbacks.
 * @events:	The events the remote can write, with unique ids from 1. The
 *		array belongs to the remote until trace_remote_unregister().
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
	size_t i, j;
	int cpu, ret;

	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || !cbs || !cbs->load_trace_buffer ||
	    !cbs->unload_trace_buffer || !cbs->enable_tracing || !cbs->swap_reader_page ||
	    !cbs->reset || !cbs->enable_event)
		return -EINVAL;
	if (nr_events > USHRT_MAX)
		return -EINVAL;
	for (i = 0; i < nr_events; i++) {
		if (!events[i].id || !events[i].name || !events[i].print ||
		    !events[i].get_fields)
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (events[j].id == events[i].id || !strcmp(events[j].name, events[i].name))
				return -EINVAL;
		}
	}

	remote = kzalloc(struct_size(remote, name, strlen(name) + 1), GFP_KERNEL);
	if (!remote)
		return -ENOMEM;
	remote->cpus = kcalloc(nr_cpu_ids + 1, sizeof(*remote->cpus), GFP_KERNEL);
	if (!remote->cpus) {
		kfree(remote);
		return -ENOMEM;
	}
	for (cpu = 0; cpu <= nr_cpu_ids; cpu++) {
		remote->cpus[cpu].remote = remote;
		remote->cpus[cpu].cpu = cpu < nr_cpu_ids ? cpu : RING_BUFFER_ALL_CPUS;
	}
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
	mutex_init(&remote->lock);

	mutex_lock(&trace_remotes_lock);
	if (trace_remote_find(name)) {
		ret = -EEXIST;
		goto fail;
	}
	for (i = 0; i < nr_events; i++) {
		events[i].fields = events[i].get_fields(&events[i].nr_fields);
		events[i].enabled = false;
	}
	if (!remotes_dir) {
		remotes_dir = tracefs_create_dir("remotes", NULL);
		if (!remotes_dir) {
			ret = -ENODEV;
			goto fail;
		}
	}
	remote->dentry = tracefs_create_dir(name, remotes_dir);
	if (!remote->dentry) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = trace_remote_create_files(remote, remote->dentry);
	if (ret) {
		tracefs_remove(remote->dentry);
		goto fail;
	}

	list_add(&remote->list, &trace_remotes);
	mutex_unlock(&trace_remotes_lock);
	return 0;

fail:
	mutex_unlock(&trace_remotes_lock);
	trace_remote_free(remote);
	return ret;
}
EXPORT_SYMBOL_GPL(__trace_remote_register);

/**
 * trace_remote_unregister() - Remove a remote
 * @name:	The name given to trace_remote_register().
 *
 * Removes the remote's directory, stops tracing and unloads the buffer.
 * Files still open fail every operation with -ENODEV from now on. A module
 * remote is pinned while any of its files is open, so its module_exit()
 * only runs once they are all closed.
 */
void trace_remote_unregister(const char *name)
{
	struct trace_remote *remote;

	scoped_guard(mutex, &trace_remotes_lock) {
		remote = trace_remote_find(name);
		if (!remote)
			return;
		list_del(&remote->list);
	}
	tracefs_remove(remote->dentry);

	scoped_guard(mutex, &remote->lock) {
		remote->gone = true;
		if (remote->tracing_on)
			remote->cbs->enable_tracing(false, remote->priv);
		remote->tracing_on = false;
		trace_remote_try_unload(remote);
	}

	if (refcount_dec_and_test(&remote->ref))
		trace_remote_free(remote);
}
EXPORT_SYMBOL_GPL(trace_remote_unregister);
