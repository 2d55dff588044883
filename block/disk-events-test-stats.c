// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the per-disk statistics in
 * debugfs, beyond mainline, read through a kernel mount of debugfs.
 */
#include <linux/delay.h>
#include "disk-events-test.h"

/* --- debugfs statistics --- */

void stats_count_checks(struct kunit *test)
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

void stats_count_found_events_and_uevents(struct kunit *test)
{
	struct fake_disk *fd;

	needs_debugfs(test);
	fd = fake_cdrom(test);
	check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_media_change"), 1);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "found_eject_request"), 0);
	KUNIT_EXPECT_EQ(test, stat_of(fd, "uevents"), 1);
}

void stats_show_block_depth(struct kunit *test)
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
void stats_show_effective_interval(struct kunit *test)
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
