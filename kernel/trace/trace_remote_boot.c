// SPDX-License-Identifier: GPL-2.0
/*
 * Trace remotes from boot: trace_remote=NAME[:SIZE[:EVENT,...]] on the
 * kernel command line. The settings wait for the remote to register, which
 * may be a module loaded later.
 */

#define pr_fmt(fmt) "trace_remote: " fmt

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "trace_remote_internal.h"

#define TRACE_REMOTE_BOOT_MAX		8

struct trace_remote_boot {
	char		name[32];
	unsigned long	size_kb;		/* 0: the default */
	bool		has_events;		/* or every event */
	bool		applied;		/* at the first registration */
	char		events[256];		/* comma-separated names */
};

static struct trace_remote_boot trace_remote_boot[TRACE_REMOTE_BOOT_MAX];
static unsigned int trace_remote_nr_boot;

/**
 * trace_remote_boot_param() - Have a remote trace as soon as it registers
 * @arg:	"NAME[:SIZE[:EVENT[,EVENT...]]]". SIZE is per CPU, with an
 *		optional K, M or G suffix (bytes without), left empty for the
 *		default. The events listed are enabled; all of them when the
 *		list is left out (not when it is empty).
 *
 * For kernel command-line parameters: when the remote NAME registers for
 * the first time, its buffer size is set, the events enabled and tracing
 * turned on, before any user space can. Several settings for one remote add
 * up: the last size wins, the event lists are merged.
 *
 * Return: 0, -EINVAL if @arg is malformed, -ENOSPC after eight of them.
 */
int __init trace_remote_boot_param(const char *arg)
{
	char buf[320], *s = buf, *name, *size, *end;
	struct trace_remote_boot *b;
	unsigned long long bytes;

	if (trace_remote_nr_boot >= TRACE_REMOTE_BOOT_MAX)
		return -ENOSPC;
	if (strscpy(buf, arg, sizeof(buf)) < 0)
		return -EINVAL;
	b = &trace_remote_boot[trace_remote_nr_boot];
	memset(b, 0, sizeof(*b));
	name = strsep(&s, ":");
	size = strsep(&s, ":");
	if (!*name || strchr(name, '/') || strscpy(b->name, name, sizeof(b->name)) < 0)
		return -EINVAL;
	if (size && *size) {
		bytes = memparse(size, &end);
		if (*end || !bytes || bytes > ULONG_MAX / 2)
			return -EINVAL;
		b->size_kb = DIV_ROUND_UP_ULL(bytes, 1024);
	}
	if (s) {
		if (strscpy(b->events, s, sizeof(b->events)) < 0)
			return -EINVAL;
		b->has_events = true;
	}
	trace_remote_nr_boot++;
	return 0;
}

static int __init trace_remote_setup(char *arg)
{
	if (trace_remote_boot_param(arg))
		pr_warn("ignoring trace_remote=%s\n", arg);
	return 1;
}
__setup("trace_remote=", trace_remote_setup);

/*
 * The remote was just registered: apply what the command line said, once.
 * Without trace_remotes_lock: loading a large buffer takes a while.
 */
void trace_remote_boot_start(struct trace_remote *remote)
{
	char list[sizeof(trace_remote_boot[0].events)], *names, *name;
	struct trace_remote_boot *b, *end = trace_remote_boot + trace_remote_nr_boot;
	bool found = false, listed = false;
	unsigned long size_kb = 0;
	struct remote_event *re;
	int ret;

	guard(mutex)(&remote->lock);
	for (b = trace_remote_boot; b < end; b++) {
		if (strcmp(b->name, remote->name) || b->applied)
			continue;
		b->applied = true;
		found = true;
		size_kb = b->size_kb ?: size_kb;
		listed |= b->has_events;
		strscpy(list, b->events, sizeof(list));
		names = list;
		while ((name = strsep(&names, ","))) {
			if (!*name)
				continue;
			re = trace_remote_event_by_name(remote, name);
			ret = re ? trace_remote_enable_event(remote, re, true) : -ENOENT;
			if (ret)
				pr_warn("%s: cannot enable %s (%d)\n", remote->name, name, ret);
		}
	}
	if (!found)
		return;
	if (size_kb) {
		ret = trace_remote_check_size(size_kb);
		if (ret)
			pr_warn("%s: no buffer of %lu KiB per CPU (%d)\n",
				remote->name, size_kb, ret);
		else
			remote->trace_buffer_size = size_kb << 10;
	}
	for (re = remote->events; !listed && re < remote->events + remote->nr_events; re++) {
		ret = trace_remote_enable_event(remote, re, true);
		if (ret)
			pr_warn("%s: cannot enable %s (%d)\n", remote->name, re->name, ret);
	}
	if (remote->gone)
		return;
	ret = trace_remote_set_tracing(remote, true);
	if (ret)
		pr_warn("%s: tracing not started (%d)\n", remote->name, ret);
	else
		pr_info("%s: tracing from the command line\n", remote->name);
}
