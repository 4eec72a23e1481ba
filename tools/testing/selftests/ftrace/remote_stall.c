// SPDX-License-Identifier: GPL-2.0
/*
 * Does a file hold a lock while it copies to or from user space?
 *
 *   remote_stall read|write FILE [DATA] -- OTHER VALUE
 *
 * Reads FILE into (or writes DATA to FILE from) a page registered with
 * userfaultfd, so that the copy stalls on the page fault. While it is
 * stalled, writes VALUE to OTHER from another thread, then resolves the
 * fault. Prints "free" and exits 0 if the write to OTHER completed during
 * the stall, prints "blocked" and exits 1 if it had to wait for the copy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *other, *value;
static int writing;
static const char *file, *data;
static char *page;
static int other_done;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void *stalled_copy(void *arg)
{
	const char *path = arg;
	int fd = open(path, writing ? O_WRONLY : O_RDONLY);
	ssize_t ret;

	if (fd < 0)
		die(path);
	/* The page is missing: the copy faults and waits for us. */
	if (writing)
		ret = write(fd, page, strlen(data));
	else
		ret = read(fd, page, 64);
	if (ret < 0)
		die(writing ? "write" : "read");
	close(fd);
	return NULL;
}

static void *write_other(void *arg)
{
	const char *path = arg;
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	if (write(fd, value, strlen(value)) < 0)
		die("write OTHER");
	close(fd);
	__atomic_store_n(&other_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_copy copy = { 0 };
	struct pollfd pfd;
	struct uffd_msg msg;
	pthread_t copier, writer;
	long psize = sysconf(_SC_PAGESIZE);
	char *src;
	int uffd, i, argi, free_during_stall;

	if (argc < 5)
		goto usage;
	writing = !strcmp(argv[1], "write");
	if (!writing && strcmp(argv[1], "read"))
		goto usage;
	file = argv[2];
	argi = 3;
	if (writing)
		data = argv[argi++];
	if (argc != argi + 3 || strcmp(argv[argi], "--"))
		goto usage;
	other = argv[argi + 1];
	value = argv[argi + 2];

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	page = mmap(NULL, psize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		die("mmap");
	reg.range.start = (unsigned long)page;
	reg.range.len = psize;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");

	if (pthread_create(&copier, NULL, stalled_copy, (void *)file))
		die("pthread_create");
	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1)
		die("no fault in 5 s");
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) || msg.event != UFFD_EVENT_PAGEFAULT)
		die("read uffd");

	/* The copy is stalled: does the other file wait for it? */
	if (pthread_create(&writer, NULL, write_other, (void *)other))
		die("pthread_create");
	for (i = 0; i < 200 && !__atomic_load_n(&other_done, __ATOMIC_ACQUIRE); i++)
		usleep(10000);
	free_during_stall = __atomic_load_n(&other_done, __ATOMIC_ACQUIRE);
	printf("%s\n", free_during_stall ? "free" : "blocked");
	fflush(stdout);

	src = aligned_alloc(psize, psize);
	if (!src)
		die("aligned_alloc");
	memset(src, 0, psize);
	if (writing)
		memcpy(src, data, strlen(data));
	copy.dst = (unsigned long)page;
	copy.src = (unsigned long)src;
	copy.len = psize;
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		die("UFFDIO_COPY");
	pthread_join(copier, NULL);
	pthread_join(writer, NULL);
	return free_during_stall ? 0 : 1;

usage:
	fprintf(stderr, "usage: %s read|write FILE [DATA] -- OTHER VALUE\n", argv[0]);
	return 2;
}
