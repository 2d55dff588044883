// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c.
 *
 * Each case adds real gendisks of a fake removable-disk driver, whose
 * ->check_events() answers from a script, counts its calls and records
 * the clearing mask of each; and it listens for uevents on a kernel-side
 * NETLINK_KOBJECT_UEVENT socket, as udev would.  Opens go through
 * bdev_file_open_by_dev(), so blocking around opens and for exclusive
 * writers is the block layer's own.
 *
 * Suite "disk_events" is behaviour mainline has; the same file builds
 * against the unmodified core, where it must pass.  Suite
 * "disk_events_beyond_mainline" is behaviour only our core has (strict
 * input parsing, no checks after removal, aligned polling, tracepoints,
 * debugfs statistics, damping of flapping drives, ...): it fails on
 * mainline.  Tracepoints and the
 * debugfs file are looked up by name at run time, so the file links
 * against both cores; a case that needs them is skipped in a kernel
 * built without CONFIG_TRACEPOINTS or CONFIG_DEBUG_FS, but fails if the
 * kernel has the facility and the core does not use it.
 *
 * No case changes what the rest of the system relies on.  The running
 * block.events_dfl_poll_msecs is never changed: the cases about it check
 * what the default the kernel runs with must do (tools/testing/disk-
 * events/kunit.py boots one kernel with mainline's 0 and one with a
 * short default), and parse other values aside (parse_dfl()).  Fault
 * injection is the task's own fail-nth; the failslab settings it needs
 * are restored when the case ends.  Threads a case starts are joined
 * when it ends, however it ends.
 */
#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fault-inject.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/mount.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include "blk.h"

#define ALL_EVENTS	(DISK_EVENT_MEDIA_CHANGE | DISK_EVENT_EJECT_REQUEST)
#define MAX_ANSWERS	8
#define MAX_CALLS	64
/* Waits for something that must happen end well before this. */
#define WAIT_MS		5000
/* How long to watch for something that must not happen. */
#define QUIET_MS	150
/* A poll interval (ms) fast enough to see polls in QUIET_MS. */
#define FAST_POLL	"10"
/* The longest running default whose polls a case waits to see. */
#define MAX_WATCHED_DFL_MS	1000

/* A fake removable disk and what its driver saw. */
struct fake_disk {
	struct kunit		*test;
	struct blk_mq_tag_set	set;
	struct gendisk		*disk;
	bool			added;

	spinlock_t		lock;		/* guards the script */
	unsigned int		answers[MAX_ANSWERS];
	int			nr_answers;
	unsigned int		steady;		/* answer once the script is done */

	atomic_t		calls;		/* ->check_events() returns */
	unsigned int		clearing[MAX_CALLS];
	unsigned long		when[MAX_CALLS]; /* jiffies at each call */
	atomic_t		in_check;
	bool			overlapped;	/* two checks at once, ever */
	bool			called_after_del;
	bool			deleted;

	bool			hold;		/* park checks until released */
	unsigned int		slow_ms;	/* each check takes this long */
	struct completion	entered;
	struct completion	release;
	wait_queue_head_t	wq;		/* woken after every call */
};

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

/* Queue @events as the answer of a coming ->check_events() call. */
static void fake_answer(struct fake_disk *fd, unsigned int events)
{
	spin_lock(&fd->lock);
	if (!WARN_ON(fd->nr_answers == MAX_ANSWERS))
		fd->answers[fd->nr_answers++] = events;
	spin_unlock(&fd->lock);
}

static int fake_calls(struct fake_disk *fd)
{
	return atomic_read(&fd->calls);
}

/* Wait until ->check_events() has returned @n times in all. */
static bool fake_wait_calls(struct fake_disk *fd, int n)
{
	return wait_event_timeout(fd->wq, fake_calls(fd) >= n,
				  msecs_to_jiffies(WAIT_MS)) > 0;
}

/**
 * wait_checked - wait for a check of the work, and for the work to finish
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
static bool wait_checked(struct fake_disk *fd, int n)
{
	if (!fake_wait_calls(fd, n))
		return false;
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
	return true;
}

/* The clearing argument of call number @n (0 is the first). */
static unsigned int fake_clearing(struct fake_disk *fd, int n)
{
	return n < MAX_CALLS ? fd->clearing[n] : 0;
}

static void fake_remove(struct fake_disk *fd)
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

	fake_remove(fd);
	put_disk(fd->disk);
	blk_mq_free_tag_set(&fd->set);
}

/*
 * A new fake disk with @events and @flags, not yet added; it is removed
 * and freed when the test ends.
 */
static struct fake_disk *fake_alloc(struct kunit *test, unsigned int events,
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

/*
 * Add @fd's disk and wait for the check that adding it makes, if any,
 * to be over: the case starts from a disk whose work is idle.
 */
static void fake_add(struct fake_disk *fd)
{
	struct kunit *test = fd->test;

	KUNIT_ASSERT_EQ(test, add_disk(fd->disk), 0);
	fd->added = true;
	if (fd->disk->events)
		KUNIT_ASSERT_TRUE(test, wait_checked(fd, 1));
}

/*
 * The fake drives below are like sr's but for DISK_EVENT_FLAG_POLL, so
 * they are polled only at an interval a case gives them: what a case
 * counts is its own, whatever block.events_dfl_poll_msecs the kernel runs
 * with.  The cases about the default add a drive with the flag.
 */
#define FAKE_CDROM_FLAGS	(DISK_EVENT_FLAG_UEVENT | \
				 DISK_EVENT_FLAG_BLOCK_ON_EXCL_WRITE)

/* A live fake disk like sr's: both events, uevents, no default polling. */
static struct fake_disk *fake_cdrom(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS);

	fake_add(fd);
	return fd;
}

/* A live fake disk exactly like sr's: also polled at the default. */
static struct fake_disk *fake_polled_cdrom(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS |
					  DISK_EVENT_FLAG_POLL);

	fake_add(fd);
	return fd;
}

/* A live fake disk that declares only @events, with uevents. */
static struct fake_disk *fake_drive_of(struct kunit *test, unsigned int events)
{
	struct fake_disk *fd = fake_alloc(test, events, DISK_EVENT_FLAG_UEVENT);

	fake_add(fd);
	return fd;
}

/*
 * Wait until no check has run for a while: for the immediate check that
 * a write or flush queued, before watching for calls that must not come.
 */
static void settle(struct fake_disk *fd)
{
	int i, n;

	for (i = 0; i < 20; i++) {
		n = fake_calls(fd);
		msleep(QUIET_MS / 3);
		if (fake_calls(fd) == n)
			return;
	}
}

/* Calls made in @ms from now. */
static int calls_in(struct fake_disk *fd, unsigned int ms)
{
	int before = fake_calls(fd);

	msleep(ms);
	return fake_calls(fd) - before;
}

static int calls_in_quiet_period(struct fake_disk *fd)
{
	return calls_in(fd, QUIET_MS);
}

/* Two more checks come within WAIT_MS, as polling makes them. */
static bool keeps_polling(struct fake_disk *fd)
{
	return fake_wait_calls(fd, fake_calls(fd) + 2);
}

/* --- sysfs and the default, through their real entry points --- */

static ssize_t poll_msecs_store(struct fake_disk *fd, const char *buf,
				size_t count)
{
	return dev_attr_events_poll_msecs.store(disk_to_dev(fd->disk),
						&dev_attr_events_poll_msecs,
						buf, count);
}

static void set_poll_msecs(struct fake_disk *fd, const char *val)
{
	KUNIT_ASSERT_EQ(fd->test, poll_msecs_store(fd, val, strlen(val)),
			(ssize_t)strlen(val));
}

/* Read a device attribute of @fd's disk into @buf. */
static ssize_t show_attr(struct fake_disk *fd, struct device_attribute *attr,
			 char *buf)
{
	memset(buf, 0, PAGE_SIZE);
	return attr->show(disk_to_dev(fd->disk), attr, buf);
}

/* What @fd's events_poll_msecs reads, in a buffer the test frees. */
static const char *read_poll_msecs(struct fake_disk *fd)
{
	char *buf = kunit_kzalloc(fd->test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(fd->test, buf);
	show_attr(fd, &dev_attr_events_poll_msecs, buf);
	return buf;
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

/* The running default, block.events_dfl_poll_msecs. */
static unsigned long get_dfl(void)
{
	return READ_ONCE(*(unsigned long *)dfl_param()->arg);
}

/* Put the running default back if a case changed it by mistake. */
static void restore_dfl(void *data)
{
	unsigned long old = (unsigned long)data;
	char buf[24];

	if (get_dfl() == old)
		return;
	snprintf(buf, sizeof(buf), "%lu", old);
	param_set(dfl_param(), buf);
}

/* Have the running default put back when the test ends, should it change. */
static void guard_dfl(struct kunit *test)
{
	void *old;

	KUNIT_ASSERT_NOT_NULL(test, dfl_param());
	old = (void *)get_dfl();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_dfl, old), 0);
}

/*
 * Write the running default back in another spelling, @fmt with the
 * value: it must read back the same.
 */
static void rewrite_dfl(struct kunit *test, const char *fmt)
{
	unsigned long dfl;
	char val[32];

	guard_dfl(test);
	dfl = get_dfl();
	snprintf(val, sizeof(val), fmt, dfl);
	KUNIT_EXPECT_EQ_MSG(test, param_set(dfl_param(), val), 0,
			    "write of \"%*pE\"", (int)strlen(val), val);
	KUNIT_EXPECT_EQ(test, get_dfl(), dfl);
}

/**
 * parse_dfl - parse a value as block.events_dfl_poll_msecs does, aside
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
static int parse_dfl(struct kunit *test, const char *val, unsigned long *msecs)
{
	unsigned long dfl;
	int ret;

	guard_dfl(test);
	dfl = get_dfl();
	ret = param_set_aside(dfl_param(), val, msecs);
	if (get_dfl() != dfl) {
		restore_dfl((void *)dfl);
		KUNIT_FAIL_AND_ABORT(test, "->set(\"%*pE\") changed the running default, not ->arg",
				     (int)strlen(val), val);
	}
	return ret;
}

/*
 * How long to watch for polls at the running default that must not
 * come: three of its intervals, at least QUIET_MS and at most three
 * MAX_WATCHED_DFL_MS (a longer default is not watched for).
 */
static unsigned int dfl_watch_ms(void)
{
	return clamp(3 * get_dfl(), (unsigned long)QUIET_MS,
		     3UL * MAX_WATCHED_DFL_MS);
}

/* --- a uevent listener, as udev has --- */

struct listener {
	struct socket	*sock;
	char		msg[2048];
	int		len;
};

static void listener_close(void *data)
{
	sock_release(data);
}

static struct listener *listener_open(struct kunit *test)
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

/* The value of @key in the last message, or NULL. */
static const char *uevent_var(struct listener *l, const char *key)
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
	const char *name = uevent_var(l, "DEVNAME");
	const char *action = uevent_var(l, "ACTION");

	return name && !strcmp(name, fd->disk->disk_name) && action &&
	       !strcmp(action, "change") && uevent_var(l, var);
}

/* How many uevents saying @var arrive for @fd within @ms. */
static int count_uevents(struct listener *l, struct fake_disk *fd,
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

/* Wait up to WAIT_MS for a uevent of @fd saying @var. */
static bool wait_uevent(struct listener *l, struct fake_disk *fd,
			const char *var)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(WAIT_MS);

	while (time_before(jiffies, deadline))
		if (listener_next(l, 100) && uevent_is(l, fd, var))
			return true;
	return false;
}

static void allow_uevents(void *data)
{
	struct fake_disk *fd = data;

	dev_set_uevent_suppress(disk_to_dev(fd->disk), 0);
}

/*
 * Suppress the uevents of @fd's disk, as a driver may while it sets a
 * device up, until the test ends (or allow_uevents()).
 */
static void suppress_uevents(struct kunit *test, struct fake_disk *fd)
{
	dev_set_uevent_suppress(disk_to_dev(fd->disk), 1);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, allow_uevents, fd),
			0);
}

/* --- opens through the block layer --- */

static struct file *open_disk(struct fake_disk *fd, blk_mode_t mode,
			      void *holder)
{
	struct file *f = bdev_file_open_by_dev(disk_devt(fd->disk), mode,
					       holder, NULL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(fd->test, f);
	return f;
}

static void close_disk(struct file *f)
{
	__fput_sync(f);
}

/* Wait until a check is parked in ->check_events() by hold_checks(). */
static bool check_entered(struct fake_disk *fd)
{
	return wait_for_completion_timeout(&fd->entered,
					   msecs_to_jiffies(WAIT_MS));
}

/* Make the next check wait in ->check_events() until release_checks(). */
static void hold_checks(struct fake_disk *fd)
{
	reinit_completion(&fd->entered);
	reinit_completion(&fd->release);
	WRITE_ONCE(fd->hold, true);
}

static void release_checks(struct fake_disk *fd)
{
	WRITE_ONCE(fd->hold, false);
	complete_all(&fd->release);
}

/* @fn(@fd), called by a kthread of its own. */
struct side_call {
	void			(*fn)(struct fake_disk *fd);
	struct fake_disk	*fd;
	struct task_struct	*task;
	struct completion	done;
};

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

	release_checks(sc->fd);
	kthread_stop_put(sc->task);
}

/**
 * start_side_call - call a function in a kthread
 * @test: the test
 * @fn: the function
 * @fd: its argument
 *
 * The thread is joined when the test ends, whether the case waited for
 * it or gave up (an assertion, a timeout): checks held in @fd's driver
 * are released first, so that a call blocked behind one returns, and
 * neither the thread nor the call outlives the disk.
 *
 * Return: the call, for side_call_done().
 */
static struct side_call *start_side_call(struct kunit *test,
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

static bool side_call_done(struct side_call *sc, unsigned int ms)
{
	return wait_for_completion_timeout(&sc->done, msecs_to_jiffies(ms));
}

static void do_block(struct fake_disk *fd)
{
	disk_block_events(fd->disk);
}

static void do_check_media_change(struct fake_disk *fd)
{
	disk_check_media_change(fd->disk);
}

/* Hot-unplug as a driver does it, leaving held checks held. */
static void do_del_gendisk(struct fake_disk *fd)
{
	del_gendisk(fd->disk);
	fd->added = false;
	WRITE_ONCE(fd->deleted, true);
}

/* --- debugfs, through a kernel mount --- */

/* Skip a case that needs debugfs in a kernel built without it. */
static void needs_debugfs(struct kunit *test)
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

	needs_debugfs(test);
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
 * fail_nth_for_gfp_kernel - let the task's fail-nth fail any slab allocation
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
static void fail_nth_for_gfp_kernel(struct kunit *test)
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

/* Set the task's fail-nth to @nth; return what was left of it. */
static unsigned int xchg_fail_nth(unsigned int nth)
{
	unsigned int left = READ_ONCE(current->fail_nth);

	WRITE_ONCE(current->fail_nth, nth);
	return left;
}
#else
static void fail_nth_for_gfp_kernel(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS");
}

static unsigned int xchg_fail_nth(unsigned int nth)
{
	return 0;
}
#endif

/* --- interval --- */

static void add_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS);

	KUNIT_EXPECT_EQ(test, fake_calls(fd), 0);
	fake_add(fd);
	KUNIT_EXPECT_EQ(test, fake_calls(fd), 1);
}

/*
 * A disk with DISK_EVENT_FLAG_POLL and no interval of its own is polled
 * at the running default: not at all if it is 0 (mainline's default),
 * else at that interval.
 */
static void poll_flag_disk_follows_the_default(struct kunit *test)
{
	unsigned long dfl = get_dfl();
	struct fake_disk *fd = fake_polled_cdrom(test);

	kunit_info(test, "block.events_dfl_poll_msecs is %lu\n", dfl);
	if (dfl > MAX_WATCHED_DFL_MS)
		kunit_skip(test, "a default of %lu ms is too long to watch", dfl);
	if (dfl)
		KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
	else
		KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
}

static void own_interval_polls(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 3));
}

static void own_zero_disables_despite_default(struct kunit *test)
{
	struct fake_disk *fd = fake_polled_cdrom(test);

	set_poll_msecs(fd, FAST_POLL);
	KUNIT_ASSERT_TRUE(test, keeps_polling(fd));
	set_poll_msecs(fd, "0");
	settle(fd);
	KUNIT_EXPECT_EQ(test, calls_in(fd, dfl_watch_ms()), 0);
}

static void own_interval_wins_over_default(struct kunit *test)
{
	struct fake_disk *fd = fake_polled_cdrom(test);

	set_poll_msecs(fd, "3600000");
	settle(fd);
	KUNIT_EXPECT_EQ(test, calls_in(fd, dfl_watch_ms()), 0);
	set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void default_ignored_without_poll_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_UEVENT);

	fake_add(fd);
	KUNIT_EXPECT_EQ(test, calls_in(fd, dfl_watch_ms()), 0);
}

/* Any write of the default checks every disk at once, even of the same value. */
static void default_write_checks_every_disk_at_once(struct kunit *test)
{
	struct fake_disk *a = fake_cdrom(test), *b = fake_cdrom(test);
	int na = fake_calls(a), nb = fake_calls(b);

	rewrite_dfl(test, "%lu");
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(a, na + 1));
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(b, nb + 1));
}

static void own_interval_change_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, "3600000");
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(fd, 2));
}

/* --- what user space hears --- */

/* Have the next check find @events, run it at once and let it finish. */
static void check_now_answering(struct fake_disk *fd, unsigned int events)
{
	int n = fake_calls(fd);

	fake_answer(fd, events);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(fd->test, wait_checked(fd, n + 1));
}

static void media_change_sends_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_NULL(test, uevent_var(l, "DISK_EJECT_REQUEST"));
}

static void eject_request_sends_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_NULL(test, uevent_var(l, "DISK_MEDIA_CHANGE"));
}

static void pending_event_reported_once(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	spin_lock(&fd->lock);
	fd->steady = DISK_EVENT_MEDIA_CHANGE;	/* a drive that keeps saying so */
	spin_unlock(&fd->lock);
	set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 5));
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 1);
}

static void open_clears_pending_so_next_change_is_reported(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));

	close_disk(open_disk(fd, BLK_OPEN_READ, NULL));
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
}

static void change_while_pending_is_not_reported(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 2));
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 3));
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 1);
}

static void check_media_change_reports_pending_change(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

static void check_media_change_finds_unpolled_change(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_TRUE(test, test_bit(GD_NEED_PART_SCAN, &fd->disk->state));
}

static void check_media_change_false_without_change(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

static void check_media_change_clears_both_events(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	int n = fake_calls(fd);

	disk_check_media_change(fd->disk);
	KUNIT_EXPECT_EQ(test, fake_clearing(fd, n), ALL_EVENTS);
}

/* The polled path: a new sequence number first, then the uevent. */
static void media_change_gets_new_diskseq_before_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq + 1);
	KUNIT_ASSERT_NOT_NULL(test, uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, seq + 1);
}

/*
 * A forced change (loop, nbd): the uevent first, carrying the sequence
 * number the disk had, then a new one.
 */
static void forced_change_sends_uevent_then_bumps_diskseq(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	disk_force_media_change(fd->disk);
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq + 1);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_ASSERT_NOT_NULL(test, uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, seq);
}

static void eject_request_keeps_diskseq(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_EQ(test, fd->disk->diskseq, seq);
}

static void no_uevent_without_uevent_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS, 0);
	struct listener *l;

	fake_add(fd);
	l = listener_open(test);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
}

static void undeclared_event_sends_no_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_MEDIA_CHANGE);
	struct listener *l = listener_open(test);

	check_now_answering(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_EJECT_REQUEST",
					    QUIET_MS), 0);
}

/* With the disk's uevents suppressed, a change is still found and cleared. */
static void suppressed_change_still_pending(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);

	suppress_uevents(test, fd);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

/* --- blocking --- */

static void block_waits_for_running_check(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct side_call *blocker;

	hold_checks(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_entered(fd));
	blocker = start_side_call(test, do_block, fd);
	KUNIT_EXPECT_FALSE(test, side_call_done(blocker, QUIET_MS));
	release_checks(fd);
	KUNIT_ASSERT_TRUE(test, side_call_done(blocker, WAIT_MS));
	disk_unblock_events(fd->disk);
}

static void blocked_disk_is_not_polled(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
	disk_unblock_events(fd->disk);
}

static void last_unblock_resumes_polling(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void blocks_nest(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void exclusive_writer_stops_polling(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct file *burner;

	set_poll_msecs(fd, FAST_POLL);
	burner = open_disk(fd, BLK_OPEN_READ | BLK_OPEN_WRITE, test);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
	close_disk(burner);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void change_during_exclusive_write_reported_after(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	struct file *burner;

	set_poll_msecs(fd, FAST_POLL);
	burner = open_disk(fd, BLK_OPEN_READ | BLK_OPEN_WRITE, test);
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	close_disk(burner);
	KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
}

static void exclusive_writer_polled_without_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_UEVENT);
	struct file *writer;

	fake_add(fd);
	set_poll_msecs(fd, FAST_POLL);
	writer = open_disk(fd, BLK_OPEN_READ | BLK_OPEN_WRITE, test);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
	close_disk(writer);
}

static void reader_does_not_stop_polling(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct file *reader;

	set_poll_msecs(fd, FAST_POLL);
	reader = open_disk(fd, BLK_OPEN_READ, test);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
	close_disk(reader);
}

/* --- flush --- */

static void flush_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(fd, 2));
}

static void flush_mask_reaches_driver_as_clearing(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	disk_flush_events(fd->disk, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 2));
	KUNIT_EXPECT_EQ(test, fake_clearing(fd, 1), DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 3));
	KUNIT_EXPECT_EQ(test, fake_clearing(fd, 2), 0);
}

static void flush_while_blocked_waits_for_unblock(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	int n;

	set_poll_msecs(fd, FAST_POLL);
	disk_block_events(fd->disk);
	disk_flush_events(fd->disk, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
	n = fake_calls(fd);
	disk_unblock_events(fd->disk);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, n + 1));
	KUNIT_EXPECT_EQ(test, fake_clearing(fd, n), DISK_EVENT_MEDIA_CHANGE);
}

static void flush_during_open_check_is_not_lost(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct side_call *opener;
	int n;

	hold_checks(fd);
	opener = start_side_call(test, do_check_media_change, fd);
	KUNIT_ASSERT_TRUE(test, check_entered(fd));
	/* Blocked by the opener: queued for its unblock, not run yet. */
	disk_flush_events(fd->disk, DISK_EVENT_MEDIA_CHANGE);
	n = fake_calls(fd);
	release_checks(fd);
	KUNIT_ASSERT_TRUE(test, side_call_done(opener, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, n + 2));
	KUNIT_EXPECT_EQ(test, fake_clearing(fd, n + 1), DISK_EVENT_MEDIA_CHANGE);
}

static void checks_never_overlap_under_opens_and_flushes(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	int i;

	set_poll_msecs(fd, "1");
	for (i = 0; i < 50; i++) {
		close_disk(open_disk(fd, BLK_OPEN_READ, NULL));
		disk_flush_events(fd->disk, i & 1 ? DISK_EVENT_MEDIA_CHANGE : 0);
	}
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
}

/* --- teardown --- */

static void slow_drive_delays_no_other(struct kunit *test)
{
	struct fake_disk *slow = fake_cdrom(test), *other = fake_cdrom(test);

	hold_checks(slow);
	disk_flush_events(slow->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_entered(slow));
	set_poll_msecs(other, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, keeps_polling(other));
	release_checks(slow);
}

static void no_check_after_removal(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	int n;

	set_poll_msecs(fd, "1");
	fake_remove(fd);
	n = fake_calls(fd);
	msleep(QUIET_MS);
	KUNIT_EXPECT_EQ(test, fake_calls(fd), n);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

static void removal_waits_for_check_in_flight(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct side_call *remover;

	hold_checks(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_entered(fd));
	remover = start_side_call(test, do_del_gendisk, fd);
	KUNIT_EXPECT_FALSE(test, side_call_done(remover, QUIET_MS));
	release_checks(fd);
	KUNIT_EXPECT_TRUE(test, side_call_done(remover, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

static void disk_without_check_events_has_no_events(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, 0, 0);

	fake_add(fd);	/* the core must not call ->check_events() ... */
	KUNIT_EXPECT_NULL(test, fd->disk->ev);
}

/* --- many callers at once --- */

#define HAMMERS		4
#define HAMMER_MS	1000
/* How long a slow drive's ->check_events() takes. */
#define SLOW_MS		2000

/*
 * Threads that, until stopped, each open the disk as an exclusive writer
 * or a reader, flush its events, block and unblock them, and with
 * @outside_open call disk_check_media_change() directly, as a driver
 * may outside ->open(), in turn.  Opens may fail with -EBUSY (another
 * exclusive writer) or -ENXIO (the disk was removed); any other failure
 * is counted in @errors.
 */
struct hammers {
	struct fake_disk	*fd;
	struct task_struct	*tasks[HAMMERS];
	bool			outside_open;
	atomic_t		rounds;
	atomic_t		errors;
};

static void hammer_open(struct hammers *h, blk_mode_t mode)
{
	struct file *f = bdev_file_open_by_dev(disk_devt(h->fd->disk), mode,
					       mode & BLK_OPEN_EXCL ? current : NULL,
					       NULL);

	if (!IS_ERR(f))
		close_disk(f);
	else if (PTR_ERR(f) != -EBUSY && PTR_ERR(f) != -ENXIO)
		atomic_inc(&h->errors);
}

static int hammer_fn(void *data)
{
	struct hammers *h = data;
	struct gendisk *disk = h->fd->disk;
	unsigned int kinds = h->outside_open ? 5 : 4;
	unsigned int round = get_random_u32_below(kinds);

	while (!kthread_should_stop()) {
		switch (round++ % kinds) {
		case 0:
			hammer_open(h, BLK_OPEN_READ | BLK_OPEN_WRITE |
				    BLK_OPEN_EXCL);
			break;
		case 1:
			hammer_open(h, BLK_OPEN_READ);
			break;
		case 2:
			disk_flush_events(disk, DISK_EVENT_MEDIA_CHANGE);
			break;
		case 3:
			disk_block_events(disk);
			disk_unblock_events(disk);
			break;
		case 4:
			disk_check_media_change(disk);
			break;
		}
		atomic_inc(&h->rounds);
		usleep_range(100, 500);
	}
	return 0;
}

static void stop_hammers(void *data)
{
	struct hammers *h = data;
	int i;

	for (i = 0; i < HAMMERS; i++) {
		if (h->tasks[i]) {
			kthread_stop_put(h->tasks[i]);
			h->tasks[i] = NULL;
		}
	}
}

/* Start HAMMERS threads on @fd; they stop when the test ends, if not before. */
static struct hammers *start_hammers(struct kunit *test, struct fake_disk *fd,
				     bool outside_open)
{
	struct hammers *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct task_struct *t;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->fd = fd;
	h->outside_open = outside_open;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, stop_hammers, h), 0);
	for (i = 0; i < HAMMERS; i++) {
		t = kthread_run(hammer_fn, h, "disk-events-hammer%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		h->tasks[i] = get_task_struct(t);
	}
	return h;
}

/* Polled every 1 ms, @fd takes a second of hammers; did its checks overlap? */
static void expect_serial_checks(struct kunit *test, bool outside_open)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct hammers *h;

	/* Sleep in the driver, so another caller can get in even on one CPU. */
	WRITE_ONCE(fd->slow_ms, 1);
	set_poll_msecs(fd, "1");
	h = start_hammers(test, fd, outside_open);
	msleep(HAMMER_MS);
	stop_hammers(h);
	KUNIT_EXPECT_GT(test, atomic_read(&h->rounds), 4 * HAMMERS);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->errors), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
	/* Every block was undone: polling goes on. */
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void checks_stay_serial_under_many_blockers_and_flushes(struct kunit *test)
{
	expect_serial_checks(test, false);
}

static void removal_amid_many_blockers_ends_checks(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct hammers *h;

	WRITE_ONCE(fd->slow_ms, 1);
	set_poll_msecs(fd, "1");
	h = start_hammers(test, fd, false);
	msleep(HAMMER_MS / 2);
	do_del_gendisk(fd);
	msleep(HAMMER_MS / 2);
	stop_hammers(h);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->errors), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

/* --- a slow drive --- */

/* Wait until a check is inside ->check_events(). */
static bool check_running(struct fake_disk *fd)
{
	int i;

	for (i = 0; i < WAIT_MS / 20; i++) {
		if (atomic_read(&fd->in_check))
			return true;
		msleep(20);
	}
	return false;
}

static void do_block_unblock(struct fake_disk *fd)
{
	disk_block_events(fd->disk);
	disk_unblock_events(fd->disk);
}

/* A burner's open, as do_block() but through the block layer. */
static void do_exclusive_write_open(struct fake_disk *fd)
{
	struct file *f = bdev_file_open_by_dev(disk_devt(fd->disk),
					       BLK_OPEN_READ | BLK_OPEN_WRITE |
					       BLK_OPEN_EXCL, fd, NULL);

	if (!IS_ERR(f))
		close_disk(f);
}

/* How often the others are polled beside a slow drive (ms). */
#define BESIDE_SLOW_POLL_MS	100

/*
 * A drive whose every check takes SLOW_MS, polled like the others,
 * leaves them on their interval: each is checked at least half as often
 * as its interval allows while the slow one is in its checks.
 */
static void slow_polled_drive_leaves_the_others_polled(struct kunit *test)
{
	struct fake_disk *slow = fake_cdrom(test), *others[3];
	int i, before[ARRAY_SIZE(others)];

	for (i = 0; i < ARRAY_SIZE(others); i++)
		others[i] = fake_cdrom(test);
	set_poll_msecs(slow, "100");
	WRITE_ONCE(slow->slow_ms, SLOW_MS);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		set_poll_msecs(others[i], "100");
	/* The slow drive's flushed check, then its polls, take SLOW_MS each. */
	msleep(BESIDE_SLOW_POLL_MS);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		before[i] = fake_calls(others[i]);
	msleep(SLOW_MS);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		KUNIT_EXPECT_GE(test, fake_calls(others[i]) - before[i],
				SLOW_MS / BESIDE_SLOW_POLL_MS / 2);
	WRITE_ONCE(slow->slow_ms, 0);
}

static void slow_check_delays_blockers_without_deadlock(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct side_call *blocker, *writer;

	WRITE_ONCE(fd->slow_ms, SLOW_MS);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_running(fd));
	blocker = start_side_call(test, do_block_unblock, fd);
	writer = start_side_call(test, do_exclusive_write_open, fd);
	KUNIT_EXPECT_TRUE(test, side_call_done(blocker, WAIT_MS));
	KUNIT_EXPECT_TRUE(test, side_call_done(writer, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
	WRITE_ONCE(fd->slow_ms, 0);
}

static void slow_check_delays_removal_without_deadlock(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct side_call *remover;

	WRITE_ONCE(fd->slow_ms, SLOW_MS);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_running(fd));
	remover = start_side_call(test, do_del_gendisk, fd);
	KUNIT_EXPECT_TRUE(test, side_call_done(remover, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

/* --- allocation failures --- */

/*
 * add_disk() with its n-th slab allocation failed, for n = 1, 2, ...
 * until an allocation after the events structure's has failed: each
 * failure is an error return, and the disk is freed by put_disk() at the
 * end of the test with nothing leaked (kmemleak scans after KUnit) and
 * no check run.
 */
static void add_disk_fails_cleanly_when_allocation_fails(struct kunit *test)
{
	bool before_events = false, after_events = false;
	struct fake_disk *fd;
	unsigned int left;
	int nth, ret;

	fail_nth_for_gfp_kernel(test);
	for (nth = 1; nth < 500 && !after_events; nth++) {
		fd = fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS);
		xchg_fail_nth(nth);
		ret = add_disk(fd->disk);
		left = xchg_fail_nth(0);
		if (!ret) {
			fd->added = true;
			if (left)	/* no n-th allocation: the sweep is over */
				break;
			continue;	/* an optional allocation failed */
		}
		KUNIT_EXPECT_LT(test, ret, 0);
		if (fd->disk->ev)
			after_events = true;
		else
			before_events = true;
		KUNIT_EXPECT_EQ(test, fake_calls(fd), 0);
	}
	kunit_info(test, "add_disk() failed cleanly up to allocation %d\n",
		   nth - 1);
	KUNIT_EXPECT_TRUE(test, before_events);
	KUNIT_EXPECT_TRUE(test, after_events);
}

/* --- sysfs --- */

static void events_lists_names_with_newline(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	show_attr(fd, &dev_attr_events, buf);
	KUNIT_EXPECT_STREQ(test, buf, "media_change eject_request\n");
}

static void events_empty_without_uevent_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS, 0);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	fake_add(fd);
	KUNIT_EXPECT_EQ(test, show_attr(fd, &dev_attr_events, buf), 0);
}

static void events_async_is_empty(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, show_attr(fd, &dev_attr_events_async, buf), 0);
}

static void poll_msecs_reads_back(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "-1\n");
	set_poll_msecs(fd, "250\n");
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "250\n");
	set_poll_msecs(fd, "-1");
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "-1\n");
}

static void poll_msecs_minus_one_without_events(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, 0, 0);

	fake_add(fd);
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "-1\n");
	KUNIT_EXPECT_EQ(test, poll_msecs_store(fd, "100", 3), -ENODEV);
}

/*
 * A write to an interval, @len bytes of @val (a string literal: NUL
 * after them), and what must come of it: error @err, or if that is 0,
 * @msecs read back.
 */
struct interval_write {
	const char	*val;
	size_t		len;
	int		err;
	long long	msecs;
	const char	*what;
};

#define REFUSED(s, e, w) \
	{ .val = s, .len = sizeof(s) - 1, .err = -(e), .what = w }
#define ACCEPTED(s, v, w) \
	{ .val = s, .len = sizeof(s) - 1, .msecs = v, .what = w }

static void interval_write_desc(const struct interval_write *w, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", w->what);
}

/*
 * events_poll_msecs takes kstrtol(), base 10: at most one newline after
 * the number, nothing else, and -1 or more.  Mainline's sscanf("%ld")
 * refuses these too.
 */
static const struct interval_write bad_poll_msecs[] = {
	REFUSED("-2", EINVAL, "below -1"),
	REFUSED("-1000", EINVAL, "far below -1"),
	REFUSED("-9223372036854775808", EINVAL, "LONG_MIN"),
	REFUSED("", EINVAL, "empty"),
	REFUSED("\n", EINVAL, "a newline alone"),
	REFUSED("fast\n", EINVAL, "a word"),
	REFUSED("-", EINVAL, "a minus alone"),
	REFUSED("+", EINVAL, "a plus alone"),
	REFUSED("--1", EINVAL, "two minus signs"),
	REFUSED("-+1", EINVAL, "a plus after a minus"),
	REFUSED("\0", EINVAL, "a NUL alone"),
};

KUNIT_ARRAY_PARAM(bad_poll_msecs, bad_poll_msecs, interval_write_desc);

/* Read the same by mainline's sscanf("%ld"). */
static const struct interval_write good_poll_msecs[] = {
	ACCEPTED("250", 250, "decimal"),
	ACCEPTED("250\n", 250, "a trailing newline"),
	ACCEPTED("-1", -1, "-1: the default"),
	ACCEPTED("-1\n", -1, "-1 and a newline"),
	ACCEPTED("0", 0, "0: no polling"),
	ACCEPTED("-0", 0, "minus zero"),
	ACCEPTED("010", 10, "leading zeros: decimal"),
	ACCEPTED("86400001", 86400001, "above one day"),
	ACCEPTED("4294967295", 4294967295LL, "UINT_MAX"),
	ACCEPTED("5\0 9", 5, "up to an embedded NUL"),
};

KUNIT_ARRAY_PARAM(good_poll_msecs, good_poll_msecs, interval_write_desc);

/* A refused write returns its error and leaves the interval alone. */
static void poll_msecs_refuses_bad_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, "700");
	KUNIT_EXPECT_EQ_MSG(test, poll_msecs_store(fd, w->val, w->len),
			    (ssize_t)w->err, "write of \"%*pE\"", (int)w->len,
			    w->val);
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "700\n");
}

/* An accepted write returns its length; the value reads back. */
static void poll_msecs_accepts_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	struct fake_disk *fd = fake_cdrom(test);
	char want[24];

	set_poll_msecs(fd, "700");
	KUNIT_EXPECT_EQ_MSG(test, poll_msecs_store(fd, w->val, w->len),
			    (ssize_t)w->len, "write of \"%*pE\"", (int)w->len,
			    w->val);
	snprintf(want, sizeof(want), "%lld\n", w->msecs);
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), want);
}

/*
 * block.events_dfl_poll_msecs takes kstrtoul(), any base, as every
 * unsigned long parameter (param_set_ulong()): mainline refuses these.
 */
static const struct interval_write bad_dfl_poll_msecs[] = {
	REFUSED("-1", EINVAL, "-1"),
	REFUSED("-2", EINVAL, "negative"),
	REFUSED("", EINVAL, "empty"),
	REFUSED("\n", EINVAL, "a newline alone"),
	REFUSED("fast\n", EINVAL, "a word"),
	REFUSED("-", EINVAL, "a minus alone"),
	REFUSED("12abc", EINVAL, "trailing garbage"),
	REFUSED("1e3", EINVAL, "an exponent"),
	REFUSED("1.5", EINVAL, "a fraction"),
	REFUSED(" 5", EINVAL, "a leading space"),
	REFUSED("5 ", EINVAL, "a trailing space"),
	REFUSED("\t5", EINVAL, "a leading tab"),
	REFUSED("5\t", EINVAL, "a trailing tab"),
	REFUSED("5\n\n", EINVAL, "two newlines"),
	REFUSED("5\n ", EINVAL, "a space after the newline"),
	REFUSED("5\r\n", EINVAL, "a CR LF line end"),
	REFUSED("1,000", EINVAL, "a thousands separator"),
	REFUSED("1_000", EINVAL, "a digit separator"),
	REFUSED("1 2", EINVAL, "two numbers"),
	REFUSED("--1", EINVAL, "two minus signs"),
	REFUSED("+", EINVAL, "a plus alone"),
	REFUSED("0x", EINVAL, "a hexadecimal prefix alone"),
	REFUSED("0b101", EINVAL, "binary"),
	REFUSED("08", EINVAL, "an octal 8"),
	REFUSED("NaN", EINVAL, "not a number"),
	REFUSED("99999999999999999999", ERANGE, "overflow"),
	REFUSED("100000000000000000000000000000000000000000", ERANGE,
		"a very long number"),
};

KUNIT_ARRAY_PARAM(bad_dfl_poll_msecs, bad_dfl_poll_msecs, interval_write_desc);

/* Read the same by mainline's param_set_ulong(). */
static const struct interval_write good_dfl_poll_msecs[] = {
	ACCEPTED("2000", 2000, "decimal"),
	ACCEPTED("2000\n", 2000, "a trailing newline"),
	ACCEPTED("+2000", 2000, "a plus sign"),
	ACCEPTED("0x7d0", 2000, "hexadecimal"),
	ACCEPTED("0X7D0", 2000, "upper-case hexadecimal"),
	ACCEPTED("010", 8, "octal"),
	ACCEPTED("0", 0, "0: no polling"),
	ACCEPTED("86400001", 86400001, "above one day"),
	ACCEPTED("4294967295", 4294967295LL, "UINT_MAX"),
};

KUNIT_ARRAY_PARAM(good_dfl_poll_msecs, good_dfl_poll_msecs,
		  interval_write_desc);

/* Neither a value the parser may leave nor one it may store. */
#define DFL_UNTOUCHED	12345UL

/* A refused default returns its error and stores nothing. */
static void default_refuses_bad_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	unsigned long msecs = DFL_UNTOUCHED;

	KUNIT_EXPECT_EQ_MSG(test, parse_dfl(test, w->val, &msecs), w->err,
			    "write of \"%*pE\"", (int)w->len, w->val);
	KUNIT_EXPECT_EQ(test, msecs, DFL_UNTOUCHED);
}

/* An accepted default stores its value. */
static void default_accepts_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	unsigned long msecs = DFL_UNTOUCHED;

	KUNIT_EXPECT_EQ_MSG(test, parse_dfl(test, w->val, &msecs), 0,
			    "write of \"%*pE\"", (int)w->len, w->val);
	KUNIT_EXPECT_EQ(test, (long long)msecs, w->msecs);
}

/* A spelling of the running default: the printf format that writes it. */
struct dfl_spelling {
	const char	*fmt;
	const char	*what;
};

static const struct dfl_spelling dfl_spellings[] = {
	{ "%lu", "decimal" },
	{ "%lu\n", "a trailing newline" },
	{ "+%lu", "a plus sign" },
	{ "0x%lx", "hexadecimal" },
	{ "0X%lX", "upper-case hexadecimal" },
	{ "0%lo", "octal" },
};

static void dfl_spelling_desc(const struct dfl_spelling *sp, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", sp->what);
}

KUNIT_ARRAY_PARAM(dfl_spellings, dfl_spellings, dfl_spelling_desc);

/*
 * The real parameter reads back what was written to it: the running
 * default, so that nothing changes for the rest of the system.
 */
static void default_write_reads_back(struct kunit *test)
{
	const struct dfl_spelling *sp = test->param_value;

	rewrite_dfl(test, sp->fmt);
}

static struct kunit_case disk_events_cases[] = {
	KUNIT_CASE(add_checks_at_once),
	KUNIT_CASE(poll_flag_disk_follows_the_default),
	KUNIT_CASE(own_interval_polls),
	KUNIT_CASE(own_zero_disables_despite_default),
	KUNIT_CASE(own_interval_wins_over_default),
	KUNIT_CASE(default_ignored_without_poll_flag),
	KUNIT_CASE(default_write_checks_every_disk_at_once),
	KUNIT_CASE(own_interval_change_checks_at_once),
	KUNIT_CASE(media_change_sends_uevent),
	KUNIT_CASE(eject_request_sends_uevent),
	KUNIT_CASE(pending_event_reported_once),
	KUNIT_CASE(open_clears_pending_so_next_change_is_reported),
	KUNIT_CASE(change_while_pending_is_not_reported),
	KUNIT_CASE(check_media_change_reports_pending_change),
	KUNIT_CASE(check_media_change_finds_unpolled_change),
	KUNIT_CASE(check_media_change_false_without_change),
	KUNIT_CASE(check_media_change_clears_both_events),
	KUNIT_CASE(media_change_gets_new_diskseq_before_uevent),
	KUNIT_CASE(forced_change_sends_uevent_then_bumps_diskseq),
	KUNIT_CASE(eject_request_keeps_diskseq),
	KUNIT_CASE(no_uevent_without_uevent_flag),
	KUNIT_CASE(undeclared_event_sends_no_uevent),
	KUNIT_CASE(suppressed_change_still_pending),
	KUNIT_CASE(block_waits_for_running_check),
	KUNIT_CASE(blocked_disk_is_not_polled),
	KUNIT_CASE(last_unblock_resumes_polling),
	KUNIT_CASE(blocks_nest),
	KUNIT_CASE(exclusive_writer_stops_polling),
	KUNIT_CASE(change_during_exclusive_write_reported_after),
	KUNIT_CASE(exclusive_writer_polled_without_flag),
	KUNIT_CASE(reader_does_not_stop_polling),
	KUNIT_CASE(flush_checks_at_once),
	KUNIT_CASE(flush_mask_reaches_driver_as_clearing),
	KUNIT_CASE(flush_while_blocked_waits_for_unblock),
	KUNIT_CASE(flush_during_open_check_is_not_lost),
	KUNIT_CASE(checks_never_overlap_under_opens_and_flushes),
	KUNIT_CASE(slow_drive_delays_no_other),
	KUNIT_CASE_SLOW(slow_polled_drive_leaves_the_others_polled),
	KUNIT_CASE(no_check_after_removal),
	KUNIT_CASE(removal_waits_for_check_in_flight),
	KUNIT_CASE(disk_without_check_events_has_no_events),
	KUNIT_CASE(checks_stay_serial_under_many_blockers_and_flushes),
	KUNIT_CASE(removal_amid_many_blockers_ends_checks),
	KUNIT_CASE_SLOW(slow_check_delays_blockers_without_deadlock),
	KUNIT_CASE_SLOW(slow_check_delays_removal_without_deadlock),
	KUNIT_CASE_SLOW(add_disk_fails_cleanly_when_allocation_fails),
	KUNIT_CASE(events_lists_names_with_newline),
	KUNIT_CASE(events_empty_without_uevent_flag),
	KUNIT_CASE(events_async_is_empty),
	KUNIT_CASE(poll_msecs_reads_back),
	KUNIT_CASE(poll_msecs_minus_one_without_events),
	KUNIT_CASE_PARAM(poll_msecs_refuses_bad_write, bad_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(poll_msecs_accepts_write, good_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(default_refuses_bad_write, bad_dfl_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(default_accepts_write, good_dfl_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(default_write_reads_back, dfl_spellings_gen_params),
	{}
};

static struct kunit_suite disk_events_suite = {
	.name = "disk_events",
	.test_cases = disk_events_cases,
};

/* --- behaviour mainline lacks --- */

/* A poll interval (ms) long enough to tell grid points from other times. */
#define GRID_POLL_MS	1000
/* What a worker may add to the timer's lateness, under emulation. */
#define GRID_LATENCY_MS	50

/**
 * grid_slack_ms - how far a periodic check may run from its grid point
 * @interval_ms: the poll interval
 *
 * A periodic check is queued by a timer armed up to one interval ahead.
 * The timer wheel fires a timer late by up to the granularity of the
 * level its delay falls in: 1 jiffy below 63 jiffies, 8 times more
 * from each level to the next, whose delays start 8 times further out
 * (LVL_START() and calc_index() in kernel/time/timer.c).  One more
 * jiffy, as each check reads jiffies, and the worker's latency.  At
 * HZ=250 a 1000 ms interval gives 36 + 50 ms; at HZ=1000, 65 + 50 ms.
 *
 * Return: the slack in milliseconds.
 */
static unsigned int grid_slack_ms(unsigned int interval_ms)
{
	unsigned long delay = msecs_to_jiffies(interval_ms);
	unsigned long gran = 1, level_start = 63;

	while (delay >= level_start) {
		gran <<= 3;
		level_start <<= 3;
	}
	return jiffies_to_msecs(gran + 1) + GRID_LATENCY_MS;
}

/* The jiffies at check number @n (0 is the first); fails if none comes. */
static unsigned long check_time(struct fake_disk *fd, int n)
{
	KUNIT_ASSERT_TRUE(fd->test, fake_wait_calls(fd, n + 1));
	return fd->when[n];
}

/* Set @fd's own interval and wait for the immediate check it makes. */
static void poll_every(struct fake_disk *fd, unsigned int msecs)
{
	int n = fake_calls(fd);
	char val[16];

	snprintf(val, sizeof(val), "%u", msecs);
	set_poll_msecs(fd, val);
	KUNIT_ASSERT_TRUE(fd->test, fake_wait_calls(fd, n + 1));
}

/* Started a third of an interval apart, two disks meet on the grid. */
static void equal_intervals_share_a_tick(struct kunit *test)
{
	struct fake_disk *a = fake_cdrom(test), *b = fake_cdrom(test);
	unsigned long ta, tb, half = msecs_to_jiffies(GRID_POLL_MS / 2);
	unsigned int slack = grid_slack_ms(GRID_POLL_MS);
	int na, nb;

	poll_every(a, GRID_POLL_MS);
	msleep(GRID_POLL_MS / 3);
	poll_every(b, GRID_POLL_MS);
	na = fake_calls(a);
	nb = fake_calls(b);
	ta = check_time(a, na);
	tb = check_time(b, nb);
	/* One may have had its check of this tick before we looked. */
	if (time_after(ta, tb + half))
		tb = check_time(b, nb + 1);
	else if (time_after(tb, ta + half))
		ta = check_time(a, na + 1);
	KUNIT_EXPECT_LE_MSG(test, jiffies_to_msecs(abs_diff(ta, tb)), slack,
			    "periodic checks %u ms apart, HZ=%d",
			    jiffies_to_msecs(abs_diff(ta, tb)), HZ);
}

/* Drives whose checks are all parked at once, more than run together. */
#define MANY_DRIVES	16

/*
 * The checks of many drives run side by side, but not all at once: a
 * few workers serve any number of drives (see "One tick" in the core).
 */
/*
 * How many of @fds have a check parked in ->check_events(), without
 * taking their completions as check_entered() does.
 */
static int checks_entered(struct fake_disk **fds, int nr)
{
	int i, entered = 0;

	for (i = 0; i < nr; i++)
		entered += completion_done(&fds[i]->entered);
	return entered;
}

static void checks_of_many_drives_run_side_by_side_but_bounded(struct kunit *test)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(WAIT_MS);
	struct fake_disk *fds[MANY_DRIVES];
	int i, entered = 0, before;

	for (i = 0; i < MANY_DRIVES; i++) {
		fds[i] = fake_cdrom(test);
		hold_checks(fds[i]);
	}
	for (i = 0; i < MANY_DRIVES; i++)
		disk_flush_events(fds[i]->disk, 0);
	/* Until no more start: a workqueue may be slow to add workers. */
	do {
		before = entered;
		msleep(QUIET_MS);
		entered = checks_entered(fds, MANY_DRIVES);
	} while ((!entered || entered != before) && entered < MANY_DRIVES &&
		 time_before(jiffies, deadline));
	for (i = 0; i < MANY_DRIVES; i++)
		release_checks(fds[i]);
	KUNIT_EXPECT_GE_MSG(test, entered, 2, "checks run one at a time");
	KUNIT_EXPECT_LT_MSG(test, entered, MANY_DRIVES,
			    "a worker for every one of %d drives", MANY_DRIVES);
}

/* A flush a third of an interval after a periodic check moves no other. */
static void check_after_flush_rejoins_the_grid(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	unsigned int gap, slack = grid_slack_ms(GRID_POLL_MS);
	unsigned long before, after;
	int n;

	poll_every(fd, GRID_POLL_MS);
	before = check_time(fd, fake_calls(fd));
	msleep(GRID_POLL_MS / 3);
	n = fake_calls(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, n + 1));
	after = check_time(fd, n + 1);
	/* One interval from the periodic check before: not from the flush. */
	gap = jiffies_to_msecs(after - before);
	KUNIT_EXPECT_LE_MSG(test, abs_diff(gap, (unsigned int)GRID_POLL_MS), slack,
			    "periodic checks %u ms apart across a flush, HZ=%d",
			    gap, HZ);
}

/*
 * A disk polled twice as often as another, started a quarter of the
 * longer interval after it, meets it on the longer interval's ticks.
 */
static void commensurate_intervals_meet_on_the_longer_tick(struct kunit *test)
{
	struct fake_disk *fast = fake_cdrom(test), *slow = fake_cdrom(test);
	unsigned int apart, closest = UINT_MAX;
	unsigned int slack = grid_slack_ms(GRID_POLL_MS);
	long from_slow[4];
	unsigned long t;
	int i, n;

	poll_every(slow, GRID_POLL_MS);
	msleep(GRID_POLL_MS / 4);
	poll_every(fast, GRID_POLL_MS / 2);
	n = fake_calls(fast);
	t = check_time(slow, fake_calls(slow));
	/*
	 * One of the fast disk's checks around it shares the slow one's
	 * tick: the last before we looked (on another CPU, the fast check
	 * of that tick may have returned before the slow one), or one of
	 * the next three.
	 */
	for (i = 0; i < ARRAY_SIZE(from_slow); i++) {
		from_slow[i] = (long)(check_time(fast, n - 1 + i) - t);
		apart = jiffies_to_msecs(abs(from_slow[i]));
		closest = min(closest, apart);
	}
	KUNIT_EXPECT_LE_MSG(test, closest, slack,
			    "fast checks %ld, %ld, %ld, %ld jiffies from the slow one, HZ=%d",
			    from_slow[0], from_slow[1], from_slow[2], from_slow[3],
			    HZ);
}

/* --- tracepoints, found by name so this file links against mainline --- */

struct tp_probe {
	struct kunit		*test;
	const char		*name;
	struct tracepoint	*tp;
	void			*fn;
	struct gendisk		*disk;		/* count only this disk's */
	atomic_t		hits;
	unsigned int		last_mask;	/* clearing or events */
	u64			last_u64;	/* duration or diskseq */
	int			last_depth;
};

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

/*
 * Attach @fn to tracepoint @name for the rest of the test; fails the
 * test if there is no such tracepoint.
 */
static struct tp_probe *tp_attach(struct kunit *test, struct fake_disk *fd,
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
static struct tp_probe *tp_attach(struct kunit *test, struct fake_disk *fd,
				  const char *name, void *fn)
{
	kunit_skip(test, "needs CONFIG_TRACEPOINTS");
	return NULL;
}
#endif

static void on_check(void *data, struct gendisk *disk, unsigned int clearing,
		     unsigned int found, u64 duration_ns)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_mask = found;
	p->last_u64 = duration_ns;
	atomic_inc(&p->hits);
}

static void on_uevent(void *data, struct gendisk *disk, unsigned int events,
		      u64 diskseq)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_mask = events;
	p->last_u64 = diskseq;
	atomic_inc(&p->hits);
}

static void on_damp(void *data, struct gendisk *disk, unsigned int level,
		    unsigned long period_ms)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_mask = level;
	p->last_u64 = period_ms;
	atomic_inc(&p->hits);
}

static void on_block(void *data, struct gendisk *disk, int depth)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_depth = depth;
	atomic_inc(&p->hits);
}

static void check_tracepoint_fires_per_check(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct tp_probe *p = tp_attach(test, fd, "disk_events_check", on_check);
	int n = fake_calls(fd);

	check_now_answering(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), fake_calls(fd) - n);
	KUNIT_EXPECT_GE(test, atomic_read(&p->hits), 1);
}

static void check_tracepoint_reports_found_events(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct tp_probe *p = tp_attach(test, fd, "disk_events_check", on_check);

	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, p->last_mask, DISK_EVENT_MEDIA_CHANGE);
}

static void uevent_tracepoint_carries_events_and_diskseq(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct tp_probe *p = tp_attach(test, fd, "disk_events_uevent", on_uevent);

	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);
	KUNIT_EXPECT_EQ(test, p->last_mask, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, p->last_u64, fd->disk->diskseq);
}

static void block_tracepoints_show_depth(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct tp_probe *b = tp_attach(test, fd, "disk_events_block", on_block);
	struct tp_probe *u = tp_attach(test, fd, "disk_events_unblock", on_block);

	disk_block_events(fd->disk);
	disk_block_events(fd->disk);
	KUNIT_EXPECT_EQ(test, b->last_depth, 2);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, u->last_depth, 1);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, u->last_depth, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->hits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->hits), 2);
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

/*
 * The value of "@key: value" in @fd's debugfs file block/<disk>/
 * disk_events; fails the test if the file or the key is missing, skips
 * it in a kernel without debugfs.
 */
static long long stat_of(struct fake_disk *fd, const char *key)
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

static void stats_count_checks(struct kunit *test)
{
	struct fake_disk *fd;
	long long before;
	int n;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	before = stat_of(fd, "checks");
	n = fake_calls(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_checked(fd, n + 1));
	KUNIT_EXPECT_EQ(test, stat_of(fd, "checks"), (long long)fake_calls(fd));
	KUNIT_EXPECT_EQ(test, stat_of(fd, "checks"), before + 1);
}

static void stats_count_found_events_and_uevents(struct kunit *test)
{
	struct fake_disk *fd;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_media_change"), 1);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_eject_request"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), 1);
}

static void stats_show_block_depth(struct kunit *test)
{
	struct fake_disk *fd;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "block_depth"), 0);
	disk_block_events(fd->disk);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "block_depth"), 1);
	msleep(50);
	KUNIT_EXPECT_GE(test, stat_of(fd, "blocked_ms"), 50);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "block_depth"), 0);
}

/* The interval a disk is polled at: the running default, its own, or none. */
static void stats_show_effective_interval(struct kunit *test)
{
	struct fake_disk *polled, *unpolled;

	needs_debugfs(test);
	polled = fake_polled_cdrom(test);
	unpolled = fake_cdrom(test);
	KUNIT_EXPECT_EQ(test, stat_of(polled, "poll_msecs"), (long long)get_dfl());
	KUNIT_EXPECT_EQ(test, stat_of(unpolled, "poll_msecs"), 0);
	set_poll_msecs(polled, "700");
	KUNIT_EXPECT_EQ(test, stat_of(polled, "poll_msecs"), 700);
}

/* --- uevents that are not sent are neither traced nor counted --- */

/**
 * clear_change_failing_uevent - clear a media change whose uevent fails
 * @test: the test
 * @fd: the disk
 * @l: a listener
 *
 * Clears a media change with disk_check_media_change(), which reports
 * it from the calling task, with the task's next slab allocation failed:
 * kobject_uevent_env()'s environment, so that it fails with -ENOMEM.
 * Another allocation may come first now and then (object debugging
 * refills its pool), and the uevent is sent: so up to five tries, until
 * one uevent was lost.
 *
 * Return: how many uevents did arrive, before the lost one.
 */
static int clear_change_failing_uevent(struct kunit *test,
				       struct fake_disk *fd, struct listener *l)
{
	unsigned int left;
	bool changed;
	int i;

	fail_nth_for_gfp_kernel(test);
	for (i = 0; i < 5; i++) {
		/* A check without change between: a drive, not a flapping one. */
		KUNIT_ASSERT_FALSE(test, disk_check_media_change(fd->disk));
		fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		xchg_fail_nth(1);
		changed = disk_check_media_change(fd->disk);
		left = xchg_fail_nth(0);
		KUNIT_ASSERT_TRUE(test, changed);
		KUNIT_ASSERT_EQ_MSG(test, left, 0,
				    "no allocation failed: was a uevent sent?");
		if (!count_uevents(l, fd, "DISK_MEDIA_CHANGE", QUIET_MS))
			return i;
	}
	KUNIT_FAIL_AND_ABORT(test, "5 uevents sent despite a failed allocation");
	return i;
}

/* Clear a media change whose uevent is sent; fails the test if it is not. */
static void clear_change_sending_uevent(struct kunit *test,
					struct fake_disk *fd,
					struct listener *l)
{
	KUNIT_ASSERT_FALSE(test, disk_check_media_change(fd->disk));
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_ASSERT_TRUE(test, disk_check_media_change(fd->disk));
	KUNIT_ASSERT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 1);
}

static void failed_uevent_hits_no_tracepoint(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct tp_probe *p = tp_attach(test, fd, "disk_events_uevent", on_uevent);
	struct listener *l = listener_open(test);
	int sent;

	sent = clear_change_failing_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), sent);
	clear_change_sending_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), sent + 1);
}

static void failed_uevent_not_counted(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int sent;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	l = listener_open(test);
	KUNIT_ASSERT_EQ(test, stat_of(fd, "uevents"), 0);
	sent = clear_change_failing_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), sent);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_media_change"), sent + 1);
	clear_change_sending_uevent(test, fd, l);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), sent + 1);
}

static void suppressed_uevent_hits_no_tracepoint(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct tp_probe *p = tp_attach(test, fd, "disk_events_uevent", on_uevent);

	suppress_uevents(test, fd);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));

	allow_uevents(fd);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);
}

static void suppressed_uevent_not_counted(struct kunit *test)
{
	struct fake_disk *fd;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	suppress_uevents(test, fd);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_media_change"), 1);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));

	allow_uevents(fd);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), 1);
}

/* --- strict parsing --- */

/*
 * Refused by kstrtol(): accepted by mainline's sscanf("%ld"), in part
 * or in another reading ("0x10" is 0, " 5" is 5, overflow wraps).
 */
static const struct interval_write malformed_poll_msecs[] = {
	REFUSED("12abc", EINVAL, "trailing garbage"),
	REFUSED("1e3", EINVAL, "an exponent"),
	REFUSED("1.5", EINVAL, "a fraction"),
	REFUSED("0x10", EINVAL, "hexadecimal"),
	REFUSED(" 5", EINVAL, "a leading space"),
	REFUSED("\t5", EINVAL, "a leading tab"),
	REFUSED("5 ", EINVAL, "a trailing space"),
	REFUSED("5\t", EINVAL, "a trailing tab"),
	REFUSED("5\n\n", EINVAL, "two newlines"),
	REFUSED("5\r\n", EINVAL, "a CR LF line end"),
	REFUSED("1,000", EINVAL, "a thousands separator"),
	REFUSED("1 2", EINVAL, "two numbers"),
	REFUSED("-1-", EINVAL, "a trailing sign"),
	REFUSED("99999999999999999999", ERANGE, "overflow"),
	REFUSED("-9223372036854775809", ERANGE, "below LONG_MIN"),
	/* 10^41: mainline's sscanf() wraps it to a positive long. */
	REFUSED("100000000000000000000000000000000000000000", ERANGE,
		"a very long number"),
	/* msecs_to_jiffies() takes an unsigned int. */
	REFUSED("4294967296", ERANGE, "above UINT_MAX"),
	REFUSED("9223372036854775807", ERANGE, "LONG_MAX"),
};

KUNIT_ARRAY_PARAM(malformed_poll_msecs, malformed_poll_msecs,
		  interval_write_desc);

/* Accepted by kstrtol(), refused by mainline's sscanf("%ld"). */
static const struct interval_write signed_poll_msecs[] = {
	ACCEPTED("+5", 5, "a plus sign"),
	ACCEPTED("+250\n", 250, "a plus sign and a newline"),
	ACCEPTED("+0", 0, "plus zero"),
};

KUNIT_ARRAY_PARAM(signed_poll_msecs, signed_poll_msecs, interval_write_desc);

/* Accepted by mainline's default, and stored as is. */
static const struct interval_write oversized_dfl_poll_msecs[] = {
	REFUSED("4294967296", ERANGE, "above UINT_MAX"),
	REFUSED("0x100000000", ERANGE, "above UINT_MAX, hexadecimal"),
	REFUSED("18446744073709551615", ERANGE, "ULONG_MAX"),
};

KUNIT_ARRAY_PARAM(oversized_dfl_poll_msecs, oversized_dfl_poll_msecs,
		  interval_write_desc);

/* --- removal, undeclared events, clears outside open --- */

static void check_media_change_after_removal_calls_no_driver(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	fake_remove(fd);
	disk_check_media_change(fd->disk);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

static void undeclared_event_never_pending(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_EJECT_REQUEST);

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

static void stray_bits_reach_neither_uevent_nor_pending(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_EJECT_REQUEST);
	struct listener *l = listener_open(test);

	fake_answer(fd, ~0U);	/* every bit, declared or not, known or not */
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_EJECT_REQUEST"));
	KUNIT_EXPECT_NULL(test, uevent_var(l, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
}

/* Mainline serialises only the clears that opens make, by open_mutex. */
static void checks_stay_serial_with_clears_outside_open(struct kunit *test)
{
	expect_serial_checks(test, true);
}

/*
 * --- flapping drives ---
 *
 * The core's documented constants: DISK_EVENTS_FLAP_CHECKS changes in a
 * row, of checks or of grid slots, make a disk flapping; its period is
 * at least DAMP_MIN_MS, doubled per level up to DAMP_MAX; a check that
 * finds no change a period after the last one ends the damping.
 */
#define FLAP_CHECKS	4
#define DAMP_MAX	3
#define DAMP_MIN_MS	1000

/* From now on, @fd's drive answers "changed" at every check. */
static void start_flapping(struct fake_disk *fd, unsigned int events)
{
	spin_lock(&fd->lock);
	fd->steady = events;
	spin_unlock(&fd->lock);
}

/* @n opens' checks, as udev's would make; each must learn of a change. */
static void opens_learn_of_changes(struct fake_disk *fd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(fd->test, disk_check_media_change(fd->disk));
}

/*
 * Sleep until at least half of the current slot of a @period_ms grid on
 * the jiffies clock is left.  A damped disk sends one media change
 * uevent per slot of its period's grid: a case that must see what one
 * slot allows starts here.
 */
static void start_early_in_slot(unsigned int period_ms)
{
	unsigned long period = msecs_to_jiffies(period_ms);

	while (period - jiffies % period < period / 2)
		msleep(20);
}

static void flapping_found_by_polls_slows_polling(struct kunit *test)
{
	struct fake_disk *fd;
	struct tp_probe *p;
	int n;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	p = tp_attach(test, fd, "disk_events_damp", on_damp);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	n = fake_calls(fd);
	set_poll_msecs(fd, FAST_POLL);
	/* The interval write's check and then polls, all "changed". */
	KUNIT_ASSERT_TRUE(test, wait_checked(fd, n + FLAP_CHECKS));
	KUNIT_EXPECT_EQ(test, stat_of(fd, "flapping"), 1);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"), 1);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_period_ms"), 2 * DAMP_MIN_MS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);
	KUNIT_EXPECT_EQ(test, p->last_u64, 2 * DAMP_MIN_MS);
	/* Polled every 2000 ms now, not every 10: one check in 1 s at most. */
	KUNIT_EXPECT_LE(test, calls_in(fd, 1000), 1);
}

static void flapping_found_by_opens_holds_uevents(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;

	needs_debugfs(test);
	fd = fake_cdrom(test);		/* not polled */
	l = listener_open(test);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	/* All the opens below within one slot of the level 1 period. */
	start_early_in_slot(2 * DAMP_MIN_MS);
	opens_learn_of_changes(fd, FLAP_CHECKS);
	/* Uevents until it is found flapping, the last one included. */
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), FLAP_CHECKS);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"), 1);

	opens_learn_of_changes(fd, FLAP_CHECKS - 1);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents_held"), FLAP_CHECKS - 1);
	/* The held change is told once, when its 2000 ms period ends. */
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    2 * DAMP_MIN_MS + QUIET_MS), 1);
}

/*
 * udev's opens take each change as soon as it is told, and between them
 * the drive's checks find none: a change in every slot of the grid (at
 * least DAMP_MIN_MS) still makes the disk flapping, at the fourth slot.
 */
static void changes_in_slots_in_a_row_are_flapping(struct kunit *test)
{
	struct fake_disk *fd;
	int i;

	needs_debugfs(test);
	fd = fake_cdrom(test);		/* not polled: slots of DAMP_MIN_MS */
	start_early_in_slot(DAMP_MIN_MS);
	for (i = 1; i <= FLAP_CHECKS; i++) {
		fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
		KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
		KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"),
				i == FLAP_CHECKS ? 1 : 0);
		msleep(DAMP_MIN_MS);
	}
	KUNIT_EXPECT_EQ(test, stat_of(fd, "flapping"), 1);
}

/* Like floppy's: no uevents, no loop with udev, no damping. */
static void drive_without_uevents_is_never_flapping(struct kunit *test)
{
	struct fake_disk *fd;

	needs_debugfs(test);
	fd = fake_alloc(test, DISK_EVENT_MEDIA_CHANGE, 0);
	fake_add(fd);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, 2 * FLAP_CHECKS);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"), 0);
}

static void damping_rises_a_level_per_run_up_to_its_cap(struct kunit *test)
{
	struct fake_disk *fd;
	struct tp_probe *p;
	int level;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	p = tp_attach(test, fd, "disk_events_damp", on_damp);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	for (level = 1; level <= DAMP_MAX + 2; level++) {
		opens_learn_of_changes(fd, FLAP_CHECKS);
		KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"),
				min(level, DAMP_MAX));
	}
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_period_ms"),
			DAMP_MIN_MS << DAMP_MAX);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "flapping"), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), DAMP_MAX);
	KUNIT_EXPECT_EQ(test, p->last_mask, DAMP_MAX);
}

static void damping_ends_after_a_quiet_stretch(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	struct tp_probe *p;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	p = tp_attach(test, fd, "disk_events_damp", on_damp);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, FLAP_CHECKS);
	KUNIT_ASSERT_EQ(test, stat_of(fd, "damp_level"), 1);

	start_flapping(fd, 0);
	msleep(2 * DAMP_MIN_MS + QUIET_MS);
	KUNIT_EXPECT_FALSE(test, disk_check_media_change(fd->disk));
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_period_ms"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 2);
	KUNIT_EXPECT_EQ(test, p->last_mask, 0);

	/* The next change is told at once again. */
	l = listener_open(test);
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 1);
}

static void damping_never_holds_eject_requests(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	start_flapping(fd, DISK_EVENT_MEDIA_CHANGE);
	opens_learn_of_changes(fd, FLAP_CHECKS);
	KUNIT_ASSERT_EQ(test, stat_of(fd, "damp_level"), 1);

	l = listener_open(test);
	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_EJECT_REQUEST",
					    QUIET_MS), 1);
}

/*
 * A disc swapped every 10 s in a drive polled every 2 s: a change every
 * fifth poll, here at 10 ms, and each swap an eject and an insert on two
 * polls in a row, then udev's open.  Every swap is told, none held.
 */
static void swap_every_ten_seconds_is_never_damped(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int i;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	l = listener_open(test);
	set_poll_msecs(fd, FAST_POLL);
	for (i = 0; i < 10; i++) {
		fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
		KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 2));
		close_disk(open_disk(fd, BLK_OPEN_READ, NULL));
		KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 4));
	}
	KUNIT_EXPECT_EQ(test, stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents_held"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"), 0);
}

/*
 * sr tells of a change twice: the poll's GET EVENT STATUS NOTIFICATION
 * finds it, then udev's open, whose check sends TEST UNIT READY, gets
 * the drive's unit attention for it.  An eject and an insert in quick
 * succession are thus four checks in a row that find a change, and
 * still one swap: both told, nothing damped.
 */
static void change_found_again_by_the_open_is_one_change(struct kunit *test)
{
	struct fake_disk *fd;
	struct listener *l;
	int i;

	needs_debugfs(test);
	fd = fake_cdrom(test);		/* not polled: the checks below only */
	l = listener_open(test);
	for (i = 0; i < 2; i++) {	/* the eject, then the insert */
		check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
		KUNIT_EXPECT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
		fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
		opens_learn_of_changes(fd, 1);
	}
	KUNIT_EXPECT_EQ(test, stat_of(fd, "flapping"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "damp_level"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents_held"), 0);
}

static void concurrent_clears_never_overlap(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct side_call *first, *second;

	hold_checks(fd);
	first = start_side_call(test, do_check_media_change, fd);
	KUNIT_ASSERT_TRUE(test, check_entered(fd));
	/* A driver calling it outside ->open(), without open_mutex. */
	second = start_side_call(test, do_check_media_change, fd);
	msleep(QUIET_MS);
	release_checks(fd);
	KUNIT_EXPECT_TRUE(test, side_call_done(first, WAIT_MS));
	KUNIT_EXPECT_TRUE(test, side_call_done(second, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
}

static struct kunit_case disk_events_beyond_mainline_cases[] = {
	KUNIT_CASE_PARAM(poll_msecs_refuses_bad_write,
			 malformed_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(poll_msecs_accepts_write, signed_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(default_refuses_bad_write,
			 oversized_dfl_poll_msecs_gen_params),
	KUNIT_CASE(check_media_change_after_removal_calls_no_driver),
	KUNIT_CASE(undeclared_event_never_pending),
	KUNIT_CASE(stray_bits_reach_neither_uevent_nor_pending),
	KUNIT_CASE(concurrent_clears_never_overlap),
	KUNIT_CASE(checks_stay_serial_with_clears_outside_open),
	KUNIT_CASE(equal_intervals_share_a_tick),
	KUNIT_CASE(check_after_flush_rejoins_the_grid),
	KUNIT_CASE(checks_of_many_drives_run_side_by_side_but_bounded),
	KUNIT_CASE(commensurate_intervals_meet_on_the_longer_tick),
	KUNIT_CASE(check_tracepoint_fires_per_check),
	KUNIT_CASE(check_tracepoint_reports_found_events),
	KUNIT_CASE(uevent_tracepoint_carries_events_and_diskseq),
	KUNIT_CASE(block_tracepoints_show_depth),
	KUNIT_CASE(stats_count_checks),
	KUNIT_CASE(stats_count_found_events_and_uevents),
	KUNIT_CASE(stats_show_block_depth),
	KUNIT_CASE(stats_show_effective_interval),
	KUNIT_CASE(suppressed_uevent_hits_no_tracepoint),
	KUNIT_CASE(suppressed_uevent_not_counted),
	KUNIT_CASE(failed_uevent_hits_no_tracepoint),
	KUNIT_CASE(failed_uevent_not_counted),
	KUNIT_CASE(flapping_found_by_polls_slows_polling),
	KUNIT_CASE_SLOW(flapping_found_by_opens_holds_uevents),
	KUNIT_CASE_SLOW(changes_in_slots_in_a_row_are_flapping),
	KUNIT_CASE(drive_without_uevents_is_never_flapping),
	KUNIT_CASE(damping_rises_a_level_per_run_up_to_its_cap),
	KUNIT_CASE_SLOW(damping_ends_after_a_quiet_stretch),
	KUNIT_CASE(damping_never_holds_eject_requests),
	KUNIT_CASE(swap_every_ten_seconds_is_never_damped),
	KUNIT_CASE(change_found_again_by_the_open_is_one_change),
	{}
};

static struct kunit_suite disk_events_beyond_mainline_suite = {
	.name = "disk_events_beyond_mainline",
	.test_cases = disk_events_beyond_mainline_cases,
};

kunit_test_suites(&disk_events_suite, &disk_events_beyond_mainline_suite);

MODULE_DESCRIPTION("KUnit tests for disk events");
MODULE_LICENSE("GPL");
