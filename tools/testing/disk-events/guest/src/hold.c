// SPDX-License-Identifier: GPL-2.0
/*
 * hold DEV MODE: open DEV and keep it open until killed.
 * MODE is "read" (O_RDONLY), "write" (O_RDWR) or "burn" (O_RDWR | O_EXCL,
 * as CD burners open a drive: an exclusive writer).  All add O_NONBLOCK,
 * so a drive without a writable medium opens too.  Prints "held DEV" on
 * stdout once the device is open; exits 1 if the open fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int flags = O_NONBLOCK | O_CLOEXEC, fd;

	if (argc != 3)
		goto usage;
	if (!strcmp(argv[2], "read"))
		flags |= O_RDONLY;
	else if (!strcmp(argv[2], "write"))
		flags |= O_RDWR;
	else if (!strcmp(argv[2], "burn"))
		flags |= O_RDWR | O_EXCL;
	else
		goto usage;

	fd = open(argv[1], flags);
	if (fd < 0) {
		fprintf(stderr, "hold: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("held %s\n", argv[1]);
	fflush(stdout);
	for (;;)
		pause();
usage:
	fprintf(stderr, "usage: hold DEV read|write|burn\n");
	return 2;
}
