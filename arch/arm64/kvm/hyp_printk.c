// SPDX-License-Identifier: GPL-2.0
/*
 * hyp_printk() on the host: the text of the hypervisor's hyp_printk events,
 * from the format strings of its image, and their copy to the kernel log
 * (kvm.hyp_printk_to_log).
 */

#include <linux/kvm_host.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/trace_remote.h>
#include <linux/trace_seq.h>
#include <linux/workqueue.h>

#include <asm/kvm_hyptrace.h>

#include "hyp_printk.h"

/* The records: struct remote_event_format_<name>. */
#define HYP_EVENT(__name, __proto, __struct, __assign, __printk)	\
	REMOTE_EVENT_FORMAT(__name, __struct);
#include <asm/kvm_hypevents.h>
#undef HYP_EVENT

/*
 * The format strings of hyp_printk(): in a section of the hypervisor's image
 * that the host reads, outside the hypervisor's read-only data (which
 * protected mode takes from the host). The hypervisor only uses offsets.
 */
DECLARE_KVM_NVHE_SYM(__hyp_printk_fmts_start);
DECLARE_KVM_NVHE_SYM(__hyp_printk_fmts_end);

/*
 * The format of a hyp_printk event, or NULL if @id does not start one of the
 * strings of .hyp.printk_fmts or that string is not a format hyp_printk()
 * prints: up to HYP_PRINTK_FMT_MAX printable characters, at most four
 * conversions d, i, u, x, X, o or c, with flags, a width and precision of
 * up to 3 digits and a length h, hh, l, ll or z. The build refuses pointers,
 * strings and mismatched arguments; this also stands for a damaged record,
 * which must not make vsnprintf() read a pointer, and hyp_printk_init()
 * warns about the formats the build let through and this refuses.
 */
#define HYP_PRINTK_FMT_MAX	256

static const char *hyp_printk_fmt(u32 id)
{
	const char *start = kvm_nvhe_sym(__hyp_printk_fmts_start);
	const char *end = kvm_nvhe_sym(__hyp_printk_fmts_end);
	const char *fmt, *p;
	size_t n;
	int nr = 0;

	/* Every string ends with its NUL, the last one at end - 1. */
	if (id >= end - start || end[-1] || (id && start[id - 1]))
		return NULL;
	fmt = start + id;
	for (p = fmt; *p; p++) {
		if (*p < ' ' || *p > '~' || p - fmt >= HYP_PRINTK_FMT_MAX)
			return NULL;
		if (*p != '%')
			continue;
		if (*++p == '%')
			continue;
		p += strspn(p, "-+ #0");
		n = strspn(p, "0123456789");
		if (n > 3)
			return NULL;
		p += n;
		if (*p == '.') {
			n = strspn(++p, "0123456789");
			if (n > 3)
				return NULL;
			p += n;
		}
		if (*p == 'h' || *p == 'l')
			p += p[1] == p[0] ? 2 : 1;
		else if (*p == 'z')
			p++;
		if (!*p || !strchr("diuxXoc", *p) || ++nr > 4)
			return NULL;
	}
	return fmt;
}

/* hyp_printk: the formatted text, in trace, trace_pipe and the panic dump. */
void hyp_printk_print(void *rec, struct trace_seq *seq)
{
	struct remote_event_format_hyp_printk *e = rec;
	const char *fmt = hyp_printk_fmt(e->fmt_id);

	if (!fmt) {
		trace_seq_printf(seq, "(no format %u) 0x%llx 0x%llx 0x%llx 0x%llx", e->fmt_id,
				 e->a0, e->a1, e->a2, e->a3);
		return;
	}
	trace_seq_printf(seq, fmt, e->a0, e->a1, e->a2, e->a3);
}

/*
 * kvm.hyp_printk_to_log=1 (or /sys/module/kvm/parameters/hyp_printk_to_log):
 * every HYP_PRINTK_LOG_PERIOD, the hyp_printk events not read yet and not
 * copied yet go to the kernel log too, without being consumed; up to
 * HYP_PRINTK_LOG_MAX per period, printed once the remote's locks are
 * dropped (a console can take milliseconds a line).
 */
#define HYP_PRINTK_LOG_PERIOD	(HZ / 10)
#define HYP_PRINTK_LOG_IDLE	(HZ)		/* no buffer loaded */
#define HYP_PRINTK_LOG_MAX	64

static bool hyp_printk_to_log;
static struct delayed_work hyp_printk_work;
static bool hyp_printk_ready;

/* Per CPU: the newest event copied, and how many of that time stamp. */
static struct hyp_printk_logged {
	u64		ts;
	unsigned int	nr_at_ts;
	unsigned int	seen_at_ts;	/* in this pass */
	u64		newest;		/* in this pass */
} *hyp_printk_logged;

static struct hyp_printk_log {
	u64		limit;		/* no event is stamped later */
	unsigned int	nr;
	unsigned long	skipped;
	struct {
		int					cpu;
		u64					ts;
		struct remote_event_format_hyp_printk	rec;
	} msgs[HYP_PRINTK_LOG_MAX];
	struct trace_seq	seq;
} hyp_printk_log;	/* only hyp_printk_log_work() uses it */

static void hyp_printk_log_event(int cpu, u64 ts, const void *rec, unsigned int len,
				 void *data)
{
	const struct remote_event_hdr *hdr = rec;
	struct hyp_printk_logged *l = &hyp_printk_logged[cpu];
	struct hyp_printk_log *log = data;
	/* A mixed read of a page being rewritten: not a time to remember. */
	if (ts > log->limit)
		return;
	l->newest = max(l->newest, ts);
	if (ts < l->ts)
		return;
	if (ts == l->ts) {
		/* Those of this stamp already copied come first. */
		if (l->seen_at_ts++ < l->nr_at_ts)
			return;
		l->nr_at_ts++;
	} else {
		l->ts = ts;
		l->nr_at_ts = 1;
		l->seen_at_ts = 1;
	}
	if (len < sizeof(struct remote_event_format_hyp_printk) ||
	    hdr->id != hyp_event_id_hyp_printk)
		return;
	if (log->nr == HYP_PRINTK_LOG_MAX) {
		log->skipped++;
		return;
	}
	log->msgs[log->nr].cpu = cpu;
	log->msgs[log->nr].ts = ts;
	memcpy(&log->msgs[log->nr].rec, rec, sizeof(log->msgs[0].rec));
	log->nr++;
}

static void hyp_printk_log_work(struct work_struct *work)
{
	struct hyp_printk_log *log = &hyp_printk_log;
	struct trace_seq *s = &log->seq;
	unsigned int i;
	u32 nsecs;
	u64 secs;
	int cpu;

	if (!READ_ONCE(hyp_printk_to_log))
		return;
	for_each_possible_cpu(cpu) {
		hyp_printk_logged[cpu].seen_at_ts = 0;
		hyp_printk_logged[cpu].newest = 0;
	}
	log->nr = 0;
	log->skipped = 0;
	/* No event can be stamped much after now: 1 s for the clock's steps. */
	log->limit = ktime_get_boottime_ns() + NSEC_PER_SEC;
	if (trace_remote_peek_unread("hypervisor", hyp_printk_log_event, log)) {
		schedule_delayed_work(&hyp_printk_work, HYP_PRINTK_LOG_IDLE);
		return;
	}
	for_each_possible_cpu(cpu) {
		struct hyp_printk_logged *l = &hyp_printk_logged[cpu];

		/* Everything older than what was copied: reset, or a clock set back. */
		if (l->newest && l->newest < l->ts)
			memset(l, 0, sizeof(*l));
	}
	for (i = 0; i < log->nr; i++) {
		trace_seq_init(s);
		hyp_printk_print(&log->msgs[i].rec, s);
		s->buffer[min_t(unsigned int, s->seq.len, sizeof(s->buffer) - 1)] = 0;
		secs = log->msgs[i].ts;
		nsecs = do_div(secs, NSEC_PER_SEC);
		pr_info("hyp_printk: [%03d] %5llu.%06u: %s\n", log->msgs[i].cpu, secs,
			nsecs / 1000, s->buffer);
	}
	if (log->skipped)
		pr_info("hyp_printk: %lu more messages not copied\n", log->skipped);
	schedule_delayed_work(&hyp_printk_work, HYP_PRINTK_LOG_PERIOD);
}

static int hyp_printk_to_log_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_bool(val, kp);

	/* Pairs with hyp_printk_init(): the work is set up once ready. */
	if (!ret && READ_ONCE(hyp_printk_to_log) && smp_load_acquire(&hyp_printk_ready))
		mod_delayed_work(system_wq, &hyp_printk_work, 0);
	return ret;
}

static const struct kernel_param_ops hyp_printk_to_log_ops = {
	.set	= hyp_printk_to_log_set,
	.get	= param_get_bool,
};
module_param_cb(hyp_printk_to_log, &hyp_printk_to_log_ops, &hyp_printk_to_log, 0644);
MODULE_PARM_DESC(hyp_printk_to_log, "Copy the hypervisor's hyp_printk messages to the kernel log");

/* Formats the build let through and hyp_printk_fmt() refuses: a bug. */
static void __init hyp_printk_check_fmts(void)
{
	const char *start = kvm_nvhe_sym(__hyp_printk_fmts_start);
	const char *end = kvm_nvhe_sym(__hyp_printk_fmts_end);
	const char *p;

	for (p = start; p < end; p += strlen(p) + 1)
		WARN(!hyp_printk_fmt(p - start), "hyp_printk: cannot print format \"%.64s\"\n", p);
}

/**
 * hyp_printk_init() - Check the formats and start the copy to the log if asked
 *
 * Called once the remote "hypervisor" is registered.
 */
void __init hyp_printk_init(void)
{
	hyp_printk_check_fmts();
	hyp_printk_logged = kcalloc(nr_cpu_ids, sizeof(*hyp_printk_logged), GFP_KERNEL);
	if (!hyp_printk_logged)
		return;
	INIT_DELAYED_WORK(&hyp_printk_work, hyp_printk_log_work);
	/* Pairs with hyp_printk_to_log_set(). */
	smp_store_release(&hyp_printk_ready, true);
	if (READ_ONCE(hyp_printk_to_log))
		schedule_delayed_work(&hyp_printk_work, 0);
}
