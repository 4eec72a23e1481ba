// SPDX-License-Identifier: GPL-2.0
/*
 * hyp-stat: the figures. Rows (per vCPU and class, per host trap, per
 * function) and vCPUs are kept in hash tables, so that the time per event
 * does not grow with their number; report() prints them.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "hyp-stat.h"

/* Rows (or vCPUs) in an array, found through hash chains of indexes. */
struct table {
	void		*items;
	size_t		size, next;		/* of an item, of its next */
	size_t		nr, alloc;
	size_t		*heads, nr_heads;
};

#define NONE	((size_t)-1)

#define ROWS	{ .size = sizeof(struct stat_row), .next = offsetof(struct stat_row, next) }
struct table exits = ROWS, traps = ROWS, funcs = ROWS;
static struct table vcpus = {
	.size = sizeof(struct vcpu_state), .next = offsetof(struct vcpu_state, next)
};

struct cpu_state cpus[MAX_CPUS];
unsigned long lost_lines, bad_lines, bad_pages, backwards, ts_past, guest_markers;

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

struct stat_row *row_of(struct table *t, int pid, int vcpu, const char *class)
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

void row_add(struct stat_row *r, uint64_t ns)
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

/*
 * The VM of each vCPU thread is its VMM's process: "record" finds it in
 * /proc (vms_from_proc), for its command's threads as they run and for
 * others when it first sees them, and notes it in the text it saves
 * (vm_notes) as a comment that "report" reads back. Found by thread, in a
 * table as the rows are: a file may hold any number.
 */
struct vm_of_thread {
	int	pid, vm;
	char	comm[16];
	size_t	next;
};

static struct table vm_threads = {
	.size = sizeof(struct vm_of_thread), .next = offsetof(struct vm_of_thread, next)
};

bool vms_from_proc;
FILE *vm_notes;

static size_t hash_vm_thread(void *p)
{
	return hash_key(((struct vm_of_thread *)p)->pid, 0, NULL);
}

static struct vm_of_thread *vm_of(int pid)
{
	struct vm_of_thread *t;
	size_t i;

	for (i = *chain(&vm_threads, hash_key(pid, 0, NULL), hash_vm_thread); i != NONE;
	     i = t->next) {
		t = item(&vm_threads, i);
		if (t->pid == pid)
			return t;
	}
	return NULL;
}

bool vm_noted(int pid)
{
	return vm_of(pid);
}

/*
 * A VMM's pid of 1 or less is not one: pid 1 of the timeline is the
 * hypervisor's CPUs. The name keeps to printable ASCII, without the
 * brackets and parenthesis that the notes and LOST marks are read by.
 */
void vm_note(int pid, int vm, const char *comm)
{
	struct vm_of_thread *t;
	size_t i;

	if (vm <= 1)
		return;
	t = vm_of(pid);
	if (!t)
		t = add_item(&vm_threads, chain(&vm_threads, hash_key(pid, 0, NULL),
						hash_vm_thread));
	t->pid = pid;
	t->vm = vm;
	snprintf(t->comm, sizeof(t->comm), "%s", *comm ? comm : "?");
	for (i = 0; t->comm[i]; i++)
		if (t->comm[i] < ' ' || t->comm[i] > '~' || strchr("()[]", t->comm[i]))
			t->comm[i] = '?';
	if (vm_notes)
		fprintf(vm_notes, "# hyp-stat: vCPU thread %d of VM %d (%s)\n", pid, vm, t->comm);
}

struct vcpu_state *vcpu_of(int pid, int vcpu)
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
		struct vm_of_thread *t = vm_of(pid);

		if (!t && vms_from_proc) {
			vm_from_proc(pid);
			t = vm_of(pid);
		}
		v = add_item(&vcpus, head);
		v->pid = pid;
		v->vcpu = vcpu;
		v->vm = t ? t->vm : pid;
		v->lost_gen = lost_lines;
		if (timeline)
			timeline_name_vcpu(v->vm, pid, vcpu, t ? t->comm : NULL);
	}
	/* Events were lost since it was last seen: what it had open is void. */
	if (v->lost_gen != lost_lines) {
		v->lost_gen = lost_lines;
		v->since = 0;
		v->running = 0;
	}
	return v;
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

/* A table whose rows are named by their class alone. */
static void print_named(struct table *t, int (*cmp)(const void *, const void *),
			const char *title, const char *name, const char *count)
{
	struct stat_row *r = t->items;
	size_t i;

	if (!t->nr)
		return;
	qsort(r, t->nr, sizeof(*r), cmp);
	printf("%s (us):\n", title);
	printf("%-37s %8s %12s %10s %10s %10s %10s\n", name, count, "total", "mean", "min",
	       "max", "p99");
	for (i = 0; i < t->nr; i++) {
		printf("%-37s", r[i].class);
		print_times(&r[i]);
	}
	printf("\n");
}

/* Per VM: its vCPUs, their exits, time in them and markers. */
static void report_vms(void)
{
	struct vcpu_state *v = vcpus.items;
	struct stat_row *r = exits.items;
	size_t i, j, k;

	printf("Per VM, exit to re-entry (us):\n");
	printf("%8s %-16s %5s %8s %12s %8s\n", "vm", "comm", "vcpus", "exits", "total",
	       "markers");
	for (i = 0; i < vcpus.nr; i++) {
		struct vm_of_thread *t = vm_of(v[i].pid);
		unsigned long nr_vcpus = 0, markers = 0;
		uint64_t count = 0, total = 0;

		for (j = 0; j < i && v[j].vm != v[i].vm; j++)
			;
		if (j < i)
			continue;	/* printed with an earlier vCPU */
		for (j = i; j < vcpus.nr; j++) {
			if (v[j].vm != v[i].vm)
				continue;
			nr_vcpus++;
			markers += v[j].markers;
			for (k = 0; k < exits.nr; k++) {
				if (r[k].pid == v[j].pid && r[k].vcpu == v[j].vcpu) {
					count += r[k].count;
					total += r[k].total;
				}
			}
		}
		printf("%8d %-16s %5lu %8llu %12.3f %8lu\n", v[i].vm, t ? t->comm : "?",
		       nr_vcpus, (unsigned long long)count, total / 1e3, markers);
	}
	printf("\n");
}

void report(void)
{
	struct stat_row *r = exits.items;
	uint64_t all = 0;
	double share;
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
	if (vcpus.nr)
		report_vms();
	print_named(&traps, cmp_row, "Host traps, time in the hypervisor", "reason", "count");
	print_named(&funcs, cmp_total, "Hypervisor functions, call to return", "function", "calls");
	printf("Time in the hypervisor, per CPU (us):\n");
	printf("%5s %10s %12s %12s %7s\n", "cpu", "entries", "in hyp", "traced", "share");
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct cpu_state *c = &cpus[cpu];
		uint64_t span = c->covered;

		if (!c->seen)
			continue;
		all += c->entries;
		/* Stays are timed only in order, inside what was traced. */
		share = span ? 100.0 * c->total / span : 0.0;
		printf("%5d %10llu %12.3f %12.3f %6.2f%%\n", cpu,
		       (unsigned long long)c->entries, c->total / 1e3, span / 1e3,
		       share > 100.0 ? 100.0 : share);
	}
	if (!all)
		printf("(no hyp_enter event: are hyp_enter and hyp_exit enabled?)\n");
	if (guest_markers)
		printf("\n%lu guest markers (on the vCPU tracks of the timeline)\n", guest_markers);
	if (lost_lines)
		printf("\n%lu LOST marks: intervals open across them are not counted\n",
		       lost_lines);
	if (backwards)
		printf("\n%lu intervals not timed: time went backwards\n", backwards);
	if (ts_past)
		printf("\n%lu lines with a time stamp past 2^64 ns: not used\n", ts_past);
	if (bad_lines > ts_past)
		printf("\n%lu lines not understood\n", bad_lines - ts_past);
	if (bad_pages)
		printf("\n%lu pages not understood: their events are lost\n", bad_pages);
}
