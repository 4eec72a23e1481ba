/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events of the nVHE/pKVM hypervisor, shown in remotes/hypervisor/.
 * No include guard: see include/trace/define_remote_events.h
 */

REMOTE_EVENT(selftest, 1,
	RE_STRUCT(
		re_field(u64, id)
	),
	RE_PRINTK("id=%llu", __entry->id)
)
