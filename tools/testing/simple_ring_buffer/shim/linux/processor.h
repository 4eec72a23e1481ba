/* SPDX-License-Identifier: GPL-2.0 */
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
