/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the guest benchmarks remote_bench and remote_latency: the
 * clock, errors, and the files of one remote (dir, set by the program).
 */
#ifndef REMOTE_UTIL_H
#define REMOTE_UTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* /sys/kernel/tracing/remotes/<name> */
static char dir[256];

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int open_at(const char *file, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, flags);
	if (fd < 0)
		die(path);
	return fd;
}

static void put(const char *file, const char *val)
{
	int fd = open_at(file, O_WRONLY | O_TRUNC);

	if (write(fd, val, strlen(val)) < 0)
		die(file);
	close(fd);
}

#endif
