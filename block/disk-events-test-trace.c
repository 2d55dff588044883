// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the disk_events tracepoints,
 * beyond mainline, found by name (det_tp_attach()) so that the suites link
 * against mainline's core.
 */
#include "disk-events-test.h"

/* --- tracepoints --- */

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

static void on_block(void *data, struct gendisk *disk, int depth)
{
	struct tp_probe *p = data;

	if (disk != p->disk)
		return;
	p->last_depth = depth;
	atomic_inc(&p->hits);
}

void det_check_tracepoint_fires_per_check(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct tp_probe *p = det_tp_attach(test, fd, "disk_events_check", on_check);
	int n = det_fake_calls(fd);

	det_check_now_answering(fd, DISK_EVENT_EJECT_REQUEST);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), det_fake_calls(fd) - n);
	KUNIT_EXPECT_GE(test, atomic_read(&p->hits), 1);
}

void det_check_tracepoint_reports_found_events(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct tp_probe *p = det_tp_attach(test, fd, "disk_events_check", on_check);

	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, p->last_mask, DISK_EVENT_MEDIA_CHANGE);
}

void det_uevent_tracepoint_carries_events_and_diskseq(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct tp_probe *p = det_tp_attach(test, fd, "disk_events_uevent", det_on_uevent);

	det_check_now_answering(fd, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);
	KUNIT_EXPECT_EQ(test, p->last_mask, DISK_EVENT_MEDIA_CHANGE);
	KUNIT_EXPECT_EQ(test, p->last_u64, fd->disk->diskseq);
}

void det_block_tracepoints_show_depth(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	struct tp_probe *b = det_tp_attach(test, fd, "disk_events_block", on_block);
	struct tp_probe *u = det_tp_attach(test, fd, "disk_events_unblock", on_block);

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
