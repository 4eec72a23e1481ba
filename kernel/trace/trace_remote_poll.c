// SPDX-License-Identifier: GPL-2.0
/*
 * When a trace remote's meta pages are looked at: while a consumer is open,
 * often while events come, seldom when idle.
 */

#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>

#include "trace_remote_internal.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "trace_remote."

/* After a second without new events, polls are at least this far apart. */
#define TRACE_REMOTE_IDLE_POLL_MS	100

static unsigned int poll_ms = 1;

static int poll_ms_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 1000);
}

static const struct kernel_param_ops poll_ms_ops = {
	.set	= poll_ms_set,
	.get	= param_get_uint,
};
module_param_cb(poll_ms, &poll_ms_ops, &poll_ms, 0644);
MODULE_PARM_DESC(poll_ms, "Interval in ms at which open trace_pipe readers poll remotes (1-1000)");

/*
 * Events are coming: keep polling at the full rate. Readers that find
 * events before the poll does say so here.
 */
void trace_remote_busy(struct trace_remote *remote)
{
	WRITE_ONCE(remote->poll_busy, jiffies);
}

/* Events the writers committed, from the meta pages: no lock, for the timer. */
static unsigned long trace_remote_meta_entries(struct trace_remote *remote)
{
	struct trace_buffer_desc *desc = remote->trace_buffer_desc;
	struct trace_buffer_meta *meta;
	struct ring_buffer_desc *rbdesc;
	unsigned long sum = 0;
	int i;

	for_each_ring_buffer_desc(rbdesc, i, desc) {
		meta = (struct trace_buffer_meta *)rbdesc->meta_va;
		sum += READ_ONCE(meta->entries);
	}
	return sum;
}

/*
 * The time to the next poll: poll_ms while events come, and at least
 * TRACE_REMOTE_IDLE_POLL_MS after a second without any.
 */
static unsigned int trace_remote_poll_interval(struct trace_remote *remote)
{
	unsigned int ms = READ_ONCE(poll_ms);
	unsigned long busy = READ_ONCE(remote->poll_busy);

	if (!time_after(jiffies, busy + HZ))
		return ms;
	/* Idle stays idle, however long (jiffies wrap), unless marked busy. */
	cmpxchg(&remote->poll_busy, busy, jiffies - HZ - 1);
	return max(ms, TRACE_REMOTE_IDLE_POLL_MS);
}

/* A tenth of the interval of slack lets idle timers coalesce. */
static u64 trace_remote_poll_slack(unsigned int ms)
{
	return (u64)ms * NSEC_PER_MSEC / 10;
}

/*
 * A reader that found unread events the writer has not handed over yet
 * sleeps for one poll interval (or until a signal), then asks again.
 */
int trace_remote_poll_sleep(void)
{
	unsigned int ms = READ_ONCE(poll_ms);
	ktime_t t = ms_to_ktime(ms);

	set_current_state(TASK_INTERRUPTIBLE);
	schedule_hrtimeout_range(&t, trace_remote_poll_slack(ms), HRTIMER_MODE_REL);
	return signal_pending(current) ? -ERESTARTSYS : 0;
}

static void trace_remote_poll(struct work_struct *work)
{
	struct trace_remote *remote = container_of(work, struct trace_remote, poll_work);
	unsigned long entries;
	unsigned int ms;
	bool fresh;

	scoped_guard(mutex, &remote->lock) {
		/* No timer once gone: unregister cancels what was armed before. */
		if (!remote->nr_readers || !trace_remote_loaded(remote) || remote->gone)
			return;
		/*
		 * Only new writes keep the poll busy and wake readers, not
		 * unread events: the writers' counts, which readers do not move.
		 */
		entries = trace_remote_meta_entries(remote);
		fresh = entries != remote->poll_entries;
		WRITE_ONCE(remote->poll_entries, entries);
		ring_buffer_poll_remote(remote->trace_buffer, RING_BUFFER_ALL_CPUS);
		if (fresh)
			trace_remote_busy(remote);
		ms = trace_remote_poll_interval(remote);
		/* The timer may be setting its own expiry: cancel it first. */
		hrtimer_cancel(&remote->poll_timer);
		hrtimer_start_range_ns(&remote->poll_timer, ms_to_ktime(ms),
				       trace_remote_poll_slack(ms), HRTIMER_MODE_REL_SOFT);
	}
	/* Waking after the unlock is safe: a waiter checks for data first. */
	if (fresh)
		wake_up_interruptible(&remote->wait);
}

/* While nothing new is written the timer polls alone; the work handles new events. */
static enum hrtimer_restart trace_remote_poll_timer(struct hrtimer *timer)
{
	struct trace_remote *remote = container_of(timer, struct trace_remote, poll_timer);
	unsigned int ms;

	/* No reader is left: the next one to open queues the work again. */
	if (!READ_ONCE(remote->nr_readers))
		return HRTIMER_NORESTART;
	if (trace_remote_meta_entries(remote) == READ_ONCE(remote->poll_entries)) {
		ms = trace_remote_poll_interval(remote);
		hrtimer_set_expires_range_ns(timer, ktime_add_ms(hrtimer_cb_get_time(timer), ms),
					     trace_remote_poll_slack(ms));
		return HRTIMER_RESTART;
	}
	queue_work(system_wq, &remote->poll_work);
	return HRTIMER_NORESTART;
}

/* Stop polling for good: @remote is gone (set under its lock). */
void trace_remote_poll_stop(struct trace_remote *remote)
{
	/* The timer may queue the work, which no longer arms the timer. */
	hrtimer_cancel(&remote->poll_timer);
	cancel_work_sync(&remote->poll_work);
}

void trace_remote_poll_init(struct trace_remote *remote)
{
	INIT_WORK(&remote->poll_work, trace_remote_poll);
	hrtimer_init(&remote->poll_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	remote->poll_timer.function = trace_remote_poll_timer;
}
