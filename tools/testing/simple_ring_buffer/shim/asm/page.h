/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PAGE_SIZE
#define PAGE_SIZE 4096UL
#endif
