// SPDX-License-Identifier: GPL-2.0
/*
 * hyp-stat: per-vCPU guest exit statistics and time spent in the arm64
 * nVHE/pKVM hypervisor, from the hypervisor trace remote's events.
 *
 *   hyp-stat record [-o FILE] [-b KB] [-t TRACEFS] [-k KALLSYMS] [--timeline JSON]
 *                   -- COMMAND [ARGS...]
 *   hyp-stat report [--timeline JSON] [FILE]
 *
 * "record" traces the hypervisor while COMMAND runs (hyp_enter, hyp_exit,
 * vcpu_exit, host_hcall, host_smc and host_mem_abort), reading the remote's
 * per_cpu/cpuN/trace_pipe_raw in binary as it goes, then prints the report;
 * -o also saves the events as text, which "report" reads back.
 * "report" reads a trace.dat (trace-cmd record, trace-remote-record) in
 * binary through libtracecmd, or text from FILE (default: standard input):
 * what remotes/hypervisor/trace or trace_pipe print, or "trace-cmd report
 * -t" (seconds to the ns, or raw nanoseconds).
 *
 * In binary, libtraceevent parses each event by the format the remote
 * gives it (events/hypervisor/NAME/format): fields are found by name, and
 * the names of symbolic values (reason, code...) come from the format's
 * __print_symbolic(). Functions are named by the kallsyms the events come
 * with: /proc/kallsyms (or -k) for "record", the trace.dat's for "report".
 *
 * Build: cc -o hyp-stat hyp-stat.c $(pkg-config --cflags --libs libtracecmd
 * libtracefs libtraceevent)
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <trace-cmd.h>
#include <tracefs.h>

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

/*
 * An event, read as text ("key=val ..." in @text) or in binary (@tev and
 * @rec: its fields are found by name in its format, @text is what
 * libtraceevent prints of them, made when first needed).
 */
struct ev {
	int			cpu;
	uint64_t		ts;
	const char		*name;
	const char		*text;
	struct tep_event	*tev;
	struct tep_record	*rec;
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
static unsigned long lost_lines, bad_lines, bad_pages, backwards;

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

static const char *ev_text(struct ev *e);

/* Add "name":"fields" of @e to the arguments of the stay open on @c. */
static void timeline_arg(struct cpu_state *c, struct ev *e)
{
	size_t len = strlen(c->args);
	const char *fields;
	FILE *f;

	if (!timeline)
		return;
	fields = ev_text(e);
	f = fmemopen(c->args + len, sizeof(c->args) - len, "w");
	if (!f)
		return;
	fprintf(f, "%s\"", len ? "," : "");
	json_str(f, e->name);
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

/* The fields of @e as text: what the remote's trace shows after the name. */
static const char *ev_text(struct ev *e)
{
	static struct trace_seq s;

	if (e->text)
		return e->text;
	if (!s.buffer)
		trace_seq_init(&s);
	trace_seq_reset(&s);
	tep_print_event(e->tev->tep, &s, e->rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	e->text = s.buffer ? s.buffer : "";
	return e->text;
}

/* A number field of a binary event, sign-extended if its type is signed. */
static bool ev_field_num(struct ev *e, const char *key, long long *val)
{
	struct tep_format_field *f = tep_find_any_field(e->tev, key);
	unsigned long long v;

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ||
	    f->offset + f->size > e->rec->size || tep_read_number_field(f, e->rec->data, &v))
		return false;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		v |= ~0ULL << (f->size * 8);
	*val = (long long)v;
	return true;
}

static int ev_int(struct ev *e, const char *key, int def)
{
	char val[NAME_LEN];
	long long v;

	if (e->tev)
		return ev_field_num(e, key, &v) && v == (int)v ? (int)v : def;
	return field(e->text, key, val, sizeof(val)) ? atoi(val) : def;
}

/*
 * The symbol __print_symbolic() gives field @key in the event's format,
 * as the trace prints it; NULL if the format has none for it.
 */
static const char *ev_symbol(struct ev *e, const char *key)
{
	struct tep_print_arg *a;
	struct tep_print_flag_sym *sym;
	long long v;

	for (a = e->tev->print_fmt.args; a; a = a->next) {
		if (a->type != TEP_PRINT_SYMBOL || !a->symbol.field ||
		    a->symbol.field->type != TEP_PRINT_FIELD ||
		    strcmp(a->symbol.field->field.name, key))
			continue;
		if (!ev_field_num(e, key, &v))
			return NULL;
		for (sym = a->symbol.symbols; sym; sym = sym->next) {
			if (strtoll(sym->value, NULL, 0) == v)
				return sym->str;
		}
		return NULL;
	}
	return NULL;
}

/* A field as the trace prints it ("reason" gives "hvc", "ec" "dabt_low"). */
static bool ev_str(struct ev *e, const char *key, char *val, size_t len)
{
	const char *sym = e->tev ? ev_symbol(e, key) : NULL;

	if (sym) {
		snprintf(val, len, "%s", sym);
		return true;
	}
	return field(ev_text(e), key, val, len);
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

/* Function names as /proc/kallsyms has them carry this prefix. */
#define HYP_PREFIX	"__kvm_nvhe_"

/* record: where to name functions from, read at the first func_ret. */
static const char *kallsyms;

static void load_kallsyms(struct tep_handle *tep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = fopen(kallsyms, "r");
	if (!f || getdelim(&buf, &len, 0, f) < 0 || tep_parse_kallsyms(tep, buf))
		fprintf(stderr, "hyp-stat: %s: cannot read the function names\n", kallsyms);
	if (f)
		fclose(f);
	free(buf);
}

/*
 * One call of a traced function. Binary: its ip (named by the kallsyms the
 * events came with), calltime and rettime. Text: "handle_trap depth=0
 * (2.016 us)", or from trace-cmd "__kvm_nvhe_handle_trap+0x0 depth=0 ...".
 */
static void func_ret(struct ev *e)
{
	const char *fields = e->text, *p, *name;
	long long ip, call, ret;
	char fn[NAME_LEN];
	double us;
	size_t n;

	if (e->tev) {
		if (!ev_field_num(e, "ip", &ip) || !ev_field_num(e, "calltime", &call) ||
		    !ev_field_num(e, "rettime", &ret)) {
			bad_lines++;
			return;
		}
		if ((uint64_t)ret < (uint64_t)call) {
			backwards++;
			return;
		}
		if (kallsyms) {
			load_kallsyms(e->tev->tep);
			kallsyms = NULL;
		}
		name = tep_find_function(e->tev->tep, ip);
		if (name && !strncmp(name, HYP_PREFIX, strlen(HYP_PREFIX)))
			name += strlen(HYP_PREFIX);
		if (name)
			snprintf(fn, sizeof(fn), "%s", name);
		else
			snprintf(fn, sizeof(fn), "0x%llx", ip);
		row_add(row_of(&funcs, -1, -1, fn), (uint64_t)ret - (uint64_t)call);
		return;
	}
	if (!strncmp(fields, HYP_PREFIX, strlen(HYP_PREFIX)))
		fields += strlen(HYP_PREFIX);
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

static void event(struct ev *e)
{
	const char *name = e->name;
	uint64_t ts = e->ts;
	int cpu = e->cpu;
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
		if (!ev_str(e, "reason", reason, sizeof(reason)))
			return;
		c->entered = ts;
		c->entries++;
		c->host = strcmp(reason, "guest_exit") != 0;
		snprintf(c->class, NAME_LEN, "%s", reason);
		c->args[0] = 0;
		timeline_arg(c, e);
		if (!c->host) {
			struct vcpu_state *v = vcpu_of(ev_int(e, "pid", -1),
						       ev_int(e, "vcpu", -1));

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
		if (!ev_str(e, "reason", reason, sizeof(reason)))
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
				timeline_arg(c, e);
				timeline_slice(1, cpu, c->class, c->entered, ts, c->args);
			}
		}
		c->entered = 0;
		if (!strcmp(reason, "eret_guest")) {
			int pid = ev_int(e, "pid", -1);
			int vcpu = ev_int(e, "vcpu", -1);
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
		struct vcpu_state *v = vcpu_of(ev_int(e, "pid", -1),
					       ev_int(e, "vcpu", -1));

		if (!ev_str(e, "code", val, sizeof(val)))
			return;
		if (!strcmp(val, "trap"))
			ev_str(e, "ec", val, sizeof(val));
		snprintf(v->class, NAME_LEN, "%s", val);
		if (c->entered && !c->host)
			snprintf(c->class, NAME_LEN, "guest_exit %.16s", val);
		/* Counted now: the last exit of a vCPU may never be re-entered. */
		row_of(&exits, v->pid, v->vcpu, val)->count++;
		if (c->entered)
			timeline_arg(c, e);
	} else if (!strcmp(name, "host_hcall") && c->entered && c->host) {
		/* Named if the host knew it ("name=0x13" if not), else by number. */
		if ((ev_str(e, "name", val, sizeof(val)) && strncmp(val, "0x", 2)) ||
		    ev_str(e, "id", val, sizeof(val)))
			snprintf(c->class, NAME_LEN, "hvc %.32s", val);
		timeline_arg(c, e);
	} else if (!strcmp(name, "host_smc") && c->entered && c->host) {
		if (ev_str(e, "id", val, sizeof(val)))
			snprintf(c->class, NAME_LEN, "smc %.24s", val);
		timeline_arg(c, e);
	} else if (!strcmp(name, "host_mem_abort") && c->entered && c->host) {
		snprintf(c->class, NAME_LEN, "host_abort");
		timeline_arg(c, e);
	} else if (!strcmp(name, "func_ret")) {
		func_ret(e);
	} else if (c->entered) {
		timeline_arg(c, e);
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
	struct ev e = { };
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
	e.cpu = cpu;
	e.ts = ts;
	e.name = name;
	e.text = fields;
	event(&e);
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
		printf("%-37s %8s %12s %10s %10s %10s %10s\n", "reason", "count", "total",
		       "mean", "min", "max", "p99");
		for (i = 0; i < traps.nr; i++) {
			printf("%-37s", r[i].class);
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
	if (bad_pages)
		printf("\n%lu pages not understood: their events are lost\n", bad_pages);
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
	timeline = fopen(path, "we");
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

/* record -o: the events, as text that report reads back. */
static FILE *save;
static unsigned long long events_read;

static void save_event(struct ev *e)
{
	fprintf(save, "[%03d]\t%llu.%09llu: %s %s\n", e->cpu,
		(unsigned long long)(e->ts / 1000000000), (unsigned long long)(e->ts % 1000000000),
		e->name, ev_text(e));
}

/* An event in binary, from trace_pipe_raw or a trace.dat. */
static void binary_event(struct tep_event *tev, struct tep_record *rec, int cpu)
{
	struct ev e = { .cpu = cpu, .ts = rec->ts, .tev = tev, .rec = rec };

	events_read++;
	if (cpu < 0 || cpu >= MAX_CPUS || !tev) {
		bad_lines++;
		return;
	}
	/* -1: events were lost, their number is not known. */
	if (rec->missed_events) {
		lost(cpu);
		if (save)
			fprintf(save, "CPU:%d [LOST %lld EVENTS]\n", cpu,
				rec->missed_events > 0 ? rec->missed_events : 0);
	}
	e.name = tev->name;
	event(&e);
	if (save)
		save_event(&e);
}

/* @data: the tep of @handle, if the caller has it. */
static int dat_event(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = data ?: tracecmd_get_tep(handle);

	binary_event(tep_find_event_by_record(tep, rec), rec, cpu);
	return 0;
}

/* A trace.dat (trace-cmd record, trace-remote-record), through libtracecmd. */
static int report_dat(const char *path)
{
	struct tracecmd_input *handle = tracecmd_open(path, 0);
	int ret;

	if (!handle) {
		fprintf(stderr, "hyp-stat: %s: libtracecmd cannot read it\n", path);
		return -1;
	}
	ret = tracecmd_iterate_events(handle, NULL, 0, dat_event, tracecmd_get_tep(handle));
	tracecmd_close(handle);
	return ret < 0 ? -1 : 0;
}

static bool is_trace_dat(FILE *f)
{
	static const char magic[] = "\x17\x08\x44tracing";
	char buf[sizeof(magic) - 1];
	bool ret;

	ret = fread(buf, 1, sizeof(buf), f) == sizeof(buf) && !memcmp(buf, magic, sizeof(buf));
	rewind(f);
	return ret;
}

/*
 * The formats of the remote's events and of its pages, as libtracefs would
 * load a tracing directory's but for /proc/kallsyms: read only if a
 * function is to be named.
 */
static int load_formats(struct tep_handle *tep, struct tracefs_instance *remote)
{
	char **systems, **events, *buf;
	int i, j, ret = -1, loaded = 0;
	int size;

	buf = tracefs_instance_file_read(remote, "events/header_page", &size);
	if (!buf || tep_parse_header_page(tep, buf, size, sizeof(long))) {
		free(buf);
		return -1;
	}
	free(buf);
	systems = tracefs_event_systems(remote_dir);
	for (i = 0; systems && systems[i]; i++) {
		events = tracefs_system_events(remote_dir, systems[i]);
		for (j = 0; events && events[j]; j++) {
			buf = tracefs_event_file_read(remote, systems[i], events[j], "format",
						      &size);
			if (buf && !tep_parse_event(tep, buf, size, systems[i]))
				loaded++;
			free(buf);
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (loaded)
		ret = 0;
	/* The pages' commit field is a long of the kernel's. */
	tep_set_long_size(tep, tep_get_header_page_size(tep) ?: (int)sizeof(long));
	return ret;
}

/* A CPU of the remote: its trace_pipe_raw, kept open, and the page read. */
struct raw_cpu {
	int			fd;
	struct tracefs_cpu	*tcpu;
	struct kbuffer		*kbuf;
	void			*page;
	void			*data;		/* its next event, NULL: none now */
	unsigned long long	ts;
	bool			first;		/* the first of its page */
};

static struct raw_cpu *raw_cpus;
static int nr_raw_cpus, long_size;

/* The remote's CPUs: those of its per_cpu/, not this system's. */
static int count_raw_cpus(void)
{
	char path[512];
	struct dirent *d;
	int cpu, nr = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/per_cpu", remote_dir);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (sscanf(d->d_name, "cpu%d", &cpu) == 1 && cpu >= 0 && cpu < MAX_CPUS)
			nr = cpu + 1 > nr ? cpu + 1 : nr;
	}
	closedir(dir);
	return nr;
}

/* Opened here, not by libtracefs, so that COMMAND does not inherit them. */
static int open_raw(struct tep_handle *tep)
{
	int cpu, opened = 0;
	char path[512];

	long_size = tep_get_long_size(tep);
	nr_raw_cpus = count_raw_cpus();
	raw_cpus = calloc(nr_raw_cpus ?: 1, sizeof(*raw_cpus));
	if (!raw_cpus)
		return -1;
	for (cpu = 0; cpu < nr_raw_cpus; cpu++) {
		struct raw_cpu *r = &raw_cpus[cpu];

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", remote_dir, cpu);
		r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->fd < 0)
			continue;
		r->tcpu = tracefs_cpu_alloc_fd(r->fd, tep_get_sub_buffer_size(tep) ?: getpagesize(),
					       true);
		if (!r->tcpu)
			return -1;
		r->kbuf = tep_kbuffer(tep);
		r->page = malloc(tracefs_cpu_read_size(r->tcpu));
		if (!r->kbuf || !r->page)
			return -1;
		opened++;
	}
	return opened ? 0 : -1;
}

static void close_raw(void)
{
	int cpu;

	for (cpu = 0; cpu < nr_raw_cpus; cpu++) {
		if (!raw_cpus[cpu].tcpu)
			continue;
		tracefs_cpu_free_fd(raw_cpus[cpu].tcpu);
		close(raw_cpus[cpu].fd);
		kbuffer_free(raw_cpus[cpu].kbuf);
		free(raw_cpus[cpu].page);
	}
	free(raw_cpus);
}

/*
 * The size of the events a page says it holds, -1 if they would not fit in
 * it: kbuffer trusts it (the low 27 bits of commit; the top ones are flags).
 */
static long page_commit(const void *page, int len)
{
	uint64_t commit;

	if (len < 8 + long_size)
		return -1;
	if (long_size == 8)
		memcpy(&commit, (const char *)page + 8, 8);
	else
		commit = *(const uint32_t *)((const char *)page + 8);
	commit &= (1 << 27) - 1;
	return commit <= (uint64_t)(len - 8 - long_size) ? (long)commit : -1;
}

/* The next event of @r: on its page, or on the next page it has now. */
static void raw_next(struct raw_cpu *r)
{
	int len;

	r->data = r->data ? kbuffer_next_event(r->kbuf, &r->ts) : NULL;
	while (!r->data) {
		len = tracefs_cpu_read(r->tcpu, r->page, true);
		if (len <= 0)
			return;
		if (page_commit(r->page, len) < 0) {
			bad_pages++;
			lost(r - raw_cpus);
			continue;
		}
		if (kbuffer_load_subbuffer(r->kbuf, r->page))
			continue;
		r->first = true;
		r->data = kbuffer_read_event(r->kbuf, &r->ts);
	}
}

/* All the events the remote's trace_pipe_raw files have now, oldest first. */
static void drain(struct tep_handle *tep)
{
	struct raw_cpu *r, *next;
	struct tep_record rec;
	int cpu, min;

	for (cpu = 0; cpu < nr_raw_cpus; cpu++) {
		if (raw_cpus[cpu].tcpu && !raw_cpus[cpu].data)
			raw_next(&raw_cpus[cpu]);
	}
	for (;;) {
		next = NULL;
		for (cpu = 0; cpu < nr_raw_cpus; cpu++) {
			r = &raw_cpus[cpu];
			if (r->data && (!next || r->ts < next->ts)) {
				next = r;
				min = cpu;
			}
		}
		if (!next)
			return;
		memset(&rec, 0, sizeof(rec));
		rec.ts = next->ts;
		rec.cpu = min;
		rec.data = next->data;
		rec.size = kbuffer_event_size(next->kbuf);
		rec.missed_events = next->first ? kbuffer_missed_events(next->kbuf) : 0;
		next->first = false;
		binary_event(tep_find_event_by_record(tep, &rec), &rec, min);
		raw_next(next);
	}
}

static int record(int argc, char **argv)
{
	const char *out = NULL, *tracefs = "/sys/kernel/tracing", *size = NULL, *json = NULL;
	struct tracefs_instance *remote;
	struct tep_handle *tep;
	int opt, status, i, quiet_polls;
	char path[512];
	pid_t child;

	kallsyms = "/proc/kallsyms";
	while ((opt = getopt_long(argc, argv, "+o:b:t:k:", long_options, NULL)) != -1) {
		switch (opt) {
		case 'k':
			kallsyms = optarg;
			break;
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
	/* The remote's own formats: its events/ and events/header_page. */
	tep = tep_alloc();
	remote = tracefs_instance_alloc(remote_dir, NULL);
	if (!tep || !remote || load_formats(tep, remote)) {
		fprintf(stderr, "hyp-stat: %s: cannot load its event formats\n", remote_dir);
		return 1;
	}
	if (open_raw(tep)) {
		fprintf(stderr, "hyp-stat: cannot read %s/per_cpu/cpu*/trace_pipe_raw\n",
			remote_dir);
		return 1;
	}
	if (json && open_timeline(json))
		return 1;
	if (out) {
		save = fopen(out, "we");
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
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "hyp-stat: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	for (;;) {
		if (waitpid(child, &status, WNOHANG) == child)
			break;
		usleep(100000);
		drain(tep);
	}
	write_file("tracing_on", "0");
	/* The last events show up within a poll of the remote (100 ms idle). */
	for (quiet_polls = 0; quiet_polls < 3; quiet_polls++) {
		unsigned long long before = events_read;

		usleep(150000);
		drain(tep);
		if (events_read != before)
			quiet_polls = -1;
	}
	close_raw();
	tracefs_instance_free(remote);
	tep_free(tep);
	if (save && (ferror(save) | fclose(save))) {
		fprintf(stderr, "hyp-stat: %s: cannot write it\n", out);
		return 1;
	}
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
		"usage: hyp-stat record [-o FILE] [-b KB] [-t TRACEFS] [-k KALLSYMS] [--timeline JSON]\n"
		"                       -- COMMAND [ARGS...]\n"
		"       hyp-stat report [--timeline JSON] [FILE]\n"
		"Guest exits per vCPU and exit class, host traps and time in the arm64\n"
		"hypervisor, from the events of /sys/kernel/tracing/remotes/hypervisor.\n"
		"  -o FILE          also save the events, as text\n"
		"  FILE             a trace.dat, or the text of the remote's trace or of\n"
		"                   trace-cmd report -t\n"
		"  -b KB            buffer size per CPU\n"
		"  -t TRACEFS       where tracefs is mounted\n"
		"  -k KALLSYMS      name functions from this file (default /proc/kallsyms)\n"
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
		if (f != stdin && is_trace_dat(f)) {
			fclose(f);
			if (report_dat(argv[optind]))
				return 1;
		} else if (parse_stream(f)) {
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
