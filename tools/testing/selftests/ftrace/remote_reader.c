// SPDX-License-Identifier: GPL-2.0
/*
 * Read a tracefs file the ways the remote tests need and the shell cannot:
 *
 *   remote_reader [-n] [-p MS] FILE
 *
 *   -n     open with O_NONBLOCK: an empty file prints "EAGAIN" and exits 2
 *   -p MS  poll() for input for at most MS ms first: prints "TIMEOUT" and
 *          exits 3 when nothing came
 *
 * Then one read() of up to 64 KiB is copied to stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	int flags = O_RDONLY, timeout = -1, opt, fd;
	ssize_t n;

	while ((opt = getopt(argc, argv, "np:")) != -1) {
		switch (opt) {
		case 'n':
			flags |= O_NONBLOCK;
			break;
		case 'p':
			timeout = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n] [-p MS] FILE\n", argv[0]);
			return 1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s [-n] [-p MS] FILE\n", argv[0]);
		return 1;
	}

	fd = open(argv[optind], flags);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}

	if (timeout >= 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int ret = poll(&pfd, 1, timeout);

		if (ret < 0) {
			perror("poll");
			return 1;
		}
		if (!ret) {
			printf("TIMEOUT\n");
			return 3;
		}
	}

	n = read(fd, buf, sizeof(buf));
	if (n < 0 && errno == EAGAIN) {
		printf("EAGAIN\n");
		return 2;
	}
	if (n < 0) {
		perror("read");
		return 1;
	}
	if (fwrite(buf, 1, n, stdout) != (size_t)n)
		return 1;
	return 0;
}
