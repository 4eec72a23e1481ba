// SPDX-License-Identifier: GPL-2.0
/*
 * hyp-stat: per-vCPU guest exit statistics and time spent in the arm64
 * nVHE/pKVM hypervisor, from the hypervisor trace remote's events.
 *
 *   hyp-stat record [-o FILE] [-b KB] [-t TRACEFS] [--timeline JSON] -- COMMAND [ARGS...]
 *   hyp-stat report [--timeline JSON] [FILE]
 *
 * "record" traces the hypervisor while COMMAND runs (hyp_enter, hyp_exit,
 * vcpu_exit, host_hcall, host_smc and host_mem_abort), reading trace_pipe
 * as it goes, then prints the report; -o also saves the events as text.
 * "report" reads events as text from FILE (default: standard input): what
 * remotes/hypervisor/trace or trace_pipe print, or "trace-cmd report -t" of
 * a recording of the hypervisor (seconds to the ns, or raw nanoseconds).
 *
 * Guest exits: from the hypervisor's entry for a guest exit (hyp_enter
 * reason=guest_exit) to its next return to the same vCPU (hyp_exit
 * reason=eret_guest), host handling included, per vCPU thread and exit
 * class (the exception class of a trap, or the exit code). The count is of
 * every exit (vcpu_exit); the times are of those that were re-entered
 * while traced (a vCPU's last exit may never be).
 * Host traps: from an entry from the host (hvc, smc, host_abort) to the
 * next exit on that CPU, per hypercall id, SMC function id or abort.
 * Per CPU: the entries and the time between each entry and its exit.
 * Hypervisor functions, with function tracing (func_ret): per function
 * traced, the calls that returned and their times, as function_profile
 * shows the kernel's; "record" turns func_ret on where the remote has it,
 * for the functions in its set_ftrace_filter.
 *
 * Times are in microseconds. Events reported lost end every interval open
 * on that CPU (or vCPU), which is then not counted.
 *
 * --timeline JSON also writes the intervals as a Chrome/Perfetto JSON trace
 * (ui.perfetto.dev, chrome://tracing): a track "pkVM Hypervisor CPU N" per
 * CPU with a slice per stay in the hypervisor, named by its reason and with
 * the events' fields as arguments, and a track per vCPU with its guest-run
 * slices ("guest") and its exits (the exit class), timed as in the report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CPUS	512
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NAME_LEN	64

struct stat_row {
	int		pid, vcpu;		/* guest exits; -1 otherwise */
	char		class[NAME_LEN];
	size_t		count;			/* exits or traps seen */
	uint64_t	*ns;			/* the times of those that ended */
	size_t		nr, alloc;
	uint64_t	total, min, max;
	size_t		next;			/* in its hash chain */
};

struct vcpu_state {
	int		pid, vcpu;
	uint64_t	since;			/* 0: not in an exit */
	uint64_t	running;		/* 0: not known to run */
	uint64_t	last_end;		/* end of its last slice */
	unsigned long	lost_gen;		/* lost marks it has seen */
	char		class[NAME_LEN];
	size_t		next;
};

struct cpu_state {
	uint64_t	entered;		/* 0: not in the hypervisor */
	bool		host;			/* entered from the host */
	char		class[NAME_LEN];
	uint64_t	last, covered, total, entries;
	uint64_t	last_end;		/* end of its last timed stay */
	bool		seen;
	char		args[512];		/* timeline: the stay's events */
};

/* Rows (or vCPUs) in an array, found through hash chains of indexes. */
struct table {
	void		*items;
	size_t		size, next;		/* of an item, of its next */
	size_t		nr, alloc;
	size_t		*heads, nr_heads;
};

#define NONE	((size_t)-1)

#define ROWS	{ .size = sizeof(struct stat_row), .next = offsetof(struct stat_row, next) }
static struct table exits = ROWS, traps = ROWS, funcs = ROWS;
static struct table vcpus = {
	.size = sizeof(struct vcpu_state), .next = offsetof(struct vcpu_state, next)
};

static struct cpu_state cpus[MAX_CPUS];
static unsigned long lost_lines, bad_lines, backwards;

/* The JSON timeline, or NULL. */
static FILE *timeline;
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
static void json_str(FILE *f, const char *s)
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
 * and pid P tid 1000000 + V for vCPU V run by the thread P.
 */
static void timeline_slice(int pid, long tid, const char *name, uint64_t from, uint64_t to,
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

static void timeline_name_cpu(int cpu)
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

static void timeline_name_vcpu(int pid, int vcpu)
{
	char args[64];

	snprintf(args, sizeof(args), "\"name\":\"VM of vCPU thread %d\"", pid);
	fprintf(timeline, ",\n");
	timeline_meta(timeline, pid, -1, "process_name", args);
	snprintf(args, sizeof(args), "\"name\":\"vCPU %d\"", vcpu);
	fprintf(timeline, ",\n");
	timeline_meta(timeline, pid, 1000000L + vcpu, "thread_name", args);
}

/* Add "name":"fields" to the arguments of the stay open on @c. */
static void timeline_arg(struct cpu_state *c, const char *name, const char *fields)
{
	size_t len = strlen(c->args);
	FILE *f;

	if (!timeline)
		return;
	f = fmemopen(c->args + len, sizeof(c->args) - len, "w");
	if (!f)
		return;
	fprintf(f, "%s\"", len ? "," : "");
	json_str(f, name);
	fprintf(f, "\":\"");
	json_str(f, fields);
	fprintf(f, "\"");
	/* Too long: keep what was there, still valid JSON. */
	if (fflush(f) || ftell(f) >= (long)(sizeof(c->args) - len - 1))
		c->args[len] = 0;
	fclose(f);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("hyp-stat");
		exit(1);
	}
	return p;
}

static uint64_t hash_key(int pid, int vcpu, const char *class)
{
	uint64_t h = 14695981039346656037ULL;

	h = (h ^ (uint32_t)pid) * 1099511628211ULL;
	h = (h ^ (uint32_t)vcpu) * 1099511628211ULL;
	for (; class && *class; class++)
		h = (h ^ (unsigned char)*class) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static void *item(struct table *t, size_t i)
{
	return (char *)t->items + i * t->size;
}

/* The chain of @t that holds @h: grown to keep chains short. */
static size_t *chain(struct table *t, uint64_t h, size_t (*hash)(void *))
{
	size_t i, *head;

	if (t->nr >= t->nr_heads) {
		free(t->heads);
		t->nr_heads = t->nr_heads ? 2 * t->nr_heads : 256;
		t->heads = xrealloc(NULL, t->nr_heads * sizeof(*t->heads));
		for (i = 0; i < t->nr_heads; i++)
			t->heads[i] = NONE;
		for (i = 0; i < t->nr; i++) {
			size_t *next = (size_t *)((char *)item(t, i) + t->next);

			head = &t->heads[hash(item(t, i)) & (t->nr_heads - 1)];
			*next = *head;
			*head = i;
		}
	}
	return &t->heads[h & (t->nr_heads - 1)];
}

/* A new zeroed item of @t at the head of chain @head. */
static void *add_item(struct table *t, size_t *head)
{
	size_t *next;
	void *p;

	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->items = xrealloc(t->items, t->alloc * t->size);
	}
	p = item(t, t->nr);
	memset(p, 0, t->size);
	next = (size_t *)((char *)p + t->next);
	*next = *head;
	*head = t->nr++;
	return p;
}

static size_t hash_row(void *p)
{
	struct stat_row *r = p;

	return hash_key(r->pid, r->vcpu, r->class);
}

static size_t hash_vcpu(void *p)
{
	struct vcpu_state *v = p;

	return hash_key(v->pid, v->vcpu, NULL);
}

static struct stat_row *row_of(struct table *t, int pid, int vcpu, const char *class)
{
	char name[NAME_LEN];
	struct stat_row *r;
	size_t *head, i;

	snprintf(name, sizeof(name), "%s", class);
	head = chain(t, hash_key(pid, vcpu, name), hash_row);
	for (i = *head; i != NONE; i = r->next) {
		r = item(t, i);
		if (r->pid == pid && r->vcpu == vcpu && !strcmp(r->class, name))
			return r;
	}
	r = add_item(t, head);
	r->pid = pid;
	r->vcpu = vcpu;
	memcpy(r->class, name, sizeof(name));
	return r;
}

static void row_add(struct stat_row *r, uint64_t ns)
{
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 4;
		r->ns = xrealloc(r->ns, r->alloc * sizeof(*r->ns));
	}
	r->ns[r->nr++] = ns;
	r->total += ns;
	if (r->nr == 1 || ns < r->min)
		r->min = ns;
	if (ns > r->max)
		r->max = ns;
}

static struct vcpu_state *vcpu_of(int pid, int vcpu)
{
	struct vcpu_state *v;
	size_t *head, i;

	head = chain(&vcpus, hash_key(pid, vcpu, NULL), hash_vcpu);
	for (i = *head; i != NONE; i = v->next) {
		v = item(&vcpus, i);
		if (v->pid == pid && v->vcpu == vcpu)
			break;
	}
	if (i == NONE) {
		v = add_item(&vcpus, head);
		v->pid = pid;
		v->vcpu = vcpu;
		v->lost_gen = lost_lines;
		if (timeline)
			timeline_name_vcpu(pid, vcpu);
	}
	/* Events were lost since it was last seen: what it had open is void. */
	if (v->lost_gen != lost_lines) {
		v->lost_gen = lost_lines;
		v->since = 0;
		v->running = 0;
	}
	return v;
}

/* The value of "key=" in the fields of an event, as a string. */
static bool field(const char *fields, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		if ((p == fields || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			snprintf(val, len, "%.*s", (int)strcspn(p, " \t\n"), p);
			return true;
		}
		p += klen;
	}
	return false;
}

static int field_int(const char *fields, const char *key, int def)
{
	char val[NAME_LEN];

	return field(fields, key, val, sizeof(val)) ? atoi(val) : def;
}

/*
 * Events lost on @cpu: what was open there is void, and what any vCPU had
 * open (vcpu_of() sees it).
 */
static void lost(int cpu)
{
	lost_lines++;
	if (cpu >= 0)
		cpus[cpu].entered = 0;
}

/*
 * "handle_trap depth=0 (2.016 us)", or from trace-cmd
 * "__kvm_nvhe_handle_trap depth=0 (2.016 us)": one call of that function.
 */
static void func_ret(const char *fields)
{
	char fn[NAME_LEN];
	const char *p;
	double us;
	size_t n;

	if (!strncmp(fields, "__kvm_nvhe_", 11))
		fields += 11;
	n = strcspn(fields, " +");
	p = strstr(fields, " (");
	if (!n || n >= sizeof(fn) || !p || sscanf(p, " (%lf us)", &us) != 1 ||
	    !(us >= 0 && us < 1e12)) {
		bad_lines++;
		return;
	}
	memcpy(fn, fields, n);
	fn[n] = 0;
	row_add(row_of(&funcs, -1, -1, fn), (uint64_t)(us * 1000 + 0.5));
}

static void event(int cpu, uint64_t ts, const char *name, const char *fields)
{
	struct cpu_state *c = &cpus[cpu];
	char reason[NAME_LEN], val[NAME_LEN];

	/* The time this CPU was traced: its steps forward. */
	if (c->seen && ts > c->last)
		c->covered += ts - c->last;
	c->seen = true;
	c->last = ts;
	if (timeline)
		timeline_name_cpu(cpu);

	if (!strcmp(name, "hyp_enter")) {
		if (!field(fields, "reason", reason, sizeof(reason)))
			return;
		c->entered = ts;
		c->entries++;
		c->host = strcmp(reason, "guest_exit") != 0;
		snprintf(c->class, NAME_LEN, "%s", reason);
		c->args[0] = 0;
		timeline_arg(c, name, fields);
		if (!c->host) {
			struct vcpu_state *v = vcpu_of(field_int(fields, "pid", -1),
						       field_int(fields, "vcpu", -1));

			if (v->running && ts >= v->running && v->running >= v->last_end) {
				if (timeline)
					timeline_slice(v->pid, 1000000L + v->vcpu, "guest",
						       v->running, ts, NULL);
				v->last_end = ts;
			}
			v->running = 0;
			v->since = ts;
			snprintf(v->class, NAME_LEN, "unknown");
		}
	} else if (!strcmp(name, "hyp_exit")) {
		if (!field(fields, "reason", reason, sizeof(reason)))
			return;
		/*
		 * A stay that ends before it began, or begins before the last
		 * one ended (a clock stepped back, CPUs merged out of order),
		 * is not timed.
		 */
		if (c->entered && (ts < c->entered || c->entered < c->last_end)) {
			backwards++;
		} else if (c->entered) {
			c->total += ts - c->entered;
			c->last_end = ts;
			if (c->host) {
				struct stat_row *r = row_of(&traps, -1, -1, c->class);

				r->count++;
				row_add(r, ts - c->entered);
			}
			if (timeline) {
				timeline_arg(c, name, fields);
				timeline_slice(1, cpu, c->class, c->entered, ts, c->args);
			}
		}
		c->entered = 0;
		if (!strcmp(reason, "eret_guest")) {
			int pid = field_int(fields, "pid", -1);
			int vcpu = field_int(fields, "vcpu", -1);
			struct vcpu_state *v = vcpu_of(pid, vcpu);

			if (v->since && (ts < v->since || v->since < v->last_end)) {
				backwards++;
			} else if (v->since) {
				struct stat_row *r = row_of(&exits, pid, vcpu, v->class);

				v->last_end = ts;

				/* Without its vcpu_exit, the exit was not counted yet. */
				if (!strcmp(v->class, "unknown"))
					r->count++;
				row_add(r, ts - v->since);
				if (timeline)
					timeline_slice(pid, 1000000L + vcpu, v->class, v->since, ts,
						       NULL);
			}
			v->since = 0;
			v->running = ts;
		}
	} else if (!strcmp(name, "vcpu_exit")) {
		struct vcpu_state *v = vcpu_of(field_int(fields, "pid", -1),
					       field_int(fields, "vcpu", -1));

		if (!field(fields, "code", val, sizeof(val)))
			return;
		if (!strcmp(val, "trap"))
			field(fields, "ec", val, sizeof(val));
		snprintf(v->class, NAME_LEN, "%s", val);
		if (c->entered && !c->host)
			snprintf(c->class, NAME_LEN, "guest_exit %.16s", val);
		/* Counted now: the last exit of a vCPU may never be re-entered. */
		row_of(&exits, v->pid, v->vcpu, val)->count++;
		if (c->entered)
			timeline_arg(c, name, fields);
	} else if (!strcmp(name, "host_hcall") && c->entered && c->host) {
		if (field(fields, "id", val, sizeof(val)))
			snprintf(c->class, NAME_LEN, "hvc %.24s", val);
		timeline_arg(c, name, fields);
	} else if (!strcmp(name, "host_smc") && c->entered && c->host) {
		if (field(fields, "id", val, sizeof(val)))
			snprintf(c->class, NAME_LEN, "smc %.24s", val);
		timeline_arg(c, name, fields);
	} else if (!strcmp(name, "host_mem_abort") && c->entered && c->host) {
		snprintf(c->class, NAME_LEN, "host_abort");
		timeline_arg(c, name, fields);
	} else if (!strcmp(name, "func_ret")) {
		func_ret(fields);
	} else if (c->entered) {
		timeline_arg(c, name, fields);
	}
}

/* "5906025784" (ns) or "5.906025" / "5.906025784" (seconds). */
static bool parse_ts(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	char *end;
	uint64_t sec, frac = 0;
	int digits;

	sec = strtoull(s, &end, 10);
	if (end == s)
		return false;
	if (!dot || dot != end) {
		*ns = sec;
		return true;
	}
	digits = 0;
	for (s = dot + 1; *s >= '0' && *s <= '9'; s++, digits++) {
		if (digits < 9)
			frac = frac * 10 + (*s - '0');
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return true;
}

/*
 * "[000]\t    0.566303: hyp_enter reason=hvc vcpu=-1 pid=-1" (the remote)
 * "   <...>-1  [001]  5906025784: hyp_enter:   reason=hvc ..." (trace-cmd)
 * "CPU:1 [LOST 12 EVENTS]"
 */
static void parse_line(char *line)
{
	char *p = strchr(line, '['), *q, *name, *fields;
	uint64_t ts;
	long cpu;

	/* "CPU:1 [LOST 12 EVENTS]", or trace-cmd's "CPU:1 [12 EVENTS DROPPED]". */
	q = strstr(line, "CPU:");
	if (q && (strstr(q, "[LOST") || strstr(q, "EVENTS DROPPED]"))) {
		cpu = strtol(q + 4, NULL, 10);
		lost(cpu >= 0 && cpu < MAX_CPUS ? cpu : -1);
		return;
	}
	if (!p || *line == '#')
		return;
	cpu = strtol(p + 1, &q, 10);
	if (q == p + 1 || *q != ']' || cpu < 0 || cpu >= MAX_CPUS)
		goto bad;
	p = q + 1;
	p += strspn(p, " \t");
	/* trace-cmd may print latency flags before the time stamp. */
	if (*p && !(*p >= '0' && *p <= '9')) {
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	if (!parse_ts(p, &ts))
		goto bad;
	p += strcspn(p, ":");
	if (*p != ':')
		goto bad;
	p++;
	p += strspn(p, " \t");
	name = p;
	p += strcspn(p, " \t:\n");
	fields = p;
	if (*p) {
		*p = 0;
		fields = p + 1;
	}
	fields += strspn(fields, " \t:");
	q = fields + strlen(fields);
	while (q > fields && (q[-1] == '\n' || q[-1] == ' '))
		*--q = 0;
	event(cpu, ts, name, fields);
	return;
bad:
	bad_lines++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_row(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->vcpu != y->vcpu)
		return x->vcpu < y->vcpu ? -1 : 1;
	return strcmp(x->class, y->class);
}

/* Most time first, as function_profile. */
static int cmp_total(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->class, y->class);
}

static void print_times(struct stat_row *r)
{
	uint64_t p99;

	if (!r->nr) {
		printf(" %8zu %12s %10s %10s %10s %10s\n", r->count, "-", "-", "-", "-", "-");
		return;
	}
	qsort(r->ns, r->nr, sizeof(*r->ns), cmp_u64);
	/* Nearest rank: the smallest value with 99 % of them at or below. */
	p99 = r->ns[(r->nr * 99 + 99) / 100 - 1];
	printf(" %8zu %12.3f %10.3f %10.3f %10.3f %10.3f\n", r->count, r->total / 1e3,
	       r->total / 1e3 / r->nr, r->min / 1e3, r->max / 1e3, p99 / 1e3);
}

static void report(void)
{
	struct stat_row *r = exits.items;
	uint64_t all = 0;
	size_t i;
	int cpu;

	if (exits.nr) {
		qsort(r, exits.nr, sizeof(*r), cmp_row);
		printf("Guest exits, exit to re-entry (us):\n");
		printf("%8s %5s %-14s %8s %12s %10s %10s %10s %10s\n", "pid", "vcpu", "class",
		       "count", "total", "mean", "min", "max", "p99");
		for (i = 0; i < exits.nr; i++) {
			printf("%8d %5d %-14s", r[i].pid, r[i].vcpu, r[i].class);
			print_times(&r[i]);
		}
		printf("\n");
	}
	r = traps.items;
	if (traps.nr) {
		qsort(r, traps.nr, sizeof(*r), cmp_row);
		printf("Host traps, time in the hypervisor (us):\n");
		printf("%-29s %8s %12s %10s %10s %10s %10s\n", "reason", "count", "total",
		       "mean", "min", "max", "p99");
		for (i = 0; i < traps.nr; i++) {
			printf("%-29s", r[i].class);
			print_times(&r[i]);
		}
		printf("\n");
	}
	r = funcs.items;
	if (funcs.nr) {
		qsort(r, funcs.nr, sizeof(*r), cmp_total);
		printf("Hypervisor functions, call to return (us):\n");
		printf("%-37s %8s %12s %10s %10s %10s %10s\n", "function", "calls", "total",
		       "mean", "min", "max", "p99");
		for (i = 0; i < funcs.nr; i++) {
			r[i].count = r[i].nr;
			printf("%-37s", r[i].class);
			print_times(&r[i]);
		}
		printf("\n");
	}
	printf("Time in the hypervisor, per CPU (us):\n");
	printf("%5s %10s %12s %12s %7s\n", "cpu", "entries", "in hyp", "traced", "share");
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct cpu_state *c = &cpus[cpu];
		uint64_t span = c->covered;

		if (!c->seen)
			continue;
		all += c->entries;
		printf("%5d %10llu %12.3f %12.3f %6.2f%%\n", cpu,
		       (unsigned long long)c->entries, c->total / 1e3, span / 1e3,
		       span ? 100.0 * c->total / span : 0.0);
	}
	if (!all)
		printf("(no hyp_enter event: are hyp_enter and hyp_exit enabled?)\n");
	if (lost_lines)
		printf("\n%lu LOST marks: intervals open across them are not counted\n",
		       lost_lines);
	if (backwards)
		printf("\n%lu intervals not timed: time went backwards\n", backwards);
	if (bad_lines)
		printf("\n%lu lines not understood\n", bad_lines);
}

static int parse_stream(FILE *f)
{
	char *line = NULL;
	size_t len = 0;

	while (getline(&line, &len, f) >= 0)
		parse_line(line);
	free(line);
	return ferror(f) ? -1 : 0;
}

static const char *const record_events[] = {
	"hyp_enter", "hyp_exit", "vcpu_exit", "host_hcall", "host_smc", "host_mem_abort",
};

static const char *remote_dir;

static const struct option long_options[] = {
	{ "timeline", required_argument, NULL, 'T' },
	{ }
};

static int open_timeline(const char *path)
{
	timeline = fopen(path, "w");
	if (!timeline) {
		fprintf(stderr, "hyp-stat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	timeline_start(timeline);
	return 0;
}

static int close_timeline(void)
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

static int write_file(const char *file, const char *val)
{
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", remote_dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		fprintf(stderr, "hyp-stat: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Text read so far that does not end a line yet. */
static char *partial;
static size_t partial_len, partial_alloc;

/* Parse whole lines as they come, as report reads them: none is cut. */
static void feed(const char *buf, size_t n)
{
	const char *nl;
	size_t len;

	while (n) {
		nl = memchr(buf, '\n', n);
		len = nl ? (size_t)(nl - buf) + 1 : n;
		if (partial_len + len + 1 > partial_alloc) {
			partial_alloc = 2 * (partial_len + len + 1);
			partial = xrealloc(partial, partial_alloc);
		}
		memcpy(partial + partial_len, buf, len);
		partial_len += len;
		buf += len;
		n -= len;
		if (nl) {
			partial[partial_len] = 0;
			parse_line(partial);
			partial_len = 0;
		}
	}
}

/* Parse what trace_pipe has (and copy it to @save); 0 at EAGAIN. */
static int drain(int fd, FILE *save, size_t *total)
{
	static char buf[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		feed(buf, n);
		*total += n;
		if (save)
			fwrite(buf, 1, n, save);
	}
}

static int record(int argc, char **argv)
{
	const char *out = NULL, *tracefs = "/sys/kernel/tracing", *size = NULL, *json = NULL;
	char path[512];
	size_t total = 0;
	FILE *save = NULL;
	int opt, fd, status, i, quiet_polls;
	pid_t child;

	while ((opt = getopt_long(argc, argv, "+o:b:t:", long_options, NULL)) != -1) {
		switch (opt) {
		case 'T':
			json = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'b':
			size = optarg;
			break;
		case 't':
			tracefs = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc)
		return 2;
	snprintf(path, sizeof(path), "%s/remotes/hypervisor", tracefs);
	remote_dir = strdup(path);

	if (write_file("tracing_on", "0") || write_file("trace", "0") ||
	    (size && write_file("buffer_size_kb", size)) || write_file("events/enable", "0"))
		return 1;
	for (i = 0; i < (int)ARRAY_SIZE(record_events); i++) {
		snprintf(path, sizeof(path), "events/hypervisor/%s/enable", record_events[i]);
		if (write_file(path, "1"))
			return 1;
	}
	/* Function tracing: only what set_ftrace_filter lists, none by default. */
	snprintf(path, sizeof(path), "%s/events/hypervisor/func_ret/enable", remote_dir);
	if (!access(path, W_OK) && write_file("events/hypervisor/func_ret/enable", "1"))
		return 1;
	snprintf(path, sizeof(path), "%s/trace_pipe", remote_dir);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "hyp-stat: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (json && open_timeline(json))
		return 1;
	if (out) {
		save = fopen(out, "w");
		if (!save) {
			fprintf(stderr, "hyp-stat: %s: %s\n", out, strerror(errno));
			return 1;
		}
	}
	if (write_file("tracing_on", "1"))
		return 1;

	child = fork();
	if (child < 0) {
		perror("hyp-stat: fork");
		return 1;
	}
	if (!child) {
		close(fd);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "hyp-stat: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (waitpid(child, &status, WNOHANG) == child)
			break;
		poll(&pfd, 1, 100);
		if (drain(fd, save, &total))
			return 1;
	}
	write_file("tracing_on", "0");
	/* The last events show up within a poll of the remote (100 ms idle). */
	for (quiet_polls = 0; quiet_polls < 3; quiet_polls++) {
		size_t before = total;

		usleep(150000);
		if (drain(fd, save, &total))
			return 1;
		if (total != before)
			quiet_polls = -1;
	}
	close(fd);
	if (save)
		fclose(save);
	feed("\n", partial_len ? 1 : 0);
	if (close_timeline())
		return 1;
	report();
	if (WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "hyp-stat: %s exited with %d\n", argv[optind],
			WEXITSTATUS(status));
	return 0;
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: hyp-stat record [-o FILE] [-b KB] [-t TRACEFS] [--timeline JSON] -- COMMAND [ARGS...]\n"
		"       hyp-stat report [--timeline JSON] [FILE]\n"
		"Guest exits per vCPU and exit class, host traps and time in the arm64\n"
		"hypervisor, from the events of /sys/kernel/tracing/remotes/hypervisor.\n"
		"  -o FILE          also save the events, as text\n"
		"  -b KB            buffer size per CPU\n"
		"  -t TRACEFS       where tracefs is mounted\n"
		"  --timeline JSON  also write a Chrome/Perfetto JSON trace of the intervals\n");
}

int main(int argc, char **argv)
{
	FILE *f = stdin;
	int ret;

	if (argc >= 2 && !strcmp(argv[1], "report")) {
		const char *json = NULL;
		int opt;

		argc--;
		argv++;
		while ((opt = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
			if (opt != 'T') {
				print_usage();
				return 2;
			}
			json = optarg;
		}
		if (argc - optind > 1) {
			print_usage();
			return 2;
		}
		if (argc - optind == 1 && strcmp(argv[optind], "-")) {
			f = fopen(argv[optind], "r");
			if (!f) {
				fprintf(stderr, "hyp-stat: %s: %s\n", argv[optind],
					strerror(errno));
				return 1;
			}
		}
		if (json && open_timeline(json))
			return 1;
		if (parse_stream(f)) {
			fprintf(stderr, "hyp-stat: read error\n");
			return 1;
		}
		if (close_timeline())
			return 1;
		report();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "record")) {
		ret = record(argc - 1, argv + 1);
		if (ret == 2)
			print_usage();
		return ret;
	}
	print_usage();
	return 2;
}
