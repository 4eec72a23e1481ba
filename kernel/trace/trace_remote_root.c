// SPDX-License-Identifier: GPL-2.0
/* A second view of a trace remote, at the tracefs root. */

#include <linux/export.h>
#include <linux/tracefs.h>

#include "trace_remote_internal.h"

/**
 * trace_remote_show_at_root() - Show a remote at the tracefs root as well
 * @name:	The name given to trace_remote_register().
 *
 * Adds /sys/kernel/tracing/<name>/, a second view of the remote with the
 * same files as remotes/<name>/: one buffer, one state, the events under
 * events/<name>/, for tools that only look for instances at the root. The
 * view goes away with the remote.
 *
 * Return: 0, -ENODEV if no remote has that name, -EEXIST if it is shown at
 * the root already or the root has an entry of that name, or -ENOMEM.
 */
int trace_remote_show_at_root(const char *name)
{
	struct trace_remote *remote;
	struct dentry *dir;
	int ret;

	guard(mutex)(&trace_remotes_lock);
	remote = trace_remote_find(name);
	if (!remote)
		return -ENODEV;
	if (remote->root_dentry)
		return -EEXIST;
	/* tracefs gives no error code: a name taken is the likely cause. */
	dir = tracefs_create_dir(name, NULL);
	if (!dir)
		return -EEXIST;
	ret = trace_remote_create_files(remote, dir);
	if (ret) {
		tracefs_remove(dir);
		return ret;
	}
	remote->root_dentry = dir;
	return 0;
}
EXPORT_SYMBOL_GPL(trace_remote_show_at_root);
