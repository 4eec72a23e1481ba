/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trampolines of hypervisor function tracing (see ftrace.c).
 *
 * A traced function's first instruction branches (B, not BL) to its own
 * trampoline: x30 still holds the function's return address, x0-x8 its
 * arguments, and x9-x17, temporaries of the procedure call standard, are
 * free. The trampoline loads the function's patch site and goes on to
 * __hyp_ftrace_caller.
 *
 * The func and func_ret events are written here with x9-x17 alone, saving
 * nothing and calling nothing, in the case simple_ring_buffer's reserve
 * has inline: the buffer ready, the event on the page being written, less
 * than 2^27 clock units after the previous one. Every other case, the
 * clock to convert again included, goes to the C functions of ftrace.c,
 * which the fast path reaches having changed nothing: the buffer is given
 * back before. A big-endian kernel, or one without LSE atomics, always
 * takes them. The records are those of trace_func() and trace_func_ret().
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

/* Call \func(x10, &x30, sp) with x0-x8 and x30 kept, and go where it says. */
	.macro	hyp_ftrace_call func
	hyp_ftrace_save x30
	mov	x0, x10
	add	x1, sp, #88
	add	x2, sp, #96
	bl	\func
	mov	x16, x0
	hyp_ftrace_restore x30
	ret	x16
	.endm

/* Set the flags as cmp \new, #HYP_FTRACE_DATA_SIZE; \new is \old + \size. */
	.macro	hyp_ftrace_cmp_data new, old, size
#if HYP_FTRACE_DATA_SIZE < 4096
	cmp	\new, #HYP_FTRACE_DATA_SIZE
#else
	mov	\old, #HYP_FTRACE_DATA_SIZE
	cmp	\new, \old
	sub	\old, \new, #\size
#endif
	.endm

/*
 * Take this CPU's buffer (x12), from \ready = READY to \writing =
 * WRITING, or go to \slow.
 */
	.macro	hyp_ftrace_take ready, writing, slow
#ifdef CONFIG_ARM64_LSE_ATOMICS
alternative_if ARM64_HAS_LSE_ATOMICS
	casa	\ready, \writing, [x12]
alternative_else
	b	\slow
alternative_endif
#else
	b	\slow
#endif
	tbz	\ready, #HYP_FTRACE_RB_READY_BIT, \slow
	.endm

/*
 * The time stamp, as hyp_trace_clock(), in \now, with x12 this CPU's
 * struct hyp_trace_cpu; \a, \b, \c, \d are clobbered.
 */
	.macro	hyp_ftrace_clock now, a, b, c, d, slow
	ldp	\a, \b, [x12, #HYP_FTRACE_TC_MULT]
	ldp	\c, \d, [x12, #HYP_FTRACE_TC_EPOCH]
	mrs	\now, cntpct_el0
	cbz	\a, \slow
	sub	\now, \now, \c
	lsl	\now, \now, \b
	smulh	\now, \now, \a
	add	\now, \now, \d
	.endm

/*
 * The func event of the function whose site is x10, called from x30; to
 * \slow before the buffer is taken, to \release after. Leaves x12 this
 * CPU's struct hyp_trace_cpu and x15 the function's kernel image address,
 * and x13 the event's time stamp unless \tmp is x13.
 */
	.macro	hyp_ftrace_func slow, release, tmp
	adr_this_cpu x12, hyp_trace_cpu, x13
	hyp_ftrace_clock x13, x14, x15, x16, x17, \slow
	mov	w14, #HYP_FTRACE_RB_READY
	mov	w15, #HYP_FTRACE_RB_WRITING
	hyp_ftrace_take w14, w15, \slow

	/* x9: write offset, x15: delta, x16: &commit, x17: meta. */
	ldp	x9, x15, [x12, #HYP_FTRACE_TC_TAIL_WRITE]
	ldp	x16, x17, [x12, #HYP_FTRACE_TC_TAIL_COMMIT]
	sub	x15, x13, x15
	add	x11, x9, #HYP_FTRACE_FUNC_SIZE
	tst	x15, #~((1 << HYP_FTRACE_TS_SHIFT) - 1)
	b.ne	\release
	hyp_ftrace_cmp_data x11, x9, HYP_FTRACE_FUNC_SIZE
	b.hi	\release

	/* The event follows the page's commit field: header, id, ip, parent. */
	stp	x11, x13, [x12, #HYP_FTRACE_TC_TAIL_WRITE]
	add	x9, x16, x9
	lsl	x15, x15, #5
	movk	x15, #HYP_FTRACE_FUNC_LEN, lsl #32
	mov	\tmp, #HYP_FTRACE_EVENT_FUNC
	stp	x15, \tmp, [x9, #8]
	adrp	x15, hyp_ftrace_kimg_off
	ldr	x15, [x15, #:lo12:hyp_ftrace_kimg_off]
	add	\tmp, x30, x15
	add	x15, x10, x15
	stp	x15, \tmp, [x9, #24]

	/* Commit: the count, the page's commit, then the buffer back. */
	ldr	x9, [x17, #HYP_FTRACE_META_ENTRIES]
	add	x9, x9, #1
	str	x9, [x17, #HYP_FTRACE_META_ENTRIES]
	stlr	x11, [x16]
	.ifc	\tmp, x14
	mov	w14, #HYP_FTRACE_RB_READY
	.endif
	stlr	w14, [x12]
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
 * x10: the function's patch site; x30: its return address. Returns to the
 * instruction after the site, having written the func event, and, with
 * func_ret on, made the call return through __hyp_ftrace_return.
 */
SYM_CODE_START(__hyp_ftrace_caller)
#ifdef CONFIG_CPU_BIG_ENDIAN
	b	.Lentry_slow
#endif
	/* func | func_ret << 32, each 0 or 1. */
	adrp	x11, hyp_trace_events
	ldr	x11, [x11, #:lo12:hyp_trace_events + HYP_FTRACE_EVENT_FUNC * 4]
	tbnz	x11, #32, .Lwith_ret
	cbz	x11, .Lentry_done
	hyp_ftrace_func .Lentry_slow, .Lentry_release, x13
.Lentry_done:
	add	x16, x10, #HYP_FTRACE_INSN_SIZE
	ret	x16

.Lwith_ret:
	tbz	x11, #0, .Lentry_slow
	hyp_ftrace_func .Lentry_slow, .Lentry_release, x14

	/*
	 * Push the call on the return stack, frame[depth] at x9 + FRAME, but
	 * to hyp_ftrace_hook_return() if the frame below it is not a running
	 * call's (its stack pointer is not above this one).
	 */
	ldr	w11, [x12, #HYP_FTRACE_TC_RET_DEPTH]
	add	x9, x12, x11, lsl #5
	cbz	w11, 1f
	ldr	x16, [x9, #HYP_FTRACE_TC_RET_FRAME - 32 + 8]
	cmp	sp, x16
	b.hs	.Lentry_hook
	cmp	w11, #HYP_FTRACE_RET_DEPTH
	b.eq	.Lentry_done
1:	mov	x16, sp
	stp	x30, x16, [x9, #HYP_FTRACE_TC_RET_FRAME]
	stp	x15, x13, [x9, #HYP_FTRACE_TC_RET_FRAME + 16]
	add	w11, w11, #1
	str	w11, [x12, #HYP_FTRACE_TC_RET_DEPTH]
	adr	x30, __hyp_ftrace_return
	add	x16, x10, #HYP_FTRACE_INSN_SIZE
	ret	x16

.Lentry_release:
	stlr	w14, [x12]
.Lentry_slow:
	hyp_ftrace_call hyp_ftrace_entry
.Lentry_hook:
	hyp_ftrace_call hyp_ftrace_hook_return
SYM_CODE_END(__hyp_ftrace_caller)

/*
 * Where a call whose return is traced returns: x0-x8 may hold its results,
 * x9-x17 and x30 are free. Writes the func_ret event of frame[depth - 1],
 * pops it and returns where the call should have.
 */
SYM_CODE_START(__hyp_ftrace_return)
	adr_this_cpu x12, hyp_trace_cpu, x13
	ldr	w11, [x12, #HYP_FTRACE_TC_RET_DEPTH]
	sub	w11, w11, #1
	cmp	w11, #HYP_FTRACE_RET_DEPTH
	b.hs	.Lexit_slow
	/* frame[depth - 1] at x15 + FRAME: ret, sp, ip, calltime. */
	add	x15, x12, x11, lsl #5
#ifdef CONFIG_CPU_BIG_ENDIAN
	b	.Lexit_slow
#endif
	adrp	x14, hyp_trace_events
	ldr	w14, [x14, #:lo12:hyp_trace_events + (HYP_FTRACE_EVENT_FUNC + 1) * 4]
	cbz	w14, .Lexit_pop

	/* A new conversion from the host may step the clock back. */
	hyp_ftrace_clock x13, x14, x16, x17, x10, .Lexit_slow
	ldr	x17, [x15, #HYP_FTRACE_TC_RET_FRAME + 24]
	cmp	x13, x17
	csel	x13, x13, x17, hi
	mov	w30, #HYP_FTRACE_RB_READY
	mov	w10, #HYP_FTRACE_RB_WRITING
	hyp_ftrace_take w30, w10, .Lexit_slow

	/* x9: write offset, x10: delta, x14: &commit, x16: meta. */
	ldp	x9, x10, [x12, #HYP_FTRACE_TC_TAIL_WRITE]
	ldp	x14, x16, [x12, #HYP_FTRACE_TC_TAIL_COMMIT]
	sub	x10, x13, x10
	add	x17, x9, #HYP_FTRACE_RET_SIZE
	tst	x10, #~((1 << HYP_FTRACE_TS_SHIFT) - 1)
	b.ne	.Lexit_release
	hyp_ftrace_cmp_data x17, x9, HYP_FTRACE_RET_SIZE
	b.hi	.Lexit_release

	/* Header, id, ip, calltime, rettime, depth (with the padding). */
	stp	x17, x13, [x12, #HYP_FTRACE_TC_TAIL_WRITE]
	add	x9, x14, x9
	stp	x13, x11, [x9, #40]
	str	w11, [x12, #HYP_FTRACE_TC_RET_DEPTH]
	lsl	x10, x10, #5
	movk	x10, #HYP_FTRACE_RET_LEN, lsl #32
	mov	x13, #HYP_FTRACE_EVENT_FUNC + 1
	stp	x10, x13, [x9, #8]
	ldp	x10, x13, [x15, #HYP_FTRACE_TC_RET_FRAME + 16]
	stp	x10, x13, [x9, #24]

	ldr	x13, [x16, #HYP_FTRACE_META_ENTRIES]
	add	x13, x13, #1
	str	x13, [x16, #HYP_FTRACE_META_ENTRIES]
	stlr	x17, [x14]
	stlr	w30, [x12]
	ldr	x30, [x15, #HYP_FTRACE_TC_RET_FRAME]
	ret

.Lexit_pop:
	str	w11, [x12, #HYP_FTRACE_TC_RET_DEPTH]
	ldr	x30, [x15, #HYP_FTRACE_TC_RET_FRAME]
	ret

.Lexit_release:
	stlr	w30, [x12]
.Lexit_slow:
	/* What the call returned to: the frame record says it, as it should. */
	adr	x30, __hyp_ftrace_return
	hyp_ftrace_save

	bl	hyp_ftrace_exit
	mov	x30, x0

	hyp_ftrace_restore
	ret
SYM_CODE_END(__hyp_ftrace_return)
