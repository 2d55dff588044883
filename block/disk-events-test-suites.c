// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the suites.
 *
 * Each case adds real gendisks of a fake removable-disk driver, whose
 * ->check_events() answers from a script, counts its calls and records
 * the clearing mask of each; and it listens for uevents on a kernel-side
 * NETLINK_KOBJECT_UEVENT socket, as udev would.  Opens go through
 * bdev_file_open_by_dev(), so blocking around opens and for exclusive
 * writers is the block layer's own.
 *
 * Suite "disk_events" is behaviour mainline has; the same files build
 * against the unmodified core, where it must pass.  Suite
 * "disk_events_beyond_mainline" is behaviour only our core has (strict
 * input parsing, no checks after removal, aligned polling, tracepoints,
 * debugfs statistics, damping of flapping drives, ...): it fails on
 * mainline.  Tracepoints and the debugfs file are looked up by name at
 * run time, so the files link against both cores; a case that needs
 * them is skipped in a kernel built without CONFIG_TRACEPOINTS or
 * CONFIG_DEBUG_FS, but fails if the kernel has the facility and the core
 * does not use it.
 *
 * No case changes what the rest of the system relies on.  The running
 * block.events_dfl_poll_msecs is never changed: the cases about it check
 * what the default the kernel runs with must do (tools/testing/disk-
 * events/kunit.py boots one kernel with mainline's 0 and one with a
 * short default), and parse other values aside (det_parse_dfl()).  Fault
 * injection is the task's own fail-nth; the failslab settings it needs
 * are restored when the case ends.  Threads a case starts are joined
 * when it ends, however it ends.
 *
 * The files, all linked into one object, disk-events-test.o:
 *
 *   disk-events-test-suites.c       this file: the suites, and the writes
 *                                   their parameterised cases try
 *   disk-events-test.h              what the files share
 *   disk-events-test-helpers.c      the fake disk, the uevent listener,
 *                                   opens, debugfs, tracepoints
 *   disk-events-test-interval.c     when checks run
 *   disk-events-test-uevent.c       what user space hears
 *   disk-events-test-block.c        blocking and flushing
 *   disk-events-test-lifetime.c     adding and removing disks
 *   disk-events-test-concurrency.c  many callers at once, a slow drive
 *   disk-events-test-sysfs.c        the sysfs attributes and the default
 *   disk-events-test-grid.c         aligned polling
 *   disk-events-test-trace.c        tracepoints
 *   disk-events-test-stats.c        debugfs statistics
 *   disk-events-test-unsent.c       uevents not sent
 *   disk-events-test-flapping.c     flapping drives
 */
#include <linux/module.h>
#include "disk-events-test.h"

/* --- the writes of the interval parsing cases (disk-events-test-sysfs.c) --- */

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
	ACCEPTED("2147483647", 2147483647, "INT_MAX: the longest interval"),
	ACCEPTED("5\0 9", 5, "up to an embedded NUL"),
};

KUNIT_ARRAY_PARAM(good_poll_msecs, good_poll_msecs, interval_write_desc);

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
	ACCEPTED("2147483647", 2147483647, "INT_MAX: the longest interval"),
};

KUNIT_ARRAY_PARAM(good_dfl_poll_msecs, good_dfl_poll_msecs,
		  interval_write_desc);

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

/* --- strict parsing, beyond mainline --- */

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
	/*
	 * msecs_to_jiffies() converts up to INT_MAX: mainline polled these
	 * never, or truncated them to another interval.
	 */
	REFUSED("2147483648", ERANGE, "above INT_MAX"),
	REFUSED("4294967295", ERANGE, "UINT_MAX"),
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
	REFUSED("2147483648", ERANGE, "above INT_MAX"),
	REFUSED("0x80000000", ERANGE, "above INT_MAX, hexadecimal"),
	REFUSED("4294967295", ERANGE, "UINT_MAX"),
	REFUSED("4294967296", ERANGE, "above UINT_MAX"),
	REFUSED("0x100000000", ERANGE, "above UINT_MAX, hexadecimal"),
	REFUSED("18446744073709551615", ERANGE, "ULONG_MAX"),
};

KUNIT_ARRAY_PARAM(oversized_dfl_poll_msecs, oversized_dfl_poll_msecs,
		  interval_write_desc);

/* --- the suites --- */

static struct kunit_case disk_events_cases[] = {
	DET_CASE(add_checks_at_once),
	DET_CASE(poll_flag_disk_follows_the_default),
	DET_CASE(own_interval_polls),
	DET_CASE(own_zero_disables_despite_default),
	DET_CASE(own_interval_wins_over_default),
	DET_CASE(default_ignored_without_poll_flag),
	DET_CASE(default_write_checks_every_disk_at_once),
	DET_CASE(own_interval_change_checks_at_once),
	DET_CASE(media_change_sends_uevent),
	DET_CASE(eject_request_sends_uevent),
	DET_CASE(pending_event_reported_once),
	DET_CASE(open_clears_pending_so_next_change_is_reported),
	DET_CASE(change_while_pending_is_not_reported),
	DET_CASE(check_media_change_reports_pending_change),
	DET_CASE(check_media_change_finds_unpolled_change),
	DET_CASE(check_media_change_false_without_change),
	DET_CASE(check_media_change_clears_both_events),
	DET_CASE(media_change_gets_new_diskseq_before_uevent),
	DET_CASE(forced_change_sends_uevent_then_bumps_diskseq),
	DET_CASE(eject_request_keeps_diskseq),
	DET_CASE(no_uevent_without_uevent_flag),
	DET_CASE(undeclared_event_sends_no_uevent),
	DET_CASE(suppressed_change_still_pending),
	DET_CASE(block_waits_for_running_check),
	DET_CASE(blocked_disk_is_not_polled),
	DET_CASE(last_unblock_resumes_polling),
	DET_CASE(blocks_nest),
	DET_CASE(exclusive_writer_stops_polling),
	DET_CASE(change_during_exclusive_write_reported_after),
	DET_CASE(exclusive_writer_polled_without_flag),
	DET_CASE(reader_does_not_stop_polling),
	DET_CASE(flush_checks_at_once),
	DET_CASE(flush_mask_reaches_driver_as_clearing),
	DET_CASE(flush_while_blocked_waits_for_unblock),
	DET_CASE(flush_during_open_check_is_not_lost),
	DET_CASE(checks_never_overlap_under_opens_and_flushes),
	DET_CASE(slow_drive_delays_no_other),
	KUNIT_CASE_SLOW(det_slow_polled_drive_leaves_the_others_polled),
	DET_CASE(no_check_after_removal),
	DET_CASE(removal_waits_for_check_in_flight),
	DET_CASE(disk_without_check_events_has_no_events),
	DET_CASE(checks_stay_serial_under_many_blockers_and_flushes),
	DET_CASE(removal_amid_many_blockers_ends_checks),
	KUNIT_CASE_SLOW(det_slow_check_delays_blockers_without_deadlock),
	KUNIT_CASE_SLOW(det_slow_check_delays_removal_without_deadlock),
	KUNIT_CASE_SLOW(det_add_disk_fails_cleanly_when_allocation_fails),
	DET_CASE(events_lists_names_with_newline),
	DET_CASE(events_empty_without_uevent_flag),
	DET_CASE(events_async_is_empty),
	DET_CASE(poll_msecs_reads_back),
	DET_CASE(poll_msecs_minus_one_without_events),
	DET_CASE_PARAM(poll_msecs_refuses_bad_write, bad_poll_msecs_gen_params),
	DET_CASE_PARAM(poll_msecs_accepts_write, good_poll_msecs_gen_params),
	DET_CASE_PARAM(default_refuses_bad_write, bad_dfl_poll_msecs_gen_params),
	DET_CASE_PARAM(default_accepts_write, good_dfl_poll_msecs_gen_params),
	DET_CASE_PARAM(default_write_reads_back, dfl_spellings_gen_params),
	{}
};

static struct kunit_suite disk_events_suite = {
	.name = "disk_events",
	.test_cases = disk_events_cases,
};

static struct kunit_case disk_events_beyond_mainline_cases[] = {
	DET_CASE_PARAM(poll_msecs_refuses_bad_write,
		       malformed_poll_msecs_gen_params),
	DET_CASE_PARAM(poll_msecs_accepts_write, signed_poll_msecs_gen_params),
	DET_CASE_PARAM(default_refuses_bad_write,
		       oversized_dfl_poll_msecs_gen_params),
	DET_CASE(check_media_change_after_removal_calls_no_driver),
	DET_CASE(undeclared_event_never_pending),
	DET_CASE(stray_bits_reach_neither_uevent_nor_pending),
	DET_CASE(concurrent_clears_never_overlap),
	DET_CASE(checks_stay_serial_with_clears_outside_open),
	DET_CASE(equal_intervals_share_a_tick),
	DET_CASE(check_after_flush_rejoins_the_grid),
	DET_CASE(checks_of_many_drives_run_side_by_side_but_bounded),
	DET_CASE(commensurate_intervals_meet_on_the_longer_tick),
	DET_CASE(check_tracepoint_fires_per_check),
	DET_CASE(check_tracepoint_reports_found_events),
	DET_CASE(uevent_tracepoint_carries_events_and_diskseq),
	DET_CASE(block_tracepoints_show_depth),
	DET_CASE(stats_count_checks),
	DET_CASE(stats_count_found_events_and_uevents),
	DET_CASE(stats_show_block_depth),
	DET_CASE(stats_show_effective_interval),
	DET_CASE(suppressed_uevent_hits_no_tracepoint),
	DET_CASE(suppressed_uevent_not_counted),
	DET_CASE(failed_uevent_hits_no_tracepoint),
	DET_CASE(failed_uevent_not_counted),
	DET_CASE(flapping_found_by_polls_slows_polling),
	KUNIT_CASE_SLOW(det_flapping_found_by_opens_holds_uevents),
	KUNIT_CASE_SLOW(det_held_change_is_dropped_once_an_opener_learns_of_it),
	KUNIT_CASE_SLOW(det_damped_disk_tells_one_change_per_period),
	KUNIT_CASE_SLOW(det_damping_ends_on_an_unpolled_disk),
	KUNIT_CASE_SLOW(det_disc_at_every_2000_ms_poll_is_never_damped),
	DET_CASE(drive_without_uevents_is_never_flapping),
	DET_CASE(damping_rises_a_level_per_run_up_to_its_cap),
	KUNIT_CASE_SLOW(det_damping_ends_after_a_quiet_stretch),
	DET_CASE(damping_never_holds_eject_requests),
	DET_CASE(change_found_again_by_the_open_is_one_change),
	{}
};

static struct kunit_suite disk_events_beyond_mainline_suite = {
	.name = "disk_events_beyond_mainline",
	.test_cases = disk_events_beyond_mainline_cases,
};

kunit_test_suites(&disk_events_suite, &disk_events_beyond_mainline_suite);

MODULE_DESCRIPTION("KUnit tests for disk events");
MODULE_LICENSE("GPL");
