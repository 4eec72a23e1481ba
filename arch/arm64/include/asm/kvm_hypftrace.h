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
 * the NOP of a function not traced. The build makes them go past the NOPs
 * and lists them (nvhe/gen-hypcalls.c): those to site i are
 * __hyp_ftrace_calls[__hyp_ftrace_first_call[i]] up to
 * __hyp_ftrace_calls[__hyp_ftrace_first_call[i + 1] - 1], read with
 * hyp_ftrace_call_pc().
 */
#ifndef __ARM64_KVM_HYPFTRACE_H
#define __ARM64_KVM_HYPFTRACE_H

/* Most patch sites the hypervisor may have: the link fails beyond. */
#define HYP_FTRACE_MAX_SITES	2048
/* adrp x10, ...; ldr x10, [x10, ...]; b __hyp_ftrace_caller */
#define HYP_FTRACE_TRAMP_SIZE	12

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
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/types.h>

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

/* The address of call @i in the hypervisor's list of direct calls. */
static inline unsigned long hyp_ftrace_call_pc(const s32 *calls, unsigned int i)
{
	return (unsigned long)&calls[i] + READ_ONCE(calls[i]);
}

/*
 * @insn at @pc, a listed call to the function of @site, made to go to the
 * site (@traced) or past it; false if it goes anywhere else now, or could
 * not reach.
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
