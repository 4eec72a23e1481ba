// SPDX-License-Identifier: GPL-2.0
/*
 * Read a tracefs file the ways the remote tests need and the shell cannot:
 *
 *   remote_reader [-n] [-p MS] [-s|-S] FILE
 *
 *   -n     open with O_NONBLOCK: an empty file prints "EAGAIN" and exits 2
 *   -p MS  poll() for input for at most MS ms first: prints "TIMEOUT" and
 *          exits 3 when nothing came
 *   -s     move the data with splice() through a pipe instead of read()
 *   -S     the same with SPLICE_F_NONBLOCK, on a blocking file
 *
 * Then one read() (or splice()) of up to 64 KiB is copied to stdout.
 *
 *   remote_reader -e MS FILE
 *
 * reads 100 bytes, adds FILE to an epoll set (ready: there is more), reads
 * the rest, then says "waiting" on stderr and waits for more on the set for
 * at most MS ms: prints "TIMEOUT" and exits 3 when nothing came, else copies
 * one read to stdout.
 *
 *   remote_reader -d CPU < pages
 *
 * decodes ring buffer pages of selftest events (trace_pipe_raw) into the
 * text trace_pipe prints for CPU, lost events included.
 *
 *   remote_reader -r CMD FILE
 *
 * holds FILE by an O_PATH descriptor, which pins no module, runs CMD with
 * sh -c, then opens FILE again through that descriptor: prints "opened"
 * and exits 0, or prints the error and exits 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
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

static ssize_t splice_out(int fd, size_t len, unsigned int flags)
{
	int p[2];
	ssize_t n, m;
	static char buf[65536];

	if (pipe(p))
		return -1;
	n = splice(fd, NULL, p[1], NULL, len, flags);
	if (n <= 0)
		return n;
	m = read(p[0], buf, n);
	if (m != n || fwrite(buf, 1, n, stdout) != (size_t)n)
		return -1;
	return n;
}

/*
 * Level-triggered epoll must see the rest of a page as ready, and still be
 * woken by what comes after it: the file's wait queue is registered when
 * the file is added, whatever it answers then.
 */
static int epoll_rest(int fd, int timeout)
{
	static char buf[65536];
	struct epoll_event ev = { .events = EPOLLIN };
	int ep;
	ssize_t n;

	n = read(fd, buf, 100);
	if (n != 100) {
		fprintf(stderr, "first read: %zd\n", n);
		return 1;
	}
	ep = epoll_create1(0);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
		perror("epoll");
		return 1;
	}
	if (epoll_wait(ep, &ev, 1, 0) != 1) {
		printf("NOT READY\n");
		return 1;
	}
	if (read(fd, buf, sizeof(buf)) <= 0) {
		perror("read");
		return 1;
	}
	fprintf(stderr, "waiting\n");
	n = epoll_wait(ep, &ev, 1, timeout);
	if (n < 0) {
		perror("epoll_wait");
		return 1;
	}
	if (!n) {
		printf("TIMEOUT\n");
		return 3;
	}
	n = read(fd, buf, sizeof(buf));
	if (n <= 0 || fwrite(buf, 1, n, stdout) != (size_t)n)
		return 1;
	return 0;
}

static int reopen(const char *cmd, const char *file)
{
	char path[64];
	int fd, again;

	fd = open(file, O_PATH);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	if (system(cmd)) {
		fprintf(stderr, "%s failed\n", cmd);
		return 1;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	again = open(path, O_RDONLY);
	if (again < 0) {
		printf("%s\n", strerror(errno));
		return 2;
	}
	printf("opened\n");
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int flags = O_RDONLY, timeout = -1, opt, fd, use_splice = 0, epoll_ms = -1;
	unsigned int splice_flags = 0;
	ssize_t n;

	while ((opt = getopt(argc, argv, "np:sSd:e:r:")) != -1) {
		switch (opt) {
		case 'd':
			return decode(atoi(optarg));
		case 'r':
			if (optind != argc - 1)
				break;
			return reopen(optarg, argv[optind]);
		case 'e':
			epoll_ms = atoi(optarg);
			break;
		case 'S':
			splice_flags = SPLICE_F_NONBLOCK;
			use_splice = 1;
			break;
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
			fprintf(stderr,
				"usage: %s [-n] [-p MS] [-s|-S] FILE | -e MS FILE | -d CPU | -r CMD FILE\n",
				argv[0]);
			return 1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s [-n] [-p MS] [-s|-S] FILE\n", argv[0]);
		return 1;
	}

	fd = open(argv[optind], flags);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	if (epoll_ms >= 0)
		return epoll_rest(fd, epoll_ms);

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
		n = splice_out(fd, sizeof(buf), splice_flags);
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
