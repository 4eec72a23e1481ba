/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trampolines of hypervisor function tracing (see ftrace.c).
 *
 * A traced function's first instruction branches (B, not BL) to its own
 * trampoline: x30 still holds the function's return address, x0-x8 its
 * arguments, and x9, a temporary of the procedure call standard, is free.
 */

#include <linux/linkage.h>

#include <asm/assembler.h>
#include <asm/kvm_mmu.h>
#include <asm/kvm_hypftrace.h>

/*
 * A frame record and x0-x8, the registers a function takes its arguments
 * and gives its results in, and \reg at sp + 88 if given.
 */
	.macro	hyp_ftrace_save reg
	stp	x29, x30, [sp, #-96]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	.ifnb	\reg
	stp	x8, \reg, [sp, #80]
	.else
	str	x8, [sp, #80]
	.endif
	.endm

/* Back from hyp_ftrace_save; x30 is left as it is, unless it is \reg. */
	.macro	hyp_ftrace_restore reg
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	.ifnb	\reg
	ldp	x8, \reg, [sp, #80]
	.else
	ldr	x8, [sp, #80]
	.endif
	ldr	x29, [sp], #96
	.endm

	.text

SYM_CODE_START(__hyp_ftrace_tramps)
	.rept	HYP_FTRACE_MAX_SITES
	mov	x9, x30
	bl	__hyp_ftrace_caller
	.endr
SYM_CODE_END(__hyp_ftrace_tramps)

/*
 * x30: the end of the trampoline, which says which function this is;
 * x9: the function's return address. hyp_ftrace_entry() gets both (the
 * second by reference, so that it can replace it), and the function's stack
 * pointer, and returns where the function goes on: the instruction after its
 * patch site.
 */
SYM_CODE_START(__hyp_ftrace_caller)
	hyp_ftrace_save x9

	mov	x0, x30
	add	x1, sp, #88
	add	x2, sp, #96
	bl	hyp_ftrace_entry
	mov	x16, x0

	hyp_ftrace_restore x30
	ret	x16
SYM_CODE_END(__hyp_ftrace_caller)

/*
 * Where a call whose return is traced returns: x0-x8 may hold its results.
 * hyp_ftrace_exit() gives the address it should have returned to.
 */
SYM_CODE_START(__hyp_ftrace_return)
	hyp_ftrace_save

	bl	hyp_ftrace_exit
	mov	x30, x0

	hyp_ftrace_restore
	ret
SYM_CODE_END(__hyp_ftrace_return)

/* What turns a hypervisor address into the kernel image's: kimg = va + it. */
SYM_FUNC_START(__hyp_ftrace_kimg_offset)
	mov	x0, xzr
	hyp_kimg_va x0, x1
	ret
SYM_FUNC_END(__hyp_ftrace_kimg_offset)
