// SPDX-License-Identifier: GPL-2.0
/*
 * halpoll MSECS DEV...: poll CD drives for media changes from user space,
 * as hal and udisks 1.x did before the kernel polled (Linux 2.6.38): every
 * MSECS, for each DEV, open it O_RDONLY | O_NONBLOCK | O_EXCL, ask
 * CDROM_DRIVE_STATUS and CDROM_MEDIA_CHANGED, and close it.  This is the
 * "before" that make bench compares in-kernel polling with.
 *
 * Prints "halpoll: DEV media_change" (DEV without /dev/) on each change.
 * After every round it rewrites /tmp/halpoll.stats with
 * "rounds N checks N check_ns N cpu_ns N": the wall time spent in the
 * checks, and the CPU time (system calls included) it took.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/cdrom.h>

static long long now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One check of @dev, as hal did it; true if the medium changed. */
static int media_changed(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_NONBLOCK | O_EXCL | O_CLOEXEC);
	int changed = 0;

	if (fd < 0)
		return 0;	/* busy (a burner has it) or gone: next round */
	if (ioctl(fd, CDROM_DRIVE_STATUS, CDSL_CURRENT) == CDS_DISC_OK)
		changed = ioctl(fd, CDROM_MEDIA_CHANGED, CDSL_CURRENT) == 1;
	close(fd);
	return changed;
}

static void write_stats(long long rounds, long long checks, long long ns,
			long long cpu_ns)
{
	FILE *f = fopen("/tmp/halpoll.stats.new", "w");

	if (!f)
		return;
	fprintf(f, "rounds %lld checks %lld check_ns %lld cpu_ns %lld\n",
		rounds, checks, ns, cpu_ns);
	fclose(f);
	rename("/tmp/halpoll.stats.new", "/tmp/halpoll.stats");
}

int main(int argc, char **argv)
{
	long long rounds = 0, checks = 0, ns = 0, cpu_ns = 0, t0, c0;
	struct timespec interval;
	long msecs;
	int i;

	msecs = argc < 3 ? 0 : strtol(argv[1], NULL, 10);
	if (msecs <= 0) {
		fprintf(stderr, "usage: halpoll MSECS DEV...\n");
		return 2;
	}
	interval.tv_sec = msecs / 1000;
	interval.tv_nsec = msecs % 1000 * 1000000L;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		for (i = 2; i < argc; i++) {
			t0 = now_ns(CLOCK_MONOTONIC);
			c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
			if (media_changed(argv[i]))
				printf("halpoll: %s media_change\n",
				       strncmp(argv[i], "/dev/", 5) ? argv[i] : argv[i] + 5);
			ns += now_ns(CLOCK_MONOTONIC) - t0;
			cpu_ns += now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
			checks++;
		}
		write_stats(++rounds, checks, ns, cpu_ns);
		nanosleep(&interval, NULL);
	}
}
