// SPDX-License-Identifier: GPL-2.0
/*
 * Hypervisor function tracing against a hostile host, in protected mode:
 *
 *   cat /sys/kernel/debug/kvm/hyp_ftrace_hostile
 *
 * hands the patch hypercall indexes and switches the hypervisor must
 * refuse, patches one function twice and back, then has every CPU patch and
 * unpatch the functions of the host trap path at random, with refused
 * requests in between, while those functions run. One line per case, "ok"
 * or "FAIL", then "<n> cases, <n> failures". Run it with the func event off:
 * it leaves every site as it found it, unpatched.
 *
 * In nVHE mode, where the host patches the hypervisor,
 *
 *   cat /sys/kernel/debug/kvm/hyp_ftrace_calls
 *
 * says where the direct calls to the hypervisor's functions go: "calls <n>
 * past <n> patched <n>", those past the NOP of a function not traced and
 * those to the site of a function traced; any other is misdirected.
 *
 * In protected mode,
 *
 *   cat /sys/kernel/debug/kvm/hyp_text_wx
 *
 * says "writable <n> mapped <m>": how many entries of the hypervisor's own
 * page table map its text or rodata writable, which patching must leave
 * none of, and how often the hypervisor has mapped its text to patch it,
 * which it must not do before the first function is traced.
 */

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kvm_host.h>
#include <linux/random.h>
#include <linux/seq_file.h>

#include <asm/kvm_hyptrace.h>

#include "hyp_ftrace.h"

#define STORM_ROUNDS	2000

static const char * const storm_funcs[] = {
	"handle_trap", "handle_host_hcall", "handle___tracing_write_event",
	"handle___tracing_ftrace_patch", "handle_host_mem_abort", "host_stage2_idmap",
};

struct ftrace_hostile {
	unsigned int	cases;
	unsigned int	failures;
	int		storm[ARRAY_SIZE(storm_funcs)];
	atomic_t	storm_errors;
};

static int patch(u64 idx, u64 enable)
{
	return kvm_call_hyp_nvhe(__tracing_ftrace_patch, idx, enable);
}

static void report(struct seq_file *m, struct ftrace_hostile *h, bool ok, const char *what,
		   u64 idx, u64 enable, int ret)
{
	seq_printf(m, "%s %s: idx %llu enable %llu: %d\n", ok ? "ok" : "FAIL", what, idx,
		   enable, ret);
	h->cases++;
	if (!ok)
		h->failures++;
}

static void expect(struct seq_file *m, struct ftrace_hostile *h, const char *what, u64 idx,
		   u64 enable, int expected)
{
	int ret = patch(idx, enable);

	report(m, h, ret == expected, what, idx, enable, ret);
}

static void storm_cpu(void *arg)
{
	struct ftrace_hostile *h = arg;
	unsigned int i;

	for (i = 0; i < STORM_ROUNDS; i++) {
		int idx = h->storm[get_random_u32_below(ARRAY_SIZE(storm_funcs))];

		if (patch(idx, get_random_u32_below(2)))
			atomic_inc(&h->storm_errors);
		if (patch(get_random_u64() | BIT_ULL(63), 1) != -EINVAL)
			atomic_inc(&h->storm_errors);
	}
}

static int hostile_show(struct seq_file *m, void *v)
{
	struct ftrace_hostile h = { .storm_errors = ATOMIC_INIT(0) };
	unsigned int nr = hyp_ftrace_nr_sites(), i;
	int idx, ret, err = 0;

	idx = hyp_ftrace_lookup("handle_trap");
	if (!nr || idx < 0) {
		seq_puts(m, "FAIL no patch site for handle_trap\n");
		return 0;
	}

	expect(m, &h, "first index out of the list", nr, 1, -EINVAL);
	expect(m, &h, "index out of the list", nr + 1, 1, -EINVAL);
	expect(m, &h, "32-bit index", U32_MAX, 1, -EINVAL);
	expect(m, &h, "negative index", U64_MAX, 1, -EINVAL);
	expect(m, &h, "index 2^63", BIT_ULL(63), 0, -EINVAL);
	expect(m, &h, "switch 2", idx, 2, -EINVAL);
	expect(m, &h, "switch 2^32 + 1", idx, BIT_ULL(32) + 1, -EINVAL);
	expect(m, &h, "switch -1", idx, U64_MAX, -EINVAL);
	expect(m, &h, "patch", idx, 1, 0);
	expect(m, &h, "patch again", idx, 1, 0);
	expect(m, &h, "unpatch", idx, 0, 0);
	expect(m, &h, "unpatch again", idx, 0, 0);

	for (i = 0; i < ARRAY_SIZE(storm_funcs); i++) {
		h.storm[i] = hyp_ftrace_lookup(storm_funcs[i]);
		if (h.storm[i] < 0)
			h.storm[i] = idx;
	}
	on_each_cpu(storm_cpu, &h, true);
	ret = atomic_read(&h.storm_errors);
	report(m, &h, !ret, "every CPU patching the trap path", ARRAY_SIZE(storm_funcs), 1, ret);

	for (i = 0; i < ARRAY_SIZE(storm_funcs); i++)
		err = patch(h.storm[i], 0) ?: err;
	report(m, &h, !err, "all unpatched after", ARRAY_SIZE(storm_funcs), 0, err);

	seq_printf(m, "%u cases, %u failures\n", h.cases, h.failures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hostile);

static int calls_show(struct seq_file *m, void *v)
{
	unsigned int past, to_site;
	int nr = hyp_ftrace_count_calls(&past, &to_site);

	if (nr < 0)
		return nr;
	seq_printf(m, "calls %d past %u patched %u\n", nr, past, to_site);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(calls);

static int text_wx_show(struct seq_file *m, void *v)
{
	int nr = kvm_call_hyp_nvhe(__tracing_write_event, HYP_TRACE_WX_ID);
	int maps = kvm_call_hyp_nvhe(__tracing_write_event, HYP_TRACE_TEXT_MAPS_ID);

	if (nr < 0 || maps < 0)
		return nr < 0 ? nr : maps;
	seq_printf(m, "writable %d mapped %d\n", nr, maps);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(text_wx);

static int __init hyp_ftrace_test_init(void)
{
	struct dentry *kvm;

	if (!hyp_ftrace_nr_sites())
		return 0;
	kvm = debugfs_lookup("kvm", NULL);
	if (is_protected_kvm_enabled()) {
		debugfs_create_file("hyp_ftrace_hostile", 0400, kvm, NULL, &hostile_fops);
		debugfs_create_file("hyp_text_wx", 0400, kvm, NULL, &text_wx_fops);
	} else {
		debugfs_create_file("hyp_ftrace_calls", 0400, kvm, NULL, &calls_fops);
	}
	dput(kvm);
	return 0;
}
late_initcall(hyp_ftrace_test_init);
