/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the C library's errno values are the kernel's. */
#include_next <linux/errno.h>
