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
 * debugfs statistics, ...): it fails on mainline.  Tracepoints and the
 * debugfs file are looked up by name at run time, so the file links
 * against both cores.
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

/* Add @fd's disk and wait for the check that adding it makes, if any. */
static void fake_add(struct fake_disk *fd)
{
	struct kunit *test = fd->test;

	KUNIT_ASSERT_EQ(test, add_disk(fd->disk), 0);
	fd->added = true;
	if (fd->disk->events)
		KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 1));
}

/* A live fake disk like sr's: both events, polled, uevents. */
static struct fake_disk *fake_cdrom(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_POLL |
					  DISK_EVENT_FLAG_UEVENT |
					  DISK_EVENT_FLAG_BLOCK_ON_EXCL_WRITE);

	fake_add(fd);
	return fd;
}

/* A live fake disk that declares only @events, polled, with uevents. */
static struct fake_disk *fake_drive_of(struct kunit *test, unsigned int events)
{
	struct fake_disk *fd = fake_alloc(test, events, DISK_EVENT_FLAG_POLL |
					  DISK_EVENT_FLAG_UEVENT);

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

/* Calls made in QUIET_MS from now. */
static int calls_in_quiet_period(struct fake_disk *fd)
{
	int before = fake_calls(fd);

	msleep(QUIET_MS);
	return fake_calls(fd) - before;
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

static const struct kernel_param *dfl_param(void)
{
	const struct kernel_param *kp;

	for (kp = __start___param; kp < __stop___param; kp++)
		if (!strcmp(kp->name, "block.events_dfl_poll_msecs"))
			return kp;
	return NULL;
}

/* Set block.events_dfl_poll_msecs as the command line or sysfs would. */
static int set_dfl(const char *val)
{
	const struct kernel_param *kp = dfl_param();
	int ret;

	kernel_param_lock(NULL);
	ret = kp->ops->set(val, kp);
	kernel_param_unlock(NULL);
	return ret;
}

static unsigned long get_dfl(void)
{
	return *(unsigned long *)dfl_param()->arg;
}

static void restore_dfl(void *data)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lu", (unsigned long)data);
	set_dfl(buf);
}

/* Set the default for this test; the old one comes back at its end. */
static void save_dfl(struct kunit *test)
{
	void *old;

	KUNIT_ASSERT_NOT_NULL(test, dfl_param());
	old = (void *)get_dfl();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_dfl, old), 0);
}

static void test_set_dfl(struct kunit *test, const char *val)
{
	save_dfl(test);
	KUNIT_ASSERT_EQ(test, set_dfl(val), 0);
}

/* A rejected default returns an error and leaves the value alone. */
static void expect_dfl_rejected(struct kunit *test, const char *val)
{
	unsigned long before;

	save_dfl(test);
	before = get_dfl();
	KUNIT_EXPECT_LT(test, set_dfl(val), 0);
	KUNIT_EXPECT_EQ(test, get_dfl(), before);
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

/* Run @fn(@fd) in a kthread; the returned task ends with it. */
struct side_call {
	void			(*fn)(struct fake_disk *fd);
	struct fake_disk	*fd;
	struct completion	done;
};

static int side_call_fn(void *data)
{
	struct side_call *sc = data;

	sc->fn(sc->fd);
	complete(&sc->done);
	return 0;
}

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
	t = kthread_run(side_call_fn, sc, "disk-events-test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return sc;
}

static bool side_call_done(struct side_call *sc, unsigned int ms)
{
	return wait_for_completion_timeout(&sc->done, msecs_to_jiffies(ms));
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
	WRITE_ONCE(fd->hold, true);
}

static void release_checks(struct fake_disk *fd)
{
	WRITE_ONCE(fd->hold, false);
	complete_all(&fd->release);
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

/* --- interval --- */

static void add_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_POLL |
					  DISK_EVENT_FLAG_UEVENT);

	KUNIT_EXPECT_EQ(test, fake_calls(fd), 0);
	fake_add(fd);
	KUNIT_EXPECT_EQ(test, fake_calls(fd), 1);
}

static void default_zero_means_no_polling(struct kunit *test)
{
	struct fake_disk *fd;

	test_set_dfl(test, "0");
	fd = fake_cdrom(test);
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
	struct fake_disk *fd;

	test_set_dfl(test, FAST_POLL);
	fd = fake_cdrom(test);
	set_poll_msecs(fd, "0");
	settle(fd);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
}

static void own_interval_wins_over_default(struct kunit *test)
{
	struct fake_disk *fd;

	test_set_dfl(test, "3600000");
	fd = fake_cdrom(test);
	set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void default_polls_disks_with_poll_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	test_set_dfl(test, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
}

static void default_ignored_without_poll_flag(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_UEVENT);

	fake_add(fd);
	test_set_dfl(test, FAST_POLL);
	settle(fd);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
}

static void default_change_checks_every_disk_at_once(struct kunit *test)
{
	struct fake_disk *a = fake_cdrom(test), *b = fake_cdrom(test);

	test_set_dfl(test, "3600000");
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(a, 2));
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(b, 2));
}

static void own_interval_change_checks_at_once(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	set_poll_msecs(fd, "3600000");
	KUNIT_EXPECT_TRUE(test, fake_wait_calls(fd, 2));
}

/* --- what user space hears --- */

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

	fd->steady = DISK_EVENT_MEDIA_CHANGE;	/* a drive that keeps saying so */
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

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 2));
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

static void media_change_gets_new_diskseq_before_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	u64 seq = fd->disk->diskseq;
	unsigned long long got;

	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_EXPECT_GT(test, fd->disk->diskseq, seq);
	KUNIT_ASSERT_NOT_NULL(test, uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, fd->disk->diskseq);
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
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_POLL);
	struct listener *l;

	fake_add(fd);
	l = listener_open(test);
	fake_answer(fd, DISK_EVENT_MEDIA_CHANGE);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 2));
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    QUIET_MS), 0);
	KUNIT_EXPECT_TRUE(test, disk_check_media_change(fd->disk));
}

static void undeclared_event_sends_no_uevent(struct kunit *test)
{
	struct fake_disk *fd = fake_drive_of(test, DISK_EVENT_MEDIA_CHANGE);
	struct listener *l = listener_open(test);

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, 2));
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_EJECT_REQUEST",
					    QUIET_MS), 0);
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
	KUNIT_EXPECT_TRUE(test, side_call_done(blocker, WAIT_MS));
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
					  DISK_EVENT_FLAG_POLL |
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

/* --- suspend --- */

static void no_polling_while_workqueues_frozen(struct kunit *test)
{
#ifdef CONFIG_FREEZER
	struct fake_disk *fd = fake_cdrom(test);
	int i;

	set_poll_msecs(fd, FAST_POLL);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 2));
	/* What suspend does after freezing user space. */
	freeze_workqueues_begin();
	for (i = 0; i < 100 && freeze_workqueues_busy(); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, calls_in_quiet_period(fd), 0);
	thaw_workqueues();
	KUNIT_EXPECT_TRUE(test, keeps_polling(fd));
#else
	kunit_skip(test, "needs CONFIG_FREEZER");
#endif
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

/* --- a slow drive, a flapping drive --- */

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

static void flapping_drive_sends_one_uevent_per_ack(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	int i;

	spin_lock(&fd->lock);
	fd->steady = DISK_EVENT_MEDIA_CHANGE;	/* "changed" on every check */
	spin_unlock(&fd->lock);
	set_poll_msecs(fd, FAST_POLL);
	KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
					    2 * QUIET_MS), 1);
	for (i = 0; i < 5; i++) {
		close_disk(open_disk(fd, BLK_OPEN_READ, NULL));	/* udev's ack */
		KUNIT_EXPECT_EQ(test, count_uevents(l, fd, "DISK_MEDIA_CHANGE",
						    2 * QUIET_MS), 1);
	}
}

/* --- allocation failures --- */

/*
 * Open @path in a kernel mount of debugfs, returned in @mnt for
 * debugfs_close(); fails the test if it cannot.
 */
static struct file *debugfs_open(struct kunit *test, const char *path,
				 int flags, struct vfsmount **mnt)
{
	struct file_system_type *type = get_fs_type("debugfs");
	struct file *f;

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
 * Write @val to debugfs file @path, as a user would: debugfs' attribute
 * files copy from user memory, so the string goes through a KUnit-owned
 * user mapping.
 */
static void debugfs_write(struct kunit *test, const char *path,
			  const char *val)
{
	size_t len = strlen(val);
	unsigned long ubuf;
	struct vfsmount *mnt;
	struct file *f;
	loff_t pos = 0;
	ssize_t ret;

	ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, ubuf, 0);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)ubuf, val, len), 0);
	f = debugfs_open(test, path, O_WRONLY, &mnt);
	ret = vfs_write(f, (const char __user *)ubuf, len, &pos);
	debugfs_close(f, mnt);
	KUNIT_ASSERT_EQ(test, ret, (ssize_t)len);
}

/*
 * Let a task's fail-nth fail GFP_KERNEL slab allocations too (by default
 * failslab spares those that may sleep), with a one-line notice instead
 * of a stack dump per failure.  Left so if the test aborts: with
 * failslab's probability 0, only a task's own fail-nth fails anything.
 */
static void failslab_for_fail_nth(struct kunit *test, bool on)
{
	debugfs_write(test, "failslab/ignore-gfp-wait", on ? "N" : "Y");
	debugfs_write(test, "failslab/verbose", on ? "1" : "2");
}

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

	failslab_for_fail_nth(test, true);
	for (nth = 1; nth < 500 && !after_events; nth++) {
		fd = fake_alloc(test, ALL_EVENTS, DISK_EVENT_FLAG_POLL |
				DISK_EVENT_FLAG_UEVENT);
		current->fail_nth = nth;
		ret = add_disk(fd->disk);
		left = current->fail_nth;
		current->fail_nth = 0;
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
	failslab_for_fail_nth(test, false);
	kunit_info(test, "add_disk() failed cleanly up to allocation %d\n",
		   nth - 1);
	KUNIT_EXPECT_TRUE(test, before_events);
	KUNIT_EXPECT_TRUE(test, after_events);
}
#else
static void add_disk_fails_cleanly_when_allocation_fails(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS");
}
#endif

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
	struct fake_disk *fd = fake_alloc(test, ALL_EVENTS,
					  DISK_EVENT_FLAG_POLL);
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
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	show_attr(fd, &dev_attr_events_poll_msecs, buf);
	KUNIT_EXPECT_STREQ(test, buf, "-1\n");
	set_poll_msecs(fd, "250\n");
	show_attr(fd, &dev_attr_events_poll_msecs, buf);
	KUNIT_EXPECT_STREQ(test, buf, "250\n");
	set_poll_msecs(fd, "-1");
	show_attr(fd, &dev_attr_events_poll_msecs, buf);
	KUNIT_EXPECT_STREQ(test, buf, "-1\n");
}

static void poll_msecs_minus_one_without_events(struct kunit *test)
{
	struct fake_disk *fd = fake_alloc(test, 0, 0);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	fake_add(fd);
	show_attr(fd, &dev_attr_events_poll_msecs, buf);
	KUNIT_EXPECT_STREQ(test, buf, "-1\n");
	KUNIT_EXPECT_EQ(test, poll_msecs_store(fd, "100", 3), -ENODEV);
}

/* A rejected write returns an error and leaves the value alone. */
static void expect_poll_msecs_rejected(struct kunit *test, const char *val,
				       size_t count)
{
	struct fake_disk *fd = fake_cdrom(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	ssize_t ret;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	set_poll_msecs(fd, "700");
	ret = poll_msecs_store(fd, val, count);
	KUNIT_EXPECT_TRUE_MSG(test, ret == -EINVAL || ret == -ERANGE,
			      "write of \"%*pE\" returned %zd", (int)count, val, ret);
	show_attr(fd, &dev_attr_events_poll_msecs, buf);
	KUNIT_EXPECT_STREQ(test, buf, "700\n");
}

/* A written value that must be refused: @len bytes of @val. */
struct bad_write {
	const char	*val;
	size_t		len;
	const char	*what;
};

#define BAD(s, w)	{ .val = s, .len = sizeof(s) - 1, .what = w }

static void bad_write_desc(const struct bad_write *bw, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", bw->what);
}

/* Refused by mainline's sysfs store too. */
static const struct bad_write bad_poll_msecs[] = {
	BAD("-2", "below -1"),
	BAD("-1000", "far below -1"),
	BAD("", "empty"),
	BAD("\n", "a newline alone"),
	BAD("fast\n", "a word"),
	BAD("-", "a sign alone"),
	BAD("--1", "two signs"),
	BAD("+5", "a plus sign"),
	BAD("\0", "a NUL alone"),
};

KUNIT_ARRAY_PARAM(bad_poll_msecs, bad_poll_msecs, bad_write_desc);

/* One bad write of a table, to a disk's events_poll_msecs (both suites). */
static void poll_msecs_rejects_bad_write(struct kunit *test)
{
	const struct bad_write *bw = test->param_value;

	expect_poll_msecs_rejected(test, bw->val, bw->len);
}

/* Refused by mainline's default too (kstrtoul()). */
static const struct bad_write bad_dfl_poll_msecs[] = {
	BAD("-2", "negative"),
	BAD("", "empty"),
	BAD("\n", "a newline alone"),
	BAD("fast\n", "a word"),
	BAD("-", "a sign alone"),
	BAD("12abc", "trailing garbage"),
	BAD("1e3", "an exponent"),
	BAD("1.5", "a fraction"),
	BAD(" 5", "a leading space"),
	BAD("5 ", "a trailing space"),
	BAD("\t5", "a leading tab"),
	BAD("5\n\n", "two newlines"),
	BAD("1,000", "a thousands separator"),
	BAD("99999999999999999999", "overflow"),
	BAD("5\t", "a trailing tab"),
	BAD("1 2", "two numbers"),
	BAD("5\r\n", "a CR LF line end"),
	BAD("--1", "two signs"),
	BAD("+", "a plus sign alone"),
	BAD("0x", "a hexadecimal prefix alone"),
	BAD("0b101", "binary"),
	BAD("1_000", "a digit separator"),
	BAD("NaN", "not a number"),
	BAD("100000000000000000000000000000000000000000", "a very long number"),
	BAD("5\n ", "a space after the newline"),
};

KUNIT_ARRAY_PARAM(bad_dfl_poll_msecs, bad_dfl_poll_msecs, bad_write_desc);

/* One bad write of a table, to block.events_dfl_poll_msecs (both suites). */
static void default_rejects_bad_write(struct kunit *test)
{
	const struct bad_write *bw = test->param_value;

	expect_dfl_rejected(test, bw->val);
}

static void default_rejects_negative(struct kunit *test)
{
	expect_dfl_rejected(test, "-1");
}

static void default_accepts_trailing_newline(struct kunit *test)
{
	test_set_dfl(test, "1234\n");
	KUNIT_EXPECT_EQ(test, get_dfl(), 1234UL);
}

static struct kunit_case disk_events_cases[] = {
	KUNIT_CASE(add_checks_at_once),
	KUNIT_CASE(default_zero_means_no_polling),
	KUNIT_CASE(own_interval_polls),
	KUNIT_CASE(own_zero_disables_despite_default),
	KUNIT_CASE(own_interval_wins_over_default),
	KUNIT_CASE(default_polls_disks_with_poll_flag),
	KUNIT_CASE(default_ignored_without_poll_flag),
	KUNIT_CASE(default_change_checks_every_disk_at_once),
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
	KUNIT_CASE(eject_request_keeps_diskseq),
	KUNIT_CASE(no_uevent_without_uevent_flag),
	KUNIT_CASE(undeclared_event_sends_no_uevent),
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
	KUNIT_CASE(no_polling_while_workqueues_frozen),
	KUNIT_CASE(slow_drive_delays_no_other),
	KUNIT_CASE(no_check_after_removal),
	KUNIT_CASE(removal_waits_for_check_in_flight),
	KUNIT_CASE(disk_without_check_events_has_no_events),
	KUNIT_CASE(checks_stay_serial_under_many_blockers_and_flushes),
	KUNIT_CASE(removal_amid_many_blockers_ends_checks),
	KUNIT_CASE_SLOW(slow_check_delays_blockers_without_deadlock),
	KUNIT_CASE_SLOW(slow_check_delays_removal_without_deadlock),
	KUNIT_CASE_SLOW(flapping_drive_sends_one_uevent_per_ack),
	KUNIT_CASE_SLOW(add_disk_fails_cleanly_when_allocation_fails),
	KUNIT_CASE(events_lists_names_with_newline),
	KUNIT_CASE(events_empty_without_uevent_flag),
	KUNIT_CASE(events_async_is_empty),
	KUNIT_CASE(poll_msecs_reads_back),
	KUNIT_CASE(poll_msecs_minus_one_without_events),
	KUNIT_CASE_PARAM(poll_msecs_rejects_bad_write, bad_poll_msecs_gen_params),
	KUNIT_CASE(default_rejects_negative),
	KUNIT_CASE_PARAM(default_rejects_bad_write, bad_dfl_poll_msecs_gen_params),
	KUNIT_CASE(default_accepts_trailing_newline),
	{}
};

static struct kunit_suite disk_events_suite = {
	.name = "disk_events",
	.test_cases = disk_events_cases,
};

/* --- behaviour mainline lacks --- */

/* A poll interval (ms) long enough to tell grid points from other times. */
#define GRID_POLL_MS	600
#define GRID_HALF_MS	300
/* How far off a grid point a periodic check may run: timer wheel slack
 * (8 jiffies at this interval) and worker latency under emulation.
 */
#define GRID_SLACK_MS	80

/* The jiffies at check number @n (0 is the first); fails if none comes. */
static unsigned long check_time(struct fake_disk *fd, int n)
{
	KUNIT_ASSERT_TRUE(fd->test, fake_wait_calls(fd, n + 1));
	return fd->when[n];
}

/* Set @fd's own interval and wait for the immediate check it makes. */
static void poll_every(struct fake_disk *fd, const char *msecs)
{
	int n = fake_calls(fd);

	set_poll_msecs(fd, msecs);
	KUNIT_ASSERT_TRUE(fd->test, fake_wait_calls(fd, n + 1));
}

static void equal_intervals_share_a_tick(struct kunit *test)
{
	struct fake_disk *a = fake_cdrom(test), *b = fake_cdrom(test);
	unsigned long ta, tb, half = msecs_to_jiffies(GRID_POLL_MS / 2);
	int na, nb;

	poll_every(a, __stringify(GRID_POLL_MS));
	msleep(GRID_POLL_MS / 3);
	poll_every(b, __stringify(GRID_POLL_MS));
	na = fake_calls(a);
	nb = fake_calls(b);
	ta = check_time(a, na);
	tb = check_time(b, nb);
	/* One may have had its check of this tick before we looked. */
	if (time_after(ta, tb + half))
		tb = check_time(b, nb + 1);
	else if (time_after(tb, ta + half))
		ta = check_time(a, na + 1);
	KUNIT_EXPECT_LE_MSG(test, jiffies_to_msecs(abs_diff(ta, tb)),
			    GRID_SLACK_MS, "periodic checks %u ms apart",
			    jiffies_to_msecs(abs_diff(ta, tb)));
}

static void check_after_flush_rejoins_the_grid(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	unsigned long before, after;
	unsigned int gap;

	poll_every(fd, __stringify(GRID_POLL_MS));
	before = check_time(fd, fake_calls(fd));
	msleep(GRID_POLL_MS / 3);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 1));
	after = check_time(fd, fake_calls(fd));
	/* One interval from the periodic check before: not from the flush. */
	gap = jiffies_to_msecs(after - before);
	KUNIT_EXPECT_LE_MSG(test, abs_diff(gap, (unsigned int)GRID_POLL_MS), GRID_SLACK_MS,
			    "periodic checks %u ms apart across a flush", gap);
}

static void commensurate_intervals_meet_on_the_longer_tick(struct kunit *test)
{
	struct fake_disk *fast = fake_cdrom(test), *slow = fake_cdrom(test);
	unsigned int apart, closest = UINT_MAX;
	long from_slow[4];
	unsigned long t;
	int i, n;

	poll_every(slow, __stringify(GRID_POLL_MS));
	msleep(GRID_POLL_MS / 3);
	poll_every(fast, __stringify(GRID_HALF_MS));
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
	KUNIT_EXPECT_LE_MSG(test, closest, GRID_SLACK_MS,
			    "fast checks %ld, %ld, %ld, %ld jiffies from the slow one",
			    from_slow[0], from_slow[1], from_slow[2], from_slow[3]);
}

/* Have the next check find @events, run it at once and let it finish. */
static void check_now_answering(struct fake_disk *fd, unsigned int events)
{
	fake_answer(fd, events);
	disk_flush_events(fd->disk, 0);
	settle(fd);
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

/* Attach @fn to tracepoint @name for the rest of the test. */
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

	fake_answer(fd, DISK_EVENT_EJECT_REQUEST);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, n + 1));
	settle(fd);
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
 * disk_events; fails the test if the file or the key is missing.
 */
static long long stat_of(struct fake_disk *fd, const char *key)
{
	char path[64], buf[512], *line;
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
	struct fake_disk *fd = fake_cdrom(test);
	long long before = stat_of(fd, "checks");

	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, fake_wait_calls(fd, fake_calls(fd) + 1));
	settle(fd);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "checks"), (long long)fake_calls(fd));
	KUNIT_EXPECT_GT(test, stat_of(fd, "checks"), before);
}

static void stats_count_found_events_and_uevents(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_media_change"), 1);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_eject_request"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), 1);
}

static void stats_show_block_depth(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);

	KUNIT_EXPECT_EQ(test, stat_of(fd, "block_depth"), 0);
	disk_block_events(fd->disk);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "block_depth"), 1);
	msleep(50);
	KUNIT_EXPECT_GE(test, stat_of(fd, "blocked_ms"), 50);
	disk_unblock_events(fd->disk);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "block_depth"), 0);
}

static void stats_show_effective_interval(struct kunit *test)
{
	struct fake_disk *fd;

	test_set_dfl(test, "3000");
	fd = fake_cdrom(test);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "poll_msecs"), 3000);
	set_poll_msecs(fd, "700");
	KUNIT_EXPECT_EQ(test, stat_of(fd, "poll_msecs"), 700);
}

/* Accepted, in part or in some other reading, by mainline's sscanf(). */
static const struct bad_write malformed_poll_msecs[] = {
	BAD("12abc", "trailing garbage"),
	BAD("1e3", "an exponent"),
	BAD("1.5", "a fraction"),
	BAD(" 5", "a leading space"),
	BAD("5 ", "a trailing space"),
	BAD("5\n\n", "two newlines"),
	BAD("99999999999999999999", "overflow"),
	BAD("86400001", "above one day"),
	BAD("5\09", "an embedded NUL"),	/* '5', '\0', '9' */
	BAD("0x10", "hexadecimal"),
	BAD("\t5", "a leading tab"),
	BAD("5\t", "a trailing tab"),
	BAD("1,000", "a thousands separator"),
	BAD("1 2", "two numbers"),
	BAD("5\r\n", "a CR LF line end"),
	BAD("-1-", "a trailing sign"),
	BAD("-9223372036854775809", "below LONG_MIN"),
	/* 10^41: mainline's sscanf() wraps it to a positive long. */
	BAD("100000000000000000000000000000000000000000", "a very long number"),
};

KUNIT_ARRAY_PARAM(malformed_poll_msecs, malformed_poll_msecs, bad_write_desc);

/* Accepted by mainline's default, whose kstrtoul() takes any base. */
static const struct bad_write malformed_dfl_poll_msecs[] = {
	BAD("0x10", "hexadecimal"),
	BAD("+5", "a plus sign"),
	BAD("86400001", "above one day"),
	BAD("4294967296", "above 32 bits"),
};

KUNIT_ARRAY_PARAM(malformed_dfl_poll_msecs, malformed_dfl_poll_msecs,
		  bad_write_desc);

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

static void forced_change_uevent_carries_new_diskseq(struct kunit *test)
{
	struct fake_disk *fd = fake_cdrom(test);
	struct listener *l = listener_open(test);
	unsigned long long got;

	disk_force_media_change(fd->disk);
	KUNIT_ASSERT_TRUE(test, wait_uevent(l, fd, "DISK_MEDIA_CHANGE"));
	KUNIT_ASSERT_NOT_NULL(test, uevent_var(l, "DISKSEQ"));
	KUNIT_ASSERT_EQ(test, kstrtoull(uevent_var(l, "DISKSEQ"), 10, &got), 0);
	KUNIT_EXPECT_EQ(test, got, fd->disk->diskseq);
}

static struct kunit_case disk_events_beyond_mainline_cases[] = {
	KUNIT_CASE_PARAM(poll_msecs_rejects_bad_write,
			 malformed_poll_msecs_gen_params),
	KUNIT_CASE_PARAM(default_rejects_bad_write,
			 malformed_dfl_poll_msecs_gen_params),
	KUNIT_CASE(check_media_change_after_removal_calls_no_driver),
	KUNIT_CASE(undeclared_event_never_pending),
	KUNIT_CASE(stray_bits_reach_neither_uevent_nor_pending),
	KUNIT_CASE(concurrent_clears_never_overlap),
	KUNIT_CASE(checks_stay_serial_with_clears_outside_open),
	KUNIT_CASE(forced_change_uevent_carries_new_diskseq),
	KUNIT_CASE(equal_intervals_share_a_tick),
	KUNIT_CASE(check_after_flush_rejoins_the_grid),
	KUNIT_CASE(commensurate_intervals_meet_on_the_longer_tick),
	KUNIT_CASE(check_tracepoint_fires_per_check),
	KUNIT_CASE(check_tracepoint_reports_found_events),
	KUNIT_CASE(uevent_tracepoint_carries_events_and_diskseq),
	KUNIT_CASE(block_tracepoints_show_depth),
	KUNIT_CASE(stats_count_checks),
	KUNIT_CASE(stats_count_found_events_and_uevents),
	KUNIT_CASE(stats_show_block_depth),
	KUNIT_CASE(stats_show_effective_interval),
	{}
};

static struct kunit_suite disk_events_beyond_mainline_suite = {
	.name = "disk_events_beyond_mainline",
	.test_cases = disk_events_beyond_mainline_cases,
};

kunit_test_suites(&disk_events_suite, &disk_events_beyond_mainline_suite);

MODULE_DESCRIPTION("KUnit tests for disk events");
MODULE_LICENSE("GPL");
