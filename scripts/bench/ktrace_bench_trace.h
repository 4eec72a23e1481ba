/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel trace event of ktrace_bench.c: the payload of the hypervisor's selftest. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktrace_bench

#if !defined(_KTRACE_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KTRACE_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(ktrace_bench,
	TP_PROTO(u64 id),
	TP_ARGS(id),
	TP_STRUCT__entry(
		__field(u64, id)
	),
	TP_fast_assign(
		__entry->id = id;
	),
	TP_printk("id=%llu", __entry->id)
);

#endif /* _KTRACE_BENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ktrace_bench_trace
#include <trace/define_trace.h>
