// SPDX-License-Identifier: GPL-2.0
/*
 * guest_boot: boot a Linux kernel in a KVM virtual machine, with as little
 * of a VMM as that takes, so that tests can trace a real guest's boot from
 * the host.
 *
 *   guest_boot [-c VCPUS] [-m MiB] [-a CMDLINE] [-i INITRD] [-t SECONDS] [-H | -D]
 *              IMAGE
 *
 * The VM has VCPUS (1 to 8, default 1) vCPUs, each run by a thread of its
 * own, MiB (default 128) of memory at 1 GiB, the in-kernel
 * GICv3 and timer, PSCI through HVC, and a PL011 UART at 0x09000000 that
 * only transmits, for earlycon: the guest's console goes to standard
 * output. Its device tree is built here; IMAGE is an uncompressed arm64
 * Image, INITRD an initramfs, CMDLINE the kernel's command line (after
 * "earlycon=pl011,0x09000000 keep_bootcon", at most 2047 bytes in all).
 * -H hides KVM's guest marker service from the VM
 * (KVM_REG_ARM_VENDOR_HYP_BMAP), as a VMM can; -D leaves it listed but
 * denies the call in the VM's SMCCC filter.
 *
 * It exits 0 when the guest powers off through PSCI, 3 when it restarts
 * (as a panicking kernel with panic=N does), 1 on an error or an exit it
 * does not handle, and 2 on a bad command line; after SECONDS (1 to 86400,
 * default 300) it gives up with 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/kvm.h>

#define RAM_BASE	0x40000000UL
#define GICD_BASE	0x08000000UL
#define GICR_BASE	0x080a0000UL
#define GICR_SIZE	0x20000UL	/* one vCPU's redistributor */
#define UART_BASE	0x09000000UL
#define UART_SIZE	0x1000UL
#define EARLYCON	"earlycon=pl011,0x09000000 keep_bootcon"

#define GUEST_MARKER_BIT	31
#define GUEST_MARKER_FUNC_ID	0xc600001fU

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
#define MAX_VCPUS		8

struct vcpu {
	int		fd;
	struct kvm_run	*run;
	pthread_t	thread;
};

static struct vcpu vcpus[MAX_VCPUS];
static int nr_vcpus = 1;

#define CORE_REG(x)	(KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
			 KVM_REG_ARM_CORE_REG(x))

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* A flattened device tree, built in place: structure block, then strings. */
struct fdt {
	uint8_t st[8192];
	char str[1024];
	size_t st_len, str_len;
	int full;
};

static void fdt_bytes(struct fdt *f, const void *p, size_t len)
{
	if (f->st_len + len + 3 > sizeof(f->st)) {
		f->full = 1;
		return;
	}
	memcpy(f->st + f->st_len, p, len);
	memset(f->st + f->st_len + len, 0, -len & 3);
	f->st_len += (len + 3) & ~3UL;
}

static void fdt_u32(struct fdt *f, uint32_t v)
{
	v = __builtin_bswap32(v);
	fdt_bytes(f, &v, 4);
}

static uint32_t fdt_string(struct fdt *f, const char *s)
{
	size_t off, len = strlen(s) + 1;

	for (off = 0; off < f->str_len; off += strlen(f->str + off) + 1)
		if (!strcmp(f->str + off, s))
			return off;
	if (off + len > sizeof(f->str)) {
		f->full = 1;
		return 0;
	}
	memcpy(f->str + off, s, len);
	f->str_len += len;
	return off;
}

static void fdt_begin(struct fdt *f, const char *name)
{
	fdt_u32(f, 1);		/* FDT_BEGIN_NODE */
	fdt_bytes(f, name, strlen(name) + 1);
}

static void fdt_end(struct fdt *f)
{
	fdt_u32(f, 2);		/* FDT_END_NODE */
}

static void fdt_prop(struct fdt *f, const char *name, const void *val, size_t len)
{
	fdt_u32(f, 3);		/* FDT_PROP */
	fdt_u32(f, len);
	fdt_u32(f, fdt_string(f, name));
	fdt_bytes(f, val, len);
}

static void fdt_str(struct fdt *f, const char *name, const char *val)
{
	fdt_prop(f, name, val, strlen(val) + 1);
}

/* A property of 32-bit cells, given as numbers; a 64-bit one is two. */
static void fdt_cells(struct fdt *f, const char *name, int n, ...)
{
	uint32_t cells[16];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		cells[i] = __builtin_bswap32(va_arg(ap, uint32_t));
	va_end(ap);
	fdt_prop(f, name, cells, 4 * n);
}

#define HI(x)	((uint32_t)((uint64_t)(x) >> 32))
#define LO(x)	((uint32_t)(x))

/* Writes the tree at @dst (at most @room bytes); returns its size. */
static size_t fdt_build(void *dst, size_t room, uint64_t ram_size, const char *cmdline,
			uint64_t initrd, uint64_t initrd_size)
{
	static struct fdt f;
	uint32_t hdr[10];
	size_t total;
	int i;

	fdt_begin(&f, "");
	fdt_str(&f, "compatible", "linux,dummy-virt");
	fdt_cells(&f, "#address-cells", 1, 2);
	fdt_cells(&f, "#size-cells", 1, 2);
	fdt_cells(&f, "interrupt-parent", 1, 1);

	fdt_begin(&f, "chosen");
	fdt_str(&f, "bootargs", cmdline);
	if (initrd_size) {
		fdt_cells(&f, "linux,initrd-start", 2, HI(initrd), LO(initrd));
		fdt_cells(&f, "linux,initrd-end", 2, HI(initrd + initrd_size),
			  LO(initrd + initrd_size));
	}
	fdt_end(&f);

	fdt_begin(&f, "memory@40000000");
	fdt_str(&f, "device_type", "memory");
	fdt_cells(&f, "reg", 4, 0, LO(RAM_BASE), HI(ram_size), LO(ram_size));
	fdt_end(&f);

	fdt_begin(&f, "cpus");
	fdt_cells(&f, "#address-cells", 1, 1);
	fdt_cells(&f, "#size-cells", 1, 0);
	for (i = 0; i < nr_vcpus; i++) {
		char name[16];

		snprintf(name, sizeof(name), "cpu@%d", i);
		fdt_begin(&f, name);
		fdt_str(&f, "device_type", "cpu");
		fdt_str(&f, "compatible", "arm,arm-v8");
		fdt_cells(&f, "reg", 1, i);
		fdt_str(&f, "enable-method", "psci");
		fdt_end(&f);
	}
	fdt_end(&f);

	fdt_begin(&f, "psci");
	fdt_str(&f, "compatible", "arm,psci-0.2");
	fdt_str(&f, "method", "hvc");
	fdt_end(&f);

	fdt_begin(&f, "intc@8000000");
	fdt_str(&f, "compatible", "arm,gic-v3");
	fdt_cells(&f, "#interrupt-cells", 1, 3);
	fdt_prop(&f, "interrupt-controller", NULL, 0);
	fdt_cells(&f, "reg", 8, 0, LO(GICD_BASE), 0, 0x10000,
		  0, LO(GICR_BASE), 0, LO(nr_vcpus * GICR_SIZE));
	fdt_cells(&f, "phandle", 1, 1);
	fdt_end(&f);

	/* Secure, non-secure, virtual and hypervisor timers: PPIs, level high. */
	fdt_begin(&f, "timer");
	fdt_str(&f, "compatible", "arm,armv8-timer");
	fdt_cells(&f, "interrupts", 12, 1, 13, 4, 1, 14, 4, 1, 11, 4, 1, 10, 4);
	fdt_end(&f);

	fdt_end(&f);
	fdt_u32(&f, 9);		/* FDT_END */

	/* Header, an empty memory reservation map, structure, strings. */
	total = sizeof(hdr) + 16 + f.st_len + f.str_len;
	if (f.full || total > room)
		return 0;
	hdr[0] = 0xd00dfeed;
	hdr[1] = total;
	hdr[2] = sizeof(hdr) + 16;		/* off_dt_struct */
	hdr[3] = hdr[2] + f.st_len;		/* off_dt_strings */
	hdr[4] = sizeof(hdr);			/* off_mem_rsvmap */
	hdr[5] = 17;				/* version */
	hdr[6] = 16;				/* last_comp_version */
	hdr[7] = 0;				/* boot_cpuid_phys */
	hdr[8] = f.str_len;
	hdr[9] = f.st_len;
	for (i = 0; i < 10; i++)
		hdr[i] = __builtin_bswap32(hdr[i]);
	memcpy(dst, hdr, sizeof(hdr));
	memset((char *)dst + sizeof(hdr), 0, 16);
	memcpy((char *)dst + sizeof(hdr) + 16, f.st, f.st_len);
	memcpy((char *)dst + sizeof(hdr) + 16 + f.st_len, f.str, f.str_len);
	return total;
}

/* Reads @path at @dst, at most @room bytes; returns its size. */
static size_t load(const char *path, void *dst, size_t room)
{
	struct stat st;
	size_t done = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	if ((size_t)st.st_size > room) {
		fprintf(stderr, "%s: %lld bytes do not fit in the guest's memory\n", path,
			(long long)st.st_size);
		exit(1);
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)dst + done, st.st_size - done);

		if (n <= 0)
			die(path);
		done += n;
	}
	close(fd);
	return done;
}

static void set_reg(int fd, uint64_t id, uint64_t val)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uint64_t)&val };

	if (ioctl(fd, KVM_SET_ONE_REG, &reg))
		die("KVM_SET_ONE_REG");
}

static uint64_t get_reg(int fd, uint64_t id)
{
	uint64_t val;
	struct kvm_one_reg reg = { .id = id, .addr = (uint64_t)&val };

	if (ioctl(fd, KVM_GET_ONE_REG, &reg))
		die("KVM_GET_ONE_REG");
	return val;
}

static void vgic_attr(int dev, uint32_t group, uint64_t attr, uint64_t *val)
{
	struct kvm_device_attr a = { .group = group, .attr = attr, .addr = (uint64_t)val };

	if (ioctl(dev, KVM_SET_DEVICE_ATTR, &a))
		die("vGIC setup");
}

/* The UART: a byte stored to its data register is printed; reads are 0. */
static void mmio(struct kvm_run *run)
{
	uint64_t off = run->mmio.phys_addr - UART_BASE;

	if (run->mmio.is_write) {
		if (!off) {
			putchar(run->mmio.data[0]);
			if (run->mmio.data[0] == '\n')
				fflush(stdout);
		}
	} else {
		memset(run->mmio.data, 0, sizeof(run->mmio.data));
	}
	if (off >= UART_SIZE)
		fprintf(stderr, "guest_boot: %s of 0x%llx: no device there\n",
			run->mmio.is_write ? "store" : "load",
			(unsigned long long)run->mmio.phys_addr);
}

/* Runs a vCPU until the guest powers off or restarts, then exits. */
static void *run_vcpu(void *arg)
{
	struct vcpu *v = arg;
	struct kvm_run *run = v->run;

	for (;;) {
		if (ioctl(v->fd, KVM_RUN, 0)) {
			if (errno != EINTR)
				die("KVM_RUN");
			continue;
		}
		switch (run->exit_reason) {
		case KVM_EXIT_MMIO:
			mmio(run);
			break;
		case KVM_EXIT_SYSTEM_EVENT:
			fflush(stdout);
			switch (run->system_event.type) {
			case KVM_SYSTEM_EVENT_SHUTDOWN:
				fprintf(stderr, "guest_boot: the guest powered off\n");
				exit(0);
			case KVM_SYSTEM_EVENT_RESET:
				fprintf(stderr, "guest_boot: the guest restarted\n");
				exit(3);
			}
			fprintf(stderr, "guest_boot: system event %u\n", run->system_event.type);
			exit(1);
		default:
			fflush(stdout);
			fprintf(stderr, "guest_boot: unexpected exit %u\n", run->exit_reason);
			exit(1);
		}
	}
}

static void on_alarm(int sig)
{
	static const char msg[] = "guest_boot: timed out\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1))
		_exit(1);
	_exit(1);
}

int main(int argc, char **argv)
{
	const char *cmdline = "", *initrd_path = NULL;
	uint64_t ram_size = 128UL << 20, text_offset, image_size, end, dtb, initrd = 0;
	size_t initrd_size = 0, kernel_size, run_size;
	struct sigaction sa = { .sa_handler = on_alarm };
	struct kvm_create_device gic = { .type = KVM_DEV_TYPE_ARM_VGIC_V3 };
	struct kvm_userspace_memory_region region;
	struct kvm_vcpu_init init;
	uint64_t gicd = GICD_BASE, gicr = GICR_BASE;
	int kvm, vm, opt, i, hide = 0, deny = 0;
	unsigned int timeout = 300;
	char *mem, *args;
	uint32_t *hdr;

	while ((opt = getopt(argc, argv, "c:m:a:i:t:HD")) != -1) {
		switch (opt) {
		case 'c':
			nr_vcpus = strtol(optarg, NULL, 0);
			if (nr_vcpus < 1 || nr_vcpus > MAX_VCPUS)
				goto usage;
			break;
		case 'm':
			ram_size = strtoul(optarg, NULL, 0);
			if (ram_size < 32 || ram_size > 2048)
				goto usage;
			ram_size <<= 20;
			break;
		case 'a':
			cmdline = optarg;
			break;
		case 'i':
			initrd_path = optarg;
			break;
		case 't':
			timeout = strtoul(optarg, NULL, 0);
			if (timeout < 1 || timeout > 86400)
				goto usage;
			break;
		case 'H':
			hide = 1;
			break;
		case 'D':
			deny = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;

	mem = mmap(NULL, ram_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	/*
	 * The Image at its text offset from a 2 MiB aligned base (the start of
	 * memory), the device tree in the last 2 MiB, the initramfs below it.
	 */
	kernel_size = load(argv[optind], mem, ram_size / 2);
	hdr = (uint32_t *)mem;
	if (kernel_size < 64 || hdr[14] != 0x644d5241) {	/* "ARM\x64" */
		fprintf(stderr, "%s: not an arm64 Image\n", argv[optind]);
		return 1;
	}
	memcpy(&text_offset, mem + 8, 8);
	memcpy(&image_size, mem + 16, 8);
	/* An image size of 0: a kernel older than 3.17, at 0x80000. */
	if (!image_size)
		text_offset = 0x80000;
	if (text_offset > ram_size / 2 - kernel_size) {
		fprintf(stderr, "%s: text offset too large\n", argv[optind]);
		return 1;
	}
	memmove(mem + text_offset, mem, kernel_size);
	memset(mem, 0, text_offset);
	/* Where the kernel ends, its BSS included: the initramfs goes above. */
	dtb = ram_size - (2UL << 20);
	end = text_offset + (image_size > kernel_size ? image_size : kernel_size);
	if (image_size > dtb || end > dtb) {
		fprintf(stderr, "%s: image size too large\n", argv[optind]);
		return 1;
	}
	if (initrd_path) {
		struct stat st;

		if (stat(initrd_path, &st))
			die(initrd_path);
		initrd = ((uint64_t)st.st_size > dtb ? 0 : dtb - st.st_size) & ~0xfffUL;
		if ((uint64_t)st.st_size > dtb || initrd < end) {
			fprintf(stderr, "%s: no room for it after the kernel\n", initrd_path);
			return 1;
		}
		initrd_size = load(initrd_path, mem + initrd, dtb - initrd);
		initrd += RAM_BASE;
	}
	/* The console first: a kernel cuts its command line at 2048 bytes. */
	if (asprintf(&args, EARLYCON "%s%s", *cmdline ? " " : "", cmdline) < 0 ||
	    strlen(args) > 2047) {
		fprintf(stderr, "guest_boot: command line too long\n");
		return 1;
	}
	if (!fdt_build(mem + dtb, 2UL << 20, ram_size, args, initrd, initrd_size)) {
		fprintf(stderr, "guest_boot: the device tree does not fit\n");
		return 1;
	}

	kvm = open("/dev/kvm", O_RDWR);
	if (kvm < 0)
		die("/dev/kvm");
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		die("KVM_CREATE_VM");
	region = (struct kvm_userspace_memory_region) {
		.slot = 0, .guest_phys_addr = RAM_BASE, .memory_size = ram_size,
		.userspace_addr = (uint64_t)mem,
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) ||
	    ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init))
		die("KVM setup");
	/* vCPU 0 boots; the others wait, off, for PSCI CPU_ON. */
	init.features[0] |= 1 << KVM_ARM_VCPU_PSCI_0_2;
	run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	for (i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];

		if (i == 1)
			init.features[0] |= 1 << KVM_ARM_VCPU_POWER_OFF;
		v->fd = ioctl(vm, KVM_CREATE_VCPU, i);
		if (v->fd < 0 || ioctl(v->fd, KVM_ARM_VCPU_INIT, &init))
			die("KVM_CREATE_VCPU");
		v->run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
		if (v->run == MAP_FAILED)
			die("mmap kvm_run");
	}

	gic.fd = 0;
	if (ioctl(vm, KVM_CREATE_DEVICE, &gic))
		die("KVM_CREATE_DEVICE (GICv3)");
	vgic_attr(gic.fd, KVM_DEV_ARM_VGIC_GRP_ADDR, KVM_VGIC_V3_ADDR_TYPE_DIST, &gicd);
	vgic_attr(gic.fd, KVM_DEV_ARM_VGIC_GRP_ADDR, KVM_VGIC_V3_ADDR_TYPE_REDIST, &gicr);
	vgic_attr(gic.fd, KVM_DEV_ARM_VGIC_GRP_CTRL, KVM_DEV_ARM_VGIC_CTRL_INIT, NULL);

	/* Linux's boot protocol: x0 the device tree, x1-x3 zero, MMU off. */
	set_reg(vcpus[0].fd, CORE_REG(regs.pc), RAM_BASE + text_offset);
	set_reg(vcpus[0].fd, CORE_REG(regs.regs[0]), RAM_BASE + dtb);
	/* The bitmap is the VM's: set through any vCPU, before any runs. */
	if (hide)
		set_reg(vcpus[0].fd, KVM_REG_ARM_VENDOR_HYP_BMAP,
			get_reg(vcpus[0].fd, KVM_REG_ARM_VENDOR_HYP_BMAP) &
			~(1UL << GUEST_MARKER_BIT));
	if (deny) {
		struct kvm_smccc_filter filter = {
			.base = GUEST_MARKER_FUNC_ID, .nr_functions = 1,
			.action = SMCCC_FILTER_DENY,
		};
		struct kvm_device_attr attr = {
			.group = KVM_ARM_VM_SMCCC_CTRL, .attr = KVM_ARM_VM_SMCCC_FILTER,
			.addr = (uint64_t)&filter,
		};

		if (ioctl(vm, KVM_SET_DEVICE_ATTR, &attr))
			die("KVM_ARM_VM_SMCCC_FILTER");
	}

	sigaction(SIGALRM, &sa, NULL);
	alarm(timeout);
	for (i = 1; i < nr_vcpus; i++) {
		errno = pthread_create(&vcpus[i].thread, NULL, run_vcpu, &vcpus[i]);
		if (errno)
			die("pthread_create");
	}
	run_vcpu(&vcpus[0]);
	return 1;

usage:
	fprintf(stderr, "usage: %s [-c VCPUS (1-%d)] [-m MiB (32-2048)] [-a CMDLINE] [-i INITRD]\n"
		"       [-t SECONDS] [-H | -D] IMAGE\n", argv[0], MAX_VCPUS);
	return 2;
}
