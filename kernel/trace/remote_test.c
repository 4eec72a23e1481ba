// SPDX-License-Identifier: GPL-2.0
/*
 * A trace remote written by the kernel itself, to test trace_remote and the
 * ring buffer's remote mode: remotes/test/ with a simple_ring_buffer writer
 * per possible CPU (as the hypervisor has), and a write_event file that
 * makes it write. A write that should be recorded and is not fails.
 *
 *   echo 1 > /sys/kernel/tracing/remotes/test/tracing_on
 *   echo 42 > /sys/kernel/tracing/remotes/test/write_event
 *   cat /sys/kernel/tracing/remotes/test/trace_pipe
 */

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/security.h>
#include <linux/simple_ring_buffer.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/tracefs.h>
#include <linux/trace_remote.h>

#define REMOTE_EVENT_INCLUDE_FILE remote_test_events.h
#include <trace/define_remote_events.h>

struct remote_test_cpu {
	struct simple_rb_per_cpu	cpu_buffer;
	struct simple_buffer_page	*bpages;
	bool				loaded;
};

static DEFINE_PER_CPU(struct remote_test_cpu, remote_test_cpus);
/* Serializes writers with load, unload, enable and reset. */
static DEFINE_MUTEX(remote_test_lock);
static bool remote_test_tracing;
static bool remote_test_event_on[remote_event_id_selftest + 1];

/* To test a clock that steps: set it back and the writer clamps its stamps. */
static long clock_offset_ns;
module_param(clock_offset_ns, long, 0644);
MODULE_PARM_DESC(clock_offset_ns, "Added to the boot clock of the events written (ns)");

/* To test a remote without a buffer for every CPU: the next load leaves one out. */
static int leave_out_cpu = -1;
module_param(leave_out_cpu, int, 0644);
MODULE_PARM_DESC(leave_out_cpu, "CPU the buffers loaded from now on leave out (-1: none)");
static struct cpumask remote_test_load_cpus;	/* serialized by trace_remote */

static void remote_test_unload(struct trace_buffer_desc *desc, void *priv)
{
	int cpu;

	guard(mutex)(&remote_test_lock);
	for_each_possible_cpu(cpu) {
		struct remote_test_cpu *rcpu = per_cpu_ptr(&remote_test_cpus, cpu);

		if (!rcpu->loaded)
			continue;
		simple_ring_buffer_unload(&rcpu->cpu_buffer);
		kvfree(rcpu->bpages);
		rcpu->bpages = NULL;
		rcpu->loaded = false;
	}
	trace_remote_free_buffer(desc);
	kvfree(desc);
}

static struct trace_buffer_desc *remote_test_load(unsigned long size, void *priv)
{
	size_t desc_size = trace_buffer_desc_size(size, num_possible_cpus());
	struct trace_buffer_desc *desc;
	struct ring_buffer_desc *rbdesc;
	int i, ret;

	if (desc_size == SIZE_MAX)
		return ERR_PTR(-EINVAL);
	desc = kvzalloc(desc_size, GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!desc)
		return ERR_PTR(-ENOMEM);
	i = READ_ONCE(leave_out_cpu);
	cpumask_copy(&remote_test_load_cpus, cpu_possible_mask);
	if (i >= 0 && i < nr_cpu_ids)
		cpumask_clear_cpu(i, &remote_test_load_cpus);
	ret = trace_remote_alloc_buffer(desc, desc_size, size, &remote_test_load_cpus);
	if (ret) {
		kvfree(desc);
		return ERR_PTR(ret);
	}

	scoped_guard(mutex, &remote_test_lock) {
		for_each_ring_buffer_desc(rbdesc, i, desc) {
			struct remote_test_cpu *rcpu = per_cpu_ptr(&remote_test_cpus, rbdesc->cpu);

			rcpu->bpages = kvcalloc(rbdesc->nr_page_va,
						sizeof(*rcpu->bpages),
						GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
			if (!rcpu->bpages) {
				ret = -ENOMEM;
				break;
			}
			ret = simple_ring_buffer_init(&rcpu->cpu_buffer, rcpu->bpages, rbdesc);
			if (ret) {
				kvfree(rcpu->bpages);
				rcpu->bpages = NULL;
				break;
			}
			rcpu->loaded = true;
		}
	}
	if (ret) {
		remote_test_unload(desc, priv);
		return ERR_PTR(ret);
	}
	return desc;
}

static struct simple_rb_per_cpu *remote_test_buffer(unsigned int cpu)
{
	struct remote_test_cpu *rcpu;

	if (cpu >= nr_cpu_ids)
		return NULL;
	rcpu = per_cpu_ptr(&remote_test_cpus, cpu);
	return rcpu->loaded ? &rcpu->cpu_buffer : NULL;
}

static int remote_test_enable_tracing(bool enable, void *priv)
{
	int cpu;

	guard(mutex)(&remote_test_lock);
	for_each_possible_cpu(cpu) {
		struct simple_rb_per_cpu *cpu_buffer = remote_test_buffer(cpu);

		if (cpu_buffer)
			simple_ring_buffer_enable_tracing(cpu_buffer, enable);
	}
	remote_test_tracing = enable;
	return 0;
}

static int remote_test_swap_reader_page(unsigned int cpu, void *priv)
{
	struct simple_rb_per_cpu *cpu_buffer = remote_test_buffer(cpu);

	return cpu_buffer ? simple_ring_buffer_swap_reader_page(cpu_buffer) : -ENODEV;
}

static int remote_test_reset(unsigned int cpu, void *priv)
{
	struct simple_rb_per_cpu *cpu_buffer = remote_test_buffer(cpu);

	return cpu_buffer ? simple_ring_buffer_reset(cpu_buffer) : -ENODEV;
}

static int remote_test_enable_event(unsigned short id, bool enable, void *priv)
{
	if (!id || id >= ARRAY_SIZE(remote_test_event_on))
		return -EINVAL;
	WRITE_ONCE(remote_test_event_on[id], enable);
	return 0;
}

/*
 * Write one selftest event with @id on the calling CPU: -ENODEV while
 * tracing or the event is off or no buffer is loaded.
 */
static int remote_test_write(u64 id)
{
	struct remote_event_format_selftest *rec;
	struct simple_rb_per_cpu *cpu_buffer;
	unsigned long flags;
	int ret = 0;

	if (!remote_test_tracing || !READ_ONCE(remote_test_event_on[remote_event_id_selftest]))
		return -ENODEV;

	local_irq_save(flags);
	cpu_buffer = remote_test_buffer(smp_processor_id());
	if (!cpu_buffer) {
		ret = -ENODEV;
	} else {
		rec = simple_ring_buffer_reserve(cpu_buffer, sizeof(*rec),
						 ktime_get_boot_fast_ns() +
						 READ_ONCE(clock_offset_ns));
		if (rec) {
			rec->hdr = REMOTE_EVENT_HDR(remote_event_id_selftest);
			rec->id = id;
			simple_ring_buffer_commit(cpu_buffer);
		} else {
			ret = -EBUSY;
		}
	}
	local_irq_restore(flags);
	return ret;
}

static ssize_t remote_test_write_event(struct file *filp, const char __user *ubuf, size_t cnt,
				       loff_t *ppos)
{
	u64 id;
	int ret;

	ret = kstrtou64_from_user(ubuf, cnt, 10, &id);
	if (ret)
		return ret;
	guard(mutex)(&remote_test_lock);
	ret = remote_test_write(id);
	return ret ?: cnt;
}

static int remote_test_write_event_open(struct inode *inode, struct file *filp)
{
	return security_locked_down(LOCKDOWN_TRACEFS);
}

static const struct file_operations remote_test_write_event_fops = {
	.owner	= THIS_MODULE,
	.open	= remote_test_write_event_open,
	.write	= remote_test_write_event,
	.llseek	= noop_llseek,
};

/* write_event: writing a number writes a selftest event with it. */
static int remote_test_init(struct dentry *d, void *priv)
{
	return tracefs_create_file("write_event", 0200, d, NULL,
				   &remote_test_write_event_fops) ? 0 : -ENOMEM;
}

static const struct trace_remote_callbacks remote_test_cbs = {
	.init			= remote_test_init,
	.load_trace_buffer	= remote_test_load,
	.unload_trace_buffer	= remote_test_unload,
	.enable_tracing		= remote_test_enable_tracing,
	.swap_reader_page	= remote_test_swap_reader_page,
	.reset			= remote_test_reset,
	.enable_event		= remote_test_enable_event,
};

/* To test a remote shown at the tracefs root as well, as the hypervisor is. */
static bool show_at_root;
module_param(show_at_root, bool, 0444);
MODULE_PARM_DESC(show_at_root, "Show the remote at /sys/kernel/tracing/test/ too");

/* To test the checks of the event names at registration. */
static char *event_name;
module_param(event_name, charp, 0444);
MODULE_PARM_DESC(event_name, "Name of the selftest event (default: selftest)");

/* To test an event whose text is longer than a read of trace or trace_pipe holds. */
static ulong wide_id;
module_param(wide_id, ulong, 0444);
MODULE_PARM_DESC(wide_id, "Print the selftest events of this id and above (0: none) 10000 characters wide");

static void remote_test_print_wide(void *rec, struct trace_seq *s)
{
	struct remote_event_format_selftest *e = rec;

	trace_seq_printf(s, "id=%*llu", e->id >= wide_id ? 10000 : 0, e->id);
}

static int __init remote_test_module_init(void)
{
	int ret;

	if (event_name)
		remote_event_selftest.name = event_name;
	if (wide_id)
		remote_event_selftest.print = remote_test_print_wide;
	ret = trace_remote_register("test", &remote_test_cbs, NULL, &remote_event_selftest, 1);
	if (ret || !show_at_root)
		return ret;
	ret = trace_remote_show_at_root("test");
	if (ret)
		trace_remote_unregister("test");
	return ret;
}
module_init(remote_test_module_init);

static void __exit remote_test_module_exit(void)
{
	trace_remote_unregister("test");
}
module_exit(remote_test_module_exit);

MODULE_DESCRIPTION("Test trace remote written with simple_ring_buffer");
MODULE_LICENSE("GPL");
