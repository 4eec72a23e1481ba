/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generate remote events from one definition.
 *
 * In a header without include guard, define each event with
 *
 *	REMOTE_EVENT(name, id,
 *		RE_STRUCT(
 *			re_field(u64, value)
 *			re_field(int, other)
 *		),
 *		RE_PRINTK("value=%llu other=%d", __entry->value, __entry->other)
 *	)
 *
 * (no semicolon after it: the definitions are also expanded inside an array
 * initializer),
 * then, in one C file of the kernel side:
 *
 *	#define REMOTE_EVENT_INCLUDE_FILE path/to/that_header.h
 *	#include <trace/define_remote_events.h>
 *
 * which gives, for each event, struct remote_event_format_<name> (the record:
 * struct remote_event_hdr, then the fields in C layout) and the constant
 * remote_event_id_<name>, and the array of struct remote_event for
 * trace_remote_register(), named REMOTE_EVENT_ARRAY if defined, remote_events
 * otherwise. A writer that only needs the records defines
 * REMOTE_EVENT_FORMAT_ONLY before the include.
 */
#include <linux/stringify.h>
#include <linux/trace_remote_event.h>

#ifndef REMOTE_EVENT_INCLUDE_FILE
#error "define REMOTE_EVENT_INCLUDE_FILE before including define_remote_events.h"
#endif

#define REMOTE_EVENT_INCLUDE(__file) __stringify(__file)

/*
 * RE_STRUCT() keeps its fields in parentheses so that they go through other
 * macros (HYP_EVENT, for one) as a single argument; __RE_UNPAREN drops them.
 */
#define __RE_UNPAREN(__fields...)	__fields

/* 1. The records. */
#undef REMOTE_EVENT
#undef RE_STRUCT
#undef re_field
#undef RE_PRINTK
#define re_field(__type, __name)	__type __name;
#define RE_STRUCT(__fields...)		(__fields)
#define RE_PRINTK(__fmt, __args...)
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	enum { remote_event_id_##__name = __id };			\
	struct remote_event_format_##__name {				\
		struct remote_event_hdr	hdr;				\
		__RE_UNPAREN __struct					\
	};
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)

#ifndef REMOTE_EVENT_FORMAT_ONLY
#include <linux/trace_seq.h>

/*
 * 2. The fields, with their real offsets (padding included). offsetof()
 * needs the record type, which re_field() is not given: a local typedef
 * inside a function per event provides it.
 */
#undef re_field
#undef REMOTE_EVENT
#define re_field(__type, __name)					\
	{								\
		.type = #__type, .name = #__name,			\
		.offset = offsetof(__re_struct, __name),		\
		.size = sizeof(__type),					\
		.align = __alignof__(__type),				\
		.is_signed = is_signed_type(__type),			\
	},
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	static const struct remote_event_field *			\
	remote_event_fields_##__name(unsigned int *nr)			\
	{								\
		typedef struct remote_event_format_##__name __re_struct; \
		static const struct remote_event_field fields[] = { __RE_UNPAREN __struct }; \
									\
		*nr = ARRAY_SIZE(fields);				\
		return fields;						\
	}
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)

/*
 * 3. The printers. __print_symbolic(value, { n, "name" }...) prints the name
 * of a value, and reads the same in the print format for tools.
 */
#undef re_field
#undef RE_PRINTK
#undef REMOTE_EVENT
#undef __print_symbolic
#define __print_symbolic(__val, __syms...)				\
({									\
	static const struct { unsigned long v; const char *n; } __s[] = { __syms }; \
	const char *__name = "?";					\
	unsigned int __i;						\
									\
	for (__i = 0; __i < ARRAY_SIZE(__s); __i++) {			\
		if (__s[__i].v == (__val)) {				\
			__name = __s[__i].n;				\
			break;						\
		}							\
	}								\
	__name;								\
})
#define re_field(__type, __name)
#define RE_PRINTK(__fmt, __args...)	trace_seq_printf(__seq, __fmt, ##__args)
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	static void remote_event_print_##__name(void *__rec, struct trace_seq *__seq) \
	{								\
		struct remote_event_format_##__name __maybe_unused *__entry = __rec; \
		__printk;						\
	}
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)

#undef __print_symbolic

/* 4. The events, as the array REMOTE_EVENT_ARRAY (default: remote_events). */
#ifndef REMOTE_EVENT_ARRAY
#define REMOTE_EVENT_ARRAY remote_events
#endif
#undef RE_PRINTK
#undef REMOTE_EVENT
#define __entry REC
#define RE_PRINTK(__fmt, __args...)	"\"" __fmt "\", " __stringify(__args)
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	{								\
		.name		= #__name,				\
		.id		= __id,					\
		.get_fields	= remote_event_fields_##__name,		\
		.print_fmt	= __printk,				\
		.print		= remote_event_print_##__name,		\
	},
static struct remote_event REMOTE_EVENT_ARRAY[] = {
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)
};
#undef __entry
#undef REMOTE_EVENT_ARRAY

#endif /* REMOTE_EVENT_FORMAT_ONLY */

#undef REMOTE_EVENT
#undef RE_STRUCT
#undef re_field
#undef RE_PRINTK
#undef REMOTE_EVENT_INCLUDE
#undef __RE_UNPAREN
