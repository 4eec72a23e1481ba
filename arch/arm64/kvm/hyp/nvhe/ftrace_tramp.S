/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trampolines of hypervisor function tracing (see ftrace.c).
 *
 * A traced function's first instruction branches (B, not BL) to its own
 * trampoline: x30 still holds the function's return address, x0-x8 its
 * arguments, and x9-x17, temporaries of the procedure call standard, are
 * free. The trampoline loads the function's patch site and goes on to
 * __hyp_ftrace_caller.
 */

#include <linux/linkage.h>

#include <asm/alternative.h>
#include <asm/assembler.h>
#include <asm/kvm_hypftrace.h>
#include <asm/kvm_mmu.h>

#include <nvhe/ftrace.h>

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

#ifdef CONFIG_ARM64_LSE_ATOMICS
	.arch_extension lse
#endif

	.text

SYM_CODE_START(__hyp_ftrace_tramps)
	.set	.Li, 0
	.rept	HYP_FTRACE_MAX_SITES
	adrp	x10, __hyp_ftrace_sites + .Li * 8
	ldr	x10, [x10, #:lo12:__hyp_ftrace_sites + .Li * 8]
	b	__hyp_ftrace_caller
	.set	.Li, .Li + 1
	.endr
SYM_CODE_END(__hyp_ftrace_tramps)

/*
 * x10: the function's patch site; x30: its return address. While func is
 * on and func_ret off, the func event is written here, with x9-x17 only:
 * nothing is saved, nothing called. The record is that of trace_func()
 * (struct remote_event_format_func) and the reservation that of
 * simple_ring_buffer_reserve_event(), for the case it has inline: the
 * buffer ready, the event on the page being written, less than 2^27 clock
 * units after the previous one. Everything else, the clock to convert
 * again included, is hyp_ftrace_entry()'s, which gets the site, the
 * address of the return address (so that it can replace it) and the
 * function's stack pointer, and returns where the function goes on: the
 * instruction after its patch site.
 */
SYM_CODE_START(__hyp_ftrace_caller)
#ifdef CONFIG_CPU_BIG_ENDIAN
	b	.Lslow
#endif
	/* func | func_ret << 32: 1 for func alone. */
	adrp	x11, hyp_trace_events
	ldr	x11, [x11, #:lo12:hyp_trace_events + HYP_FTRACE_EVENT_FUNC * 4]
	cmp	x11, #1
	b.ne	.Lnot_func_only

	/* The time stamp, as hyp_trace_clock(). */
	adr_this_cpu x12, hyp_trace_cpu, x13
	ldp	x14, x15, [x12, #HYP_FTRACE_TC_MULT]
	ldp	x16, x17, [x12, #HYP_FTRACE_TC_EPOCH]
	mrs	x13, cntpct_el0
	cbz	x14, .Lslow
	sub	x13, x13, x16
	lsl	x13, x13, x15
	smulh	x13, x13, x14
	add	x13, x13, x17

	/* Take the buffer: READY to WRITING. */
	mov	w14, #HYP_FTRACE_RB_READY
	mov	w15, #HYP_FTRACE_RB_WRITING
alternative_if ARM64_HAS_LSE_ATOMICS
	casa	w14, w15, [x12]
alternative_else
	b	.Lslow
alternative_endif
	tbz	w14, #HYP_FTRACE_RB_READY_BIT, .Lslow

	/* x9: write offset, x15: delta, x16: &commit, x17: meta. */
	ldp	x9, x15, [x12, #HYP_FTRACE_TC_TAIL_WRITE]
	ldp	x16, x17, [x12, #HYP_FTRACE_TC_TAIL_COMMIT]
	sub	x15, x13, x15
	add	x11, x9, #HYP_FTRACE_FUNC_SIZE
	tst	x15, #~(HYP_FTRACE_TS_MAX - 1)
	b.ne	.Lrelease
#if HYP_FTRACE_DATA_SIZE < 4096
	cmp	x11, #HYP_FTRACE_DATA_SIZE
#else
	mov	x9, #HYP_FTRACE_DATA_SIZE
	cmp	x11, x9
	sub	x9, x11, #HYP_FTRACE_FUNC_SIZE
#endif
	b.hi	.Lrelease

	/* The event follows the page's commit field: header, id, ip, parent. */
	stp	x11, x13, [x12, #HYP_FTRACE_TC_TAIL_WRITE]
	add	x9, x16, x9
	lsl	x15, x15, #5
	orr	x15, x15, #(HYP_FTRACE_FUNC_LEN << 32)
	mov	x13, #HYP_FTRACE_EVENT_FUNC
	stp	x15, x13, [x9, #8]
	adrp	x15, hyp_ftrace_kimg_off
	ldr	x15, [x15, #:lo12:hyp_ftrace_kimg_off]
	add	x13, x30, x15
	add	x15, x10, x15
	stp	x15, x13, [x9, #24]

	/* Commit: the count, the page's commit, then the buffer back. */
	ldr	x13, [x17, #HYP_FTRACE_META_ENTRIES]
	add	x13, x13, #1
	str	x13, [x17, #HYP_FTRACE_META_ENTRIES]
	stlr	x11, [x16]
	stlr	w14, [x12]
.Lreturn:
	add	x16, x10, #HYP_FTRACE_INSN_SIZE
	ret	x16

.Lnot_func_only:
	cbz	x11, .Lreturn
	b	.Lslow
.Lrelease:
	/* No event written: the buffer goes back as it was. */
	stlr	w14, [x12]
.Lslow:
	hyp_ftrace_save x30

	mov	x0, x10
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
