// SPDX-License-Identifier: GPL-2.0
/*
 * Function tracing in the hypervisor.
 *
 * The build gives each function of the hypervisor a NOP as first instruction
 * (-fpatchable-function-entry=1), except in the objects that must never be
 * traced (this one, the trace buffer writer, the clock, the world switch),
 * and lists those NOPs, the patch sites, in __hyp_ftrace_sites[]. Function
 * i is traced while its NOP is a branch to trampoline i (ftrace_tramp.S),
 * which writes the func event, or calls hyp_ftrace_entry() to, and goes on
 * after the NOP. While it is not, the direct calls to it go past the NOP,
 * so that only calls through a pointer (the host's hypercalls through
 * host_hcall[], which stays read-only) run it. A NOP and a B may be
 * exchanged while other CPUs execute them, and so may a BL and a BL, or a
 * B and a B: no CPU is stopped.
 *
 * The host names a site by its index only. In protected mode the hypervisor
 * takes the address from its own list, checks that the instruction there is
 * the one it expects and writes it through its fixmap, for that write only.
 * In nVHE mode the host owns the hypervisor and patches it itself
 * (arch/arm64/kvm/hyp_ftrace.c).
 */

#include <asm/insn.h>
#include <asm/kvm_hypftrace.h>
#include <asm/kvm_mmu.h>
#include <asm/sections.h>

#include <nvhe/ftrace.h>
#include <nvhe/memory.h>
#include <nvhe/mm.h>
#include <nvhe/spinlock.h>
#include <nvhe/trace.h>

static DEFINE_HYP_SPINLOCK(ftrace_lock);

/* In .bss, as the hypervisor has no .data; written before any site is patched. */
unsigned long hyp_ftrace_kimg_off;

/* How often the hypervisor has mapped its text to write it, under ftrace_lock. */
static unsigned int hyp_ftrace_text_maps;

#define HYP_FTRACE_TC(field)	offsetof(struct hyp_trace_cpu, field)
static_assert(hyp_event_id_func == HYP_FTRACE_EVENT_FUNC);
static_assert(hyp_event_id_func_ret == HYP_FTRACE_EVENT_FUNC + 1);
static_assert(__alignof__(hyp_trace_events) >= 8 && !(HYP_FTRACE_EVENT_FUNC % 2));
static_assert(sizeof(struct remote_event_hdr) == 8 && !offsetof(struct remote_event_hdr, id));
static_assert(offsetof(struct remote_event_format_func, ip) == 8);
static_assert(offsetof(struct remote_event_format_func, parent_ip) == 16);
static_assert(sizeof(struct remote_event_format_func) + sizeof(u32) == HYP_FTRACE_FUNC_LEN);
static_assert(offsetof(struct remote_event_format_func_ret, ip) == 8);
static_assert(offsetof(struct remote_event_format_func_ret, calltime) == 16);
static_assert(offsetof(struct remote_event_format_func_ret, rettime) == 24);
static_assert(offsetof(struct remote_event_format_func_ret, depth) == 32);
static_assert(sizeof(struct remote_event_format_func_ret) + sizeof(u32) == HYP_FTRACE_RET_LEN);
static_assert(sizeof(struct remote_event_format_func) + SIMPLE_RB_EVENT_HDR ==
	      HYP_FTRACE_FUNC_SIZE);
static_assert(sizeof(struct remote_event_format_func_ret) + SIMPLE_RB_EVENT_HDR ==
	      HYP_FTRACE_RET_SIZE);
static_assert(SIMPLE_RB_READY == HYP_FTRACE_RB_READY);
static_assert((SIMPLE_RB_READY >> HYP_FTRACE_RB_READY_BIT) == 1);
static_assert(SIMPLE_RB_WRITING == HYP_FTRACE_RB_WRITING);
static_assert(SIMPLE_RB_TS_SHIFT == HYP_FTRACE_TS_SHIFT);
static_assert(SIMPLE_RB_DATA_SIZE == HYP_FTRACE_DATA_SIZE);
static_assert(offsetof(struct trace_buffer_meta, entries) == HYP_FTRACE_META_ENTRIES);
static_assert(!HYP_FTRACE_TC(rb.status));
static_assert(HYP_FTRACE_TC(rb.tail_write) == HYP_FTRACE_TC_TAIL_WRITE);
static_assert(HYP_FTRACE_TC(rb.write_stamp) == HYP_FTRACE_TC_TAIL_WRITE + 8);
static_assert(HYP_FTRACE_TC(rb.tail_commit) == HYP_FTRACE_TC_TAIL_COMMIT);
static_assert(HYP_FTRACE_TC(rb.meta) == HYP_FTRACE_TC_TAIL_COMMIT + 8);
static_assert(HYP_FTRACE_TC(clock.mult) == HYP_FTRACE_TC_MULT);
static_assert(HYP_FTRACE_TC(clock.shift) == HYP_FTRACE_TC_MULT + 8);
static_assert(HYP_FTRACE_TC(clock.epoch_cyc) == HYP_FTRACE_TC_EPOCH);
static_assert(HYP_FTRACE_TC(clock.epoch_ns) == HYP_FTRACE_TC_EPOCH + 8);
static_assert(HYP_FTRACE_TC(ftrace_ret.depth) == HYP_FTRACE_TC_RET_DEPTH);
static_assert(HYP_FTRACE_TC(ftrace_ret.frame) == HYP_FTRACE_TC_RET_FRAME);
static_assert(sizeof(struct hyp_ftrace_ret_frame) == 32);
static_assert(offsetof(struct hyp_ftrace_ret_frame, sp) == 8);
static_assert(offsetof(struct hyp_ftrace_ret_frame, ip) == 16);
static_assert(offsetof(struct hyp_ftrace_ret_frame, calltime) == 24);

static inline struct hyp_ftrace_ret_stack *hyp_ftrace_ret_stack(void)
{
	return &this_cpu_ptr(&hyp_trace_cpu)->ftrace_ret;
}

/*
 * Make the call at @sp of the function whose patch site is @site, which
 * returns to *@parent, return through __hyp_ftrace_return; where the
 * function goes on. Called by hyp_ftrace_entry(), and by __hyp_ftrace_caller
 * once it has written the func event when the stack holds a frame it
 * cannot tell from a running call's.
 */
unsigned long hyp_ftrace_hook_return(unsigned long site, unsigned long *parent, unsigned long sp)
{
	struct hyp_ftrace_ret_stack *rs = hyp_ftrace_ret_stack();
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
		return site + HYP_FTRACE_INSN_SIZE;
	f = &rs->frame[rs->depth];
	f->ret = *parent;
	f->sp = sp;
	f->ip = site + READ_ONCE(hyp_ftrace_kimg_off);
	f->calltime = hyp_trace_clock(this_cpu_ptr(&hyp_trace_cpu));
	rs->depth++;
	*parent = hook;
	return site + HYP_FTRACE_INSN_SIZE;
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
	hyp_ftrace_ret_stack()->depth = 0;
}

/*
 * For the unwinder (stacktrace.c): @pc, a return address read from the frame
 * record at @record on this CPU's stack; the real one if it is the hook.
 */
unsigned long hyp_ftrace_ret_addr(unsigned long pc, unsigned long record,
				  unsigned long va_mask)
{
	return hyp_ftrace_unwind_ret(hyp_ftrace_ret_stack(),
				     (unsigned long)__hyp_ftrace_return, pc, record, va_mask);
}

/*
 * Called by __hyp_ftrace_caller for the function whose patch site is @site,
 * with *@parent its return address and @sp its stack pointer. Events carry
 * kernel image addresses: the host's kallsyms names them, and tools that
 * read the trace name them from the kernel's symbols.
 */
unsigned long hyp_ftrace_entry(unsigned long site, unsigned long *parent, unsigned long sp)
{
	unsigned long off = READ_ONCE(hyp_ftrace_kimg_off);

	trace_func(site + off, *parent + off);
	if (READ_ONCE(hyp_trace_events[hyp_event_id_func_ret]))
		return hyp_ftrace_hook_return(site, parent, sp);
	return site + HYP_FTRACE_INSN_SIZE;
}

/*
 * Called by __hyp_ftrace_return when a call hooked by hyp_ftrace_entry()
 * returns: the address it returns to.
 */
unsigned long hyp_ftrace_exit(void)
{
	struct hyp_ftrace_ret_stack *rs = hyp_ftrace_ret_stack();
	unsigned int depth = rs->depth;
	struct hyp_ftrace_ret_frame *f;
	u64 now;

	/* Only a corrupted stack gets here without a frame; hyp_panic() is not traced. */
	BUG_ON(!depth || depth > HYP_FTRACE_RET_DEPTH);
	f = &rs->frame[depth - 1];
	if (READ_ONCE(hyp_trace_events[hyp_event_id_func_ret])) {
		/* A new conversion from the host may step the clock back. */
		now = max(hyp_trace_clock(this_cpu_ptr(&hyp_trace_cpu)), f->calltime);
		trace_func_ret(f->ip, depth - 1, f->calltime, now);
	}
	/* Last: a panic before still unwinds this frame to its caller. */
	WRITE_ONCE(rs->depth, depth - 1);
	return f->ret;
}

/*
 * hyp_fixmap_unmap() invalidates the slot's TLB entry by address. QEMU 7.2
 * (Debian 12's) does that only for the EL2 regime, not for the EL2&0 one
 * that hVHE runs in: a write through the slot could then reach the page
 * mapped before, and the text would stay writable through the slot after.
 * Patching is rare enough to invalidate all of EL2's, before and after.
 */
static void hyp_ftrace_flush_slot(void)
{
	if (!has_hvhe())
		return;
	__tlbi(alle2is);
	dsb(ish);
	isb();
}

/*
 * Replace @old at @site with @new, or find @new there already. The write goes
 * through this CPU's fixmap slot, mapped for it alone and unmapped (with the
 * TLB invalidation) before the instruction cache is told: no writable
 * mapping of the text outlives the write.
 */
int hyp_ftrace_write(unsigned long site, u32 old, u32 new)
{
	u32 cur = le32_to_cpu(READ_ONCE(*(__le32 *)site));
	unsigned long rw;

	if (cur == new)
		return 0;
	if (cur != old)
		return -EINVAL;
	rw = (unsigned long)hyp_fixmap_map(__hyp_pa(site)) + offset_in_page(site);
	hyp_ftrace_text_maps++;
	hyp_ftrace_flush_slot();
	/* The slot must show what the text shows. */
	if (le32_to_cpu(READ_ONCE(*(__le32 *)rw)) != cur) {
		hyp_fixmap_unmap();
		hyp_ftrace_flush_slot();
		return -EIO;
	}
	WRITE_ONCE(*(__le32 *)rw, cpu_to_le32(new));
	dcache_clean_inval_poc(rw, rw + HYP_FTRACE_INSN_SIZE);
	hyp_fixmap_unmap();
	hyp_ftrace_flush_slot();
	icache_inval_pou(site, site + HYP_FTRACE_INSN_SIZE);
	return 0;
}

/* For the tests: how often the hypervisor has mapped its text since boot. */
int hyp_ftrace_nr_text_maps(void)
{
	return min_t(unsigned int, READ_ONCE(hyp_ftrace_text_maps), INT_MAX);
}

static bool hyp_ftrace_site_ok(unsigned long site)
{
	return IS_ALIGNED(site, HYP_FTRACE_INSN_SIZE) &&
	       site >= (unsigned long)__hyp_text_start &&
	       site < (unsigned long)__hyp_text_end;
}

/*
 * Make the direct calls to function @idx go to its site (@traced) or past
 * it. A listed call that goes anywhere else is left alone.
 */
static void hyp_ftrace_patch_calls(unsigned long idx, bool traced)
{
	unsigned long site = __hyp_ftrace_sites[idx];
	u32 i;

	for (i = __hyp_ftrace_first_call[idx]; i < __hyp_ftrace_first_call[idx + 1]; i++) {
		unsigned long pc = hyp_ftrace_call_pc(__hyp_ftrace_calls, i);
		u32 cur = le32_to_cpu(READ_ONCE(*(__le32 *)pc)), new;

		if (hyp_ftrace_retarget(cur, pc, site, traced, &new))
			hyp_ftrace_write(pc, cur, new);
	}
}

/*
 * Trace function @idx (@enable 1) or stop (0). -EINVAL for an index out of
 * the list or a site whose instruction is neither the NOP nor the branch;
 * -EOPNOTSUPP in nVHE mode, where the host patches. Its direct calls go to
 * the branch, calls through a pointer find it: the function's site is
 * patched before its calls are, and unpatched after.
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
	branch = aarch64_insn_get_b_value() | (((tramp - site) >> 2) & GENMASK(25, 0));
	old = enable ? aarch64_insn_gen_nop() : branch;
	new = enable ? branch : aarch64_insn_gen_nop();

	hyp_spin_lock(&ftrace_lock);
	if (enable) {
		ret = hyp_ftrace_write(site, old, new);
		if (!ret)
			hyp_ftrace_patch_calls(idx, true);
	} else {
		hyp_ftrace_patch_calls(idx, false);
		ret = hyp_ftrace_write(site, old, new);
	}
	hyp_spin_unlock(&ftrace_lock);
	return ret;
}
