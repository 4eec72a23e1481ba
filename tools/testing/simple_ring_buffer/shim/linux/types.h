/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the kernel types simple_ring_buffer.c uses. */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;

#define __aligned(x)	__attribute__((aligned(x)))
/* From linux/compiler.h, which the kernel's headers pull in (glibc has the first). */
#include <sys/cdefs.h>
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
