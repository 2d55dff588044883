// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: adding and removing disks.  No
 * check after removal, removal waits for a check in flight, and add_disk()
 * fails cleanly when an allocation fails.
 */
#include <linux/delay.h>
#include "disk-events-test.h"

/* --- teardown --- */

void det_no_check_after_removal(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	int n;

	det_set_poll_msecs(fd, "1");
	det_fake_remove(fd);
	n = det_fake_calls(fd);
	msleep(QUIET_MS);
	KUNIT_EXPECT_EQ(test, det_fake_calls(fd), n);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

void det_removal_waits_for_check_in_flight(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct side_call *remover;

	det_hold_checks(fd);
	disk_flush_events(fd->disk, 0);
	KUNIT_ASSERT_TRUE(test, det_check_entered(fd));
	remover = det_start_side_call(test, det_do_del_gendisk, fd);
	KUNIT_EXPECT_FALSE(test, det_side_call_done(remover, QUIET_MS));
	det_release_checks(fd);
	KUNIT_EXPECT_TRUE(test, det_side_call_done(remover, WAIT_MS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(fd->called_after_del));
}

void det_disk_without_check_events_has_no_events(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, 0, 0);

	det_fake_add(fd);	/* the core must not call ->check_events() ... */
	KUNIT_EXPECT_NULL(test, fd->disk->ev);
}

/* --- clears after removal, beyond mainline --- */

void det_check_media_change_after_removal_calls_no_driver(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	det_fake_remove(fd);
	disk_check_media_change(fd->disk);
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
void det_add_disk_fails_cleanly_when_allocation_fails(struct kunit *test)
{
	bool before_events = false, after_events = false;
	struct fake_disk *fd;
	unsigned int left;
	int nth, ret;

	det_fail_nth_for_gfp_kernel(test);
	for (nth = 1; nth < 500 && !after_events; nth++) {
		fd = det_fake_alloc(test, ALL_EVENTS, FAKE_CDROM_FLAGS);
		det_xchg_fail_nth(nth);
		ret = add_disk(fd->disk);
		left = det_xchg_fail_nth(0);
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
		KUNIT_EXPECT_EQ(test, det_fake_calls(fd), 0);
	}
	kunit_info(test, "add_disk() failed cleanly up to allocation %d\n",
		   nth - 1);
	KUNIT_EXPECT_TRUE(test, before_events);
	KUNIT_EXPECT_TRUE(test, after_events);
}
