// SPDX-License-Identifier: GPL-2.0
/*
 * churn PAUSE_MS: until killed, open every CD disk (/dev/sr*) in turn as
 * a reader that reads its first block, then as a burner (O_RDWR |
 * O_EXCL, an exclusive writer, held for 20 ms); pause PAUSE_MS between
 * rounds.  Disks may come and go: failed opens are counted, not fatal.
 * On SIGTERM, prints "churn: N opens, M failed" and exits 0.  One
 * process instead of a shell loop, so the guest's CPU goes to the
 * kernel, not to fork and exec.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static sig_atomic_t stop;	/* set by the SIGTERM handler */

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

/* Open @path with @flags, read a block or hold it for @hold_ms; 0 if opened. */
static int churn_one(const char *path, int flags, long hold_ms)
{
	char buf[2048];
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (hold_ms)
		pause_ms(hold_ms);
	else
		(void)!read(fd, buf, sizeof(buf)); /* no medium: fails, fine */
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long opens = 0, failed = 0;
	char path[300];
	struct dirent *de;
	DIR *dev;

	if (argc != 2) {
		fprintf(stderr, "usage: churn PAUSE_MS\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		dev = opendir("/dev");
		if (!dev)
			return 1;
		while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) &&
		       (de = readdir(dev))) {
			if (strncmp(de->d_name, "sr", 2))
				continue;
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			failed += churn_one(path, O_RDONLY, 0) != 0;
			failed += churn_one(path, O_RDWR | O_EXCL, 20) != 0;
			opens += 2;
		}
		closedir(dev);
		pause_ms(atol(argv[1]));
	}
	printf("churn: %lu opens, %lu failed\n", opens, failed);
	return 0;
}
