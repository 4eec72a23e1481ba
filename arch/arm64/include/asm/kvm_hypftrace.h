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
 * with hyp_ftrace_index_calls().
 */
#ifndef __ARM64_KVM_HYPFTRACE_H
#define __ARM64_KVM_HYPFTRACE_H

/* Most patch sites the hypervisor may have: the link fails beyond. */
#define HYP_FTRACE_MAX_SITES	2048
/* mov x9, x30; bl __hyp_ftrace_caller */
#define HYP_FTRACE_TRAMP_SIZE	8
/* Most direct calls to them that go past their NOPs; the others run them. */
#define HYP_FTRACE_MAX_CALLS	2048

#ifndef __ASSEMBLY__

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>

#include <asm/byteorder.h>

#define HYP_FTRACE_INSN_SIZE	4

/* Where the B or BL @insn at @pc goes, or 0 if it is neither. */
static inline unsigned long hyp_ftrace_call_target(u32 insn, unsigned long pc)
{
	if ((insn & 0x7c000000) != 0x14000000)
		return 0;
	/* imm26, sign-extended and in bytes */
	return pc + ((s64)((u64)insn << 38) >> 36);
}

/* The B or BL @insn at @pc, made to go to @target, in its range. */
static inline u32 hyp_ftrace_call_to(u32 insn, unsigned long pc, unsigned long target)
{
	return (insn & 0xfc000000) | (((target - pc) >> 2) & 0x03ffffff);
}

/* The index of the site @addr is, or is right after; -1 if none. */
static inline int hyp_ftrace_site_at(const unsigned long *sites, unsigned int nr,
				     unsigned long addr)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (addr > sites[mid] + HYP_FTRACE_INSN_SIZE)
			lo = mid + 1;
		else if (addr < sites[mid])
			hi = mid;
		else
			return (addr - sites[mid]) % HYP_FTRACE_INSN_SIZE ? -1 : mid;
	}
	return -1;
}

/*
 * Find the direct calls to the @nr @sites (ascending addresses) in the
 * @size bytes of @text, at address @base: those to site i are at offsets
 * calls[first[i]] to calls[first[i + 1] - 1] of @text. @first has room for
 * @nr + 1 entries, @calls for HYP_FTRACE_MAX_CALLS.
 */
static inline int hyp_ftrace_index_calls(const __le32 *text, unsigned long base,
					 unsigned long size, const unsigned long *sites,
					 unsigned int nr, u32 *first, u32 *calls)
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
			u32 insn = le32_to_cpu(READ_ONCE(text[off / HYP_FTRACE_INSN_SIZE]));
			unsigned long to = hyp_ftrace_call_target(insn, base + off);
			int s;

			if (!to)
				continue;
			s = hyp_ftrace_site_at(sites, nr, to);
			if (s < 0)
				continue;
			if (!pass) {
				first[s]++;
				continue;
			}
			/* Only text changed between the passes gets here. */
			if (!first[s])
				return -EINVAL;
			calls[--first[s]] = off;
		}
		if (pass)
			break;
		for (i = 1; i < nr; i++)
			first[i] += first[i - 1];
		first[nr] = nr ? first[nr - 1] : 0;
		if (first[nr] > HYP_FTRACE_MAX_CALLS)
			return -E2BIG;
	}
	return 0;
}

/*
 * @insn at @pc, a call to the function whose site is @site, made to go to
 * the site (@traced) or past it; false if it is no call to either.
 */
static inline bool hyp_ftrace_retarget(u32 insn, unsigned long pc, unsigned long site,
				       bool traced, u32 *new)
{
	unsigned long to = hyp_ftrace_call_target(insn, pc);

	if (to != site && to != site + HYP_FTRACE_INSN_SIZE)
		return false;
	*new = hyp_ftrace_call_to(insn, pc, traced ? site : site + HYP_FTRACE_INSN_SIZE);
	return true;
}

#endif /* __ASSEMBLY__ */

#endif /* __ARM64_KVM_HYPFTRACE_H */
