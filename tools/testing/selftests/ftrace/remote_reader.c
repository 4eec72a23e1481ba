// SPDX-License-Identifier: GPL-2.0
/*
 * Read a tracefs file the ways the remote tests need and the shell cannot:
 *
 *   remote_reader [-n] [-p MS] [-s] FILE
 *
 *   -n     open with O_NONBLOCK: an empty file prints "EAGAIN" and exits 2
 *   -p MS  poll() for input for at most MS ms first: prints "TIMEOUT" and
 *          exits 3 when nothing came
 *   -s     move the data with splice() through a pipe instead of read()
 *
 * Then one read() (or splice()) of up to 64 KiB is copied to stdout.
 *
 *   remote_reader -d CPU < pages
 *
 * decodes ring buffer pages of selftest events (trace_pipe_raw) into the
 * text trace_pipe prints for CPU, lost events included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE		4096
#define MISSED_EVENTS	(1UL << 31)
#define MISSED_STORED	(1UL << 30)

/* Decode pages of selftest events: an 8-byte header, then the u64 id. */
static int decode(int cpu)
{
	static unsigned char page[PAGE];
	size_t got;

	while ((got = fread(page, 1, PAGE, stdin)) == PAGE) {
		uint64_t ts = *(uint64_t *)page;
		unsigned long commit = *(unsigned long *)(page + 8);
		unsigned long size = commit & ~(MISSED_EVENTS | MISSED_STORED);
		unsigned char *data = page + 16;
		unsigned long off = 0;

		if (size > PAGE - 16) {
			fprintf(stderr, "bad commit %#lx\n", commit);
			return 1;
		}
		if ((commit & MISSED_EVENTS) && (commit & MISSED_STORED))
			printf("CPU:%d [LOST %lu EVENTS]\n", cpu, *(unsigned long *)(data + size));
		else if (commit & MISSED_EVENTS)
			printf("CPU:%d [LOST EVENTS]\n", cpu);

		while (off < size) {
			uint32_t hdr = *(uint32_t *)(data + off);
			uint32_t type_len = hdr & 31, delta = hdr >> 5;
			uint32_t *array = (uint32_t *)(data + off + 4);

			if (type_len == 30) {		/* time extend */
				ts += delta + ((uint64_t)array[0] << 27);
				off += 8;
			} else if (type_len == 0) {
				uint64_t val = *(uint64_t *)((unsigned char *)&array[1] + 8);

				ts += delta;
				printf("[%03d]\t%5llu.%06llu: selftest id=%llu\n", cpu,
				       (unsigned long long)(ts / 1000000000),
				       (unsigned long long)(ts % 1000000000 / 1000),
				       (unsigned long long)val);
				off += 4 + array[0];
			} else {
				fprintf(stderr, "unexpected type_len %u at %lu\n", type_len, off);
				return 1;
			}
		}
	}
	return got ? 1 : 0;
}

static ssize_t splice_out(int fd, size_t len)
{
	int p[2];
	ssize_t n, m;
	static char buf[65536];

	if (pipe(p))
		return -1;
	n = splice(fd, NULL, p[1], NULL, len, 0);
	if (n <= 0)
		return n;
	m = read(p[0], buf, n);
	if (m != n || fwrite(buf, 1, n, stdout) != (size_t)n)
		return -1;
	return n;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int flags = O_RDONLY, timeout = -1, opt, fd, use_splice = 0;
	ssize_t n;

	while ((opt = getopt(argc, argv, "np:sd:")) != -1) {
		switch (opt) {
		case 'd':
			return decode(atoi(optarg));
		case 's':
			use_splice = 1;
			break;
		case 'n':
			flags |= O_NONBLOCK;
			break;
		case 'p':
			timeout = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n] [-p MS] [-s] FILE | -d CPU\n", argv[0]);
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

	if (use_splice) {
		n = splice_out(fd, sizeof(buf));
		if (n >= 0)
			return 0;
	} else {
		n = read(fd, buf, sizeof(buf));
	}
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
