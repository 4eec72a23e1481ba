/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyp-stat: what its files share. hyp-stat.c reads the events (live, from a
 * trace.dat or as text), events.c turns them into intervals, table.c keeps
 * and prints the figures, timeline.c writes the JSON timeline.
 */
#ifndef HYP_STAT_H
#define HYP_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <event-parse.h>

#define MAX_CPUS	512
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
	int		vm;			/* its VMM's pid, or its own */
	unsigned long	markers;
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

struct table;

/* table.c */
extern struct table exits, traps, funcs;
extern struct cpu_state cpus[MAX_CPUS];
extern unsigned long lost_lines, bad_lines, bad_pages, backwards, ts_past, guest_markers;
struct stat_row *row_of(struct table *t, int pid, int vcpu, const char *class);
void row_add(struct stat_row *r, uint64_t ns);
struct vcpu_state *vcpu_of(int pid, int vcpu);
extern bool vms_from_proc;
extern FILE *vm_notes;
void vm_note(int pid, int vm, const char *comm);
bool vm_noted(int pid);
void vm_from_proc(int pid);
void report(void);

/* events.c */
extern const char *kallsyms;
const char *ev_text(struct ev *e);
void lost(int cpu);
void event(struct ev *e);
int parse_stream(FILE *f);

/* timeline.c */
extern FILE *timeline;
void json_str(FILE *f, const char *s);
void timeline_slice(int pid, long tid, const char *name, uint64_t from, uint64_t to,
		    const char *args);
void timeline_instant(int pid, long tid, const char *name, uint64_t ts);
void timeline_name_cpu(int cpu);
void timeline_name_vcpu(int vm, int pid, int vcpu, const char *comm);
int open_timeline(const char *path);
int close_timeline(void);

#endif /* HYP_STAT_H */
