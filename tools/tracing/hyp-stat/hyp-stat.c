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
 * vcpu_exit, host_hcall, host_smc, host_mem_abort, and guest_marker where
 * the remote has it), reading the remote's
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
 * Build: make (needs the -dev packages of libtracecmd, libtracefs and
 * libtraceevent, found through pkg-config).
 *
 * Guest exits: from the hypervisor's entry for a guest exit (hyp_enter
 * reason=guest_exit) to its next return to the same vCPU (hyp_exit
 * reason=eret_guest), host handling included, per vCPU thread and exit
 * class (the exception class of a trap, or the exit code). The count is of
 * every exit (vcpu_exit); the times are of those that were re-entered
 * while traced (a vCPU's last exit may never be).
 * Host traps: from an entry from the host (hvc, smc, host_abort) to the
 * next exit on that CPU, per hypercall id, SMC function id or abort.
 * Per VM: its vCPU threads, their exits, the time in them and their
 * markers. A VM is its VMM's process: "record" finds it in /proc, for the
 * threads of COMMAND while they run and for others when it reads their
 * first event, and notes it in what -o saves; elsewhere, and for a thread
 * of another process gone by then, each vCPU thread counts as a VM.
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
 * slices ("guest") and its exits (the exit class), timed as in the report,
 * and the guest's markers as instants named by their text; the vCPUs of a
 * VM are the threads of one process.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kbuffer.h>
#include <trace-cmd.h>
#include <tracefs.h>

#include "hyp-stat.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const record_events[] = {
	"hyp_enter", "hyp_exit", "vcpu_exit", "host_hcall", "host_smc", "host_mem_abort",
};

static const char *remote_dir;

static const struct option long_options[] = {
	{ "timeline", required_argument, NULL, 'T' },
	{ }
};

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

/* The VM of vCPU thread @pid: its process, as /proc says while it lives. */
void vm_from_proc(int pid)
{
	char path[64], line[128], comm[16] = "?";
	int vm = -1;
	FILE *f;

	if (pid <= 0 || vm_noted(pid))
		return;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && sscanf(line, "Tgid: %d", &vm) != 1)
		;
	fclose(f);
	if (vm <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", vm);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	vm_note(pid, vm, comm);
}

/*
 * The threads of the command, noted with their VM while they live: the
 * events of a thread may be read only after it is gone (the reading lags
 * behind a busy guest), when /proc no longer says whose it was.
 */
static pid_t command;

static void note_threads(pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			vm_from_proc(atoi(d->d_name));
	closedir(dir);
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
	unsigned int n = 0;
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
		/* A drain can last as long as a busy guest runs. */
		if (command && !(++n % 4096))
			note_threads(command);
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
	/* The guests' markers, where the hypervisor has them. */
	snprintf(path, sizeof(path), "%s/events/hypervisor/guest_marker/enable", remote_dir);
	if (!access(path, W_OK) && write_file("events/hypervisor/guest_marker/enable", "1"))
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
	vms_from_proc = true;
	vm_notes = save;
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
		note_threads(child);
		command = child;
		drain(tep);
		command = 0;
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
