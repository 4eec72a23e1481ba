// SPDX-License-Identifier: GPL-2.0
/*
 * hyp-stat: the timeline, a Chrome/Perfetto JSON trace (--timeline). It is
 * valid JSON and UTF-8 whatever the events hold: names and fields are
 * escaped, and bytes that are not UTF-8 become U+FFFD.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "hyp-stat.h"

/* The JSON timeline, or NULL. */
FILE *timeline;
static bool timeline_cpu_named[MAX_CPUS];

/* The length of the UTF-8 sequence at @s, 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] < 0xe0)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] < 0xf0)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] < 0xf5)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c < 0xe000))
		return 0;
	return n;
}

/* @s as the inside of a JSON string: UTF-8, U+FFFD for what is not. */
void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	while (*p) {
		n = utf8_len(p);
		if (!n) {
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

/* Metadata ("M") naming a process (@tid < 0) or a thread, or sorting it. */
static void timeline_meta(FILE *f, int pid, long tid, const char *what, const char *args)
{
	fprintf(f, "{\"ph\":\"M\",\"pid\":%d,", pid);
	if (tid >= 0)
		fprintf(f, "\"tid\":%ld,", tid);
	fprintf(f, "\"name\":\"%s\",\"args\":{%s}}", what, args);
}

static void timeline_start(FILE *f)
{
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	timeline_meta(f, 1, -1, "process_name", "\"name\":\"pkVM Hypervisor\"");
}

static void timeline_end(FILE *f)
{
	fprintf(f, "\n]}\n");
}

/*
 * A complete ("X") slice from @from to @to ns; time stamps and durations
 * are microseconds with nanosecond digits. Tracks: pid 1 tid N for CPU N,
 * and pid P tid 1000000 + V for vCPU V of the VM whose VMM is the process P
 * (or, where that is not known, run by the thread P).
 */
void timeline_slice(int pid, long tid, const char *name, uint64_t from, uint64_t to,
		    const char *args)
{
	uint64_t dur = to - from;

	fprintf(timeline, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%ld,\"name\":\"", pid, tid);
	json_str(timeline, name);
	fprintf(timeline, "\",\"ts\":%llu.%03llu,\"dur\":%llu.%03llu",
		(unsigned long long)(from / 1000), (unsigned long long)(from % 1000),
		(unsigned long long)(dur / 1000), (unsigned long long)(dur % 1000));
	if (args && *args)
		fprintf(timeline, ",\"args\":{%s}", args);
	fprintf(timeline, "}");
}

/* A mark at @ts on a thread's track: Perfetto shows an arrow there. */
void timeline_instant(int pid, long tid, const char *name, uint64_t ts)
{
	fprintf(timeline, ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%ld,\"name\":\"",
		pid, tid);
	json_str(timeline, name);
	fprintf(timeline, "\",\"ts\":%llu.%03llu}", (unsigned long long)(ts / 1000),
		(unsigned long long)(ts % 1000));
}

void timeline_name_cpu(int cpu)
{
	char args[64];

	if (timeline_cpu_named[cpu])
		return;
	timeline_cpu_named[cpu] = true;
	snprintf(args, sizeof(args), "\"name\":\"pkVM Hypervisor CPU %d\"", cpu);
	fprintf(timeline, ",\n");
	timeline_meta(timeline, 1, cpu, "thread_name", args);
	snprintf(args, sizeof(args), "\"sort_index\":%d", cpu);
	fprintf(timeline, ",\n");
	timeline_meta(timeline, 1, cpu, "thread_sort_index", args);
}

void timeline_name_vcpu(int vm, int pid, int vcpu, const char *comm)
{
	char args[64];

	fprintf(timeline, ",\n{\"ph\":\"M\",\"pid\":%d,", vm);
	fprintf(timeline, "\"name\":\"process_name\",\"args\":{\"name\":\"");
	if (comm) {
		fprintf(timeline, "VM %d (", vm);
		json_str(timeline, comm);
		fprintf(timeline, ")\"}}");
	} else {
		fprintf(timeline, "VM of vCPU thread %d\"}}", pid);
	}
	snprintf(args, sizeof(args), "\"name\":\"vCPU %d\"", vcpu);
	fprintf(timeline, ",\n");
	timeline_meta(timeline, vm, 1000000L + vcpu, "thread_name", args);
}

int open_timeline(const char *path)
{
	timeline = fopen(path, "we");
	if (!timeline) {
		fprintf(stderr, "hyp-stat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	timeline_start(timeline);
	return 0;
}

int close_timeline(void)
{
	int ret;

	if (!timeline)
		return 0;
	timeline_end(timeline);
	ret = ferror(timeline) | fclose(timeline);
	timeline = NULL;
	if (ret)
		fprintf(stderr, "hyp-stat: cannot write the timeline\n");
	return ret ? -1 : 0;
}
