// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark (not part of the series), run in the guest by make bench: what
 * a reader of a trace remote pays, through the real files, with the
 * smallest buffer (3 pages per CPU) and with 4 MiB per CPU:
 *
 *   page   one read(2) of per_cpu/cpu0/trace_pipe_raw (swap and copy),
 *          mean over drains of two pages of events at a time
 *   event  one event read from per_cpu/cpu0/trace_pipe, mean over the same
 *   lap    the first trace_pipe_raw read after the writer overwrote the
 *          ring one and a half times
 *   load   the write to tracing_on that loads the buffer, at a few sizes
 *
 * Events are written through write_event (one selftest event per write).
 * Times are CLOCK_MONOTONIC nanoseconds: under make bench's -icount they
 * count guest instructions. Prints "RBENCH <remote> <what> <kb> <value>".
 *
 *   remote_bench <remote> <event group>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "remote_util.h"

/* 24-byte selftest events, 4072 bytes of events per page. */
#define EVENTS_PER_PAGE	169
#define ROUNDS		32

static int write_fd;
static char buf[1 << 16];

static void write_events(unsigned long n)
{
	static unsigned long id;
	char s[32];

	while (n--) {
		int len = snprintf(s, sizeof(s), "%lu\n", ++id);

		if (write(write_fd, s, len) != len)
			die("write_event");
	}
}

/* Unloaded, @kb per CPU, loaded again with only selftest on; returns the load time. */
static unsigned long long setup(const char *group, unsigned int kb)
{
	unsigned long long t;
	char s[64];
	int fd;

	put("tracing_on", "0");
	put("trace", "");
	snprintf(s, sizeof(s), "%u", kb);
	put("buffer_size_kb", s);
	put("events/enable", "0");
	snprintf(s, sizeof(s), "events/%s/selftest/enable", group);
	put(s, "1");
	fd = open_at("tracing_on", O_WRONLY);
	t = now();
	if (write(fd, "1", 1) != 1)
		die("tracing_on");
	t = now() - t;
	close(fd);
	return t;
}

/* Read @fd until it has nothing; returns the reads that returned data. */
static unsigned long drain(int fd, unsigned long long *t, unsigned long *lines)
{
	unsigned long reads = 0;
	unsigned long long t0;
	ssize_t r;

	for (;;) {
		t0 = now();
		r = read(fd, buf, sizeof(buf));
		if (r <= 0)
			break;
		*t += now() - t0;
		reads++;
		if (lines)
			for (ssize_t i = 0; i < r; i++)
				*lines += buf[i] == '\n';
	}
	if (r < 0 && errno != EAGAIN)
		die("read");
	return reads;
}

static void bench_reads(const char *remote, const char *group, unsigned int kb)
{
	unsigned long long t = 0;
	unsigned long reads = 0, lines = 0;
	int fd, i;

	setup(group, kb);
	fd = open_at("per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
	for (i = 0; i < ROUNDS; i++) {
		write_events(2 * EVENTS_PER_PAGE);
		reads += drain(fd, &t, NULL);
	}
	printf("RBENCH %s page %u %llu\n", remote, kb, reads ? t / reads : 0);
	close(fd);

	t = 0;
	fd = open_at("per_cpu/cpu0/trace_pipe", O_RDONLY | O_NONBLOCK);
	for (i = 0; i < ROUNDS; i++) {
		write_events(2 * EVENTS_PER_PAGE);
		drain(fd, &t, &lines);
	}
	printf("RBENCH %s event %u %llu\n", remote, kb, lines ? t / lines : 0);
	close(fd);

	/*
	 * One and a half times the ring, then one read: the head is half a
	 * ring away from where the last swap left it.
	 */
	fd = open_at("per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
	drain(fd, &t, NULL);
	write_events((kb / 4 * 3 / 2 + 3) * EVENTS_PER_PAGE);
	t = now();
	if (read(fd, buf, 4096) <= 0)
		die("read after a lap");
	printf("RBENCH %s lap %u %llu\n", remote, kb, now() - t);
	close(fd);
}

int main(int argc, char **argv)
{
	static const unsigned int load_kb[] = { 8, 1024, 4096, 16384 };
	cpu_set_t set;
	unsigned int i;

	if (argc != 3) {
		fprintf(stderr, "usage: remote_bench <remote> <event group>\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "/sys/kernel/tracing/remotes/%s", argv[1]);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	write_fd = open_at("write_event", O_WRONLY);

	bench_reads(argv[1], argv[2], 8);
	bench_reads(argv[1], argv[2], 4096);
	for (i = 0; i < sizeof(load_kb) / sizeof(load_kb[0]); i++)
		printf("RBENCH %s load %u %llu\n", argv[1], load_kb[i], setup(argv[2], load_kb[i]));

	put("tracing_on", "0");
	put("trace", "");
	put("events/enable", "0");
	close(write_fd);
	return 0;
}
