// SPDX-License-Identifier: GPL-2.0
/*
 * Cost per event of simple_ring_buffer_reserve() + simple_ring_buffer_commit()
 * with an 8-byte payload, natively. Prints numbers; asserts nothing.
 *
 *   srb_bench [events] [pages]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/simple_ring_buffer.h>

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long nr = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000;
	unsigned int pages = argc > 2 ? strtoul(argv[2], NULL, 0) : 8;
	struct simple_buffer_page *bpages = calloc(pages, sizeof(*bpages));
	struct ring_buffer_desc *desc = calloc(1, ring_buffer_desc_size(pages));
	struct simple_rb_per_cpu cpu_buffer = {};
	u64 start, t, best = ~0ULL;
	unsigned long i;
	int round;

	desc->nr_page_va = pages;
	desc->meta_va = (unsigned long)aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	for (i = 0; i < pages; i++)
		desc->page_va[i] = (unsigned long)aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (simple_ring_buffer_init(&cpu_buffer, bpages, desc))
		return 1;
	simple_ring_buffer_enable_tracing(&cpu_buffer, true);

	for (round = 0; round < 5; round++) {
		start = now_ns();
		for (i = 0; i < nr; i++) {
			u64 *p = simple_ring_buffer_reserve(&cpu_buffer, sizeof(u64), start + i);

			if (!p)
				return 1;
			*p = i;
			simple_ring_buffer_commit(&cpu_buffer);
		}
		t = now_ns() - start;
		if (t < best)
			best = t;
	}
	printf("simple_ring_buffer native: %.2f ns/event ", (double)best / nr);
	printf("(8-byte payload, best of 5 x %lu events, %u pages, overwrite mode)\n", nr, pages);
	return 0;
}
