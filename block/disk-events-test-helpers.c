// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the helpers the cases share.
 *
 * A fake removable-disk driver whose ->check_events() answers from a
 * script, counts its calls and records the clearing mask of each; the
 * disk's sysfs attributes and block.events_dfl_poll_msecs, through their
 * real entry points; a uevent listener on a kernel-side
 * NETLINK_KOBJECT_UEVENT socket, as udev has; opens through
 * bdev_file_open_by_dev(), so that blocking around opens and for
 * exclusive writers is the block layer's own; calls in kthreads of their
 * own; debugfs through a kernel mount, failslab settings, tracepoints
 * found by name and the disk's debugfs statistics.
 */
#include <linux/delay.h>
#include <linux/fault-inject.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/mount.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/socket.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <net/net_namespace.h>
#include "disk-events-test.h"

/* --- a fake removable disk --- */

static atomic_t fake_disk_nr = ATOMIC_INIT(0);

static unsigned int fake_check_events(struct gendisk *disk,
				      unsigned int clearing)
{
	struct fake_disk *fd = disk->private_data;
	unsigned long now = jiffies;
	unsigned int answer;
	int n;

	if (atomic_inc_return(&fd->in_check) > 1)
		WRITE_ONCE(fd->overlapped, true);
	/* del_gendisk() unhashes the disk just after disk_del_events(). */
	if (READ_ONCE(fd->deleted) || !disk_live(disk))
		WRITE_ONCE(fd->called_after_del, true);

	if (READ_ONCE(fd->hold)) {
		complete(&fd->entered);
		wait_for_completion(&fd->release);
	}

	if (READ_ONCE(fd->slow_ms))
		msleep(READ_ONCE(fd->slow_ms));

	spin_lock(&fd->lock);
	answer = fd->steady;
	if (fd->nr_answers) {
		answer = fd->answers[0];
		memmove(fd->answers, fd->answers + 1,
			--fd->nr_answers * sizeof(fd->answers[0]));
	}
	spin_unlock(&fd->lock);

	n = atomic_read(&fd->calls);
	if (n < MAX_CALLS) {
		fd->clearing[n] = clearing;
		fd->when[n] = now;
	}
	atomic_dec(&fd->in_check);
	atomic_inc(&fd->calls);
	wake_up_all(&fd->wq);
	return answer;
}

/* Like sr and sd: an open clears pending events. */
static int fake_open(struct gendisk *disk, blk_mode_t mode)
{
	disk_check_media_change(disk);
	return 0;
}

static const struct block_device_operations fake_fops = {
	.owner		= THIS_MODULE,
	.open		= fake_open,
	.check_events	= fake_check_events,
};

static blk_status_t fake_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	blk_mq_start_request(bd->rq);
	blk_mq_end_request(bd->rq, BLK_STS_IOERR);
	return BLK_STS_OK;
}

static const struct blk_mq_ops fake_mq_ops = {
	.queue_rq	= fake_queue_rq,
};

/**
 * det_fake_answer - script the answer of a coming check
 * @fd: the disk
 * @events: what the check is to find
 *
 * Queues @events as the answer of a coming ->check_events() call; once
 * the script is done, the drive answers @fd->steady.
 */
void det_fake_answer(struct fake_disk *fd, unsigned int events)
{
	spin_lock(&fd->lock);
	if (!WARN_ON(fd->nr_answers == MAX_ANSWERS))
		fd->answers[fd->nr_answers++] = events;
	spin_unlock(&fd->lock);
}

/**
 * det_fake_calls - how many checks the driver saw
 * @fd: the disk
 *
 * Return: the number of ->check_events() calls that have returned.
 */
int det_fake_calls(struct fake_disk *fd)
{
	return atomic_read(&fd->calls);
}

/**
 * det_fake_wait_calls - wait for checks
 * @fd: the disk
 * @n: the number of ->check_events() returns to wait for, in all
 *
 * Return: false if ->check_events() had not returned @n times within
 * WAIT_MS.
 */
bool det_fake_wait_calls(struct fake_disk *fd, int n)
{
	return wait_event_timeout(fd->wq, det_fake_calls(fd) >= n,
				  msecs_to_jiffies(WAIT_MS)) > 0;
}

/**
 * det_wait_checked - wait for a check of the work, and for the work to finish
 * @fd: the disk
 * @n: the number of ->check_events() returns to wait for, in all
 *
 * The driver's count moves when ->check_events() returns, before the
 * work reports what it found, traces the check and counts it.  Blocking
 * the disk's events waits until its work is neither queued nor running,
 * so once the @n-th call has returned, a block and unblock wait for the
 * rest of the work that made it.  A check queued but not yet started
 * would be cancelled: hence the wait for the call first.
 *
 * Return: false if the @n-th call did not come within WAIT_MS.
 */
bool det_wait_checked(struct fake_disk *fd, int n)
{
	if (!det_fake_wait_calls(fd, n))
		return false;
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
	return true;
}

/**
 * det_fake_clearing - what a check was asked to clear
 * @fd: the disk
 * @n: the number of the call, 0 for the first
 *
 * Return: the clearing argument of call number @n (0 past MAX_CALLS).
 */
unsigned int det_fake_clearing(struct fake_disk *fd, int n)
{
	return n < MAX_CALLS ? fd->clearing[n] : 0;
}

/**
 * det_fake_remove - remove the disk as its driver would
 * @fd: the disk
 *
 * Releases any check held in the driver, then deletes the disk if it
 * was added; the disk is freed when the test ends.
 */
void det_fake_remove(struct fake_disk *fd)
{
	WRITE_ONCE(fd->hold, false);
	complete_all(&fd->release);
	if (fd->added) {
		del_gendisk(fd->disk);
		fd->added = false;
	}
	WRITE_ONCE(fd->deleted, true);
}

static void fake_destroy(void *data)
{
	struct fake_disk *fd = data;

	det_fake_remove(fd);
	put_disk(fd->disk);
	blk_mq_free_tag_set(&fd->set);
}

/**
 * det_fake_alloc - a new fake disk, not yet added
 * @test: the test
 * @events: the events the disk declares (its ->events)
 * @flags: its ->event_flags
 *
 * The disk is removed and freed when the test ends.
 *
 * Return: the disk; fails the test if it cannot be allocated.
 */
struct fake_disk *det_fake_alloc(struct kunit *test, unsigned int events,
				 unsigned int flags)
{
	struct fake_disk *fd;
	int ret;

	fd = kunit_kzalloc(test, sizeof(*fd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fd);
	fd->test = test;
	spin_lock_init(&fd->lock);
	init_completion(&fd->entered);
	init_completion(&fd->release);
	init_waitqueue_head(&fd->wq);

	ret = blk_mq_alloc_sq_tag_set(&fd->set, &fake_mq_ops, 1, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	fd->disk = blk_mq_alloc_disk(&fd->set, NULL, fd);
	if (IS_ERR(fd->disk)) {
		blk_mq_free_tag_set(&fd->set);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fd->disk);
	}
	fd->disk->fops = &fake_fops;
	fd->disk->private_data = fd;
	fd->disk->flags |= GENHD_FL_NO_PART;
	fd->disk->events = events;
	fd->disk->event_flags = flags;
	snprintf(fd->disk->disk_name, DISK_NAME_LEN, "kdevt%d",
		 atomic_inc_return(&fake_disk_nr));
	ret = kunit_add_action_or_reset(test, fake_destroy, fd);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return fd;
}

/**
 * det_fake_add - add a fake disk
 * @fd: the disk, from det_fake_alloc()
 *
 * Adds @fd's disk and waits for the check that adding it makes, if any,
 * to be over: the case starts from a disk whose work is idle.
 */
void det_fake_add(struct fake_disk *fd)
{
	struct kunit *test = fd->test;

	KUNIT_ASSERT_EQ(test, add_disk(fd->disk), 0);
	fd->added = true;
	if (fd->disk->events)
		KUNIT_ASSERT_TRUE(test, det_wait_checked(fd, 1));
}

/**
 * det_fake_cdrom - a live fake disk like sr's, but for default polling
 * @test: the test
 *
 * Both events, uevents, blocked by exclusive writers, and polled only
 * at an interval the case gives it (FAKE_CDROM_FLAGS).
 *
 * Return: the disk, added.
 */
struct fake_disk *det_fake_cdrom(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS);

	det_fake_add(fd);
	return fd;
}

/**
 * det_fake_polled_cdrom - a live fake disk exactly like sr's
 * @test: the test
 *
 * As det_fake_cdrom(), and also polled at the default interval.
 *
 * Return: the disk, added.
 */
struct fake_disk *det_fake_polled_cdrom(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS |
					  DISK_EVENT_FLAG_POLL);

	det_fake_add(fd);
	return fd;
}

/**
 * det_fake_drive_of - a live fake disk that declares only some events
 * @test: the test
 * @events: the events it declares
 *
 * Return: the disk, added, with uevents and no default polling.
 */
struct fake_disk *det_fake_drive_of(struct kunit *test, unsigned int events)
{
	struct fake_disk *fd = det_fake_alloc(test, events, DISK_EVENT_FLAG_UEVENT);

	det_fake_add(fd);
	return fd;
}

/**
 * det_calls_in - count the checks of a while
 * @fd: the disk
 * @ms: how long to watch
 *
 * Return: the calls of ->check_events() made in @ms from now.
 */
int det_calls_in(struct fake_disk *fd, unsigned int ms)
{
	int before = det_fake_calls(fd);

	msleep(ms);
	return det_fake_calls(fd) - before;
}

/**
 * det_calls_in_quiet_period - count the checks of QUIET_MS
 * @fd: the disk
 *
 * Return: the calls of ->check_events() made in QUIET_MS from now.
 */
int det_calls_in_quiet_period(struct fake_disk *fd)
{
	return det_calls_in(fd, QUIET_MS);
}

/**
 * det_keeps_polling - whether the disk is polled
 * @fd: the disk
 *
 * Return: true if two more checks come within WAIT_MS, as polling
 * makes them.
 */
bool det_keeps_polling(struct fake_disk *fd)
{
	return det_fake_wait_calls(fd, det_fake_calls(fd) + 2);
}

/**
 * det_check_now_answering - run a check that finds some events
 * @fd: the disk
 * @events: what the check is to find
 *
 * Has the next check find @events, runs it at once and lets its work
 * finish (det_wait_checked()); fails the test if it does not come.
 */
void det_check_now_answering(struct fake_disk *fd, unsigned int events)
{
	int n = det_fake_calls(fd);

	det_fake_answer(fd, events);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(fd->test, det_wait_checked(fd, n + 1));
}

/* --- sysfs and the default, through their real entry points --- */

/**
 * det_poll_msecs_store - write the disk's events_poll_msecs
 * @fd: the disk
 * @buf: what to write
 * @count: its length
 *
 * Calls the attribute's own ->store(), as a write to sysfs would.
 *
 * Return: what ->store() returned.
 */
ssize_t det_poll_msecs_store(struct fake_disk *fd, const char *buf,
			     size_t count)
{
	return dev_attr_events_poll_msecs.store(disk_to_dev(fd->disk),
						&dev_attr_events_poll_msecs,
						buf, count);
}

/**
 * det_set_poll_msecs - set the disk's own poll interval
 * @fd: the disk
 * @val: the interval, as written to events_poll_msecs
 *
 * Fails the test if the write is refused.
 */
void det_set_poll_msecs(struct fake_disk *fd, const char *val)
{
	KUNIT_ASSERT_EQ(fd->test, det_poll_msecs_store(fd, val, strlen(val)),
			(ssize_t)strlen(val));
}

static const struct kernel_param *dfl_param(void)
{
	const struct kernel_param *kp;

	for (kp = __start___param; kp < __stop___param; kp++)
		if (!strcmp(kp->name, "block.events_dfl_poll_msecs"))
			return kp;
	return NULL;
}

/* Call @kp's ->set() with @val, as the command line or sysfs would. */
static int param_set(const struct kernel_param *kp, const char *val)
{
	int ret;

	kernel_param_lock(NULL);
	ret = kp->ops->set(val, kp);
	kernel_param_unlock(NULL);
	return ret;
}

/* Call @kp's ->set() with @val, on a copy of @kp whose ->arg is @arg. */
static int param_set_aside(const struct kernel_param *kp, const char *val,
			   void *arg)
{
	const struct kernel_param aside = {
		.name	= kp->name,
		.mod	= kp->mod,
		.ops	= kp->ops,
		.perm	= kp->perm,
		.level	= kp->level,
		.flags	= kp->flags,
		.arg	= arg,
	};

	return param_set(&aside, val);
}

/**
 * det_get_dfl - the running default interval
 *
 * Return: block.events_dfl_poll_msecs, in milliseconds.
 */
unsigned long det_get_dfl(void)
{
	return READ_ONCE(*(unsigned long *)dfl_param()->arg);
}

/* Put the running default back if a case changed it by mistake. */
static void restore_dfl(void *data)
{
	unsigned long old = (unsigned long)data;
	char buf[24];

	if (det_get_dfl() == old)
		return;
	snprintf(buf, sizeof(buf), "%lu", old);
	param_set(dfl_param(), buf);
}

/* Have the running default put back when the test ends, should it change. */
static void guard_dfl(struct kunit *test)
{
	void *old;

	KUNIT_ASSERT_NOT_NULL(test, dfl_param());
	old = (void *)det_get_dfl();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_dfl, old), 0);
}

/**
 * det_rewrite_dfl - write the running default back in another spelling
 * @test: the test
 * @fmt: a printf format of the value
 *
 * Writes the running default, formatted by @fmt, to the real parameter:
 * it must read back the same.  The default is put back when the test
 * ends, should it change.
 */
void det_rewrite_dfl(struct kunit *test, const char *fmt)
{
	unsigned long dfl;
	char val[32];

	guard_dfl(test);
	dfl = det_get_dfl();
	snprintf(val, sizeof(val), fmt, dfl);
	KUNIT_EXPECT_EQ_MSG(test, param_set(dfl_param(), val), 0,
			    "write of \"%*pE\"", (int)strlen(val), val);
	KUNIT_EXPECT_EQ(test, det_get_dfl(), dfl);
}

/**
 * det_parse_dfl - parse a value as block.events_dfl_poll_msecs does, aside
 * @test: the test
 * @val: the text, as written to the parameter
 * @msecs: where the parameter's ->set() is to store the value
 *
 * Calls the parameter's own ->set(), which the command line and sysfs
 * call, on a copy of its kernel_param whose ->arg is @msecs: any value
 * can be tried without changing the running default, which stays what
 * the rest of the system relies on.  Like param_set_ulong(), the core
 * stores through ->arg; should it store elsewhere, the case fails and
 * the running default is put back.
 *
 * Return: what ->set() returned.
 */
int det_parse_dfl(struct kunit *test, const char *val, unsigned long *msecs)
{
	unsigned long dfl;
	int ret;

	guard_dfl(test);
	dfl = det_get_dfl();
	ret = param_set_aside(dfl_param(), val, msecs);
	if (det_get_dfl() != dfl) {
		restore_dfl((void *)dfl);
		KUNIT_FAIL_AND_ABORT(test, "->set(\"%*pE\") changed the running default, not ->arg",
				     (int)strlen(val), val);
	}
	return ret;
}

/* --- a uevent listener, as udev has --- */

static void listener_close(void *data)
{
	sock_release(data);
}

/**
 * det_listener_open - listen for uevents, as udev does
 * @test: the test
 *
 * Opens a kernel NETLINK_KOBJECT_UEVENT socket bound to the kernel's
 * uevent group; it is closed when the test ends.
 *
 * Return: the listener.
 */
struct listener *det_listener_open(struct kunit *test)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,
	};
	struct listener *l;
	int ret;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	ret = sock_create_kern(&init_net, AF_NETLINK, SOCK_DGRAM,
			       NETLINK_KOBJECT_UEVENT, &l->sock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, listener_close,
							l->sock), 0);
	ret = kernel_bind(l->sock, (struct sockaddr *)&addr, sizeof(addr));
	KUNIT_ASSERT_EQ(test, ret, 0);
	return l;
}

/**
 * det_uevent_var - a variable of the last uevent received
 * @l: the listener
 * @key: the variable's name
 *
 * Return: the value of @key in the last message, or NULL.
 */
const char *det_uevent_var(struct listener *l, const char *key)
{
	size_t klen = strlen(key);
	int i;

	for (i = 0; i < l->len; i += strlen(l->msg + i) + 1)
		if (!strncmp(l->msg + i, key, klen) && l->msg[i + klen] == '=')
			return l->msg + i + klen + 1;
	return NULL;
}

/* Receive the next uevent within @ms; false if none came. */
static bool listener_next(struct listener *l, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);
	struct kvec vec = { .iov_base = l->msg, .iov_len = sizeof(l->msg) - 1 };
	struct msghdr hdr = { };

	do {
		l->len = kernel_recvmsg(l->sock, &hdr, &vec, 1, vec.iov_len,
					MSG_DONTWAIT);
		if (l->len > 0) {
			l->msg[l->len] = '\0';
			return true;
		}
		usleep_range(5000, 10000);
	} while (time_before(jiffies, deadline));
	l->len = 0;
	return false;
}

/* Is the last message a change uevent of @fd's disk saying @var? */
static bool uevent_is(struct listener *l, struct fake_disk *fd,
		      const char *var)
{
	const char *name = det_uevent_var(l, "DEVNAME");
	const char *action = det_uevent_var(l, "ACTION");

	return name && !strcmp(name, fd->disk->disk_name) && action &&
	       !strcmp(action, "change") && det_uevent_var(l, var);
}

/**
 * det_count_uevents - count the uevents of a while
 * @l: the listener
 * @fd: the disk
 * @var: the variable the uevents must carry
 * @ms: how long to listen
 *
 * Return: how many change uevents of @fd's disk saying @var arrive
 * within @ms.
 */
int det_count_uevents(struct listener *l, struct fake_disk *fd,
		      const char *var, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);
	int n = 0;

	while (time_before(jiffies, deadline))
		if (listener_next(l, jiffies_to_msecs(deadline - jiffies)) &&
		    uevent_is(l, fd, var))
			n++;
	return n;
}

/**
 * det_wait_uevent - wait for a uevent
 * @l: the listener
 * @fd: the disk
 * @var: the variable the uevent must carry
 *
 * Return: true if a change uevent of @fd's disk saying @var came within
 * WAIT_MS.
 */
bool det_wait_uevent(struct listener *l, struct fake_disk *fd,
		     const char *var)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(WAIT_MS);

	while (time_before(jiffies, deadline))
		if (listener_next(l, 100) && uevent_is(l, fd, var))
			return true;
	return false;
}

/**
 * det_allow_uevents - let the disk send uevents again
 * @data: the disk, a struct fake_disk
 *
 * Undoes det_suppress_uevents(); also its action when the test ends.
 */
void det_allow_uevents(void *data)
{
	struct fake_disk *fd = data;

	dev_set_uevent_suppress(disk_to_dev(fd->disk), 0);
}

/**
 * det_suppress_uevents - suppress the disk's uevents
 * @test: the test
 * @fd: the disk
 *
 * Suppresses the uevents of @fd's disk, as a driver may while it sets a
 * device up, until the test ends (or det_allow_uevents()).
 */
void det_suppress_uevents(struct kunit *test, struct fake_disk *fd)
{
	dev_set_uevent_suppress(disk_to_dev(fd->disk), 1);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, det_allow_uevents, fd),
			0);
}

/* --- opens through the block layer --- */

/**
 * det_open_disk - open the disk through the block layer
 * @fd: the disk
 * @mode: the open mode
 * @holder: the holder of an exclusive open, or NULL
 *
 * Return: the open file; fails the test if the open fails.
 */
struct file *det_open_disk(struct fake_disk *fd, blk_mode_t mode,
			   void *holder)
{
	struct file *f = bdev_file_open_by_dev(disk_devt(fd->disk), mode,
					       holder, NULL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(fd->test, f);
	return f;
}

/**
 * det_close_disk - close a file of det_open_disk(), at once
 * @f: the file
 */
void det_close_disk(struct file *f)
{
	__fput_sync(f);
}

/**
 * det_check_entered - wait for a check to be held in the driver
 * @fd: the disk
 *
 * Return: true if a check was parked in ->check_events() by
 * det_hold_checks() within WAIT_MS.
 */
bool det_check_entered(struct fake_disk *fd)
{
	return wait_for_completion_timeout(&fd->entered,
					   msecs_to_jiffies(WAIT_MS));
}

/**
 * det_hold_checks - hold the next check in the driver
 * @fd: the disk
 *
 * Makes the next check wait in ->check_events() until det_release_checks().
 */
void det_hold_checks(struct fake_disk *fd)
{
	reinit_completion(&fd->entered);
	reinit_completion(&fd->release);
	WRITE_ONCE(fd->hold, true);
}

/**
 * det_release_checks - let held checks return
 * @fd: the disk
 */
void det_release_checks(struct fake_disk *fd)
{
	WRITE_ONCE(fd->hold, false);
	complete_all(&fd->release);
}

static int side_call_fn(void *data)
{
	struct side_call *sc = data;

	sc->fn(sc->fd);
	complete(&sc->done);
	return 0;
}

/* Let a call held in the driver go on, and wait for the thread to end. */
static void side_call_join(void *data)
{
	struct side_call *sc = data;

	det_release_checks(sc->fd);
	kthread_stop_put(sc->task);
}

/**
 * det_start_side_call - call a function in a kthread
 * @test: the test
 * @fn: the function
 * @fd: its argument
 *
 * The thread is joined when the test ends, whether the case waited for
 * it or gave up (an assertion, a timeout): checks held in @fd's driver
 * are released first, so that a call blocked behind one returns, and
 * neither the thread nor the call outlives the disk.
 *
 * Return: the call, for det_side_call_done().
 */
struct side_call *det_start_side_call(struct kunit *test,
				      void (*fn)(struct fake_disk *fd),
				  struct fake_disk *fd)
{
	struct side_call *sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, sc);
	sc->fn = fn;
	sc->fd = fd;
	init_completion(&sc->done);
	t = kthread_create(side_call_fn, sc, "disk-events-test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	sc->task = get_task_struct(t);
	/* Joined before it ever runs if the action cannot be added. */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, side_call_join, sc),
			0);
	wake_up_process(t);
	return sc;
}

/**
 * det_side_call_done - wait for a call of det_start_side_call() to return
 * @sc: the call
 * @ms: how long to wait
 *
 * Return: true if it returned within @ms.
 */
bool det_side_call_done(struct side_call *sc, unsigned int ms)
{
	return wait_for_completion_timeout(&sc->done, msecs_to_jiffies(ms));
}

/**
 * det_do_check_media_change - disk_check_media_change(), for det_start_side_call()
 * @fd: the disk
 */
void det_do_check_media_change(struct fake_disk *fd)
{
	disk_check_media_change(fd->disk);
}

/**
 * det_do_del_gendisk - hot-unplug the disk, for det_start_side_call()
 * @fd: the disk
 *
 * Deletes the disk as a driver does, leaving held checks held.
 */
void det_do_del_gendisk(struct fake_disk *fd)
{
	del_gendisk(fd->disk);
	fd->added = false;
	WRITE_ONCE(fd->deleted, true);
}

/* --- debugfs, through a kernel mount --- */

/**
 * det_needs_debugfs - skip a case that needs debugfs in a kernel without it
 * @test: the test
 */
void det_needs_debugfs(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_DEBUG_FS))
		kunit_skip(test, "needs CONFIG_DEBUG_FS");
}

/*
 * Open @path in a kernel mount of debugfs, returned in @mnt for
 * debugfs_close(); fails the test if it cannot.
 */
static struct file *debugfs_open(struct kunit *test, const char *path,
				 int flags, struct vfsmount **mnt)
{
	struct file_system_type *type;
	struct file *f;

	det_needs_debugfs(test);
	type = get_fs_type("debugfs");
	KUNIT_ASSERT_NOT_NULL(test, type);
	*mnt = kern_mount(type);
	put_filesystem(type);
	KUNIT_ASSERT_FALSE(test, IS_ERR(*mnt));
	f = file_open_root_mnt(*mnt, path, flags, 0);
	if (IS_ERR(f)) {
		kern_unmount(*mnt);
		KUNIT_FAIL_AND_ABORT(test, "cannot open debugfs %s", path);
	}
	return f;
}

static void debugfs_close(struct file *f, struct vfsmount *mnt)
{
	fput(f);
	kern_unmount(mnt);
}

#if defined(CONFIG_FAILSLAB) && defined(CONFIG_FAULT_INJECTION_DEBUG_FS)
/*
 * A page of user memory: debugfs' attribute files copy from and to user
 * space.  KUnit maps it in an mm of the calling kthread's own, also in
 * a cleanup action (which another kthread runs).
 */
static void __user *user_page(struct kunit *test)
{
	unsigned long addr;

	addr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_FALSE(test, !addr || IS_ERR_VALUE(addr));
	return (void __user *)addr;
}

/* Read debugfs file @path, as a user would, into @buf; its length. */
static size_t debugfs_read(struct kunit *test, const char *path, char *buf,
			   size_t size)
{
	void __user *ubuf = user_page(test);
	struct vfsmount *mnt;
	struct file *f;
	loff_t pos = 0;
	ssize_t ret;

	f = debugfs_open(test, path, O_RDONLY, &mnt);
	ret = vfs_read(f, ubuf, min(size, PAGE_SIZE), &pos);
	debugfs_close(f, mnt);
	KUNIT_ASSERT_GT(test, ret, 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(buf, ubuf, ret), 0);
	return ret;
}

/* Write @len bytes of @val to debugfs file @path, as a user would. */
static void debugfs_write(struct kunit *test, const char *path,
			  const char *val, size_t len)
{
	void __user *ubuf = user_page(test);
	struct vfsmount *mnt;
	struct file *f;
	loff_t pos = 0;
	ssize_t ret;

	KUNIT_ASSERT_LE(test, len, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, copy_to_user(ubuf, val, len), 0);
	f = debugfs_open(test, path, O_WRONLY, &mnt);
	ret = vfs_write(f, ubuf, len, &pos);
	debugfs_close(f, mnt);
	KUNIT_ASSERT_EQ(test, ret, (ssize_t)len);
}

/* A failslab setting as it was before the test changed it. */
struct failslab_setting {
	struct kunit	*test;
	char		path[48];
	char		saved[24];
	size_t		len;
};

static void failslab_restore(void *data)
{
	struct failslab_setting *s = data;

	debugfs_write(s->test, s->path, s->saved, s->len);
}

/*
 * Have failslab's debugfs file @name written back as it reads now when
 * the test ends; the path of the file is returned.
 */
static const char *failslab_save(struct kunit *test, const char *name)
{
	struct failslab_setting *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->test = test;
	snprintf(s->path, sizeof(s->path), "failslab/%s", name);
	s->len = debugfs_read(test, s->path, s->saved, sizeof(s->saved));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, failslab_restore, s),
			0);
	return s->path;
}

/* Set failslab's debugfs file @name to @val until the test ends. */
static void failslab_set(struct kunit *test, const char *name, const char *val)
{
	debugfs_write(test, failslab_save(test, name), val, strlen(val));
}

/**
 * det_fail_nth_for_gfp_kernel - let the task's fail-nth fail any slab allocation
 * @test: the test
 *
 * The test's task fails its n-th slab allocation from now when it sets
 * current->fail_nth to n.  failslab spares allocations that may sleep
 * unless "ignore-gfp-wait" is N, and reports each failure with a stack
 * dump (which the harness would take for a splat) unless "verbose" is
 * below 2; and each failure counts "times" down.  Those settings are
 * failslab's, for every task: they are saved and restored exactly when
 * the test ends, however it ends.  They fail nothing by themselves: with
 * failslab's probability 0, checked here, only a task's own fail-nth
 * fails an allocation.
 */
void det_fail_nth_for_gfp_kernel(struct kunit *test)
{
	char probability[24] = "";

	debugfs_read(test, "failslab/probability", probability,
		     sizeof(probability) - 1);
	if (strcmp(probability, "0\n"))
		kunit_skip(test, "failslab is in use: probability %s", probability);
	failslab_set(test, "ignore-gfp-wait", "N");
	failslab_set(test, "verbose", "1");
	failslab_save(test, "times");
}

/**
 * det_xchg_fail_nth - set the task's fail-nth
 * @nth: the allocation to fail, counting from 1; 0 for none
 *
 * Return: what was left of the task's fail-nth.
 */
unsigned int det_xchg_fail_nth(unsigned int nth)
{
	unsigned int left = READ_ONCE(current->fail_nth);

	WRITE_ONCE(current->fail_nth, nth);
	return left;
}
#else
void det_fail_nth_for_gfp_kernel(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS");
}

unsigned int det_xchg_fail_nth(unsigned int nth)
{
	return 0;
}
#endif

/* --- tracepoints, found by name so the suites link against mainline --- */

#ifdef CONFIG_TRACEPOINTS
static void tp_find(struct tracepoint *tp, void *priv)
{
	struct tp_probe *p = priv;

	if (!strcmp(tp->name, p->name))
		p->tp = tp;
}

static void tp_probe_unregister(void *data)
{
	struct tp_probe *p = data;

	tracepoint_probe_unregister(p->tp, p->fn, p);
	tracepoint_synchronize_unregister();
}

/**
 * det_tp_attach - attach a probe to a tracepoint, found by name
 * @test: the test
 * @fd: the disk whose hits the probe counts
 * @name: the tracepoint
 * @fn: the probe, whose data is the returned struct tp_probe
 *
 * The probe is detached when the test ends.  Fails the test if there is
 * no such tracepoint; skips it in a kernel without CONFIG_TRACEPOINTS.
 *
 * Return: the probe.
 */
struct tp_probe *det_tp_attach(struct kunit *test, struct fake_disk *fd,
			       const char *name, void *fn)
{
	struct tp_probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->test = test;
	p->name = name;
	p->fn = fn;
	p->disk = fd->disk;
	for_each_kernel_tracepoint(tp_find, p);
	KUNIT_ASSERT_NOT_NULL_MSG(test, p->tp, "no tracepoint %s", name);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(p->tp, fn, p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tp_probe_unregister,
							p), 0);
	return p;
}
#else
/* Skip a case that needs tracepoints in a kernel built without them. */
struct tp_probe *det_tp_attach(struct kunit *test, struct fake_disk *fd,
			       const char *name, void *fn)
{
	kunit_skip(test, "needs CONFIG_TRACEPOINTS");
	return NULL;
}
#endif

/**
 * det_on_uevent - a probe for disk_events_uevent
 * @data: the struct tp_probe
 * @disk: the disk that sent the uevent
 * @events: the events it told
 * @diskseq: its sequence number
 *
 * Counts the uevents of the probe's disk, keeping the last one's events
 * and sequence number.
 */
void det_on_uevent(void *data, struct gendisk *disk, unsigned int events,
		   u64 diskseq)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_mask = events;
	p->last_u64 = diskseq;
	atomic_inc(&p->hits);
}

/* --- debugfs statistics, read through a kernel mount of debugfs --- */

/*
 * Read a seq_file @f into @buf.  debugfs files have no ->read_iter (its
 * proxy forwards ->read only), so kernel_read() refuses them; the
 * seq_file is reached directly instead.  The disk is not removed while
 * this runs, which is what debugfs' proxy would otherwise guard.
 */
static ssize_t read_seq_file(struct file *f, char *buf, size_t len)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter iter;
	struct kiocb kiocb;

	init_sync_kiocb(&kiocb, f);
	iov_iter_kvec(&iter, ITER_DEST, &kv, 1, len);
	return seq_read_iter(&kiocb, &iter);
}

/**
 * det_stat_of - a value of the disk's debugfs statistics
 * @fd: the disk
 * @key: the statistic
 *
 * Reads "@key: value" in @fd's debugfs file block/<disk>/disk_events;
 * fails the test if the file or the key is missing, skips it in a
 * kernel without debugfs.
 *
 * Return: the value.
 */
long long det_stat_of(struct fake_disk *fd, const char *key)
{
	char path[64], buf[1024], *line;
	struct vfsmount *mnt;
	struct file *f;
	long long val;
	ssize_t len;

	snprintf(path, sizeof(path), "block/%s/disk_events",
		 fd->disk->disk_name);
	f = debugfs_open(fd->test, path, O_RDONLY, &mnt);
	len = read_seq_file(f, buf, sizeof(buf) - 1);
	debugfs_close(f, mnt);
	KUNIT_ASSERT_GT(fd->test, len, 0);
	buf[len] = '\0';

	for (line = buf; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, key, strlen(key)) &&
		    sscanf(line + strlen(key), ": %lld", &val) == 1)
			return val;
	}
	KUNIT_FAIL_AND_ABORT(fd->test, "no %s in %s", key, path);
	return -1;
}
