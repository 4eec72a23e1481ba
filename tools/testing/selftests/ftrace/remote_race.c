// SPDX-License-Identifier: GPL-2.0
/*
 * Read remote trace files from many threads at once and account for every
 * selftest event:
 *
 *   remote_race [-t THREADS] [-m read|pread|splice|mix] [-n N] [-i MS] [-R]
 *               [-s SECONDS] FILE...
 *
 * Each FILE is opened once (O_NONBLOCK); the threads share the descriptors
 * round-robin, so several threads read the same open file. Every read asks
 * for 64 KiB, which a text reader fills with whole lines. Each thread stops
 * after MS ms (default 500) without data. Then the ids 1..N are checked:
 *
 *   ids N read R dup D missing M lost L bad B
 *
 * and the exit status is 1 if any id was read twice, any line was not a
 * selftest or LOST line, any byte was not text, or an id is missing that no
 * LOST line accounts for. pread() and splice() fall back to read() on a
 * file that refuses them (ESPIPE, EINVAL).
 *
 * -R, or a file named *trace_pipe_raw, reads trace_pipe_raw pages: every
 * read must return one whole page of
 * selftest events, with a non-zero page time stamp when it has events.
 * -s makes any event time stamped before SECONDS (boot clock) an error.
 *
 * Stress mode, -S CPUS -D SECONDS: the ids are CPU * 1000000000 + SEQ, SEQ
 * from 1 to N, CPU below CPUS (one sequence per writer); the threads read
 * for SECONDS, then until MS ms pass without data. The summary is then
 *
 *   read R dup D lost L bad B
 *
 * and the exit status 1 on any duplicate or bad line; the caller compares
 * R + L with what its writers wrote.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK		(64 * 1024)
#define PAGE		4096
#define MISSED_EVENTS	(1UL << 31)
#define MISSED_STORED	(1UL << 30)

enum { M_READ, M_PREAD, M_SPLICE, M_MIX };

static int mode = M_READ, idle_ms = 500, raw, stress_cpus;
static long deadline;
static double min_ts;
static unsigned long nr_ids;
static unsigned char *seen;
static unsigned long dups, bad, lost, nread;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct worker {
	pthread_t	thread;
	int		fd;
	int		mode;
	int		raw;		/* reads trace_pipe_raw pages */
	char		*carry;		/* a partial line from a previous chunk */
	size_t		carry_len;
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One line without its newline. Called with @lock held. */
static void account_id(uint64_t id, double ts);

static void account(const char *line, size_t len)
{
	unsigned long id, n, cpu;
	char buf[256];
	double ts;

	if (len >= sizeof(buf)) {
		fprintf(stderr, "long line\n");
		bad++;
		return;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (sscanf(buf, "CPU:%lu [LOST %lu EVENTS]", &cpu, &n) == 2) {
		lost += n;
		return;
	}
	if (sscanf(buf, "[%lu]\t%lf: selftest id=%lu", &cpu, &ts, &id) != 3) {
		fprintf(stderr, "bad line: '%s'\n", buf);
		bad++;
		return;
	}
	account_id(id, ts);
}

static void account_id(uint64_t id, double ts)
{
	if (stress_cpus) {
		uint64_t cpu = id / 1000000000, seq = id % 1000000000;

		if (cpu >= (uint64_t)stress_cpus || !seq || seq > nr_ids) {
			fprintf(stderr, "id %llu out of range\n", (unsigned long long)id);
			bad++;
			return;
		}
		id = cpu * nr_ids + seq;
	}
	nread++;
	if (ts < min_ts) {
		if (bad < 10)
			fprintf(stderr, "id %llu at %.6f, before %.6f\n",
				(unsigned long long)id, ts, min_ts);
		bad++;
	}
	if (id < 1 || id > nr_ids * (stress_cpus ?: 1)) {
		fprintf(stderr, "id %llu out of range\n", (unsigned long long)id);
		bad++;
		return;
	}
	if (seen[id]++) {
		if (dups < 10)
			fprintf(stderr, "id %llu read twice\n", (unsigned long long)id);
		dups++;
	}
}

/* One trace_pipe_raw page of selftest events. Called with @lock held. */
static void take_page(const unsigned char *page)
{
	uint64_t ts = *(const uint64_t *)page;
	unsigned long commit = *(const unsigned long *)(page + 8);
	unsigned long size = commit & ~(MISSED_EVENTS | MISSED_STORED);
	const unsigned char *data = page + 16;
	unsigned long off = 0;

	if (size > PAGE - 16) {
		fprintf(stderr, "bad commit %#lx\n", commit);
		bad++;
		return;
	}
	if ((commit & MISSED_EVENTS) && (commit & MISSED_STORED))
		lost += *(const unsigned long *)(data + size);
	if (size && !ts) {
		fprintf(stderr, "page of events with time stamp 0\n");
		bad++;
	}
	while (off < size) {
		uint32_t hdr = *(const uint32_t *)(data + off);
		uint32_t type_len = hdr & 31;
		const uint32_t *array = (const uint32_t *)(data + off + 4);

		if (type_len == 30) {
			ts += (hdr >> 5) + ((uint64_t)array[0] << 27);
			off += 8;
		} else if (type_len == 0 && array[0] >= 20 && off + 4 + array[0] <= size) {
			ts += hdr >> 5;
			account_id(*(const uint64_t *)((const unsigned char *)&array[1] + 8),
				   ts / 1e9);
			off += 4 + array[0];
		} else {
			fprintf(stderr, "bad event (type_len %u) at %lu\n", type_len, off);
			bad++;
			return;
		}
	}
}

static void take(struct worker *w, const char *data, size_t len)
{
	size_t i, start = 0;

	pthread_mutex_lock(&lock);
	if (w->raw) {
		if (len != PAGE) {
			fprintf(stderr, "raw read of %zu bytes\n", len);
			bad++;
		} else {
			take_page((const unsigned char *)data);
		}
		pthread_mutex_unlock(&lock);
		return;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = data[i];

		if (c != '\n' && c != '\t' && (c < ' ' || c > '~')) {
			if (bad < 10)
				fprintf(stderr, "byte 0x%02x in the text\n", c);
			bad++;
		}
	}
	for (i = 0; i < len; i++) {
		if (data[i] != '\n')
			continue;
		if (w->carry_len) {
			/* A chunk ended inside a line: 64 KiB reads never should. */
			fprintf(stderr, "line split across reads\n");
			bad++;
			w->carry_len = 0;
		}
		account(data + start, i - start);
		start = i + 1;
	}
	if (start < len) {
		w->carry = realloc(w->carry, w->carry_len + len - start);
		memcpy(w->carry + w->carry_len, data + start, len - start);
		w->carry_len += len - start;
	}
	pthread_mutex_unlock(&lock);
}

static ssize_t do_splice(int fd, char *buf)
{
	int p[2];
	ssize_t ret, got = 0;

	if (pipe(p))
		return -1;
	ret = splice(fd, NULL, p[1], NULL, CHUNK, SPLICE_F_NONBLOCK);
	if (ret > 0) {
		while (got < ret) {
			ssize_t r = read(p[0], buf + got, ret - got);

			if (r <= 0)
				break;
			got += r;
		}
		ret = got;
	}
	close(p[0]);
	close(p[1]);
	return ret;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	char *buf = malloc(CHUNK);
	long last = now_ms();
	int m = w->mode;
	ssize_t ret;

	for (;;) {
		switch (m) {
		case M_PREAD:
			ret = pread(w->fd, buf, CHUNK, 0);
			break;
		case M_SPLICE:
			ret = do_splice(w->fd, buf);
			break;
		default:
			ret = read(w->fd, buf, CHUNK);
		}
		if (ret < 0 && (errno == ESPIPE || errno == EINVAL) && m != M_READ) {
			m = M_READ;
			continue;
		}
		if (ret > 0) {
			take(w, buf, ret);
			last = now_ms();
			continue;
		}
		if (ret < 0 && errno != EAGAIN && errno != EINTR) {
			perror("read");
			pthread_mutex_lock(&lock);
			bad++;
			pthread_mutex_unlock(&lock);
			break;
		}
		/* EOF or nothing yet: a consuming file may still get data. */
		if (now_ms() < deadline) {
			usleep(2000);
			continue;
		}
		if (now_ms() - last > idle_ms)
			break;
		usleep(2000);
	}
	if (w->carry_len) {
		fprintf(stderr, "unterminated line at the end\n");
		pthread_mutex_lock(&lock);
		bad++;
		pthread_mutex_unlock(&lock);
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	int nr_threads = 4, nr_fds, i, opt;
	unsigned long missing = 0, id;
	struct worker *workers;
	int *fds;

	while ((opt = getopt(argc, argv, "t:m:n:i:Rs:S:D:")) != -1) {
		switch (opt) {
		case 't':
			nr_threads = atoi(optarg);
			break;
		case 'm':
			if (!strcmp(optarg, "read"))
				mode = M_READ;
			else if (!strcmp(optarg, "pread"))
				mode = M_PREAD;
			else if (!strcmp(optarg, "splice"))
				mode = M_SPLICE;
			else if (!strcmp(optarg, "mix"))
				mode = M_MIX;
			else
				return 2;
			break;
		case 'n':
			nr_ids = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			idle_ms = atoi(optarg);
			break;
		case 'R':
			raw = 1;
			break;
		case 's':
			min_ts = strtod(optarg, NULL);
			break;
		case 'S':
			stress_cpus = atoi(optarg);
			break;
		case 'D':
			deadline = now_ms() + atol(optarg) * 1000;
			break;
		default:
			fprintf(stderr, "usage: %s [-t T] [-m read|pread|splice|mix] [-n N]\n"
				"\t[-i MS] [-R] [-s SECONDS] [-S CPUS -D SECONDS] FILE...\n",
				argv[0]);
			return 2;
		}
	}
	nr_fds = argc - optind;
	if (nr_fds < 1 || nr_threads < nr_fds || !nr_ids)
		return 2;

	seen = calloc(nr_ids * (stress_cpus ?: 1) + 1, 1);
	fds = calloc(nr_fds, sizeof(*fds));
	workers = calloc(nr_threads, sizeof(*workers));
	for (i = 0; i < nr_fds; i++) {
		fds[i] = open(argv[optind + i], O_RDONLY | O_NONBLOCK);
		if (fds[i] < 0) {
			perror(argv[optind + i]);
			return 1;
		}
	}
	for (i = 0; i < nr_threads; i++) {
		const char *name = argv[optind + i % nr_fds];
		size_t len = strlen(name);

		workers[i].fd = fds[i % nr_fds];
		workers[i].raw = raw || (len >= 14 && !strcmp(name + len - 14, "trace_pipe_raw"));
		workers[i].mode = mode == M_MIX ? i % 3 : mode;
		pthread_create(&workers[i].thread, NULL, worker_fn, &workers[i]);
	}
	for (i = 0; i < nr_threads; i++)
		pthread_join(workers[i].thread, NULL);

	if (stress_cpus) {
		printf("read %lu dup %lu lost %lu bad %lu\n", nread, dups, lost, bad);
		return dups || bad;
	}
	for (id = 1; id <= nr_ids; id++)
		missing += !seen[id];
	printf("ids %lu read %lu dup %lu missing %lu lost %lu bad %lu\n",
	       nr_ids, nread, dups, missing, lost, bad);
	return dups || bad || missing > lost;
}
