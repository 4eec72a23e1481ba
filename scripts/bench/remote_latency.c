// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark (not part of the series), run in the guest by make bench in real
 * time (no -icount): how long an event takes to reach a trace_pipe reader
 * that is blocked in read(2), and what a blocked reader costs when nothing
 * is written.
 *
 *   latency  the main thread writes N events through write_event, one every
 *            1 to 10 ms (pseudo-random), noting CLOCK_MONOTONIC before each
 *            write; a reader thread blocked on trace_pipe notes the time each
 *            event's line comes out. Prints p50, p99 and max in us.
 *   idle     for S seconds nothing is written: the reader thread's own
 *            wakeups (voluntary context switches) per second, and the
 *            system's context switches per second with the reader blocked
 *            (from 1.5 s after it blocked) and with no reader at all.
 *
 * The first event comes after the idle part: its latency, printed on its
 * own, shows what the first event after a quiet spell waits (the poll has
 * slowed down). The N events are written once the poll is back to speed,
 * 300 ms later: p50 and p99 are those of a reader that keeps up.
 *
 * Prints "LBENCH <remote> <what> <value>".
 *
 *   remote_latency <remote> <event group> [events] [idle seconds]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "remote_util.h"

static unsigned long long *written, *seen;
static unsigned int nr_events;
static volatile int reader_tid;
static int pipe_fd;

/* Lines carry "id=N": note when event N came out. */
static void *reader(void *arg)
{
	static char buf[1 << 16];
	char *line, *end, *id;
	size_t have = 0;
	ssize_t r;

	(void)arg;
	reader_tid = syscall(SYS_gettid);
	for (;;) {
		r = read(pipe_fd, buf + have, sizeof(buf) - 1 - have);
		if (r <= 0)
			return NULL;
		have += r;
		buf[have] = 0;
		line = buf;
		while ((end = strchr(line, '\n'))) {
			*end = 0;
			id = strstr(line, "id=");
			if (id) {
				unsigned long n = strtoul(id + 3, NULL, 10);

				if (n && n <= nr_events + 1 && !seen[n - 1])
					seen[n - 1] = now();
			}
			line = end + 1;
		}
		have -= line - buf;
		memmove(buf, line, have);
	}
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static unsigned long long stat_field(const char *path, const char *name)
{
	char line[256];
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)))
			v = strtoull(line + strlen(name), NULL, 10);
	fclose(f);
	return v;
}

static double ctxt_rate(unsigned int secs)
{
	unsigned long long c = stat_field("/proc/stat", "ctxt ");

	sleep(secs);
	return (double)(stat_field("/proc/stat", "ctxt ") - c) / secs;
}

/* How many events waited 0-1 ms, 1-2 ms, 2-4 ms, ... : a tail or a shift. */
static void hist(const char *remote, unsigned long long *lat, unsigned int n)
{
	unsigned int count[8] = { 0 }, i, b;

	for (i = 0; i < n; i++) {
		for (b = 0; b < 7 && lat[i] >= (1000000ULL << b); b++)
			;
		count[b]++;
	}
	printf("LBENCH %s latency_ms_histogram <1:%u 1-2:%u 2-4:%u 4-8:%u 8-16:%u 16-32:%u 32-64:%u >64:%u\n",
	       remote, count[0], count[1], count[2], count[3], count[4], count[5], count[6],
	       count[7]);
}

int main(int argc, char **argv)
{
	unsigned int i, secs, lost = 0, seed = 1;
	unsigned long long *lat, c0;
	double base, blocked;
	char path[128], s[64];
	pthread_t thread;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: remote_latency <remote> <event group> [events] [idle seconds]\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "/sys/kernel/tracing/remotes/%s", argv[1]);
	nr_events = argc > 3 ? atoi(argv[3]) : 1000;
	secs = argc > 4 ? atoi(argv[4]) : 5;
	/* One more: the first event after the idle part. */
	written = calloc(nr_events + 1, sizeof(*written));
	seen = calloc(nr_events + 1, sizeof(*seen));
	lat = calloc(nr_events, sizeof(*lat));
	if (!written || !seen || !lat)
		die("calloc");

	put("tracing_on", "0");
	put("trace", "");
	put("events/enable", "0");
	snprintf(path, sizeof(path), "events/%s/selftest/enable", argv[2]);
	put(path, "1");
	put("tracing_on", "1");

	base = ctxt_rate(secs);
	pipe_fd = open_at("trace_pipe", O_RDONLY);
	if (pthread_create(&thread, NULL, reader, NULL))
		die("pthread_create");
	/* Let the reader block, and the poll slow down (after 1 s idle). */
	usleep(1500000);
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", reader_tid);
	c0 = stat_field(path, "voluntary_ctxt_switches:");
	blocked = ctxt_rate(secs);
	printf("LBENCH %s idle_reader_wakeups_per_s %.1f\n", argv[1],
	       (double)(stat_field(path, "voluntary_ctxt_switches:") - c0) / secs);
	printf("LBENCH %s idle_ctxt_per_s_no_reader %.1f\n", argv[1], base);
	printf("LBENCH %s idle_ctxt_per_s_blocked_reader %.1f\n", argv[1], blocked);

	fd = open_at("write_event", O_WRONLY);
	i = snprintf(s, sizeof(s), "%u\n", nr_events + 1);
	written[nr_events] = now();
	if (write(fd, s, i) != i)
		die("write_event");
	usleep(300000);
	for (i = 0; i < nr_events; i++) {
		int len;

		seed = seed * 1103515245 + 12345;
		usleep(1000 + (seed >> 8) % 9000);
		len = snprintf(s, sizeof(s), "%u\n", i + 1);
		written[i] = now();
		if (write(fd, s, len) != len)
			die("write_event");
	}
	close(fd);
	/* Give the last events time to come out. */
	usleep(500000);
	for (i = 0; i < nr_events; i++) {
		if (!seen[i]) {
			lost++;
			continue;
		}
		lat[i - lost] = seen[i] > written[i] ? seen[i] - written[i] : 0;
	}
	i = nr_events - lost;
	qsort(lat, i, sizeof(*lat), cmp);
	if (i) {
		printf("LBENCH %s latency_p50_us %llu\n", argv[1], lat[i / 2] / 1000);
		printf("LBENCH %s latency_p99_us %llu\n", argv[1], lat[i * 99 / 100] / 1000);
		printf("LBENCH %s latency_max_us %llu\n", argv[1], lat[i - 1] / 1000);
		hist(argv[1], lat, i);
	}
	printf("LBENCH %s latency_events_missing %u\n", argv[1], lost);
	if (seen[nr_events])
		printf("LBENCH %s latency_first_after_idle_us %llu\n", argv[1],
		       (seen[nr_events] - written[nr_events]) / 1000);
	else
		printf("LBENCH %s latency_first_after_idle_us missing\n", argv[1]);

	put("tracing_on", "0");
	put("events/enable", "0");
	return 0;
}
