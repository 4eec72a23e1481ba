/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_BITS_H
#define _SHIM_LINUX_BITS_H
#define BIT_ULL(nr)	(1ULL << (nr))
#endif
