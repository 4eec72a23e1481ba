/* SPDX-License-Identifier: GPL-2.0 */
/* Events of the test remote (remote_test.c). No include guard: see define_remote_events.h */

REMOTE_EVENT(selftest, 1,
	RE_STRUCT(
		re_field(u64, id)
	),
	RE_PRINTK("id=%llu", __entry->id)
);
