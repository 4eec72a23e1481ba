/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function tracing in the nVHE/pKVM hypervisor, shared by its trampolines,
 * its linker script and the host (arch/arm64/kvm/hyp_ftrace.c).
 *
 * Every function of the hypervisor built with -fpatchable-function-entry=1
 * starts with a NOP, its patch site; the sites are listed, in link order, in
 * __hyp_ftrace_sites[]. Tracing function i turns its NOP into a branch to
 * trampoline i, at __hyp_ftrace_tramps + i * HYP_FTRACE_TRAMP_SIZE.
 *
 * Direct calls (BL) and tail calls (B) to a function go past its NOP while
 * it is not traced, and to it while it is: only calls through a pointer run
 * the NOP of a function not traced. Whoever patches the text (the
 * hypervisor in protected mode, the host in nVHE mode) finds those calls
 * with hyp_ftrace_index_calls(), before it changes any.
 */
#ifndef __ARM64_KVM_HYPFTRACE_H
#define __ARM64_KVM_HYPFTRACE_H

/* Most patch sites the hypervisor may have: the link fails beyond. */
#define HYP_FTRACE_MAX_SITES	2048
/* adrp x10, ...; ldr x10, [x10, ...]; b __hyp_ftrace_caller */
#define HYP_FTRACE_TRAMP_SIZE	12
/* Room for the direct calls to them (1.6 per function in 6.12). */
#define HYP_FTRACE_MAX_CALLS	4096

#define HYP_FTRACE_INSN_SIZE	4

/*
 * The calls whose return is traced (func_ret), per CPU, innermost last. A
 * traced call's return address is replaced by __hyp_ftrace_return, which
 * gets the real one back from here.
 */
#define HYP_FTRACE_RET_DEPTH	32

/*
 * Where a CPU's struct hyp_ftrace_ret_stack is in its struct hyp_trace_cpu,
 * which is the hypervisor's own (checked in nvhe/ftrace.c).
 */
#define HYP_FTRACE_TC_RET	160

#ifndef __ASSEMBLY__

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/types.h>

#include <asm/byteorder.h>
#include <asm/hyp_image.h>
#include <asm/insn.h>

/*
 * Kernel image address minus hypervisor address, which the hypervisor adds
 * to its own in the events it writes: set by the host at boot, before the
 * hypervisor is protected.
 */
extern unsigned long kvm_nvhe_sym(hyp_ftrace_kimg_off);

struct hyp_ftrace_ret_frame {
	unsigned long	ret;		/* the real return address */
	unsigned long	sp;		/* the stack pointer at the call */
	unsigned long	ip;		/* the function, as a kernel image address */
	u64		calltime;
};

struct hyp_ftrace_ret_stack {
	unsigned int			depth;
	struct hyp_ftrace_ret_frame	frame[HYP_FTRACE_RET_DEPTH];
};

/**
 * hyp_ftrace_unwind_ret() - The return address a hooked frame stands for
 * @rs:		The return stack of the CPU whose stack is unwound.
 * @hook:	The address of __hyp_ftrace_return.
 * @pc:		A return address read from that stack.
 * @record:	Where the frame record @pc was read from, in the hypervisor's
 *		addresses, as the stack pointers of @rs.
 * @va_mask:	The bits of an address (the others may hold a PAC).
 *
 * For the unwinders of the hypervisor's stack (the hypervisor's own in
 * protected mode, the host's in nVHE mode), as the kernel's function graph
 * tracer has ftrace_graph_ret_addr(). A hooked function's frame records,
 * and those of what it jumped to with the hook in its link register (a
 * panic), are below the stack pointer of its call and above those of the
 * calls it made: the innermost call whose stack pointer is above @record
 * is the one, but for a tail call, which returns to the hook itself.
 *
 * Return: the real return address if @pc is the hook, @pc otherwise.
 */
static inline unsigned long hyp_ftrace_unwind_ret(const struct hyp_ftrace_ret_stack *rs,
						  unsigned long hook, unsigned long pc,
						  unsigned long record, unsigned long va_mask)
{
	unsigned int i = min_t(unsigned int, READ_ONCE(rs->depth), HYP_FTRACE_RET_DEPTH);

	if ((pc & va_mask) != (hook & va_mask))
		return pc;
	while (i--) {
		unsigned long ret = READ_ONCE(rs->frame[i].ret);

		if (READ_ONCE(rs->frame[i].sp) > record && (ret & va_mask) != (hook & va_mask))
			return ret;
	}
	return pc;
}

/* Where the B or BL @insn at @pc goes, or 0 if it is neither. */
static inline unsigned long hyp_ftrace_call_target(u32 insn, unsigned long pc)
{
	if (!aarch64_insn_is_b(insn) && !aarch64_insn_is_bl(insn))
		return 0;
	return pc + (sign_extend64(insn & GENMASK(25, 0), 25) << 2);
}

/* The word of @text (@size bytes at address @base) at address @addr, or 0. */
static inline u32 hyp_ftrace_text_word(const __le32 *text, unsigned long base,
				       unsigned long size, unsigned long addr)
{
	if (addr < base || addr - base >= size || addr % HYP_FTRACE_INSN_SIZE)
		return 0;
	return le32_to_cpu(READ_ONCE(text[(addr - base) / HYP_FTRACE_INSN_SIZE]));
}

/*
 * The site whose function @to is the entry of: the site itself, or a BTI C
 * right before it (a landing pad for indirect calls, which compilers put
 * before the patchable NOP); -1 if none. Not the instruction after a site:
 * a branch there is no call, but a loop back to the start of the body.
 */
static inline int hyp_ftrace_site_called(const __le32 *text, unsigned long base,
					 unsigned long size, const unsigned long *sites,
					 unsigned int nr, unsigned long to)
{
	u32 bti = aarch64_insn_gen_hint(AARCH64_INSN_HINT_BTIC);
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (sites[mid] < to)
			lo = mid + 1;
		else if (sites[mid] > to + HYP_FTRACE_INSN_SIZE)
			hi = mid;
		else if (sites[mid] == to ||
			 hyp_ftrace_text_word(text, base, size, to) == bti)
			return mid;
		else
			return -1;
	}
	return -1;
}

/**
 * hyp_ftrace_index_calls() - Find the direct calls to the hypervisor's functions
 * @text:	The hypervisor's text, as the caller can read it.
 * @base:	The address @text has in @sites and in its own branches.
 * @size:	The bytes of @text that are instructions.
 * @sites:	The patch sites, ascending.
 * @nr:		How many there are.
 * @first:	Room for @nr + 1 indexes into @calls.
 * @calls:	Room for HYP_FTRACE_MAX_CALLS offsets in @text.
 *
 * Files the B and BL instructions of @text that go to a function with a
 * site, by site: those to site i are at @text offsets calls[first[i]] to
 * calls[first[i + 1] - 1]. To be called before any of them is changed.
 *
 * Return: 0; -EINVAL if two sites are less than two instructions apart or
 * out of order, or if @text changed under the call; -E2BIG if there are
 * more than HYP_FTRACE_MAX_CALLS calls.
 */
static inline int hyp_ftrace_index_calls(const __le32 *text, unsigned long base,
					 unsigned long size, const unsigned long *sites,
					 unsigned int nr, u16 *first, u32 *calls)
{
	unsigned int i, pass;
	unsigned long off;

	for (i = 1; i < nr; i++) {
		if (sites[i] < sites[i - 1] + 2 * HYP_FTRACE_INSN_SIZE)
			return -EINVAL;
	}
	memset(first, 0, (nr + 1) * sizeof(*first));
	/*
	 * Count the calls to each site, make first[i] where those to i end,
	 * then file them from there down to where they start.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (off = 0; off + HYP_FTRACE_INSN_SIZE <= size; off += HYP_FTRACE_INSN_SIZE) {
			u32 insn = hyp_ftrace_text_word(text, base, size, base + off);
			unsigned long to = hyp_ftrace_call_target(insn, base + off);
			int s;

			if (!to)
				continue;
			s = hyp_ftrace_site_called(text, base, size, sites, nr, to);
			if (s < 0)
				continue;
			if (!pass) {
				if (first[s] == HYP_FTRACE_MAX_CALLS)
					return -E2BIG;
				first[s]++;
				continue;
			}
			if (!first[s])
				return -EINVAL;
			calls[--first[s]] = off;
		}
		if (pass)
			break;
		for (i = 1; i < nr; i++) {
			if (first[i - 1] + first[i] > HYP_FTRACE_MAX_CALLS)
				return -E2BIG;
			first[i] += first[i - 1];
		}
		first[nr] = nr ? first[nr - 1] : 0;
	}
	return 0;
}

/*
 * @insn at @pc, a call to the function of @site filed by
 * hyp_ftrace_index_calls(), made to go to the site (@traced) or past it;
 * false if it goes anywhere else now, or could not reach.
 */
static inline bool hyp_ftrace_retarget(u32 insn, unsigned long pc, unsigned long site,
				       bool traced, u32 *new)
{
	unsigned long to = hyp_ftrace_call_target(insn, pc);
	long off;

	if (to + HYP_FTRACE_INSN_SIZE != site && to != site && to != site + HYP_FTRACE_INSN_SIZE)
		return false;
	to = traced ? site : site + HYP_FTRACE_INSN_SIZE;
	off = to - pc;
	if (off < -SZ_128M || off >= SZ_128M)
		return false;
	*new = (insn & ~GENMASK(25, 0)) | ((off >> 2) & GENMASK(25, 0));
	return true;
}

#endif /* __ASSEMBLY__ */

#endif /* __ARM64_KVM_HYPFTRACE_H */
