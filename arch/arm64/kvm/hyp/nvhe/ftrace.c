// SPDX-License-Identifier: GPL-2.0
/*
 * Function tracing in the hypervisor.
 *
 * The build gives each function of the hypervisor a NOP as first instruction
 * (-fpatchable-function-entry=1), except in the objects that must never be
 * traced (this one, the trace buffer writer, the clock, the world switch),
 * and lists those NOPs, the patch sites, in __hyp_ftrace_sites[]. Function
 * i is traced while its NOP is a branch to trampoline i (ftrace_tramp.S),
 * which calls hyp_ftrace_entry() and goes on after the NOP. While it is not,
 * the direct calls to it, and the host's hypercalls through host_hcall[],
 * go past the NOP, so that only other calls through a pointer run it. A NOP
 * and a B may be exchanged while other CPUs execute them, and so may a BL
 * and a BL, or a B and a B; a table entry is one aligned 64-bit store: no
 * CPU is stopped.
 *
 * The host names a site by its index only. In protected mode the hypervisor
 * takes the address from its own list, checks that the instruction there is
 * the one it expects and writes it through a mapping only it has. In nVHE mode the
 * host owns the hypervisor and patches it itself (arch/arm64/kvm/hyp_ftrace.c).
 */

#include <asm/kvm_hypftrace.h>
#include <asm/kvm_mmu.h>
#include <asm/sections.h>

#include <nvhe/ftrace.h>
#include <nvhe/memory.h>
#include <nvhe/mm.h>
#include <nvhe/spinlock.h>
#include <nvhe/trace.h>

#define HYP_FTRACE_NOP		0xd503201fU
#define HYP_FTRACE_B		0x14000000U

static DEFINE_HYP_SPINLOCK(ftrace_lock);

/*
 * The direct calls to each function (kvm_hypftrace.h), looked for at the
 * first patch request, which then makes them go past the NOPs. In .bss: the
 * hypervisor has no .data.
 */
static u16 hyp_ftrace_first_call[HYP_FTRACE_MAX_SITES + 1];
static u32 hyp_ftrace_calls[HYP_FTRACE_MAX_CALLS];
static bool hyp_ftrace_calls_looked, hyp_ftrace_calls_found;

/* Kernel image address minus hypervisor address, once known. */
static unsigned long hyp_ftrace_kimg;

/*
 * The calls whose return is traced (func_ret), per CPU, innermost last. A
 * traced call's return address is replaced by __hyp_ftrace_return, which
 * gets the real one back from here.
 */
#define HYP_FTRACE_RET_DEPTH	32

struct hyp_ftrace_ret_frame {
	unsigned long	ret;		/* the real return address */
	unsigned long	sp;		/* the stack pointer at the call */
	unsigned long	ip;		/* the function's patch site */
	u64		calltime;
};

struct hyp_ftrace_ret_stack {
	unsigned int			depth;
	struct hyp_ftrace_ret_frame	frame[HYP_FTRACE_RET_DEPTH];
};

static DEFINE_PER_CPU(struct hyp_ftrace_ret_stack, hyp_ftrace_ret_stack);

static __always_inline unsigned long hyp_ftrace_kimg_off(void)
{
	unsigned long off = READ_ONCE(hyp_ftrace_kimg);

	if (unlikely(!off)) {
		off = __hyp_ftrace_kimg_offset();
		WRITE_ONCE(hyp_ftrace_kimg, off);
	}
	return off;
}

/*
 * Make the call at @sp of function @ip, which returns to *@parent, return
 * through __hyp_ftrace_return.
 */
static void hyp_ftrace_hook_return(unsigned long ip, unsigned long *parent, unsigned long sp)
{
	struct hyp_ftrace_ret_stack *rs = this_cpu_ptr(&hyp_ftrace_ret_stack);
	unsigned long hook = (unsigned long)__hyp_ftrace_return;
	struct hyp_ftrace_ret_frame *f;

	/*
	 * A call made before this one returns with a stack pointer above its
	 * own: a frame below @sp, or at @sp but for a tail call (that returns
	 * through the hook already), belongs to a call that never returned.
	 * A CPU turned off in the middle of a hypercall leaves such frames.
	 */
	while (rs->depth) {
		f = &rs->frame[rs->depth - 1];
		if (f->sp > sp || (f->sp == sp && *parent == hook))
			break;
		rs->depth--;
	}
	if (rs->depth == HYP_FTRACE_RET_DEPTH)
		return;
	f = &rs->frame[rs->depth];
	f->ret = *parent;
	f->sp = sp;
	f->ip = ip;
	f->calltime = hyp_trace_clock(this_cpu_ptr(&hyp_trace_cpu));
	rs->depth++;
	*parent = hook;
}

/*
 * A CPU that starts or resumes in the hypervisor (__kvm_host_psci_cpu_entry())
 * has no call to return to: drop the frames of those it was in when it
 * stopped (CPU_OFF, a powerdown CPU_SUSPEND). Its new stack may be deeper
 * than theirs, which hyp_ftrace_hook_return() would take for calls still
 * running.
 */
void hyp_ftrace_cpu_entry(void)
{
	this_cpu_ptr(&hyp_ftrace_ret_stack)->depth = 0;
}

/*
 * Called by trampoline @tramp_end - HYP_FTRACE_TRAMP_SIZE, that is for
 * function idx, with *@parent its return address and @sp its stack pointer.
 * Events carry kernel image addresses, which the host and trace-cmd can
 * name.
 */
unsigned long hyp_ftrace_entry(unsigned long tramp_end, unsigned long *parent,
			       unsigned long sp)
{
	unsigned long idx, ip, off = hyp_ftrace_kimg_off();

	idx = (tramp_end - (unsigned long)__hyp_ftrace_tramps) / HYP_FTRACE_TRAMP_SIZE - 1;
	ip = __hyp_ftrace_sites[idx];
	trace_func(ip + off, *parent + off);
	if (READ_ONCE(hyp_trace_events[hyp_event_id_func_ret]))
		hyp_ftrace_hook_return(ip, parent, sp);
	return ip + HYP_FTRACE_INSN_SIZE;
}

/*
 * Called by __hyp_ftrace_return when a call hooked by hyp_ftrace_entry()
 * returns: the address it returns to.
 */
unsigned long hyp_ftrace_exit(void)
{
	struct hyp_ftrace_ret_stack *rs = this_cpu_ptr(&hyp_ftrace_ret_stack);
	struct hyp_ftrace_ret_frame *f;
	u64 now;

	/* Only a corrupted stack gets here without a frame; hyp_panic() is traced. */
	BUG_ON(!rs->depth);
	f = &rs->frame[--rs->depth];
	if (READ_ONCE(hyp_trace_events[hyp_event_id_func_ret])) {
		/* A new conversion from the host may step the clock back. */
		now = max(hyp_trace_clock(this_cpu_ptr(&hyp_trace_cpu)), f->calltime);
		trace_func_ret(f->ip + hyp_ftrace_kimg_off(), rs->depth, f->calltime, now);
	}
	return f->ret;
}

/*
 * The hypervisor's text, writable, at this address: mapped once, at the first
 * patch, in the hypervisor's private range that the host cannot reach. A
 * mapping of its own rather than the fixmap: a patch then needs no TLB
 * maintenance, only the cache maintenance of the instruction it writes.
 */
static void *hyp_ftrace_text_rw;

static int hyp_ftrace_map_text(void)
{
	unsigned long va;
	int ret;

	if (hyp_ftrace_text_rw)
		return 0;
	ret = __pkvm_create_private_mapping(__hyp_pa(__hyp_text_start),
					    __hyp_text_end - __hyp_text_start, PAGE_HYP, &va);
	if (!ret)
		hyp_ftrace_text_rw = (void *)va;
	return ret;
}

/* Replace @old at @site with @new, or find @new there already. */
int hyp_ftrace_write(unsigned long site, u32 old, u32 new)
{
	unsigned long rw = (unsigned long)hyp_ftrace_text_rw + site -
			   (unsigned long)__hyp_text_start;
	u32 cur = le32_to_cpu(READ_ONCE(*(__le32 *)site));

	if (cur == new)
		return 0;
	/* The alias must show what the text shows. */
	if (cur != old || le32_to_cpu(READ_ONCE(*(__le32 *)rw)) != cur)
		return -EINVAL;
	WRITE_ONCE(*(__le32 *)rw, cpu_to_le32(new));
	dcache_clean_inval_poc(rw, rw + HYP_FTRACE_INSN_SIZE);
	icache_inval_pou(site, site + HYP_FTRACE_INSN_SIZE);
	return 0;
}

static bool hyp_ftrace_site_ok(unsigned long site)
{
	return IS_ALIGNED(site, HYP_FTRACE_INSN_SIZE) &&
	       site >= (unsigned long)__hyp_text_start &&
	       site < (unsigned long)__hyp_text_end;
}

/*
 * host_hcall[], writable at this address once mapped, as the text. Not with
 * kCFI, where a call through the table checks the type hash right before
 * the function, which a call past its NOP would not find.
 */
static unsigned long *hyp_ftrace_hcall_rw;

static void hyp_ftrace_map_hcalls(void)
{
	unsigned long va;

	if (IS_ENABLED(CONFIG_CFI_CLANG))
		return;
	if (!__pkvm_create_private_mapping(__hyp_pa(host_hcall),
					   host_hcall_nr * sizeof(host_hcall[0]), PAGE_HYP, &va))
		hyp_ftrace_hcall_rw = (unsigned long *)va;
}

/*
 * Make the direct calls to function @idx, and the host_hcall[] entries that
 * are it, go to its site (@traced) or past it. Only a call filed by
 * hyp_ftrace_index_calls() that goes there is changed; an entry of the
 * table only if it is the site (with a BTI C before the site, it is the
 * BTI, the landing pad its indirect call needs).
 */
static void hyp_ftrace_patch_calls(unsigned long idx, bool traced)
{
	unsigned long base = (unsigned long)__hyp_text_start, site = __hyp_ftrace_sites[idx];
	unsigned int i;

	for (i = 0; hyp_ftrace_hcall_rw && i < host_hcall_nr; i++) {
		unsigned long cur = (unsigned long)READ_ONCE(host_hcall[i]);
		unsigned long to = traced ? site : site + HYP_FTRACE_INSN_SIZE;

		if ((cur == site || cur == site + HYP_FTRACE_INSN_SIZE) && cur != to)
			WRITE_ONCE(hyp_ftrace_hcall_rw[i], to);
	}
	if (!hyp_ftrace_calls_found)
		return;
	for (i = hyp_ftrace_first_call[idx]; i < hyp_ftrace_first_call[idx + 1]; i++) {
		unsigned long pc = base + hyp_ftrace_calls[i];
		u32 cur = le32_to_cpu(READ_ONCE(*(__le32 *)pc)), new;

		if (hyp_ftrace_retarget(cur, pc, site, traced, &new))
			hyp_ftrace_write(pc, cur, new);
	}
}

/*
 * Once, under the lock: the writable alias of the text, then the direct
 * calls and host_hcall[], made to go past the NOPs of the functions not
 * traced. The text searched ends where the hypervisor's exception table,
 * data, starts. Without the calls (more than HYP_FTRACE_MAX_CALLS), they
 * run the NOPs: the request that looked for them says so, once.
 */
static int hyp_ftrace_setup(unsigned long nr)
{
	char *end = (char *)&__start___kvm_ex_table;
	unsigned long i;
	int ret;

	ret = hyp_ftrace_map_text();
	if (ret || hyp_ftrace_calls_looked)
		return ret;
	hyp_ftrace_calls_looked = true;
	hyp_ftrace_map_hcalls();
	if (end < __hyp_text_start || end > __hyp_text_end)
		end = __hyp_text_end;
	ret = nr > HYP_FTRACE_MAX_SITES ? -E2BIG :
	      hyp_ftrace_index_calls((__le32 *)__hyp_text_start, (unsigned long)__hyp_text_start,
				     end - __hyp_text_start, __hyp_ftrace_sites, nr,
				     hyp_ftrace_first_call, hyp_ftrace_calls);
	hyp_ftrace_calls_found = !ret;
	for (i = 0; i < nr; i++) {
		unsigned long site = __hyp_ftrace_sites[i];

		if (hyp_ftrace_site_ok(site) &&
		    le32_to_cpu(READ_ONCE(*(__le32 *)site)) == HYP_FTRACE_NOP)
			hyp_ftrace_patch_calls(i, false);
	}
	return ret;
}

/*
 * Trace function @idx (@enable 1) or stop (0). -EINVAL for an index out of
 * the list or a site whose instruction is neither the NOP nor the branch;
 * -EOPNOTSUPP in nVHE mode, where the host patches; -E2BIG, once, if the
 * direct calls were too many to find. Its direct calls go to the branch,
 * calls through a pointer find it: the function's site is patched before
 * its calls are, and unpatched after.
 */
int __tracing_ftrace_patch(u64 idx, u64 enable)
{
	unsigned long site, tramp, nr = __hyp_ftrace_sites_end - __hyp_ftrace_sites;
	u32 branch, old, new;
	int ret;

	if (!is_protected_kvm_enabled())
		return -EOPNOTSUPP;
	if (idx >= nr || enable > 1)
		return -EINVAL;

	site = __hyp_ftrace_sites[idx];
	if (!hyp_ftrace_site_ok(site))
		return -EINVAL;
	tramp = (unsigned long)__hyp_ftrace_tramps + idx * HYP_FTRACE_TRAMP_SIZE;
	branch = HYP_FTRACE_B | (((tramp - site) >> 2) & GENMASK(25, 0));
	old = enable ? HYP_FTRACE_NOP : branch;
	new = enable ? branch : HYP_FTRACE_NOP;

	hyp_spin_lock(&ftrace_lock);
	/* Before any function is traced: what it calls may be traced later. */
	ret = hyp_ftrace_setup(nr);
	if (!ret && enable) {
		ret = hyp_ftrace_write(site, old, new);
		if (!ret)
			hyp_ftrace_patch_calls(idx, true);
	} else if (!ret) {
		hyp_ftrace_patch_calls(idx, false);
		ret = hyp_ftrace_write(site, old, new);
	}
	hyp_spin_unlock(&ftrace_lock);
	return ret;
}
