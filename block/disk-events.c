// SPDX-License-Identifier: GPL-2.0
/*
 * Disk events: in-kernel polling of removable drives for media change and
 * eject request, reported to user space as uevents.
 *
 * A driver that can detect events sets disk->events (what it can report),
 * disk->event_flags (DISK_EVENT_FLAG_*) and fops->check_events().  This
 * file calls ->check_events(disk, clearing) from the disk's work item,
 * which the tick (below) queues when a periodic check is due and others
 * queue for a check at once, and from disk_check_media_change() in the
 * opener's context.  It tells user space about each event once: an event
 * then stays pending until an opener clears it through
 * disk_check_media_change().
 *
 * Life of a disk's events, and who moves it along:
 *
 *   allocated   disk_alloc_events() from device_add_disk(): block depth
 *               1, not on the global list, no check runs.
 *   live        disk_add_events() drops the initial block and checks at
 *               once.  While the depth is 0 the work polls at the
 *               disk's interval (below), and flushes run it at once.
 *   blocked     disk_block_events() raises the depth, and returns only
 *               when the work is neither queued nor running; it is not
 *               queued again until disk_unblock_events() brings the
 *               depth back to 0, which resumes polling.  bdev_open()
 *               blocks around every open, and keeps it blocked while an
 *               exclusive writer holds a DISK_EVENT_FLAG_BLOCK_ON_EXCL_
 *               WRITE disk, so a CD burner is not disturbed.  Opens
 *               clear events while blocked: disk_check_media_change()
 *               calls ->check_events() itself.
 *   removed     disk_del_events() blocks for good and takes the disk off
 *               the list; ->check_events() is never called again.
 *   freed       disk_release_events().
 *
 * Poll interval: a disk's own events_poll_msecs when it is 0 or more (0
 * disables); -1 means the system default block.events_dfl_poll_msecs,
 * which applies only to drivers that set DISK_EVENT_FLAG_POLL.  The
 * default starts at CONFIG_BLK_EVENTS_DFL_POLL_MSECS, 0 unless the kernel
 * is built otherwise: no polling until user space (udev) asks for it.
 * Any change of either takes effect at once: an immediate check, then
 * the new interval.
 *
 * Aligned polling: a periodic check is due at the next multiple of the
 * disk's interval on the jiffies clock, not one interval after the last
 * check.  Disks with equal intervals are thus due in the same jiffy, and
 * those whose intervals are multiples of each other meet on the longer
 * interval's ticks.  Immediate checks (when the disk is added or
 * flushed, or its interval changes) still run at once; the periodic
 * check after them, and after an unblock, is back on the grid.
 *
 * One tick: disks have no timers of their own.  A disk whose next check
 * is due records when (ev->due); one delayed work, the tick, is armed
 * for the earliest due time of all disks, and when it runs it queues the
 * work of every disk that is due.  However many drives are polled, the
 * core's own timer thus expires once per grid point; what their checks
 * cost beyond it (the drives' interrupts, the block layer's request
 * timers) is the drivers'.  The disks' work runs on disk_events_wq, an
 * unbound workqueue with at most DISK_EVENTS_MAX_ACTIVE items in flight:
 * a check sleeps on its drive, and on a per-CPU workqueue every sleeping
 * check made the pool start another worker, about one kworker per drive.
 * DISK_EVENTS_MAX_ACTIVE checks still run side by side, so a drive that
 * takes seconds to answer holds one of them and delays no other.
 *
 * Flapping drives: a drive that reports a media change at check after
 * check (a faulty reader, a loose medium) would flood user space, for each
 * uevent makes udev open the disk, the open's check finds a change again,
 * and so on.  Only a disk that sends uevents can start that loop, so the
 * others are never damped: an empty floppy drive reports a change at every
 * open.  Flapping is told from a person changing media by time, not by
 * checks or poll intervals, so that the rule means the same at every
 * interval.  A disk is flapping when its changes come
 *   - faster than hands can swap media: DISK_EVENTS_FLAP_QUICK in a row,
 *     each found less than DISK_EVENTS_FLAP_QUICK_MS after the one before
 *     (udev's opens finding change after change), or
 *   - for longer than a person keeps at it: none more than
 *     DISK_EVENTS_FLAP_GAP_MS after the one before, for
 *     DISK_EVENTS_FLAP_RUN_MS (a drive found changed at every poll).
 * So a person swapping a disc every 2 s for a minute, or a card a minute
 * for ever, is never damped, at any interval.  An open that finds again
 * the change it was told of (sr does) finds no change here.  The damping
 * level then rises by one, up to DISK_EVENTS_DAMP_MAX, and again at each
 * further such run, counted afresh from the rise.  A damped disk's period
 * is its interval, or DISK_EVENTS_DAMP_MIN_MS if longer (or unpolled),
 * times 2^L at level L, and at most DISK_EVENTS_MAX_MSECS: the disk is
 * polled at that period, and sends at most one media change uevent per
 * period.  A change found sooner is held back, and its uevent sent by the
 * first check a period after the last one sent, for which the work is
 * queued even if the disk is not polled; an opener that clears the change
 * meanwhile has learned of it, and it is dropped.  Eject requests are never
 * held.  A change still becomes pending at once, so an opener's
 * disk_check_media_change() stays exact: a stale page cache is worse than
 * noise.  The damping ends a period after the last change found; an
 * unpolled disk, which nothing checks, notices it at its next check or
 * debugfs read.  Entering it is counted, entering and leaving are logged
 * (ratelimited), and every level change is traced.  Times are jiffies_64,
 * which never wrap.
 *
 * Locking:
 *   disk_events_mutex   the list of all live disk_events (for default
 *                       changes and the tick); taken in process context
 *                       only.
 *   ev->check_mutex     serialises ->check_events() calls of one disk
 *                       and guards ev->removed.  Taken by the work and by
 *                       disk_check_media_change(); held across the
 *                       driver call, so nothing else may wait for the
 *                       work while holding it.
 *   ev->lock            (irq-safe spinlock) guards block, pending,
 *                       clearing, poll_msecs, due, the flapping state
 *                       and stats, and the decision to queue the work.
 *                       disk_unblock_events() may be called from any
 *                       context.
 *   disk_events_tick_lock (irq-safe spinlock, nests inside ev->lock)
 *                       guards the time the tick is armed for.
 *   q->debugfs_mutex    the disk's debugfs file, as for the queue's own.
 *
 * Observability: tracepoints disk_events:* (include/trace/events/
 * disk_events.h) for every check, uevent, block and unblock, and per-disk
 * counters in debugfs, block/<disk>/disk_events.
 *
 * disk_events_wq is freezable: no check runs while tasks are frozen for
 * suspend.  Being unbound, it lets the scheduler run a check on a CPU
 * that is awake.
 */
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include "blk.h"

#define CREATE_TRACE_POINTS
#include <trace/events/disk_events.h>

/* The events this file knows, as indexes into disk_event_names[]. */
#define DISK_EVENTS_NR		2

/*
 * The longest interval: msecs_to_jiffies() converts up to INT_MAX ms, and
 * gives MAX_JIFFY_OFFSET above it.  A delay that long still compares right
 * with time_before() on 32-bit at HZ=1000.
 */
#define DISK_EVENTS_MAX_MSECS		INT_MAX

/*
 * Flapping drives (see above).  A person in a hurry swaps a disc about
 * every 2 s, an eject and an insert at least a second apart, for a
 * minute at most.
 */
#define DISK_EVENTS_FLAP_QUICK		4	/* quick changes in a row */
#define DISK_EVENTS_FLAP_QUICK_MS	1000	/* ... each sooner than this */
#define DISK_EVENTS_FLAP_GAP_MS		10000	/* a run's longest pause */
#define DISK_EVENTS_FLAP_RUN_MS		120000	/* a run this long: flapping */
#define DISK_EVENTS_DAMP_MAX		3	/* the period at most x8 */
#define DISK_EVENTS_DAMP_MIN_MS		1000UL	/* least interval to double */

/*
 * Checks in flight at once, on all disks (see "One tick").  Enough that
 * slow drives leave room for the others; few enough that polling 256
 * drives adds about a dozen workers, not one per drive.
 */
#define DISK_EVENTS_MAX_ACTIVE		8

/* What debugfs shows of a disk's checks; guarded by disk_events->lock. */
struct disk_events_stats {
	u64			checks;		/* ->check_events() calls */
	u64			found[DISK_EVENTS_NR]; /* by event, as answered */
	u64			uevents;	/* uevents sent */
	u64			flapping;	/* times found flapping */
	u64			held;		/* media changes whose uevent waited */
	ktime_t			last_check;	/* when the last one started */
	ktime_t			last_duration;	/* and how long it took */
	ktime_t			blocked;	/* total, up to blocked_since */
	ktime_t			blocked_since;	/* when block left 0 */
};

/*
 * A disk's events.  Each field is tagged with what guards it:
 *
 * I: set before the disk is added, then read-only.
 * M: disk_events_mutex.
 * C: check_mutex.
 * L: lock.  sysfs reads poll_msecs without it, with READ_ONCE().
 * D: q->debugfs_mutex of the disk's queue.
 * W: the workqueue API's own.
 */
struct disk_events {
	struct list_head	node;		/* M: on disk_events_list */
	struct gendisk		*disk;		/* I */

	struct mutex		check_mutex;	/* serialises ->check_events() */
	bool			removed;	/* C: no more checks */

	spinlock_t		lock;		/* guards the fields tagged L */
	int			block;		/* L: block depth */
	unsigned int		pending;	/* L: reported, not cleared */
	unsigned int		clearing;	/* L: to clear at next check */
	long			poll_msecs;	/* L: own interval, -1: default */
	/* Flapping drives (see above); times in jiffies_64. */
	unsigned int		quick;		/* L: quick changes in a row */
	unsigned int		damp;		/* L: damping level, 0: none */
	unsigned int		held;		/* L: changes whose uevent waits */
	u64			last_change;	/* L: when the last was found */
	u64			run_start;	/* L: the first of the run */
	u64			next_uevent;	/* L: held ones may go from then */
	struct disk_events_stats stats;		/* L */

	bool			due_set;	/* L: a periodic check is due ... */
	unsigned long		due;		/* L: ... at this jiffy */

	struct work_struct	work;		/* W: runs one check */
	struct dentry		*debugfs;	/* D */
};

/* Names in sysfs "events" and uevent variables, by event bit. */
static const struct {
	unsigned int	event;
	const char	*name;
	char		*uevent;
} disk_event_names[DISK_EVENTS_NR] = {
	{ DISK_EVENT_MEDIA_CHANGE,  "media_change",  "DISK_MEDIA_CHANGE=1" },
	{ DISK_EVENT_EJECT_REQUEST, "eject_request", "DISK_EJECT_REQUEST=1" },
};

static DEFINE_MUTEX(disk_events_mutex);
static LIST_HEAD(disk_events_list);

static struct workqueue_struct *disk_events_wq;

static void disk_events_tick_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(disk_events_tick, disk_events_tick_fn);
static DEFINE_SPINLOCK(disk_events_tick_lock);
static bool disk_events_tick_armed;		/* tick_lock: for ... */
static unsigned long disk_events_tick_due;	/* ... this jiffy */

/*
 * block.events_dfl_poll_msecs.  Built in as 0 (no polling until user space
 * sets it) unless a kernel that boots without udev's rule asks otherwise.
 */
static unsigned long disk_events_dfl_poll_msecs =
	CONFIG_BLK_EVENTS_DFL_POLL_MSECS;

/**
 * disk_events_poll_msecs - the disk's effective poll interval
 * @ev: the disk's events
 * @source: if not NULL, set to where the interval comes from: "own",
 *	    "default" or "unpolled" (for debugfs)
 *
 * Return: the interval in milliseconds, 0 if the disk is not polled.
 * Called with @ev->lock held.
 */
static unsigned long disk_events_poll_msecs(struct disk_events *ev,
					    const char **source)
{
	const char *from = "unpolled";
	unsigned long msecs = 0;

	lockdep_assert_held(&ev->lock);
	if (ev->poll_msecs >= 0) {
		from = "own";
		msecs = ev->poll_msecs;
	} else if (ev->disk->event_flags & DISK_EVENT_FLAG_POLL) {
		from = "default";
		msecs = READ_ONCE(disk_events_dfl_poll_msecs);
	}
	if (source)
		*source = from;
	return msecs;
}

/**
 * disk_events_period - the disk's period in jiffies, damping included
 * @ev: the disk's events
 * @interval: its poll interval in ms, 0 if unpolled
 *
 * Return: @interval while the disk is not damped (0 if unpolled); else
 * @interval, or DISK_EVENTS_DAMP_MIN_MS if longer, doubled per damping
 * level, and at most DISK_EVENTS_MAX_MSECS.  Called with @ev->lock held.
 */
static unsigned long disk_events_period(struct disk_events *ev,
					unsigned long interval)
{
	u64 period;

	lockdep_assert_held(&ev->lock);
	if (!ev->damp)
		return msecs_to_jiffies(interval);
	period = msecs_to_jiffies(max(interval, DISK_EVENTS_DAMP_MIN_MS));
	return min_t(u64, period << ev->damp,
		     msecs_to_jiffies(DISK_EVENTS_MAX_MSECS));
}

/* The period in ms, for debugfs, the trace and the log. */
static unsigned long disk_events_period_msecs(struct disk_events *ev,
					      unsigned long interval)
{
	if (!ev->damp)
		return interval;
	return jiffies_to_msecs(disk_events_period(ev, interval));
}

/**
 * disk_events_delay_to_grid - delay until the next periodic check is due
 * @interval: the poll interval in jiffies, not 0
 *
 * Periodic checks fall on multiples of @interval on the jiffies clock,
 * so that every disk polled at the same interval shares one wake-up (see
 * "Aligned polling" above).
 *
 * Return: the delay in jiffies, from 1 to @interval.
 */
static unsigned long disk_events_delay_to_grid(unsigned long interval)
{
	return interval - jiffies % interval;
}

/*
 * Arm the tick for @due, unless it is armed for that jiffy or earlier:
 * a tick that comes early finds nothing due and arms itself again.
 */
static void disk_events_arm_tick(unsigned long due)
{
	unsigned long flags;
	long delay;

	spin_lock_irqsave(&disk_events_tick_lock, flags);
	if (!disk_events_tick_armed ||
	    time_before(due, disk_events_tick_due)) {
		disk_events_tick_armed = true;
		disk_events_tick_due = due;
		delay = max(0L, (long)(due - jiffies));
		mod_delayed_work(disk_events_wq, &disk_events_tick, delay);
	}
	spin_unlock_irqrestore(&disk_events_tick_lock, flags);
}

/*
 * Queue the next check: at once if @now, else record it as due at the
 * next grid point of the disk's period if it is polled, or when held
 * uevents may go, for the tick to queue.  Never while blocked.  Called
 * with @ev->lock held.
 */
static void disk_events_schedule(struct disk_events *ev, bool now)
{
	unsigned long msecs, delay = 0;
	s64 left;

	lockdep_assert_held(&ev->lock);
	ev->due_set = false;
	if (ev->block)
		return;
	if (now) {
		queue_work(disk_events_wq, &ev->work);
		return;
	}
	msecs = disk_events_poll_msecs(ev, NULL);
	if (msecs)
		delay = disk_events_delay_to_grid(disk_events_period(ev, msecs));
	if (ev->held) {
		left = max_t(s64, 1, ev->next_uevent - get_jiffies_64());
		if (!delay || left < delay)
			delay = left;
	}
	if (!delay)
		return;
	ev->due_set = true;
	ev->due = jiffies + delay;
	disk_events_arm_tick(ev->due);
}

/*
 * Queue @ev's check if it is due by @now, else bring *@next forward to
 * its due time.  Return: whether it is due later.
 */
static bool disk_events_queue_if_due(struct disk_events *ev,
				     unsigned long now, unsigned long *next)
{
	bool later = false;

	spin_lock_irq(&ev->lock);
	if (ev->due_set && !ev->block) {
		later = time_after(ev->due, now);
		if (!later) {
			ev->due_set = false;
			queue_work(disk_events_wq, &ev->work);
		} else if (time_before(ev->due, *next)) {
			*next = ev->due;
		}
	}
	spin_unlock_irq(&ev->lock);
	return later;
}

/*
 * The tick: queue the check of every disk that is due, then arm again
 * for the earliest of the others.  Disarmed first, so a disk that
 * becomes due meanwhile arms it itself.
 */
static void disk_events_tick_fn(struct work_struct *work)
{
	unsigned long now = jiffies, next = now + MAX_JIFFY_OFFSET;
	struct disk_events *ev;
	bool later = false;

	spin_lock_irq(&disk_events_tick_lock);
	disk_events_tick_armed = false;
	spin_unlock_irq(&disk_events_tick_lock);

	mutex_lock(&disk_events_mutex);
	list_for_each_entry(ev, &disk_events_list, node)
		later |= disk_events_queue_if_due(ev, now, &next);
	mutex_unlock(&disk_events_mutex);

	if (later)
		disk_events_arm_tick(next);
}

/*
 * Tell user space about @events: one KOBJ_CHANGE uevent naming each event
 * the disk declares in disk->events.  Only a uevent that was sent is
 * traced and counted: none while the device's uevents are suppressed
 * (add_disk() does so during its partition scan), when kobject_uevent_env()
 * quietly drops them.
 */
static void disk_events_send_uevent(struct gendisk *disk, unsigned int events)
{
	char *envp[ARRAY_SIZE(disk_event_names) + 1] = { };
	struct device *dev = disk_to_dev(disk);
	struct disk_events *ev = disk->ev;
	int i, n = 0;

	events &= disk->events;
	for (i = 0; i < ARRAY_SIZE(disk_event_names); i++)
		if (events & disk_event_names[i].event)
			envp[n++] = disk_event_names[i].uevent;
	if (!n)
		return;

	if (kobject_uevent_env(&dev->kobj, KOBJ_CHANGE, envp) ||
	    dev_get_uevent_suppress(dev))
		return;
	trace_disk_events_uevent(disk, events, disk->diskseq);
	if (ev) {
		spin_lock_irq(&ev->lock);
		ev->stats.uevents++;
		spin_unlock_irq(&ev->lock);
	}
}

/*
 * Report @fresh events, those that were not pending yet, with uevents
 * for @told of them and of those held back before.  A media change gets
 * a new disk sequence number first, so the uevent carries the new one.
 */
static void disk_events_report(struct gendisk *disk, unsigned int fresh,
			       unsigned int told)
{
	if (fresh & DISK_EVENT_MEDIA_CHANGE)
		inc_diskseq(disk);
	if (told && (disk->event_flags & DISK_EVENT_FLAG_UEVENT))
		disk_events_send_uevent(disk, told);
}

/**
 * disk_events_calm - end the damping after a period without changes
 * @ev: the disk's events
 * @now: the time, in jiffies_64
 * @interval: the disk's poll interval in ms, 0 if unpolled
 *
 * Called with @ev->lock held.
 * Return: whether the damping ended.
 */
static bool disk_events_calm(struct disk_events *ev, u64 now,
			     unsigned long interval)
{
	if (!ev->damp || time_before64(now, ev->last_change +
				       disk_events_period(ev, interval)))
		return false;
	ev->damp = 0;
	return true;
}

/**
 * disk_events_flap_run - count a media change found at @now
 * @ev: the disk's events
 * @now: the time, in jiffies_64
 *
 * Extends the run of quick changes and the run of changes that keep
 * coming, or starts them again (see "Flapping drives").  Both start
 * again, from the next change, after a run that makes the disk flapping.
 * Called with @ev->lock held.
 *
 * Return: whether the disk is flapping.
 */
static bool disk_events_flap_run(struct disk_events *ev, u64 now)
{
	u64 gap = now - ev->last_change;

	if (!ev->quick || gap > msecs_to_jiffies(DISK_EVENTS_FLAP_GAP_MS))
		ev->run_start = now;
	if (ev->quick && gap < msecs_to_jiffies(DISK_EVENTS_FLAP_QUICK_MS))
		ev->quick++;
	else
		ev->quick = 1;
	ev->last_change = now;
	if (ev->quick < DISK_EVENTS_FLAP_QUICK &&
	    now - ev->run_start < msecs_to_jiffies(DISK_EVENTS_FLAP_RUN_MS))
		return false;
	ev->quick = 0;
	return true;
}

/**
 * disk_events_note_change - count a check for or against flapping
 * @ev: the disk's events
 * @changed: the check found a media change
 * @now: when, in jiffies_64
 * @interval: the disk's poll interval in ms, 0 if unpolled
 *
 * Ends the damping if no change was found for a period, then counts a
 * change and raises the damping by one level (up to DISK_EVENTS_DAMP_MAX)
 * if it makes the disk flapping.  The change that does so is told at
 * once; at most one per period is from then on.
 * Called with @ev->lock held.
 */
static void disk_events_note_change(struct disk_events *ev, bool changed,
				    u64 now, unsigned long interval)
{
	disk_events_calm(ev, now, interval);
	if (!changed || !disk_events_flap_run(ev, now))
		return;
	if (ev->damp == DISK_EVENTS_DAMP_MAX)
		return;
	if (!ev->damp) {
		ev->stats.flapping++;
		ev->next_uevent = now;
	}
	ev->damp++;
}

/*
 * Whether a check that was to clear @clearing, and found @found of which
 * @fresh were not pending, found again the media change that is pending:
 * an opener's check after a poll told of it.  sr finds a change so twice,
 * by the poll's GET EVENT STATUS NOTIFICATION and by the open's TEST UNIT
 * READY, which gets the drive's unit attention for the same change.  Such
 * a check finds no change for flapping: else each change a poll told of
 * would be two, a moment apart, as quick as a flapping drive's.
 */
static bool disk_events_echo(unsigned int clearing, unsigned int found,
			     unsigned int fresh)
{
	return clearing & found & ~fresh & DISK_EVENT_MEDIA_CHANGE;
}

/**
 * disk_events_admit - which events to send uevents for now
 * @ev: the disk's events
 * @fresh: the events a check found that were not pending
 * @now: the time, in jiffies_64
 * @interval: the disk's poll interval in ms, 0 if unpolled
 *
 * Undamped, all of @fresh, and any media change held back before.
 * Damped, a media change (fresh or held) goes only a period or more after
 * the last one sent (see "Flapping drives"), and is held till then.
 * Called with @ev->lock held.
 *
 * Return: the events to name in a uevent.
 */
static unsigned int disk_events_admit(struct disk_events *ev,
				      unsigned int fresh, u64 now,
				      unsigned long interval)
{
	unsigned int change = (fresh | ev->held) & DISK_EVENT_MEDIA_CHANGE;

	if (ev->damp && change && time_before64(now, ev->next_uevent)) {
		if (fresh & DISK_EVENT_MEDIA_CHANGE)
			ev->stats.held++;
		ev->held = change;
		return fresh & ~DISK_EVENT_MEDIA_CHANGE;
	}
	if (ev->damp && change)
		ev->next_uevent = now + disk_events_period(ev, interval);
	ev->held = 0;
	return fresh | change;
}

/*
 * Say that @disk's damping went from @from to @to: a trace event always,
 * a ratelimited message when it starts and when it ends.
 */
static void disk_events_damping_changed(struct gendisk *disk,
					unsigned int from, unsigned int to,
					unsigned long period_ms)
{
	trace_disk_events_damp(disk, to, period_ms);
	if (!from)
		pr_warn_ratelimited("%s: media changes keep coming, a faulty drive or medium? At most one uevent per %lu ms until they stop\n",
				    disk->disk_name, period_ms);
	else if (!to)
		pr_info_ratelimited("%s: media changes calmed down, uevents back to normal\n",
				    disk->disk_name);
}

/* Account one check that started at @start, took @took and found @found. */
static void disk_events_count_check(struct disk_events_stats *st,
				    ktime_t start, ktime_t took,
				    unsigned int found)
{
	int i;

	st->checks++;
	st->last_check = start;
	st->last_duration = took;
	for (i = 0; i < ARRAY_SIZE(disk_event_names); i++)
		if (found & disk_event_names[i].event)
			st->found[i]++;
}

/**
 * disk_events_check - ask the driver for events and report new ones
 * @ev: the disk's events
 * @clear: events the caller wants the driver to clear, on top of those
 *	   disk_flush_events() asked for
 *
 * Calls ->check_events() once, unless the disk was removed.  Bits the
 * driver returns outside disk->events are ignored.  Events found that
 * were not pending become pending and are reported, unless damping
 * holds back their uevent.
 *
 * Context: process context, may sleep.
 */
static void disk_events_check(struct disk_events *ev, unsigned int clear)
{
	struct gendisk *disk = ev->disk;
	unsigned int clearing, found, fresh, told, damp_was, damp;
	unsigned long interval, period_ms;
	ktime_t start, took;
	u64 now;

	mutex_lock(&ev->check_mutex);
	if (ev->removed) {
		mutex_unlock(&ev->check_mutex);
		return;
	}

	spin_lock_irq(&ev->lock);
	clearing = ev->clearing | clear;
	ev->clearing = 0;
	spin_unlock_irq(&ev->lock);

	start = ktime_get();
	found = disk->fops->check_events(disk, clearing) & disk->events;
	took = ktime_sub(ktime_get(), start);
	trace_disk_events_check(disk, clearing, found, ktime_to_ns(took));

	now = get_jiffies_64();
	spin_lock_irq(&ev->lock);
	fresh = found & ~ev->pending;
	ev->pending |= fresh;
	disk_events_count_check(&ev->stats, start, took, found);
	interval = disk_events_poll_msecs(ev, NULL);
	damp_was = ev->damp;
	if (disk->event_flags & DISK_EVENT_FLAG_UEVENT)
		disk_events_note_change(ev, found & DISK_EVENT_MEDIA_CHANGE &&
					!disk_events_echo(clearing, found, fresh),
					now, interval);
	damp = ev->damp;
	period_ms = disk_events_period_msecs(ev, interval);
	told = disk_events_admit(ev, fresh, now, interval);
	spin_unlock_irq(&ev->lock);
	mutex_unlock(&ev->check_mutex);

	if (damp != damp_was)
		disk_events_damping_changed(disk, damp_was, damp, period_ms);
	disk_events_report(disk, fresh, told);
}

/* The periodic and flushed check: check, then queue the next one. */
static void disk_events_workfn(struct work_struct *work)
{
	struct disk_events *ev = container_of(work, struct disk_events, work);

	disk_events_check(ev, 0);

	spin_lock_irq(&ev->lock);
	disk_events_schedule(ev, false);
	spin_unlock_irq(&ev->lock);
}

/**
 * disk_block_events - stop event checking and wait for a running check
 * @disk: the disk
 *
 * On return no check from the work is queued or running, and none starts
 * until the matching disk_unblock_events().  Blocks nest: the depth is
 * counted.  disk_check_media_change() still checks while blocked.
 *
 * Context: process context, may sleep.  Must not be called with
 * ev->check_mutex held.
 */
void disk_block_events(struct gendisk *disk)
{
	struct disk_events *ev = disk->ev;
	unsigned long flags;
	int depth;

	if (!ev)
		return;

	spin_lock_irqsave(&ev->lock, flags);
	depth = ++ev->block;
	if (depth == 1)
		ev->stats.blocked_since = ktime_get();
	spin_unlock_irqrestore(&ev->lock, flags);
	trace_disk_events_block(disk, depth);

	/*
	 * Every blocker waits, not just the first, so none returns while a
	 * check that started before the first block is still running.
	 * Neither the work nor the tick queues it again: both look at the
	 * depth first.
	 */
	cancel_work_sync(&ev->work);
}

/* Drop one block; the last one checks at once if @check_now. */
static void disk_events_unblock(struct disk_events *ev, bool check_now)
{
	unsigned long flags;
	int depth;

	spin_lock_irqsave(&ev->lock, flags);
	if (WARN_ON_ONCE(ev->block <= 0)) {
		spin_unlock_irqrestore(&ev->lock, flags);
		return;
	}
	depth = --ev->block;
	if (!depth) {
		ev->stats.blocked = ktime_add(ev->stats.blocked,
					      ktime_sub(ktime_get(),
							ev->stats.blocked_since));
		disk_events_schedule(ev, check_now);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
	trace_disk_events_unblock(ev->disk, depth);
}

/**
 * disk_unblock_events - undo one disk_block_events()
 * @disk: the disk
 *
 * When the depth drops to 0, polling resumes: the next check is due at
 * the next grid point of the disk's interval (see "Aligned polling"),
 * not at once.
 *
 * Context: any context.
 */
void disk_unblock_events(struct gendisk *disk)
{
	if (disk->ev)
		disk_events_unblock(disk->ev, false);
}

/**
 * disk_flush_events - check for events at once, clearing some
 * @disk: the disk
 * @mask: events the driver is to clear at that check
 *
 * Queues an immediate check unless events are blocked, and hands @mask
 * to the driver as part of its next @clearing argument, whichever check
 * comes first.  Events pending in the core are not cleared.
 *
 * Context: process context; with @disk->open_mutex held if @mask is not 0.
 */
void disk_flush_events(struct gendisk *disk, unsigned int mask)
{
	struct disk_events *ev = disk->ev;

	if (!ev)
		return;

	spin_lock_irq(&ev->lock);
	ev->clearing |= mask;
	disk_events_schedule(ev, true);
	spin_unlock_irq(&ev->lock);
}

/*
 * Check the driver now, clearing @mask there, then take the events of
 * @mask out of pending and return them.  Runs while blocked, so the work
 * cannot interleave.
 */
static unsigned int disk_events_clear(struct disk_events *ev, unsigned int mask)
{
	unsigned int cleared;
	bool flushed;

	disk_block_events(ev->disk);
	disk_events_check(ev, mask);

	spin_lock_irq(&ev->lock);
	cleared = ev->pending & mask;
	ev->pending &= ~mask;
	/* The opener learned of a held change: no uevent for it now. */
	ev->held &= ~mask;
	/* A disk_flush_events() while we were blocked still wants its check. */
	flushed = ev->clearing;
	spin_unlock_irq(&ev->lock);

	disk_events_unblock(ev, flushed);
	return cleared;
}

/**
 * disk_check_media_change - check whether the medium was changed
 * @disk: the disk
 *
 * Checks the drive at once, then clears the pending media change and
 * eject request events, so user space hears of the next ones.  Drivers
 * call this from ->open().  On a media change the disk is marked for a
 * partition rescan.
 *
 * Context: process context, may sleep.
 * Return: %true if the medium changed since the events were last
 * cleared, %false otherwise.
 */
bool disk_check_media_change(struct gendisk *disk)
{
	unsigned int cleared;

	if (!disk->ev)
		return false;

	cleared = disk_events_clear(disk->ev, DISK_EVENT_MEDIA_CHANGE |
				    DISK_EVENT_EJECT_REQUEST);
	if (!(cleared & DISK_EVENT_MEDIA_CHANGE))
		return false;
	set_bit(GD_NEED_PART_SCAN, &disk->state);
	return true;
}
EXPORT_SYMBOL(disk_check_media_change);

/**
 * disk_force_media_change - report a media change the driver made itself
 * @disk: the disk
 *
 * For drivers that know the medium changed (loop, nbd, floppy on a
 * format change): sends the media change uevent if the disk declares
 * that event, then gives the disk a new sequence number, and invalidates
 * the whole device's page cache, dentries and inodes.  The uevent thus
 * carries the sequence number of the medium that went away, as it always
 * has here (a polled change, in disk_events_report(), carries the new
 * one).  Callers that need a partition rescan arrange for it themselves.
 *
 * Context: process context, may sleep.
 */
void disk_force_media_change(struct gendisk *disk)
{
	disk_events_send_uevent(disk, DISK_EVENT_MEDIA_CHANGE);
	inc_diskseq(disk);
	bdev_mark_dead(disk->part0, true);
}
EXPORT_SYMBOL_GPL(disk_force_media_change);

/*
 * sysfs, in /sys/block/<disk>/:
 *   events             the events the disk reports to user space
 *   events_async       events it reports without polling: none, kept for
 *                      compatibility
 *   events_poll_msecs  the disk's own poll interval; 0 disables, -1
 *                      follows block.events_dfl_poll_msecs
 */
static ssize_t events_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gendisk *disk = dev_to_disk(dev);
	ssize_t len = 0;
	int i;

	if (!(disk->event_flags & DISK_EVENT_FLAG_UEVENT))
		return 0;
	for (i = 0; i < ARRAY_SIZE(disk_event_names); i++)
		if (disk->events & disk_event_names[i].event)
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     disk_event_names[i].name);
	if (len)
		len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t events_async_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return 0;
}

static ssize_t events_poll_msecs_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct disk_events *ev = dev_to_disk(dev)->ev;

	return sysfs_emit(buf, "%ld\n", ev ? READ_ONCE(ev->poll_msecs) : -1L);
}

/*
 * Poll intervals reach msecs_to_jiffies(), which converts at most
 * DISK_EVENTS_MAX_MSECS: a larger value would be no interval at all, or
 * truncated into some other one, so it is refused instead.
 */
static int disk_events_check_range(unsigned long msecs)
{
	return msecs > DISK_EVENTS_MAX_MSECS ? -ERANGE : 0;
}

/*
 * Takes a decimal number as kstrtol() reads it: -1 (follow the default),
 * 0 (no polling) or a positive interval in milliseconds.
 */
static ssize_t events_poll_msecs_store(struct device *dev,
				       struct device_attribute *attr,
				       const char *buf, size_t count)
{
	struct gendisk *disk = dev_to_disk(dev);
	long msecs;
	int ret;

	ret = kstrtol(buf, 10, &msecs);
	if (ret)
		return ret;
	if (msecs < -1)
		return -EINVAL;
	if (msecs > 0) {
		ret = disk_events_check_range(msecs);
		if (ret)
			return ret;
	}
	if (!disk->ev)
		return -ENODEV;

	disk_block_events(disk);
	spin_lock_irq(&disk->ev->lock);
	WRITE_ONCE(disk->ev->poll_msecs, msecs);
	spin_unlock_irq(&disk->ev->lock);
	disk_events_unblock(disk->ev, true);
	return count;
}

DEVICE_ATTR_RO(events);
DEVICE_ATTR_RO(events_async);
DEVICE_ATTR_RW(events_poll_msecs);

/*
 * block.events_dfl_poll_msecs, on the command line or in
 * /sys/module/block/parameters/: the interval of disks whose own is -1.
 * It reads as every unsigned long parameter does (kstrtoul(), base 0).
 * A change rechecks every disk at once, so each picks up its new interval.
 */
static int disk_events_set_dfl_poll_msecs(const char *val,
					  const struct kernel_param *kp)
{
	struct disk_events *ev;
	unsigned long msecs;
	int ret;

	ret = kstrtoul(val, 0, &msecs);
	if (!ret)
		ret = disk_events_check_range(msecs);
	if (ret)
		return ret;
	WRITE_ONCE(*(unsigned long *)kp->arg, msecs);

	mutex_lock(&disk_events_mutex);
	list_for_each_entry(ev, &disk_events_list, node)
		disk_flush_events(ev->disk, 0);
	mutex_unlock(&disk_events_mutex);
	return 0;
}

static const struct kernel_param_ops disk_events_dfl_poll_msecs_ops = {
	.set	= disk_events_set_dfl_poll_msecs,
	.get	= param_get_ulong,
};

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX	"block."

module_param_cb(events_dfl_poll_msecs, &disk_events_dfl_poll_msecs_ops,
		&disk_events_dfl_poll_msecs, 0644);

/* Before any driver adds a disk: drivers register at device_initcall. */
static int __init disk_events_init(void)
{
	disk_events_wq = alloc_workqueue("disk_events",
					 WQ_UNBOUND | WQ_FREEZABLE,
					 DISK_EVENTS_MAX_ACTIVE);
	if (!disk_events_wq)
		panic("Failed to create disk_events workqueue\n");
	return 0;
}
subsys_initcall(disk_events_init);

/*
 * debugfs, block/<disk>/disk_events: what the core did for the disk, one
 * "name: value" line each.  Times are in CLOCK_MONOTONIC milliseconds;
 * durations in microseconds, blocked time in milliseconds;
 * damp_period_ms is 0 while the disk is not damped.
 */
static void disk_events_show_mask(struct seq_file *m, const char *name,
				  unsigned int events)
{
	int i;

	seq_printf(m, "%s:", name);
	for (i = 0; i < ARRAY_SIZE(disk_event_names); i++)
		if (events & disk_event_names[i].event)
			seq_printf(m, " %s", disk_event_names[i].name);
	seq_puts(m, events ? "\n" : " none\n");
}

static int disk_events_stats_show(struct seq_file *m, void *unused)
{
	struct disk_events *ev = m->private;
	struct disk_events_stats st;
	unsigned long poll_msecs, damp_ms = 0;
	unsigned int pending, damp;
	unsigned int damp_was;
	const char *source;
	bool calmed;
	int block, i;

	spin_lock_irq(&ev->lock);
	st = ev->stats;
	pending = ev->pending;
	block = ev->block;
	poll_msecs = disk_events_poll_msecs(ev, &source);
	damp_was = ev->damp;
	calmed = disk_events_calm(ev, get_jiffies_64(), poll_msecs);
	damp = ev->damp;
	if (damp)
		damp_ms = disk_events_period_msecs(ev, poll_msecs);
	spin_unlock_irq(&ev->lock);
	if (calmed)
		disk_events_damping_changed(ev->disk, damp_was, 0, poll_msecs);
	if (block)
		st.blocked = ktime_add(st.blocked,
				       ktime_sub(ktime_get(), st.blocked_since));

	disk_events_show_mask(m, "pending", pending);
	seq_printf(m, "checks: %llu\n", st.checks);
	for (i = 0; i < ARRAY_SIZE(disk_event_names); i++)
		seq_printf(m, "found_%s: %llu\n", disk_event_names[i].name,
			   st.found[i]);
	seq_printf(m, "uevents: %llu\n", st.uevents);
	seq_printf(m, "flapping: %llu\n", st.flapping);
	seq_printf(m, "uevents_held: %llu\n", st.held);
	seq_printf(m, "last_check_ms: %lld\n", ktime_to_ms(st.last_check));
	seq_printf(m, "last_check_us: %lld\n", ktime_to_us(st.last_duration));
	seq_printf(m, "blocked_ms: %lld\n", ktime_to_ms(st.blocked));
	seq_printf(m, "block_depth: %d\n", block);
	seq_printf(m, "poll_msecs: %lu\n", poll_msecs);
	seq_printf(m, "poll_source: %s\n", source);
	seq_printf(m, "damp_level: %u\n", damp);
	seq_printf(m, "damp_period_ms: %lu\n", damp_ms);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(disk_events_stats);

static void disk_events_debugfs_add(struct disk_events *ev)
{
	struct request_queue *q = ev->disk->queue;

	mutex_lock(&q->debugfs_mutex);
	if (!IS_ERR_OR_NULL(q->debugfs_dir))
		ev->debugfs = debugfs_create_file("disk_events", 0400,
						  q->debugfs_dir, ev,
						  &disk_events_stats_fops);
	mutex_unlock(&q->debugfs_mutex);
}

/* Waits for readers of the file: @ev outlives none of them. */
static void disk_events_debugfs_remove(struct disk_events *ev)
{
	struct request_queue *q = ev->disk->queue;

	mutex_lock(&q->debugfs_mutex);
	debugfs_remove(ev->debugfs);
	ev->debugfs = NULL;
	mutex_unlock(&q->debugfs_mutex);
}

/**
 * disk_alloc_events - set up a disk's events, blocked
 * @disk: the disk being added
 *
 * Does nothing for a disk whose driver cannot check events.
 *
 * Context: process context, from device_add_disk().
 * Return: 0 or -ENOMEM.
 */
int disk_alloc_events(struct gendisk *disk)
{
	struct disk_events *ev;

	if (!disk->fops->check_events || !disk->events)
		return 0;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;

	INIT_LIST_HEAD(&ev->node);
	ev->disk = disk;
	mutex_init(&ev->check_mutex);
	spin_lock_init(&ev->lock);
	ev->block = 1;			/* until disk_add_events() */
	ev->stats.blocked_since = ktime_get();
	ev->poll_msecs = -1;
	INIT_WORK(&ev->work, disk_events_workfn);

	disk->ev = ev;
	return 0;
}

/**
 * disk_add_events - start checking a disk's events
 * @disk: the disk, now visible
 *
 * Puts the disk on the list that default changes walk, adds its debugfs
 * file, drops the block disk_alloc_events() left, and checks at once.
 *
 * Context: process context, after blk_register_queue().
 */
void disk_add_events(struct gendisk *disk)
{
	if (!disk->ev)
		return;

	disk_events_debugfs_add(disk->ev);
	mutex_lock(&disk_events_mutex);
	list_add_tail(&disk->ev->node, &disk_events_list);
	mutex_unlock(&disk_events_mutex);

	disk_events_unblock(disk->ev, true);
}

/**
 * disk_del_events - stop checking a disk's events for good
 * @disk: the disk being deleted
 *
 * On return no check runs and none will: not from the work, and not from
 * disk_check_media_change().  Removes the debugfs file.
 *
 * Context: process context, may sleep; before blk_unregister_queue(),
 * which removes the directory of that file.
 */
void disk_del_events(struct gendisk *disk)
{
	struct disk_events *ev = disk->ev;

	if (!ev)
		return;

	disk_block_events(disk);

	mutex_lock(&ev->check_mutex);
	ev->removed = true;
	mutex_unlock(&ev->check_mutex);

	mutex_lock(&disk_events_mutex);
	list_del_init(&ev->node);
	mutex_unlock(&disk_events_mutex);
	disk_events_debugfs_remove(ev);
}

/**
 * disk_release_events - free a disk's events
 * @disk: the disk being released
 *
 * Context: process context, after disk_del_events() if the disk was added.
 */
void disk_release_events(struct gendisk *disk)
{
	struct disk_events *ev = disk->ev;

	if (!ev)
		return;
	/* One block is left: from disk_alloc_events() or disk_del_events(). */
	WARN_ON_ONCE(ev->block != 1);
	disk->ev = NULL;
	kfree(ev);
}

#ifdef CONFIG_DISK_EVENTS_KUNIT_TEST
#include "disk-events-test-rule.c"
#endif
