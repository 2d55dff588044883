// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the sysfs attributes and the
 * default.  What events, events_async and events_poll_msecs read, and
 * which writes of events_poll_msecs and block.events_dfl_poll_msecs are
 * taken; the writes each suite tries are in disk-events-test-suites.c.
 */
#include "disk-events-test.h"

/* --- sysfs --- */

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

void det_events_lists_names_with_newline(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	show_attr(fd, &dev_attr_events, buf);
	KUNIT_EXPECT_STREQ(test, buf, "media_change eject_request\n");
}

void det_events_empty_without_uevent_flag(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, ALL_EVENTS, 0);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	det_fake_add(fd);
	KUNIT_EXPECT_EQ(test, show_attr(fd, &dev_attr_events, buf), 0);
}

void det_events_async_is_empty(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, show_attr(fd, &dev_attr_events_async, buf), 0);
}

void det_poll_msecs_reads_back(struct kunit *test)
{
	struct fake_disk *fd = det_fake_cdrom(test);

	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "-1\n");
	det_set_poll_msecs(fd, "250\n");
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "250\n");
	det_set_poll_msecs(fd, "-1");
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "-1\n");
}

void det_poll_msecs_minus_one_without_events(struct kunit *test)
{
	struct fake_disk *fd = det_fake_alloc(test, 0, 0);

	det_fake_add(fd);
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "-1\n");
	KUNIT_EXPECT_EQ(test, det_poll_msecs_store(fd, "100", 3), -ENODEV);
}

/* A refused write returns its error and leaves the interval alone. */
void det_poll_msecs_refuses_bad_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	struct fake_disk *fd = det_fake_cdrom(test);

	det_set_poll_msecs(fd, "700");
	KUNIT_EXPECT_EQ_MSG(test, det_poll_msecs_store(fd, w->val, w->len),
			    (ssize_t)w->err, "write of \"%*pE\"", (int)w->len,
			    w->val);
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), "700\n");
}

/* An accepted write returns its length; the value reads back. */
void det_poll_msecs_accepts_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	struct fake_disk *fd = det_fake_cdrom(test);
	char want[24];

	det_set_poll_msecs(fd, "700");
	KUNIT_EXPECT_EQ_MSG(test, det_poll_msecs_store(fd, w->val, w->len),
			    (ssize_t)w->len, "write of \"%*pE\"", (int)w->len,
			    w->val);
	snprintf(want, sizeof(want), "%lld\n", w->msecs);
	KUNIT_EXPECT_STREQ(test, read_poll_msecs(fd), want);
}

/* Neither a value the parser may leave nor one it may store. */
#define DFL_UNTOUCHED	12345UL

/* A refused default returns its error and stores nothing. */
void det_default_refuses_bad_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	unsigned long msecs = DFL_UNTOUCHED;

	KUNIT_EXPECT_EQ_MSG(test, det_parse_dfl(test, w->val, &msecs), w->err,
			    "write of \"%*pE\"", (int)w->len, w->val);
	KUNIT_EXPECT_EQ(test, msecs, DFL_UNTOUCHED);
}

/* An accepted default stores its value. */
void det_default_accepts_write(struct kunit *test)
{
	const struct interval_write *w = test->param_value;
	unsigned long msecs = DFL_UNTOUCHED;

	KUNIT_EXPECT_EQ_MSG(test, det_parse_dfl(test, w->val, &msecs), 0,
			    "write of \"%*pE\"", (int)w->len, w->val);
	KUNIT_EXPECT_EQ(test, (long long)msecs, w->msecs);
}

/*
 * The real parameter reads back what was written to it: the running
 * default, so that nothing changes for the rest of the system.
 */
void det_default_write_reads_back(struct kunit *test)
{
	const struct dfl_spelling *sp = test->param_value;

	det_rewrite_dfl(test, sp->fmt);
}
