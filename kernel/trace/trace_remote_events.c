// SPDX-License-Identifier: GPL-2.0
/*
 * The events/ directory of a trace remote: the formats of its events and
 * their switches, laid out as the kernel's own events/ for the tools.
 */

#include <linux/bitmap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/trace_seq.h>
#include <linux/uaccess.h>

#include "trace.h"	/* TRACE_MODE_READ, TRACE_MODE_WRITE */
#include "trace_remote_internal.h"

static struct remote_event *trace_remote_find_event(struct trace_remote *remote,
						    unsigned short id)
{
	size_t i;

	/* Ids are usually the index, or the index + 1. */
	if (id < remote->nr_events && remote->events[id].id == id)
		return &remote->events[id];
	if (id && id <= remote->nr_events && remote->events[id - 1].id == id)
		return &remote->events[id - 1];

	for (i = 0; i < remote->nr_events; i++) {
		if (remote->events[i].id == id)
			return &remote->events[i];
	}
	return NULL;
}

struct remote_event *trace_remote_event_by_name(struct trace_remote *remote, const char *name)
{
	size_t i;

	for (i = 0; i < remote->nr_events; i++) {
		if (!strcmp(remote->events[i].name, name))
			return &remote->events[i];
	}
	return NULL;
}

/* The length of a record of @re: up to the end of its last field. */
static unsigned int trace_remote_event_len(const struct remote_event *re)
{
	unsigned int i, len = sizeof(struct remote_event_hdr);

	for (i = 0; i < re->nr_fields; i++)
		len = max(len, re->fields[i].offset + re->fields[i].size);
	return len;
}

/* The mark of the events lost before the next one read on @cpu. */
void trace_remote_print_lost(struct trace_seq *s, int cpu, unsigned long lost)
{
	if (lost == TRACE_REMOTE_LOST_UNKNOWN)
		trace_seq_printf(s, "CPU:%d [LOST EVENTS]\n", cpu);
	else if (lost)
		trace_seq_printf(s, "CPU:%d [LOST %lu EVENTS]\n", cpu, lost);
}

void trace_remote_print(struct trace_remote *remote, struct trace_seq *s,
			struct ring_buffer_event *event, int cpu, u64 ts, unsigned long lost)
{
	struct remote_event_hdr *hdr = ring_buffer_event_data(event);
	unsigned int len = ring_buffer_event_length(event);
	struct remote_event *re = NULL;
	u64 secs = ts;
	u32 nsecs;

	if (len >= sizeof(*hdr))
		re = trace_remote_find_event(remote, hdr->id);

	trace_remote_print_lost(s, cpu, lost);
	nsecs = do_div(secs, NSEC_PER_SEC);
	trace_seq_printf(s, "[%03d]\t%5llu.%06u: ", cpu, secs, nsecs / 1000);
	if (re && len < trace_remote_event_len(re)) {
		/* Truncated (a dump raced the writer): do not print past its end. */
		trace_seq_printf(s, "%s (%u bytes, too short)", re->name, len);
	} else if (re) {
		trace_seq_printf(s, "%s ", re->name);
		re->print(hdr, s);
	} else {
		trace_seq_printf(s, "UNKNOWN id=%u", hdr->id);
	}
	trace_seq_putc(s, '\n');
}

int trace_remote_enable_event(struct trace_remote *remote, struct remote_event *re,
			      bool enable)
{
	int ret;

	lockdep_assert_held(&remote->lock);
	if (re->enabled == enable)
		return 0;
	ret = remote->cbs->enable_event(re->id, enable, remote->priv);
	if (!ret)
		re->enabled = enable;
	return ret;
}

/*
 * An event's files are in a directory named after it: events/<remote>/<event>/,
 * or events/ftrace/remote/ for the placeholder. NULL for no event of the
 * remote, which its directories never are.
 */
static struct remote_event *trace_remote_event_of(const struct file *filp)
{
	struct trace_remote *remote = trace_remote_of(filp);
	struct dentry *dir = filp->f_path.dentry->d_parent;

	if (!strcmp(dir->d_parent->d_name.name, "ftrace") && strcmp(remote->name, "ftrace"))
		return &remote->ftrace_event;
	return trace_remote_event_by_name(remote, dir->d_name.name);
}

/*
 * The enable files of one event and of all (events/enable and
 * events/<remote>/enable): "X" when some of them are on and some off.
 */
static int trace_remote_show_enabled(struct seq_file *m, struct remote_event *re, size_t nr)
{
	bool on = false, off = false;
	size_t i;

	scoped_cond_guard(trace_remote_live, return -ENODEV, m->private) {
		for (i = 0; i < nr; i++) {
			on |= re[i].enabled;
			off |= !re[i].enabled;
		}
	}
	seq_printf(m, "%s\n", on && off ? "X" : on ? "1" : "0");
	return 0;
}

static ssize_t trace_remote_write_enable(struct file *filp, const char __user *ubuf, size_t cnt,
					 struct remote_event *re, size_t nr)
{
	struct trace_remote *remote = trace_remote_of(filp);
	unsigned long val;
	size_t i;
	int ret;

	/* "0" or "1", nothing else. */
	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;

	scoped_cond_guard(trace_remote_live, return -ENODEV, remote) {
		for (i = 0; i < nr; i++) {
			ret = trace_remote_enable_event(remote, &re[i], val);
			if (ret)
				return ret;
		}
	}
	return cnt;
}

static int event_enable_show(struct seq_file *m, void *v)
{
	struct remote_event *re = trace_remote_event_of(m->file);

	return trace_remote_show_enabled(m, re, !!re);
}

static ssize_t event_enable_write(struct file *filp, const char __user *ubuf, size_t cnt,
				  loff_t *ppos)
{
	struct remote_event *re = trace_remote_event_of(filp);

	return trace_remote_write_enable(filp, ubuf, cnt, re, !!re);
}

DEFINE_TRACE_REMOTE_FILE(event_enable, event_enable_write);

static int events_enable_show(struct seq_file *m, void *v)
{
	struct trace_remote *remote = m->private;

	return trace_remote_show_enabled(m, remote->events, remote->nr_events);
}

static ssize_t events_enable_write(struct file *filp, const char __user *ubuf, size_t cnt,
				   loff_t *ppos)
{
	struct trace_remote *remote = trace_remote_of(filp);

	return trace_remote_write_enable(filp, ubuf, cnt, remote->events, remote->nr_events);
}

DEFINE_TRACE_REMOTE_FILE(events_enable, events_enable_write);

static int event_id_show(struct seq_file *m, void *v)
{
	struct remote_event *re = trace_remote_event_of(m->file);

	if (!re || trace_remote_is_gone(m->private))
		return -ENODEV;
	seq_printf(m, "%u\n", re->id);
	return 0;
}

DEFINE_TRACE_REMOTE_FILE(event_id, NULL);

/* The common fields, as the kernel's own events have them. */
static const struct remote_event_field remote_common_fields[] = {
	{ .type = "unsigned short", .name = "common_type",
	  .offset = offsetof(struct remote_event_hdr, id),
	  .size = sizeof_field(struct remote_event_hdr, id) },
	{ .type = "unsigned char", .name = "common_flags",
	  .offset = offsetof(struct remote_event_hdr, flags),
	  .size = sizeof_field(struct remote_event_hdr, flags) },
	{ .type = "unsigned char", .name = "common_preempt_count",
	  .offset = offsetof(struct remote_event_hdr, preempt_count),
	  .size = sizeof_field(struct remote_event_hdr, preempt_count) },
	{ .type = "int", .name = "common_pid",
	  .offset = offsetof(struct remote_event_hdr, pid),
	  .size = sizeof_field(struct remote_event_hdr, pid), .is_signed = true },
};

static void event_format_fields(struct seq_file *m, const struct remote_event_field *fields,
				unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		seq_printf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			   fields[i].type, fields[i].name, fields[i].offset, fields[i].size,
			   fields[i].is_signed);
}

static int event_format_show(struct seq_file *m, void *v)
{
	struct remote_event *re = trace_remote_event_of(m->file);

	if (!re || trace_remote_is_gone(m->private))
		return -ENODEV;
	seq_printf(m, "name: %s\nID: %u\nformat:\n", re->name, re->id);
	event_format_fields(m, remote_common_fields, ARRAY_SIZE(remote_common_fields));
	seq_putc(m, '\n');
	event_format_fields(m, re->fields, re->nr_fields);
	seq_printf(m, "\nprint fmt: %s\n", re->print_fmt);
	return 0;
}

DEFINE_TRACE_REMOTE_FILE(event_format, NULL);

/*
 * Remotes do not filter: "filter" exists because tools look for it when
 * they expand event names. It reads "none" and only accepts being cleared.
 */
static int event_filter_show(struct seq_file *m, void *v)
{
	seq_puts(m, "none\n");
	return 0;
}

static ssize_t event_filter_write(struct file *filp, const char __user *ubuf, size_t cnt,
				  loff_t *ppos)
{
	char buf[8], *word;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	word = strim(buf);
	if (*word && strcmp(word, "0") && strcmp(word, "none"))
		return -EINVAL;
	return cnt;
}

DEFINE_TRACE_REMOTE_FILE(event_filter, event_filter_write);

static ssize_t header_read(struct file *filp, char __user *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_seq *s __free(kfree) = kmalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	trace_seq_init(s);
	if (file_inode(filp)->i_private)
		ring_buffer_print_page_header(NULL, s);
	else
		ring_buffer_print_entry_header(s);
	return simple_read_from_buffer(ubuf, cnt, ppos, s->buffer, trace_seq_used(s));
}

static const struct file_operations header_fops = {
	.read	= header_read,
	.llseek	= default_llseek,
};

static int available_events_show(struct seq_file *m, void *v)
{
	struct trace_remote *remote = m->private;
	size_t i;

	if (trace_remote_is_gone(remote))
		return -ENODEV;
	for (i = 0; i < remote->nr_events; i++)
		seq_printf(m, "%s:%s\n", remote->name, remote->events[i].name);
	return 0;
}

DEFINE_TRACE_REMOTE_FILE(available_events, NULL);

/* The smallest id no event uses: there is one, as there are fewer than 2^16. */
static int trace_remote_free_id(const struct remote_event *events, size_t nr)
{
	unsigned long *used = bitmap_zalloc(USHRT_MAX + 1, GFP_KERNEL);
	size_t i;
	int id;

	if (!used)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		__set_bit(events[i].id, used);
	id = find_first_zero_bit(used, USHRT_MAX + 1);
	bitmap_free(used);
	return id;
}

/*
 * The events/ directory of @system can show @events: names that can be
 * directories there, and fields that fit in a record.
 */
int trace_remote_check_events(const char *system, const struct remote_event *events,
			      size_t nr)
{
	const struct remote_event_field *fields;
	unsigned int nr_fields, f;
	size_t i, j;

	/* The other entries of events/. */
	if (!strcmp(system, "enable") || !strcmp(system, "header_page") ||
	    !strcmp(system, "header_event") || nr > USHRT_MAX)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (!trace_remote_valid_name(events[i].name) || !strcmp(events[i].name, "enable") ||
		    !strcmp(events[i].name, "filter") || !events[i].print || !events[i].get_fields)
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (events[j].id == events[i].id || !strcmp(events[j].name, events[i].name))
				return -EINVAL;
		}
		fields = events[i].get_fields(&nr_fields);
		if (nr_fields && !fields)
			return -EINVAL;
		for (f = 0; f < nr_fields; f++) {
			if (!fields[f].type || !fields[f].name || fields[f].offset > PAGE_SIZE ||
			    fields[f].size > PAGE_SIZE - fields[f].offset)
				return -EINVAL;
		}
	}
	return 0;
}

/* The last step of registration, which fails without touching @events. */
int trace_remote_init_events(struct trace_remote *remote)
{
	int id = trace_remote_free_id(remote->events, remote->nr_events);
	struct remote_event *re;

	if (id < 0)
		return id;
	remote->ftrace_event.name = "remote";
	remote->ftrace_event.print_fmt = "\"\"";
	remote->ftrace_event.id = id;
	for (re = remote->events; re < remote->events + remote->nr_events; re++) {
		re->fields = re->get_fields(&re->nr_fields);
		re->enabled = false;
	}
	return 0;
}

int trace_remote_create_events(struct trace_remote *remote, struct dentry *top)
{
	struct dentry *events, *sys, *d;
	size_t i;

	if (!trace_create_file("available_events", TRACE_MODE_READ, top, remote,
			       &available_events_fops))
		return -ENOMEM;
	events = tracefs_create_dir("events", top);
	if (!events ||
	    !trace_create_file("enable", TRACE_MODE_WRITE, events, remote, &events_enable_fops) ||
	    !trace_create_file("header_page", TRACE_MODE_READ, events, (void *)1UL, &header_fops) ||
	    !trace_create_file("header_event", TRACE_MODE_READ, events, NULL, &header_fops))
		return -ENOMEM;
	if (strcmp(remote->name, "ftrace")) {
		d = tracefs_create_dir("ftrace", events);
		d = d ? tracefs_create_dir("remote", d) : NULL;
		if (!d || !trace_create_file("id", TRACE_MODE_READ, d, remote, &event_id_fops) ||
		    !trace_create_file("format", TRACE_MODE_READ, d, remote, &event_format_fops))
			return -ENOMEM;
	}

	/* The remote is the only system: its switches are the top-level ones. */
	sys = tracefs_create_dir(remote->name, events);
	if (!sys ||
	    !trace_create_file("enable", TRACE_MODE_WRITE, sys, remote, &events_enable_fops) ||
	    !trace_create_file("filter", TRACE_MODE_WRITE, sys, remote, &event_filter_fops))
		return -ENOMEM;
	for (i = 0; i < remote->nr_events; i++) {
		d = tracefs_create_dir(remote->events[i].name, sys);
		if (!d ||
		    !trace_create_file("enable", TRACE_MODE_WRITE, d, remote, &event_enable_fops) ||
		    !trace_create_file("id", TRACE_MODE_READ, d, remote, &event_id_fops) ||
		    !trace_create_file("format", TRACE_MODE_READ, d, remote, &event_format_fops) ||
		    !trace_create_file("filter", TRACE_MODE_WRITE, d, remote, &event_filter_fops))
			return -ENOMEM;
	}
	return 0;
}
