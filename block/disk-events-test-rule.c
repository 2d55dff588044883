// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for block/disk-events.c: the flapping rule in simulated
 * time.  Included by disk-events.c, whose static functions they call, so
 * that a minute of a person's disc swaps, a day of cards or a 25-day
 * idle stretch takes no time: each case feeds the rule the checks a disk
 * would make, at times it chooses.  The disk itself is not involved; the
 * suite "disk_events_beyond_mainline" tries the same rules on fake disks
 * in real time.  Mainline has no such rule, and no such suite.
 */
#include <kunit/test.h>

/* An hour: the longest interval users are seen to set. */
#define RULE_HOUR_MS	(60 * 60 * 1000UL)

/* A disk's flapping state, and the simulated clock it is checked by. */
struct rule_sim {
	struct disk_events	ev;
	u64			now;		/* jiffies_64 */
	unsigned long		interval;	/* poll interval, ms */
	u64			last_told;	/* when a change was last told */
	u64			least_apart;	/* the least time between two */
};

static struct rule_sim *rule_sim_new(struct kunit *test, unsigned long interval)
{
	struct rule_sim *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	spin_lock_init(&s->ev.lock);
	s->interval = interval;
	/* Away from 0, as jiffies_64 is: the rule must not mean "never". */
	s->now = get_jiffies_64();
	s->least_apart = U64_MAX;
	return s;
}

static void rule_wait(struct rule_sim *s, unsigned long ms)
{
	s->now += msecs_to_jiffies(ms);
}

/*
 * One check at the simulated time that finds a media change or not, as
 * disk_events_check() counts it; returns whether a uevent tells of it
 * (or of one held before).
 */
static bool rule_check(struct rule_sim *s, bool changed)
{
	unsigned int told;

	spin_lock_irq(&s->ev.lock);
	disk_events_note_change(&s->ev, changed, s->now, s->interval);
	told = disk_events_admit(&s->ev, changed ? DISK_EVENT_MEDIA_CHANGE : 0,
				 s->now, s->interval);
	spin_unlock_irq(&s->ev.lock);
	if (!(told & DISK_EVENT_MEDIA_CHANGE))
		return false;
	if (s->last_told)
		s->least_apart = min(s->least_apart, s->now - s->last_told);
	s->last_told = s->now;
	return true;
}

static unsigned int rule_level(struct rule_sim *s)
{
	return s->ev.damp;
}

/* Quick changes, 100 ms apart, until the disk is damped at level 1. */
static void rule_make_flapping(struct kunit *test, struct rule_sim *s)
{
	int i;

	for (i = 0; i < DISK_EVENTS_FLAP_QUICK; i++) {
		rule_wait(s, 100);
		rule_check(s, true);
	}
	KUNIT_ASSERT_EQ(test, rule_level(s), 1);
}

/* Polls every @interval for @ms, each finding a change. */
static void rule_changes_at_every_poll(struct rule_sim *s, unsigned long ms)
{
	unsigned long t;

	for (t = 0; t < ms; t += s->interval) {
		rule_wait(s, s->interval);
		rule_check(s, true);
	}
}

/*
 * A person in a hurry, polled every 2 s: a disc every 2 s for a minute,
 * each one a change that the next poll finds.
 */
static void rule_person_in_a_hurry_at_2000_ms_is_never_damped(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);
	int i;

	for (i = 0; i < 30; i++) {
		rule_wait(s, 2000);
		KUNIT_EXPECT_TRUE(test, rule_check(s, true));
		KUNIT_EXPECT_EQ(test, rule_level(s), 0);
	}
	KUNIT_EXPECT_EQ(test, s->ev.stats.flapping, 0);
}

/*
 * The same person with a drive polled every 100 ms: each swap is an
 * eject and an insert the polls find apart, 1.2 s and then 0.8 s apart.
 */
static void rule_person_in_a_hurry_at_100_ms_is_never_damped(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 100);
	int i;

	for (i = 0; i < 30; i++) {
		rule_wait(s, 800);
		KUNIT_EXPECT_TRUE(test, rule_check(s, true));	/* eject */
		rule_wait(s, 1200);
		KUNIT_EXPECT_TRUE(test, rule_check(s, true));	/* insert */
	}
	KUNIT_EXPECT_EQ(test, rule_level(s), 0);
	KUNIT_EXPECT_EQ(test, s->ev.stats.flapping, 0);
}

/*
 * A card a minute for a day, at intervals from 100 ms to an hour: the
 * first poll after each insert finds it (at an hour, the sixty of an
 * hour as one change).
 */
static void rule_card_a_minute_is_never_damped_at_any_interval(struct kunit *test)
{
	static const unsigned long intervals[] = {
		100, 2000, 60 * 1000, RULE_HOUR_MS,
	};
	const unsigned long minute = 60 * 1000, day = 24 * RULE_HOUR_MS;
	struct rule_sim *s;
	unsigned long t, step;
	int i;

	for (i = 0; i < ARRAY_SIZE(intervals); i++) {
		s = rule_sim_new(test, intervals[i]);
		step = max(minute, intervals[i]);
		for (t = 0; t < day; t += step) {
			rule_wait(s, step);
			KUNIT_EXPECT_TRUE(test, rule_check(s, true));
		}
		KUNIT_EXPECT_EQ_MSG(test, s->ev.stats.flapping, 0,
				    "interval %lu ms", intervals[i]);
	}
}

/* Found changed at every 2 s poll: damped once that went on for 2 min. */
static void rule_change_at_every_poll_is_flapping_after_two_minutes(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);

	rule_check(s, true);
	rule_changes_at_every_poll(s, DISK_EVENTS_FLAP_RUN_MS - 2000);
	KUNIT_EXPECT_EQ(test, rule_level(s), 0);
	rule_wait(s, 2000);
	KUNIT_EXPECT_TRUE(test, rule_check(s, true));	/* told, then damped */
	KUNIT_EXPECT_EQ(test, rule_level(s), 1);
	KUNIT_EXPECT_EQ(test, s->ev.stats.flapping, 1);
}

/* udev's opens finding change after change, 300 ms apart. */
static void rule_fourth_quick_change_is_flapping(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);
	int i;

	for (i = 1; i <= DISK_EVENTS_FLAP_QUICK; i++) {
		KUNIT_EXPECT_EQ(test, rule_level(s), 0);
		rule_wait(s, 300);
		KUNIT_EXPECT_TRUE(test, rule_check(s, true));
	}
	KUNIT_EXPECT_EQ(test, rule_level(s), 1);
}

/* A second's pause breaks a run of quick changes. */
static void rule_pause_starts_quick_changes_again(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);
	int run, i;

	for (run = 0; run < 10; run++) {
		rule_wait(s, DISK_EVENTS_FLAP_QUICK_MS);
		for (i = 1; i < DISK_EVENTS_FLAP_QUICK; i++) {
			rule_check(s, true);
			rule_wait(s, 300);
		}
	}
	KUNIT_EXPECT_EQ(test, rule_level(s), 0);
}

/* Checks that find nothing do not break a run: only time does. */
static void rule_checks_without_change_do_not_break_a_run(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 100);
	int i;

	for (i = 0; i < DISK_EVENTS_FLAP_QUICK; i++) {
		rule_wait(s, 100);
		rule_check(s, false);
		rule_wait(s, 100);
		rule_check(s, true);
	}
	KUNIT_EXPECT_EQ(test, rule_level(s), 1);
}

static void rule_further_runs_raise_the_level_to_its_cap(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);
	int level, i;

	for (level = 1; level <= DISK_EVENTS_DAMP_MAX + 2; level++) {
		for (i = 0; i < DISK_EVENTS_FLAP_QUICK; i++) {
			rule_wait(s, 100);
			rule_check(s, true);
		}
		KUNIT_EXPECT_EQ(test, rule_level(s), min(level, DISK_EVENTS_DAMP_MAX));
	}
	KUNIT_EXPECT_EQ(test, s->ev.stats.flapping, 1);
}

/* Level 1 at 2000 ms: a period of twice that, to the jiffy. */
static void rule_damping_ends_a_period_after_the_last_change(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);

	rule_make_flapping(test, s);
	s->now += 2 * msecs_to_jiffies(2000) - 1;
	rule_check(s, false);
	KUNIT_EXPECT_EQ(test, rule_level(s), 1);
	s->now++;
	rule_check(s, false);
	KUNIT_EXPECT_EQ(test, rule_level(s), 0);
}

/* A change a period after the last one finds the disk calm, and is told. */
static void rule_change_after_a_quiet_period_is_told_at_once(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 0);	/* unpolled */

	rule_make_flapping(test, s);
	rule_wait(s, 2 * DISK_EVENTS_DAMP_MIN_MS);
	KUNIT_EXPECT_TRUE(test, rule_check(s, true));
	KUNIT_EXPECT_EQ(test, rule_level(s), 0);
}

/*
 * Damped, a change every 100 ms for a minute: one is told per period
 * (4 s at level 1, 2000 ms) or longer, never two sooner.
 */
static void rule_damped_disk_tells_at_most_one_change_per_period(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 2000);
	int i, told = 0;

	rule_make_flapping(test, s);
	s->least_apart = U64_MAX;
	for (i = 0; i < 600; i++) {
		rule_wait(s, 100);
		told += rule_check(s, true);
	}
	KUNIT_EXPECT_GE(test, s->least_apart, msecs_to_jiffies(4000));
	/* Up to level 3 meanwhile: 16 s apart at most. */
	KUNIT_EXPECT_GE(test, told, 3);
}

/*
 * The longest interval damped at the highest level: its period is still
 * one msecs_to_jiffies() converts, not MAX_JIFFY_OFFSET, and a held
 * change is told within it.
 */
static void rule_damped_period_is_clamped_to_the_longest_interval(struct kunit *test)
{
	static const unsigned long intervals[] = {
		1UL << 28, DISK_EVENTS_MAX_MSECS,
	};
	const unsigned long longest = msecs_to_jiffies(DISK_EVENTS_MAX_MSECS);
	struct rule_sim *s;
	int i;

	for (i = 0; i < ARRAY_SIZE(intervals); i++) {
		s = rule_sim_new(test, intervals[i]);
		s->ev.damp = DISK_EVENTS_DAMP_MAX;
		spin_lock_irq(&s->ev.lock);
		KUNIT_EXPECT_EQ(test, disk_events_period(&s->ev, s->interval),
				longest);
		spin_unlock_irq(&s->ev.lock);
		s->ev.last_change = s->now;
		s->ev.next_uevent = s->now;
		KUNIT_EXPECT_TRUE(test, rule_check(s, true));
		KUNIT_EXPECT_EQ(test, s->ev.next_uevent - s->now, longest);
	}
}

/*
 * Times are jiffies_64: a damped disk left alone longer than a 32-bit
 * jiffies clock can compare (24.8 days at HZ=1000) still calms down,
 * and a run across the 32-bit wrap is still one run.
 */
static void rule_holds_after_25_days_and_across_the_32_bit_wrap(struct kunit *test)
{
	struct rule_sim *s = rule_sim_new(test, 0);

	rule_make_flapping(test, s);
	rule_wait(s, 25 * 24 * RULE_HOUR_MS);
	rule_check(s, false);
	KUNIT_EXPECT_EQ(test, rule_level(s), 0);

	s = rule_sim_new(test, 0);
	s->now = 0x100000000ULL - msecs_to_jiffies(200);
	rule_make_flapping(test, s);
}

static struct kunit_case disk_events_flapping_rule_cases[] = {
	KUNIT_CASE(rule_person_in_a_hurry_at_2000_ms_is_never_damped),
	KUNIT_CASE(rule_person_in_a_hurry_at_100_ms_is_never_damped),
	KUNIT_CASE(rule_card_a_minute_is_never_damped_at_any_interval),
	KUNIT_CASE(rule_change_at_every_poll_is_flapping_after_two_minutes),
	KUNIT_CASE(rule_fourth_quick_change_is_flapping),
	KUNIT_CASE(rule_pause_starts_quick_changes_again),
	KUNIT_CASE(rule_checks_without_change_do_not_break_a_run),
	KUNIT_CASE(rule_further_runs_raise_the_level_to_its_cap),
	KUNIT_CASE(rule_damping_ends_a_period_after_the_last_change),
	KUNIT_CASE(rule_change_after_a_quiet_period_is_told_at_once),
	KUNIT_CASE(rule_damped_disk_tells_at_most_one_change_per_period),
	KUNIT_CASE(rule_damped_period_is_clamped_to_the_longest_interval),
	KUNIT_CASE(rule_holds_after_25_days_and_across_the_32_bit_wrap),
	{}
};

static struct kunit_suite disk_events_flapping_rule_suite = {
	.name = "disk_events_flapping_rule",
	.test_cases = disk_events_flapping_rule_cases,
};

kunit_test_suite(disk_events_flapping_rule_suite);
