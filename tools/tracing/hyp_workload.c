// SPDX-License-Identifier: GPL-2.0
/*
 * hyp_workload: run a tiny KVM guest whose vCPUs exit in known ways, so that
 * the hypervisor's trace (remotes/hypervisor/) shows real guest exits with
 * their vCPU ids.
 *
 *   hyp_workload [-v VCPUS] [-r ROUNDS] [-c HVCS] [-s SYSREGS] [-w WFIS]
 *                [-m MARKERS [-t TEXT] [-H] [-D] [-S] [-R]] [-A]
 *
 * Each vCPU (1 to 4, default 1) runs ROUNDS rounds (default 3). In a round
 * the guest issues HVCS (default 5) "hvc #0" (an SMCCC call KVM answers with
 * NOT_SUPPORTED), SYSREGS (default 2) reads of ID_AA64MMFR0_EL1 (trapped by
 * HCR_EL2.TID3), WFIS (default 1) "wfi" (trapped by HCR_EL2.TWI; this program
 * wakes the halted vCPU with a signal), then one MMIO store, which is the
 * only exit that reaches this program. With tracing on, every vCPU thus
 * leaves the guest ROUNDS * (HVCS + SYSREGS + WFIS + 1) times in these four
 * ways, plus whatever interrupts and first-touch faults happen, except that
 * a WFI traps only if it would wait: one that finds a wake-up event already
 * pending (an interrupt for the host) completes in the guest.
 *
 * With -m, each round then also asks for the vendor hypervisor services
 * (their bitmap, printed as "features") and makes MARKERS guest marker
 * calls with TEXT (default "hyp_workload", at most 48 bytes) in x1-x6,
 * counting those answered with success; -H hides the service from the VM
 * first (KVM_REG_ARM_VENDOR_HYP_BMAP), as a VMM can, and -D denies the
 * call in the VM's SMCCC filter instead. -S makes both calls with SMC
 * rather than HVC, as a guest whose SMCCC conduit is SMC does. -R races the
 * first KVM_RUN of vCPU 0 with a thread that shows and hides the service in
 * turn, through a vCPU that never runs (KVM_RUN holds its own vCPU's lock),
 * until the VM has run and the bitmap is frozen; it prints whether the
 * last write it made hid the service ("race: writes=N hidden=0|1"), which
 * is then what the VM must see.
 *
 * With -A, each round ends with guest markers that put every byte value
 * but NUL at every position of a register: in a register of "aaaaaaaa",
 * byte i is b, for each b and i, in x1-x5, five such registers a call; x6
 * is "aaaaaaa" and an escape, in the byte the hypervisor ignores. The
 * program prints, a line each, the text the hypervisor is to record of each
 * call ("expect=TEXT": 47 bytes, each one not printable ASCII as '?'), then
 * "table: markers=N answered=M".
 *
 * The guest needs no memory but its code: it runs with the MMU off, counts
 * in x4-x6 (SMCCC calls preserve x4-x17) and stores to an address no
 * memory slot covers. It prints what each vCPU was told to do, how many
 * MMIO exits and signals it saw and how long it ran (us), and exits 0 when
 * every vCPU made exactly ROUNDS MMIO exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>

#define GUEST_BASE	0x10000000UL
#define GUEST_SIZE	0x10000UL
#define MMIO_ADDR	0x20000000UL
#define MAX_VCPUS	4
/* -A's markers, 48 bytes each, in the guest's memory after its code. */
#define TABLE_OFFSET	0x4000UL
#define TABLE_BYTES	(255 * 8)
#define TABLE_MARKERS	((TABLE_BYTES + 4) / 5)

/*
 * x4: HVCs, x5: system register reads, x6: WFIs, x7: MMIO address,
 * x8: guest markers, x9-x14: their text, x15: markers answered,
 * x16: the marker's function id, x17: the features call's, x19: what the
 * features call returned, x20: markers from the table (-A), x22: its
 * address, x23: those answered.
 */
asm(".pushsection .rodata\n"
	".balign 2048\n"
	".globl	guest_code\n"
	"guest_code:\n"
	"0:	cbz	x4, 2f\n"
	"1:	hvc	#0\n"
	"	subs	x4, x4, #1\n"
	"	b.ne	1b\n"
	"2:	cbz	x5, 4f\n"
	"3:	mrs	x0, id_aa64mmfr0_el1\n"
	"	subs	x5, x5, #1\n"
	"	b.ne	3b\n"
	"4:	cbz	x6, 6f\n"
	"5:	wfi\n"
	"	subs	x6, x6, #1\n"
	"	b.ne	5b\n"
	"6:	cbz	x8, 8f\n"
	"	mov	x0, x17\n"
	".globl	guest_features_call\n"
	"guest_features_call:\n"
	"	hvc	#0\n"
	"	mov	x19, x0\n"
	"7:	mov	x0, x16\n"
	"	mov	x1, x9\n"
	"	mov	x2, x10\n"
	"	mov	x3, x11\n"
	"	mov	x4, x12\n"
	"	mov	x5, x13\n"
	"	mov	x6, x14\n"
	".globl	guest_marker_call\n"
	"guest_marker_call:\n"
	"	hvc	#0\n"
	"	cbnz	x0, 9f\n"
	"	add	x15, x15, #1\n"
	"9:	subs	x8, x8, #1\n"
	"	b.ne	7b\n"
	"8:	cbz	x20, 11f\n"
	"	mov	x21, x22\n"
	"10:	ldp	x1, x2, [x21]\n"
	"	ldp	x3, x4, [x21, #16]\n"
	"	ldp	x5, x6, [x21, #32]\n"
	"	add	x21, x21, #48\n"
	"	mov	x0, x16\n"
	"	hvc	#0\n"
	"	cbnz	x0, 12f\n"
	"	add	x23, x23, #1\n"
	"12:	subs	x20, x20, #1\n"
	"	b.ne	10b\n"
	"11:	str	x4, [x7]\n"
	"	b	0b\n"
	/* VBAR_EL1: any exception is reported as a store to MMIO_ADDR + 8. */
	"	.balign	2048\n"
	"	.rept	16\n"
	"	mrs	x0, esr_el1\n"
	"	mrs	x1, elr_el1\n"
	"	str	x0, [x7, #8]\n"
	"	str	x1, [x7, #16]\n"
	"	b	.\n"
	"	.balign	128\n"
	"	.endr\n"
	".globl	guest_code_end\n"
	"guest_code_end:\n"
	".popsection\n");
/* Hidden: addresses by adrp/add, no GOT entries for local labels. */
extern const char guest_code[] __attribute__((visibility("hidden")));
extern const char guest_code_end[] __attribute__((visibility("hidden")));
extern const char guest_features_call[] __attribute__((visibility("hidden")));
extern const char guest_marker_call[] __attribute__((visibility("hidden")));

/* The instruction "smc #0", for -S. */
#define SMC_0		0xd4000003U

struct vcpu {
	int		id;
	int		fd;
	pid_t		tid;
	int		in_run;
	struct kvm_run	*run;
	pthread_t	thread;
	unsigned long	mmio_exits;
	unsigned long	interrupted;
	unsigned long	elapsed_us;
	int		error;
};

static struct vcpu vcpus[MAX_VCPUS];
static int nr_vcpus = 1, nr_rounds = 3, nr_hvc = 5, nr_sysreg = 2, nr_wfi = 1, nr_marker;
static int hide_marker, deny_marker, smc_conduit, race_bmap, all_bytes;
static int race_start, race_stop, race_writes, race_hidden, race_failed;
static uint64_t marker_text[6];

/* The vendor hypervisor calls: features, and the guest marker (31). */
#define KVM_FEATURES_FUNC_ID	0x86000000UL
#define GUEST_MARKER_FUNC_ID	0xc600001fUL
#define GUEST_MARKER_BIT	31

/* The SMCCC filter of a VM (uapi since 6.4; older libc headers lack it). */
#ifndef KVM_ARM_VM_SMCCC_CTRL
#define KVM_ARM_VM_SMCCC_CTRL	0
#define KVM_ARM_VM_SMCCC_FILTER	0
struct kvm_smccc_filter {
	uint32_t base;
	uint32_t nr_functions;
	uint8_t action;
	uint8_t pad[15];
};
#endif
#define SMCCC_FILTER_DENY	1
static int done;

static int set_reg(int fd, uint64_t id, uint64_t val)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uint64_t)&val };

	return ioctl(fd, KVM_SET_ONE_REG, &reg);
}

static uint64_t get_reg(int fd, uint64_t id)
{
	uint64_t val = 0;
	struct kvm_one_reg reg = { .id = id, .addr = (uint64_t)&val };

	ioctl(fd, KVM_GET_ONE_REG, &reg);
	return val;
}

#define VBAR_EL1	ARM64_SYS_REG(3, 0, 12, 0, 0)
#define CORE_REG(x)	(KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
			 KVM_REG_ARM_CORE_REG(x))

static unsigned long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000UL + ts.tv_nsec / 1000;
}

static void *vcpu_thread(void *arg)
{
	struct vcpu *v = arg;
	unsigned long start = now_us();
	int round;

	__atomic_store_n(&v->tid, syscall(SYS_gettid), __ATOMIC_RELAXED);
	/* The racer writes the bitmap from now on, as this vCPU first runs. */
	if (v->id == 0)
		__atomic_store_n(&race_start, 1, __ATOMIC_RELEASE);
	for (round = 0; round < nr_rounds; round++) {
		if (set_reg(v->fd, CORE_REG(regs.regs[4]), nr_hvc) ||
		    set_reg(v->fd, CORE_REG(regs.regs[5]), nr_sysreg) ||
		    set_reg(v->fd, CORE_REG(regs.regs[6]), nr_wfi) ||
		    set_reg(v->fd, CORE_REG(regs.regs[8]), nr_marker) ||
		    set_reg(v->fd, CORE_REG(regs.regs[20]), all_bytes ? TABLE_MARKERS : 0)) {
			v->error = errno;
			return NULL;
		}
		for (;;) {
			int ret;

			__atomic_store_n(&v->in_run, 1, __ATOMIC_RELAXED);
			ret = ioctl(v->fd, KVM_RUN, 0);
			__atomic_store_n(&v->in_run, 0, __ATOMIC_RELAXED);
			if (ret && errno == EINTR) {
				/* Woken from WFI (or kicked out) by a signal. */
				v->interrupted++;
				continue;
			}
			if (ret) {
				v->error = errno;
				return NULL;
			}
			if (v->run->exit_reason == KVM_EXIT_MMIO &&
			    v->run->mmio.phys_addr == MMIO_ADDR && v->run->mmio.is_write) {
				v->mmio_exits++;
				break;
			}
			if (v->run->exit_reason == KVM_EXIT_MMIO &&
			    v->run->mmio.phys_addr == MMIO_ADDR + 8) {
				uint64_t esr;

				memcpy(&esr, v->run->mmio.data, sizeof(esr));
				fprintf(stderr, "vcpu %d: guest exception, ESR_EL1 0x%llx\n",
					v->id, (unsigned long long)esr);
			} else {
				fprintf(stderr, "vcpu %d: unexpected exit %u\n", v->id,
					v->run->exit_reason);
			}
			v->error = EIO;
			return NULL;
		}
	}
	v->elapsed_us = now_us() - start;
	return NULL;
}

static void *vcpu_thread_racing(void *arg)
{
	vcpu_thread(arg);
	/* However it ended: the racer stops. */
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Show and hide the guest marker in turn, from just before the first
 * KVM_RUN until KVM refuses a change (EBUSY): the VM has run, and its
 * bitmap is the last value written. If vCPU 0 never ran, it stops when
 * vCPU 0's thread ends, with an error.
 */
static void *race_thread(void *arg)
{
	int fd = *(int *)arg;
	uint64_t bmap = get_reg(fd, KVM_REG_ARM_VENDOR_HYP_BMAP);
	int stop;

	while (!__atomic_load_n(&race_start, __ATOMIC_ACQUIRE))
		;
	for (;;) {
		/* Read before the write: it may be accepted just before a run. */
		stop = __atomic_load_n(&race_stop, __ATOMIC_ACQUIRE);
		bmap ^= 1UL << GUEST_MARKER_BIT;
		if (set_reg(fd, KVM_REG_ARM_VENDOR_HYP_BMAP, bmap))
			break;
		race_writes++;
		/* A change accepted after vCPU 0 was done: the VM never ran. */
		if (stop) {
			errno = ESRCH;
			break;
		}
	}
	if (errno != EBUSY) {
		perror("racing KVM_REG_ARM_VENDOR_HYP_BMAP");
		race_failed = 1;
	}
	race_hidden = !(get_reg(fd, KVM_REG_ARM_VENDOR_HYP_BMAP) &
			(1UL << GUEST_MARKER_BIT));
	return NULL;
}

/*
 * -A's markers into @table, and what the hypervisor is to record of each:
 * its 48 bytes but the last, each byte that is not printable ASCII as '?'.
 */
static void fill_table(char *table)
{
	char text[48];
	int m, i, j;

	memset(table, 'a', TABLE_MARKERS * 48);
	for (i = 0; i < TABLE_BYTES; i++)
		table[i / 5 * 48 + i % 5 * 8 + i % 8] = 1 + i / 8;
	for (m = 0; m < TABLE_MARKERS; m++)
		table[m * 48 + 47] = '\033';
	for (m = 0; m < TABLE_MARKERS; m++) {
		for (j = 0; j < 47; j++) {
			unsigned char c = table[m * 48 + j];

			text[j] = c >= ' ' && c <= '~' ? c : '?';
		}
		text[47] = '\0';
		printf("expect=%s\n", text);
	}
}

static char task_state(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/*
 * A vCPU in WFI blocks in KVM_RUN, asleep, until something is pending for
 * it; nothing ever is, so wake it with a signal: KVM_RUN then returns EINTR
 * with the WFI completed. Only sleeping threads get one, so a running guest
 * is (almost) never interrupted.
 */
static void *waker_thread(void *arg)
{
	struct timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
	int i;

	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		nanosleep(&ts, NULL);
		for (i = 0; i < nr_vcpus; i++) {
			struct vcpu *v = &vcpus[i];

			if (__atomic_load_n(&v->in_run, __ATOMIC_RELAXED) &&
			    __atomic_load_n(&v->tid, __ATOMIC_RELAXED) &&
			    task_state(v->tid) == 'S')
				pthread_kill(v->thread, SIGUSR1);
		}
	}
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
}

static int number(const char *s, int min, int max, int *val)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	*val = n;
	return 0;
}

int main(int argc, char **argv)
{
	struct kvm_userspace_memory_region region;
	struct sigaction sa = { .sa_handler = on_signal };
	struct kvm_vcpu_init init;
	int kvm, vm, opt, i, r, race_fd, ret = 0;
	pthread_t waker, racer;
	size_t run_size;
	void *mem;

	memcpy(marker_text, "hyp_workload", 12);
	while ((opt = getopt(argc, argv, "v:r:c:s:w:m:t:HDSRA")) != -1) {
		int err;

		switch (opt) {
		case 'v':
			err = number(optarg, 1, MAX_VCPUS, &nr_vcpus);
			break;
		case 'r':
			err = number(optarg, 1, 1000000, &nr_rounds);
			break;
		case 'c':
			err = number(optarg, 0, 1000000, &nr_hvc);
			break;
		case 's':
			err = number(optarg, 0, 1000000, &nr_sysreg);
			break;
		case 'w':
			err = number(optarg, 0, 1000000, &nr_wfi);
			break;
		case 'm':
			err = number(optarg, 0, 1000000, &nr_marker);
			break;
		case 't':
			/* Up to 48 bytes; the hypervisor keeps 47. */
			memset(marker_text, 0, sizeof(marker_text));
			memcpy(marker_text, optarg, strnlen(optarg, sizeof(marker_text)));
			err = 0;
			break;
		case 'H':
			hide_marker = 1;
			err = 0;
			break;
		case 'D':
			deny_marker = 1;
			err = 0;
			break;
		case 'S':
			smc_conduit = 1;
			err = 0;
			break;
		case 'R':
			race_bmap = 1;
			err = 0;
			break;
		case 'A':
			all_bytes = 1;
			err = 0;
			break;
		default:
			err = -1;
		}
		if (err)
			goto usage;
	}
	if (optind != argc)
		goto usage;

	/* No SA_RESTART: the signal must end a blocked KVM_RUN. */
	sigaction(SIGUSR1, &sa, NULL);

	kvm = open("/dev/kvm", O_RDWR);
	if (kvm < 0) {
		perror("/dev/kvm");
		return 1;
	}
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0) {
		perror("KVM_CREATE_VM");
		return 1;
	}
	run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	mem = mmap(NULL, GUEST_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (guest_code_end - guest_code > (long)TABLE_OFFSET ||
	    TABLE_OFFSET + TABLE_MARKERS * 48 > GUEST_SIZE) {
		fprintf(stderr, "-A's table does not fit after the guest's code\n");
		return 1;
	}
	memcpy(mem, guest_code, guest_code_end - guest_code);
	if (all_bytes)
		fill_table(mem + TABLE_OFFSET);
	if (smc_conduit) {
		uint32_t smc = SMC_0;

		memcpy(mem + (guest_features_call - guest_code), &smc, sizeof(smc));
		memcpy(mem + (guest_marker_call - guest_code), &smc, sizeof(smc));
	}
	region = (struct kvm_userspace_memory_region) {
		.slot = 0, .guest_phys_addr = GUEST_BASE, .memory_size = GUEST_SIZE,
		.userspace_addr = (uint64_t)mem,
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) ||
	    ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init)) {
		perror("KVM setup");
		return 1;
	}

	for (i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];

		v->id = i;
		v->fd = ioctl(vm, KVM_CREATE_VCPU, i);
		if (v->fd < 0 || ioctl(v->fd, KVM_ARM_VCPU_INIT, &init)) {
			perror("KVM_CREATE_VCPU");
			return 1;
		}
		v->run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
		if (v->run == MAP_FAILED || set_reg(v->fd, CORE_REG(regs.pc), GUEST_BASE) ||
		    set_reg(v->fd, CORE_REG(regs.regs[7]), MMIO_ADDR) ||
		    set_reg(v->fd, CORE_REG(regs.regs[16]), GUEST_MARKER_FUNC_ID) ||
		    set_reg(v->fd, CORE_REG(regs.regs[17]), KVM_FEATURES_FUNC_ID) ||
		    set_reg(v->fd, CORE_REG(regs.regs[22]), GUEST_BASE + TABLE_OFFSET) ||
		    set_reg(v->fd, VBAR_EL1, GUEST_BASE + 0x800)) {
			perror("vCPU setup");
			return 1;
		}
		for (r = 0; r < 6; r++) {
			if (set_reg(v->fd, CORE_REG(regs.regs[9 + r]), marker_text[r])) {
				perror("vCPU setup");
				return 1;
			}
		}
	}
	/* Or denies the call in its SMCCC filter, leaving it in the bitmap. */
	if (deny_marker) {
		struct kvm_smccc_filter filter = {
			.base = GUEST_MARKER_FUNC_ID, .nr_functions = 1,
			.action = SMCCC_FILTER_DENY,
		};
		struct kvm_device_attr attr = {
			.group = KVM_ARM_VM_SMCCC_CTRL, .attr = KVM_ARM_VM_SMCCC_FILTER,
			.addr = (uint64_t)&filter,
		};

		if (ioctl(vm, KVM_SET_DEVICE_ATTR, &attr)) {
			perror("KVM_ARM_VM_SMCCC_FILTER");
			return 1;
		}
	}
	/* The VMM hides the guest marker from the VM, before it runs. */
	if (hide_marker) {
		uint64_t bmap = get_reg(vcpus[0].fd, KVM_REG_ARM_VENDOR_HYP_BMAP);

		if (set_reg(vcpus[0].fd, KVM_REG_ARM_VENDOR_HYP_BMAP,
			    bmap & ~(1UL << GUEST_MARKER_BIT))) {
			perror("KVM_REG_ARM_VENDOR_HYP_BMAP");
			return 1;
		}
	}
	if (race_bmap) {
		race_fd = ioctl(vm, KVM_CREATE_VCPU, nr_vcpus);
		if (race_fd < 0 || ioctl(race_fd, KVM_ARM_VCPU_INIT, &init)) {
			perror("KVM_CREATE_VCPU");
			return 1;
		}
		pthread_create(&racer, NULL, race_thread, &race_fd);
	}
	for (i = 0; i < nr_vcpus; i++)
		pthread_create(&vcpus[i].thread, NULL, race_bmap && !i ? vcpu_thread_racing :
			       vcpu_thread, &vcpus[i]);
	pthread_create(&waker, NULL, waker_thread, NULL);
	for (i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];

		pthread_join(v->thread, NULL);
		printf("vcpu %d: tid=%d hvc=%d sysreg=%d wfi=%d mmio=%lu signals=%lu us=%lu%s%s\n",
		       v->id, v->tid, nr_hvc * nr_rounds, nr_sysreg * nr_rounds,
		       nr_wfi * nr_rounds, v->mmio_exits, v->interrupted, v->elapsed_us,
		       v->error ? " error: " : "", v->error ? strerror(v->error) : "");
		if (nr_marker)
			printf("vcpu %d: marker=%d answered=%llu features=0x%llx\n", v->id,
			       nr_marker * nr_rounds,
			       (unsigned long long)get_reg(v->fd, CORE_REG(regs.regs[15])),
			       (unsigned long long)get_reg(v->fd, CORE_REG(regs.regs[19])));
		if (all_bytes)
			printf("table: markers=%d answered=%llu\n", TABLE_MARKERS * nr_rounds,
			       (unsigned long long)get_reg(v->fd, CORE_REG(regs.regs[23])));
		if (v->error || v->mmio_exits != (unsigned long)nr_rounds)
			ret = 1;
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	pthread_join(waker, NULL);
	if (race_bmap) {
		pthread_join(racer, NULL);
		printf("race: writes=%d hidden=%d\n", race_writes, race_hidden);
		if (race_failed)
			ret = 1;
	}
	return ret;

usage:
	fprintf(stderr,
		"usage: %s [-v VCPUS (1-%d)] [-r ROUNDS] [-c HVCS] [-s SYSREGS] [-w WFIS]\n"
		"          [-m MARKERS [-t TEXT] [-H] [-D] [-S] [-R]] [-A]\n",
		argv[0], MAX_VCPUS);
	return 2;
}
