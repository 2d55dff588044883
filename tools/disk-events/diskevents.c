// SPDX-License-Identifier: GPL-2.0
/*
 * diskevents - show and tune the kernel's disk events (media change,
 * eject request) for removable drives.
 *
 * It reads sysfs and the kernel's uevent netlink socket directly, so it
 * needs no daemon: see "diskevents --help".  The core's statistics in
 * debugfs are not a stable interface: they are shown when present, and
 * nothing else depends on them.
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#define SYS_BLOCK	"/sys/block"
#define DEBUGFS_BLOCK	"/sys/kernel/debug/block"

static const char usage[] =
"Usage: diskevents COMMAND [ARGS]\n"
"\n"
"Show and tune in-kernel polling of removable drives for media change\n"
"and eject request events.\n"
"\n"
"Commands:\n"
"  list [--stats]       one line per disk that supports events: device,\n"
"                       events, the poll interval in effect with its\n"
"                       source, or \"not polled\" for a disk whose driver\n"
"                       sends its events itself, and the events pending\n"
"                       until the next open; an own interval comes from\n"
"                       sysfs, the rest from the core's debugfs\n"
"                       statistics (they need root; \"?\" without them);\n"
"                       --stats adds every statistic: checks, events\n"
"                       found, uevents sent, last check, time blocked,\n"
"                       block depth, damping of a flapping drive\n"
"  watch [--json] [--count N] [--timeout SECS]\n"
"                       print block device uevents as they arrive: time\n"
"                       (seconds since boot), device, action, events and\n"
"                       disk sequence number; --json prints one JSON\n"
"                       object per line; stop after N events or SECS;\n"
"                       says \"listening\" on standard error once no\n"
"                       uevent can be missed, for scripts to wait for\n"
"  poll DEV MSECS       set DEV's events_poll_msecs: -1 follows the\n"
"                       system default, 0 disables polling\n"
"  help, --help         this text\n"
"\n"
"Exit status: 0 on success, 1 on a failed operation, 2 on bad usage.\n";

/* Read a one-line sysfs attribute into @buf without its newline. */
static int read_attr(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_disk_attr(const char *dev, const char *attr, char *buf,
			  size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", dev, attr);
	return read_attr(path, buf, len);
}

/*
 * Read DEV's statistics file of the disk events core, "key: value"
 * lines, into @buf; empty if there is none (not root, no debugfs, or a
 * kernel without them).
 */
static void read_stats(const char *dev, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), DEBUGFS_BLOCK "/%s/disk_events", dev);
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* The start of the line after the one at @p, or the end of the text. */
static const char *next_line(const char *p)
{
	p += strcspn(p, "\n");
	return *p ? p + 1 : p;
}

/* Copy the value of "@key: value" in @stats to @buf; "?" if missing. */
static void stat_get(const char *stats, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p;

	snprintf(buf, len, "?");
	for (p = stats; *p; p = next_line(p)) {
		if (!strncmp(p, key, klen) && !strncmp(p + klen, ": ", 2)) {
			p += klen + 2;
			snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
			return;
		}
	}
}

/* Print @stats indented under the disk's line. */
static void print_stats(const char *stats)
{
	const char *p;

	for (p = stats; *p; p = next_line(p))
		printf("    %.*s\n", (int)strcspn(p, "\n"), p);
}

/*
 * Whether the kernel keeps the core's statistics: some disk has them.  A
 * kernel without them (mainline), or debugfs not mounted or not readable
 * (it needs root), finds none.
 */
static bool kernel_keeps_stats(void)
{
	glob_t g;
	bool found = !glob(DEBUGFS_BLOCK "/*/disk_events", 0, NULL, &g);

	if (found)
		globfree(&g);
	return found;
}

/*
 * A disk's poll interval and where it comes from, into @buf.  Its own
 * events_poll_msecs (sysfs) when 0 or more: only a disk whose events the
 * core checks takes one.  At -1, sysfs cannot tell whether the core polls
 * the disk at the default: a driver that sends its events itself (loop,
 * nbd and md call disk_force_media_change()) shows them in "events" but
 * has no ->check_events(), and a driver that checks may still not follow
 * the default (no DISK_EVENT_FLAG_POLL).  The core's statistics (@stats)
 * can: it keeps them for every disk it checks, with the interval in
 * effect and its source, and for no other disk.  Without them anywhere,
 * the interval is unknown: "?".
 */
static void describe_interval(const char *msecs, const char *stats,
			      char *buf, size_t len)
{
	char poll[32], source[32];
	long own = strtol(msecs, NULL, 10);

	if (own > 0) {
		snprintf(buf, len, "%ld ms (own)", own);
	} else if (own == 0) {
		snprintf(buf, len, "off (own)");
	} else if (*stats) {
		stat_get(stats, "poll_msecs", poll, sizeof(poll));
		stat_get(stats, "poll_source", source, sizeof(source));
		if (strtol(poll, NULL, 10) > 0)
			snprintf(buf, len, "%s ms (%s)", poll, source);
		else
			snprintf(buf, len, "off (%s)", source);
	} else if (kernel_keeps_stats()) {
		snprintf(buf, len, "not polled (driver sends its events)");
	} else {
		snprintf(buf, len, "? (no statistics)");
	}
}

#define LIST_FORMAT	"%-10s %-28s %-37s %s\n"

/* One line for @dev, and its statistics if @with_stats; false if it has
 * no events.
 */
static bool list_disk(const char *dev, bool with_stats)
{
	char events[128], msecs[32], intv[96], pending[64], stats[1024];

	if (read_disk_attr(dev, "events_poll_msecs", msecs, sizeof(msecs)) ||
	    read_disk_attr(dev, "events", events, sizeof(events)) ||
	    !(strcmp(msecs, "-1") | strcmp(events, "")))
		return false;
	read_stats(dev, stats, sizeof(stats));
	describe_interval(msecs, stats, intv, sizeof(intv));
	stat_get(stats, "pending", pending, sizeof(pending));
	printf(LIST_FORMAT, dev, *events ? events : "-", intv, pending);
	if (with_stats && *stats)
		print_stats(stats);
	else if (with_stats)
		printf("    (no statistics: they need debugfs and root)\n");
	return true;
}

static int cmd_list(int argc, char **argv)
{
	bool with_stats = argc == 1 && !strcmp(argv[0], "--stats");
	struct dirent **names;
	int i, n;

	if (argc && !with_stats) {
		fprintf(stderr, "diskevents list: bad argument '%s'\n", argv[0]);
		return 2;
	}
	n = scandir(SYS_BLOCK, &names, NULL, alphasort);
	if (n < 0) {
		perror(SYS_BLOCK);
		return 1;
	}
	printf(LIST_FORMAT, "DEVICE", "EVENTS", "POLL", "PENDING");
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			list_disk(names[i]->d_name, with_stats);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* The value of @key in a uevent's NUL-separated KEY=value list. */
static const char *uevent_get(const char *msg, size_t len, const char *key)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = msg; p < msg + len; p += strlen(p) + 1)
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return p + klen + 1;
	return NULL;
}

static double seconds_since_boot(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void print_uevent(const char *msg, size_t len, bool json)
{
	const char *dev = uevent_get(msg, len, "DEVNAME");
	const char *action = uevent_get(msg, len, "ACTION");
	const char *seq = uevent_get(msg, len, "DISKSEQ");
	bool media = uevent_get(msg, len, "DISK_MEDIA_CHANGE");
	bool eject = uevent_get(msg, len, "DISK_EJECT_REQUEST");
	const char *events = media && eject ? "media_change,eject_request" :
			     media ? "media_change" :
			     eject ? "eject_request" : "-";

	if (json) {
		printf("{\"time\":%.3f,\"device\":\"%s\",", seconds_since_boot(), dev);
		printf("\"action\":\"%s\",\"events\":\"%s\",\"diskseq\":%s}\n",
		       action, events, seq ? seq : "null");
	} else {
		printf("%10.3f %-8s %-7s %-26s diskseq=%s\n", seconds_since_boot(),
		       dev, action, events, seq ? seq : "-");
	}
	fflush(stdout);
}

static int open_uevent_socket(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,		/* the kernel's uevent group */
	};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror("uevent socket");
		return -1;
	}
	return fd;
}

/* Is this a uevent of a whole block disk (not a partition)? */
static bool is_disk_uevent(const char *msg, size_t len)
{
	const char *subsys = uevent_get(msg, len, "SUBSYSTEM");
	const char *type = uevent_get(msg, len, "DEVTYPE");

	return subsys && !strcmp(subsys, "block") && type &&
	       !strcmp(type, "disk") && uevent_get(msg, len, "DEVNAME");
}

static int parse_count(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 0 ? -1 : 0;
}

static int cmd_watch(int argc, char **argv)
{
	long count = 0, timeout = 0, seen = 0;
	char msg[8192];
	bool json = false;
	double deadline;
	int fd, i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc &&
			   !parse_count(argv[i + 1], &count)) {
			i++;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc &&
			   !parse_count(argv[i + 1], &timeout)) {
			i++;
		} else {
			fprintf(stderr, "diskevents watch: bad argument '%s'\n", argv[i]);
			return 2;
		}
	}
	fd = open_uevent_socket();
	if (fd < 0)
		return 1;
	/* Bound: every uevent from here on is queued on the socket. */
	fprintf(stderr, "diskevents watch: listening\n");
	deadline = seconds_since_boot() + timeout;
	while (!count || seen < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = -1;
		ssize_t len;

		if (timeout) {
			wait = (deadline - seconds_since_boot()) * 1000;
			if (wait <= 0)
				break;
		}
		if (poll(&pfd, 1, wait) <= 0)
			continue;
		len = recv(fd, msg, sizeof(msg) - 1, 0);
		if (len <= 0)
			continue;
		msg[len] = '\0';
		if (is_disk_uevent(msg, len)) {
			print_uevent(msg, len, json);
			seen++;
		}
	}
	close(fd);
	return 0;
}

static int cmd_poll(const char *dev, const char *msecs)
{
	char path[PATH_MAX], *end;
	long val;
	FILE *f;

	errno = 0;
	val = strtol(msecs, &end, 10);
	if (errno || end == msecs || *end || val < -1) {
		fprintf(stderr, "diskevents poll: '%s': want milliseconds >= -1\n", msecs);
		return 2;
	}
	if (strchr(dev, '/')) {
		fprintf(stderr, "diskevents poll: give a disk name like sr0, not a path\n");
		return 2;
	}
	snprintf(path, sizeof(path), SYS_BLOCK "/%s/events_poll_msecs", dev);
	f = fopen(path, "we");
	if (!f || fprintf(f, "%ld\n", val) < 0 || fclose(f)) {
		fprintf(stderr, "diskevents poll: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "help";

	if (!strcmp(cmd, "list") && argc <= 3)
		return cmd_list(argc - 2, argv + 2);
	if (!strcmp(cmd, "watch"))
		return cmd_watch(argc - 2, argv + 2);
	if (!strcmp(cmd, "poll") && argc == 4)
		return cmd_poll(argv[2], argv[3]);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help")) {
		fputs(usage, stdout);
		return 0;
	}
	fputs(usage, stderr);
	return 2;
}
