// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: many callers at once and a slow
 * drive.  Checks never overlap whoever calls for them, and a drive whose
 * checks take long delays neither the other drives nor blockers and
 * removal, without deadlock.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include "disk-events-test.h"

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
		det_close_disk(f);
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
	struct fake_disk *fd = det_fake_cdrom(test);
	struct hammers *h;

	/* Sleep in the driver, so another caller can get in even on one CPU. */
	WRITE_ONCE(fd->slow_ms, 1);
	det_set_poll_msecs(fd, "1");
	h = start_hammers(test, fd, outside_open);
	msleep(HAMMER_MS);
	stop_hammers(h);
	KUNIT_EXPECT_GT(test, atomic_read(&h->rounds), 4 * HAMMERS);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->errors), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
	/* Every block was undone: polling goes on. */
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(fd));
}

void det_checks_stay_serial_under_many_blockers_and_flushes(struct kunit *test)
{
	expect_serial_checks(test, false);
}

void det_removal_amid_many_blockers_ends_checks(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct hammers *h;

	WRITE_ONCE(fd->slow_ms, 1);
	det_set_poll_msecs(fd, "1");
	h = start_hammers(test, fd, false);
	msleep(HAMMER_MS / 2);
	det_do_del_gendisk(fd);
	msleep(HAMMER_MS / 2);
	stop_hammers(h);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->errors), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

/* --- clears outside open, beyond mainline --- */

void det_concurrent_clears_never_overlap(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct side_call *first, *second;

	det_hold_checks(fd);
	first = det_start_side_call(test, det_do_check_media_change, fd);
	KUNIT_ASSERT_TRUE(test, det_check_entered(fd));
	/* A driver calling it outside ->open(), without open_mutex. */
	second = det_start_side_call(test, det_do_check_media_change, fd);
	msleep(QUIET_MS);
	det_release_checks(fd);
	KUNIT_EXPECT_TRUE(test, det_side_call_done(first, WAIT_MS));
	KUNIT_EXPECT_TRUE(test, det_side_call_done(second, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
}

/* Mainline serialises only the clears that opens make, by open_mutex. */
void det_checks_stay_serial_with_clears_outside_open(struct kunit *test)
{
	expect_serial_checks(test, true);
}

/* --- a slow drive --- */

void det_slow_drive_delays_no_other(struct kunit *test)
{
	struct fake_disk *slow = det_fake_cdrom(test), *other = det_fake_cdrom(test);

	det_hold_checks(slow);
	disk_flush_events(slow->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_check_entered(slow));
	det_set_poll_msecs(other, FAST_POLL);
	KUNIT_EXPECT_TRUE(test, det_keeps_polling(other));
	det_release_checks(slow);
}

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
		det_close_disk(f);
}

/* How often the others are polled beside a slow drive (ms). */
#define BESIDE_SLOW_POLL_MS	100

/*
 * A drive whose every check takes SLOW_MS, polled like the others,
 * leaves them on their interval: each is checked at least half as often
 * as its interval allows while the slow one is in its checks.
 */
void det_slow_polled_drive_leaves_the_others_polled(struct kunit *test)
{
	struct fake_disk *slow = det_fake_cdrom(test), *others[3];
	int i, before[ARRAY_SIZE(others)];

	for (i = 0; i < ARRAY_SIZE(others); i++)
		others[i] = det_fake_cdrom(test);
	det_set_poll_msecs(slow, "100");
	WRITE_ONCE(slow->slow_ms, SLOW_MS);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		det_set_poll_msecs(others[i], "100");
	/* The slow drive's flushed check, then its polls, take SLOW_MS each. */
	msleep(BESIDE_SLOW_POLL_MS);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		before[i] = det_fake_calls(others[i]);
	msleep(SLOW_MS);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		KUNIT_EXPECT_GE(test, det_fake_calls(others[i]) - before[i],
				SLOW_MS / BESIDE_SLOW_POLL_MS / 2);
	WRITE_ONCE(slow->slow_ms, 0);
}

void det_slow_check_delays_blockers_without_deadlock(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct side_call *blocker, *writer;

	WRITE_ONCE(fd->slow_ms, SLOW_MS);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_running(fd));
	blocker = det_start_side_call(test, do_block_unblock, fd);
	writer = det_start_side_call(test, do_exclusive_write_open, fd);
	KUNIT_EXPECT_TRUE(test, det_side_call_done(blocker, WAIT_MS));
	KUNIT_EXPECT_TRUE(test, det_side_call_done(writer, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->overlapped));
	WRITE_ONCE(fd->slow_ms, 0);
}

void det_slow_check_delays_removal_without_deadlock(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct side_call *remover;

	WRITE_ONCE(fd->slow_ms, SLOW_MS);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, check_running(fd));
	remover = det_start_side_call(test, det_do_del_gendisk, fd);
	KUNIT_EXPECT_TRUE(test, det_side_call_done(remover, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}
