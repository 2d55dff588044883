/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the disk events KUnit suites share: the fake
 * removable disk, the uevent listener, opens through the block layer,
 * the debugfs and tracepoint helpers (disk-events-test-helpers.c, where
 * each is documented), and the cases that disk-events-test-suites.c
 * lists, by the file that defines them.
 */
#ifndef BLK_DISK_EVENTS_TEST_H
#define BLK_DISK_EVENTS_TEST_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include "blk.h"

struct file;
struct socket;
struct task_struct;
struct tracepoint;

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

/*
 * The fake drives of det_fake_cdrom() are like sr's but for
 * DISK_EVENT_FLAG_POLL, so they are polled only at an interval a case
 * gives them: what a case counts is its own, whatever
 * block.events_dfl_poll_msecs the kernel runs with.  The cases about the
 * default add a drive with the flag.
 */
#define FAKE_CDROM_FLAGS	(DISK_EVENT_FLAG_UEVENT | \
				 DISK_EVENT_FLAG_BLOCK_ON_EXCL_WRITE)

/* A uevent listener, as udev has: the last message received. */
struct listener {
	struct socket	*sock;
	char		msg[2048];
	int		len;
};

/* @fn(@fd), called by a kthread of its own. */
struct side_call {
	void			(*fn)(struct fake_disk *fd);
	struct fake_disk	*fd;
	struct task_struct	*task;
	struct completion	done;
};

/* A probe on a disk events tracepoint, counting one disk's hits. */
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

/* A spelling of the running default: the printf format that writes it. */
struct dfl_spelling {
	const char	*fmt;
	const char	*what;
};

/* disk-events-test-helpers.c */
void det_fake_answer(struct fake_disk *fd, unsigned int events);
int det_fake_calls(struct fake_disk *fd);
bool det_fake_wait_calls(struct fake_disk *fd, int n);
bool det_wait_checked(struct fake_disk *fd, int n);
unsigned int det_fake_clearing(struct fake_disk *fd, int n);
void det_fake_remove(struct fake_disk *fd);
struct fake_disk *det_fake_alloc(struct kunit *test, unsigned int events,
				 unsigned int flags);
void det_fake_add(struct fake_disk *fd);
struct fake_disk *det_fake_cdrom(struct kunit *test);
struct fake_disk *det_fake_polled_cdrom(struct kunit *test);
struct fake_disk *det_fake_drive_of(struct kunit *test, unsigned int events);
int det_calls_in(struct fake_disk *fd, unsigned int ms);
int det_calls_in_quiet_period(struct fake_disk *fd);
bool det_keeps_polling(struct fake_disk *fd);
void det_check_now_answering(struct fake_disk *fd, unsigned int events);
ssize_t det_poll_msecs_store(struct fake_disk *fd, const char *buf,
			     size_t count);
void det_set_poll_msecs(struct fake_disk *fd, const char *val);
unsigned long det_get_dfl(void);
void det_rewrite_dfl(struct kunit *test, const char *fmt);
int det_parse_dfl(struct kunit *test, const char *val, unsigned long *msecs);
struct listener *det_listener_open(struct kunit *test);
const char *det_uevent_var(struct listener *l, const char *key);
int det_count_uevents(struct listener *l, struct fake_disk *fd,
		      const char *var, unsigned int ms);
bool det_wait_uevent(struct listener *l, struct fake_disk *fd,
		     const char *var);
void det_allow_uevents(void *data);
void det_suppress_uevents(struct kunit *test, struct fake_disk *fd);
struct file *det_open_disk(struct fake_disk *fd, blk_mode_t mode,
			   void *holder);
void det_close_disk(struct file *f);
bool det_check_entered(struct fake_disk *fd);
void det_hold_checks(struct fake_disk *fd);
void det_release_checks(struct fake_disk *fd);
struct side_call *det_start_side_call(struct kunit *test,
				      void (*fn)(struct fake_disk *fd),
				  struct fake_disk *fd);
bool det_side_call_done(struct side_call *sc, unsigned int ms);
void det_do_check_media_change(struct fake_disk *fd);
void det_do_del_gendisk(struct fake_disk *fd);
void det_needs_debugfs(struct kunit *test);
void det_fail_nth_for_gfp_kernel(struct kunit *test);
unsigned int det_xchg_fail_nth(unsigned int nth);
struct tp_probe *det_tp_attach(struct kunit *test, struct fake_disk *fd,
			       const char *name, void *fn);
void det_on_uevent(void *data, struct gendisk *disk, unsigned int events,
		   u64 diskseq);
long long det_stat_of(struct fake_disk *fd, const char *key);

/*
 * The cases, by the file that defines them; disk-events-test-suites.c
 * puts them in the suites with DET_CASE().  A case's function is
 * det_NAME and its KUnit name NAME, the name its results have always
 * had: the functions are global for the suites' sake, and every global
 * symbol of these files has the prefix det_ ("disk events test").
 */
#define DET_CASE(test_name)						\
	{ .run_case = det_##test_name, .name = #test_name,		\
	  .module_name = KBUILD_MODNAME }
#define DET_CASE_PARAM(test_name, gen)					\
	{ .run_case = det_##test_name, .name = #test_name,		\
	  .generate_params = gen, .module_name = KBUILD_MODNAME }

/* disk-events-test-interval.c: when checks run */
void det_add_checks_at_once(struct kunit *test);
void det_poll_flag_disk_follows_the_default(struct kunit *test);
void det_own_interval_polls(struct kunit *test);
void det_own_zero_disables_despite_default(struct kunit *test);
void det_own_interval_wins_over_default(struct kunit *test);
void det_default_ignored_without_poll_flag(struct kunit *test);
void det_default_write_checks_every_disk_at_once(struct kunit *test);
void det_own_interval_change_checks_at_once(struct kunit *test);

/* disk-events-test-uevent.c: what user space hears */
void det_media_change_sends_uevent(struct kunit *test);
void det_eject_request_sends_uevent(struct kunit *test);
void det_pending_event_reported_once(struct kunit *test);
void det_open_clears_pending_so_next_change_is_reported(struct kunit *test);
void det_change_while_pending_is_not_reported(struct kunit *test);
void det_check_media_change_reports_pending_change(struct kunit *test);
void det_check_media_change_finds_unpolled_change(struct kunit *test);
void det_check_media_change_false_without_change(struct kunit *test);
void det_check_media_change_clears_both_events(struct kunit *test);
void det_media_change_gets_new_diskseq_before_uevent(struct kunit *test);
void det_forced_change_sends_uevent_then_bumps_diskseq(struct kunit *test);
void det_eject_request_keeps_diskseq(struct kunit *test);
void det_no_uevent_without_uevent_flag(struct kunit *test);
void det_undeclared_event_sends_no_uevent(struct kunit *test);
void det_suppressed_change_still_pending(struct kunit *test);
void det_undeclared_event_never_pending(struct kunit *test);
void det_stray_bits_reach_neither_uevent_nor_pending(struct kunit *test);

/* disk-events-test-block.c: blocking and flushing */
void det_block_waits_for_running_check(struct kunit *test);
void det_blocked_disk_is_not_polled(struct kunit *test);
void det_last_unblock_resumes_polling(struct kunit *test);
void det_blocks_nest(struct kunit *test);
void det_exclusive_writer_stops_polling(struct kunit *test);
void det_change_during_exclusive_write_reported_after(struct kunit *test);
void det_exclusive_writer_polled_without_flag(struct kunit *test);
void det_reader_does_not_stop_polling(struct kunit *test);
void det_flush_checks_at_once(struct kunit *test);
void det_flush_mask_reaches_driver_as_clearing(struct kunit *test);
void det_flush_while_blocked_waits_for_unblock(struct kunit *test);
void det_flush_during_open_check_is_not_lost(struct kunit *test);
void det_checks_never_overlap_under_opens_and_flushes(struct kunit *test);

/* disk-events-test-lifetime.c: adding and removing disks */
void det_no_check_after_removal(struct kunit *test);
void det_removal_waits_for_check_in_flight(struct kunit *test);
void det_disk_without_check_events_has_no_events(struct kunit *test);
void det_check_media_change_after_removal_calls_no_driver(struct kunit *test);
void det_add_disk_fails_cleanly_when_allocation_fails(struct kunit *test);

/* disk-events-test-concurrency.c: many callers at once, a slow drive */
void det_checks_stay_serial_under_many_blockers_and_flushes(struct kunit *test);
void det_removal_amid_many_blockers_ends_checks(struct kunit *test);
void det_concurrent_clears_never_overlap(struct kunit *test);
void det_checks_stay_serial_with_clears_outside_open(struct kunit *test);
void det_slow_drive_delays_no_other(struct kunit *test);
void det_slow_polled_drive_leaves_the_others_polled(struct kunit *test);
void det_slow_check_delays_blockers_without_deadlock(struct kunit *test);
void det_slow_check_delays_removal_without_deadlock(struct kunit *test);

/* disk-events-test-sysfs.c: the sysfs attributes and the default */
void det_events_lists_names_with_newline(struct kunit *test);
void det_events_empty_without_uevent_flag(struct kunit *test);
void det_events_async_is_empty(struct kunit *test);
void det_poll_msecs_reads_back(struct kunit *test);
void det_poll_msecs_minus_one_without_events(struct kunit *test);
void det_poll_msecs_refuses_bad_write(struct kunit *test);
void det_poll_msecs_accepts_write(struct kunit *test);
void det_default_refuses_bad_write(struct kunit *test);
void det_default_accepts_write(struct kunit *test);
void det_default_write_reads_back(struct kunit *test);

/* disk-events-test-grid.c: aligned polling */
void det_equal_intervals_share_a_tick(struct kunit *test);
void det_checks_of_many_drives_run_side_by_side_but_bounded(struct kunit *test);
void det_check_after_flush_rejoins_the_grid(struct kunit *test);
void det_commensurate_intervals_meet_on_the_longer_tick(struct kunit *test);

/* disk-events-test-trace.c: tracepoints */
void det_check_tracepoint_fires_per_check(struct kunit *test);
void det_check_tracepoint_reports_found_events(struct kunit *test);
void det_uevent_tracepoint_carries_events_and_diskseq(struct kunit *test);
void det_block_tracepoints_show_depth(struct kunit *test);

/* disk-events-test-stats.c: debugfs statistics */
void det_stats_count_checks(struct kunit *test);
void det_stats_count_found_events_and_uevents(struct kunit *test);
void det_stats_show_block_depth(struct kunit *test);
void det_stats_show_effective_interval(struct kunit *test);

/* disk-events-test-unsent.c: uevents not sent */
void det_failed_uevent_hits_no_tracepoint(struct kunit *test);
void det_failed_uevent_not_counted(struct kunit *test);
void det_suppressed_uevent_hits_no_tracepoint(struct kunit *test);
void det_suppressed_uevent_not_counted(struct kunit *test);

/* disk-events-test-flapping.c: flapping drives */
void det_flapping_found_by_polls_slows_polling(struct kunit *test);
void det_flapping_found_by_opens_holds_uevents(struct kunit *test);
void det_held_change_is_dropped_once_an_opener_learns_of_it(struct kunit *test);
void det_damped_disk_tells_one_change_per_period(struct kunit *test);
void det_damping_ends_on_an_unpolled_disk(struct kunit *test);
void det_disc_at_every_2000_ms_poll_is_never_damped(struct kunit *test);
void det_drive_without_uevents_is_never_flapping(struct kunit *test);
void det_damping_rises_a_level_per_run_up_to_its_cap(struct kunit *test);
void det_damping_ends_after_a_quiet_stretch(struct kunit *test);
void det_damping_never_holds_eject_requests(struct kunit *test);
void det_change_found_again_by_the_open_is_one_change(struct kunit *test);

#endif /* BLK_DISK_EVENTS_TEST_H */
