// SPDX-License-Identifier: GPL-2.0
/*
 * hyp-stat: from events to intervals. event() takes each event, in binary
 * (its fields found by name in its format) or as a line of text, and times
 * the stays in the hypervisor, the guest exits and the function calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hyp-stat.h"

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
const char *ev_text(struct ev *e)
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
 * The text of a guest marker: its "text" field in binary (a char array, up
 * to its NUL), or what follows "text=" to the end of the line.
 */
static bool ev_marker_text(struct ev *e, char *val, size_t len)
{
	struct tep_format_field *f;
	const char *p;

	if (!e->tev) {
		p = strstr(e->text, "text=");
		while (p && p != e->text && p[-1] != ' ')
			p = strstr(p + 1, "text=");
		if (!p)
			return false;
		snprintf(val, len, "%s", p + 5);
		return true;
	}
	f = tep_find_any_field(e->tev, "text");
	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) || f->offset + f->size > e->rec->size)
		return false;
	p = (const char *)e->rec->data + f->offset;
	snprintf(val, len, "%.*s", (int)strnlen(p, f->size), p);
	return true;
}

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

/*
 * Events lost on @cpu: what was open there is void, and what any vCPU had
 * open (vcpu_of() sees it).
 */
void lost(int cpu)
{
	lost_lines++;
	if (cpu >= 0)
		cpus[cpu].entered = 0;
}

/* Function names as /proc/kallsyms has them carry this prefix. */
#define HYP_PREFIX	"__kvm_nvhe_"

/* record: where to name functions from, read at the first func_ret. */
const char *kallsyms;

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

/* A call of @fn that returned after @ns. */
static void func_add(const char *fn, uint64_t ns)
{
	struct stat_row *r = row_of(&funcs, -1, -1, fn);

	r->count++;
	row_add(r, ns);
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
		func_add(fn, (uint64_t)ret - (uint64_t)call);
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
	func_add(fn, (uint64_t)(us * 1000 + 0.5));
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void event(struct ev *e)
{
	const char *name = e->name;
	uint64_t ts = e->ts;
	int cpu = e->cpu;
	struct cpu_state *c = &cpus[cpu];
	char reason[NAME_LEN], val[NAME_LEN];

	/*
	 * The time this CPU was traced: its steps forward, which time going
	 * back and forth may sum past 2^64 ns; it stays at that, never below
	 * the time in the hypervisor.
	 */
	if (c->seen && ts > c->last)
		c->covered = add_sat(c->covered, ts - c->last);
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
					timeline_slice(v->vm, 1000000L + v->vcpu, "guest",
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
			c->total = add_sat(c->total, ts - c->entered);
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
					timeline_slice(v->vm, 1000000L + vcpu, v->class,
						       v->since, ts, NULL);
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
	} else if (!strcmp(name, "guest_marker")) {
		struct vcpu_state *v = vcpu_of(ev_int(e, "pid", -1),
					       ev_int(e, "vcpu", -1));

		guest_markers++;
		v->markers++;
		if (timeline && ev_marker_text(e, val, sizeof(val)))
			timeline_instant(v->vm, 1000000L + v->vcpu, val, ts);
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

/*
 * "5906025784" (ns) or "5.906025" / "5.906025784" (seconds). Past 2^64 ns
 * (584 years) a time stamp is refused, not wrapped.
 */
static bool parse_ts(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	char *end;
	uint64_t sec, frac = 0;
	int digits;

	/* strtoull() would take a sign, and negate. */
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (errno == ERANGE)
		goto past;
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
	if (sec > (UINT64_MAX - frac) / 1000000000ULL)
		goto past;
	*ns = sec * 1000000000ULL + frac;
	return true;
past:
	ts_past++;
	return false;
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

	/*
	 * "CPU:1 [LOST 12 EVENTS]", or trace-cmd's "CPU:1 [12 EVENTS DROPPED]",
	 * from the start of the line: a marker's text may say the same.
	 */
	q = line + strspn(line, " \t");
	if (!strncmp(q, "CPU:", 4) && (strstr(q, "[LOST") || strstr(q, "EVENTS DROPPED]"))) {
		cpu = strtol(q + 4, NULL, 10);
		lost(cpu >= 0 && cpu < MAX_CPUS ? cpu : -1);
		return;
	}
	if (!p || *line == '#') {
		int pid, vm;
		char comm[16];

		if (sscanf(line, "# hyp-stat: vCPU thread %d of VM %d (%15[^)])",
			   &pid, &vm, comm) == 3)
			vm_note(pid, vm, comm);
		return;
	}
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

int parse_stream(FILE *f)
{
	char *line = NULL;
	size_t len = 0;

	while (getline(&line, &len, f) >= 0)
		parse_line(line);
	free(line);
	return ferror(f) ? -1 : 0;
}
