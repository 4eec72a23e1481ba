/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: kernel memory-model primitives on top of the C11 builtins. */
#ifndef _SHIM_LINUX_ATOMIC_H
#define _SHIM_LINUX_ATOMIC_H
#include <linux/types.h>

#define READ_ONCE(x)		(__atomic_load_n(&(x), __ATOMIC_RELAXED))
#define WRITE_ONCE(x, v)	(__atomic_store_n(&(x), (v), __ATOMIC_RELAXED))
/*
 * The builtins below carry their own ordering. With SHIM_RELEASE_HOOK, a
 * test may look at memory right after each release store: what a reader
 * may see from then on.
 */
#ifdef SHIM_RELEASE_HOOK
__attribute__((weak)) void (*shim_release_hook)(const void *p);
#define smp_store_release(p, v) do {					\
	__atomic_store_n((p), (v), __ATOMIC_RELEASE);			\
	if (shim_release_hook)						\
		shim_release_hook(p);					\
} while (0)
#else
#define smp_store_release(p, v)	(__atomic_store_n((p), (v), __ATOMIC_RELEASE))
#endif
#define smp_load_acquire(p)	(__atomic_load_n((p), __ATOMIC_ACQUIRE))
#define smp_rmb()		(__atomic_thread_fence(__ATOMIC_ACQUIRE))
#define smp_wmb()		(__atomic_thread_fence(__ATOMIC_RELEASE))
#define __shim_cmpxchg(ptr, o, n, order) ({				\
	__typeof__(*(ptr)) __old = (o);					\
	__atomic_compare_exchange_n((ptr), &__old, (n), false,		\
				    (order), (order));			\
	__old;								\
})
#define cmpxchg(ptr, o, n)	__shim_cmpxchg(ptr, o, n, __ATOMIC_SEQ_CST)
#define cmpxchg_acquire(ptr, o, n)	__shim_cmpxchg(ptr, o, n, __ATOMIC_ACQUIRE)
#endif
