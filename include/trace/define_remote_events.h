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
 *			re_array(char, text, 16)
 *		),
 *		RE_PRINTK("value=%llu other=%d", __entry->value, __entry->other)
 *	);
 *
 * then, in one C file of the kernel side:
 *
 *	#define REMOTE_EVENT_INCLUDE_FILE path/to/that_header.h
 *	#include <trace/define_remote_events.h>
 *
 * which gives, for each event, struct remote_event_format_<name> (see
 * REMOTE_EVENT_FORMAT()), the constant remote_event_id_<name> and
 * struct remote_event remote_event_<name>, for trace_remote_register().
 * If REMOTE_EVENT_SECTION names a section, the events are placed there, one
 * after the other, and can be registered as one array.
 */
#include <linux/stringify.h>
#include <linux/trace_remote_event.h>
#include <linux/trace_seq.h>

#ifndef REMOTE_EVENT_INCLUDE_FILE
#error "define REMOTE_EVENT_INCLUDE_FILE before including define_remote_events.h"
#endif

#define REMOTE_EVENT_INCLUDE(__file) __stringify(__file)

#ifdef REMOTE_EVENT_SECTION
#define __REMOTE_EVENT_ATTRS						\
	__used __section(REMOTE_EVENT_SECTION)				\
	__aligned(__alignof__(struct remote_event))
#else
#define __REMOTE_EVENT_ATTRS
#endif

/* 1. The records. */
#undef REMOTE_EVENT
#undef RE_PRINTK
#define RE_PRINTK(__fmt, __args...)
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	enum { remote_event_id_##__name = __id };			\
	REMOTE_EVENT_FORMAT(__name, __struct)
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)

/*
 * 2. The fields, with their real offsets (padding included), and the
 * printers. offsetof() needs the record type, which re_field() is not
 * given: a local typedef provides it. __print_symbolic(value, { n, "name" }...)
 * prints the name of a value, and reads the same in the print format.
 */
#undef re_field
#undef re_array
#undef RE_PRINTK
#undef REMOTE_EVENT
#undef __print_symbolic
#define re_array(__type, __name, __len)					\
	{								\
		.type = #__type, .name = #__name "[" #__len "]",	\
		.offset = offsetof(__re_struct, __name),		\
		.size = sizeof(__type) * (__len),			\
		.align = __alignof__(__type),				\
		.is_signed = is_signed_type(__type),			\
	},
#define re_field(__type, __name)					\
	{								\
		.type = #__type, .name = #__name,			\
		.offset = offsetof(__re_struct, __name),		\
		.size = sizeof(__type),					\
		.align = __alignof__(__type),				\
		.is_signed = is_signed_type(__type),			\
	},
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
#define RE_PRINTK(__fmt, __args...)	trace_seq_printf(__seq, __fmt, ##__args)
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	static const struct remote_event_field *			\
	remote_event_fields_##__name(unsigned int *nr)			\
	{								\
		typedef struct remote_event_format_##__name __re_struct; \
		static const struct remote_event_field fields[] = { __RE_UNPAREN __struct }; \
									\
		*nr = ARRAY_SIZE(fields);				\
		return fields;						\
	}								\
	static void remote_event_print_##__name(void *__rec, struct trace_seq *__seq) \
	{								\
		struct remote_event_format_##__name __maybe_unused *__entry = __rec; \
		__printk;						\
	}								\
	static_assert((__id) == (unsigned short)(__id))
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)

/* 3. The events. */
#undef re_field
#undef re_array
#undef RE_PRINTK
#undef REMOTE_EVENT
#undef __print_symbolic
#define re_field(__type, __name)	__type __name;
#define re_array(__type, __name, __len)	__type __name[__len];
#define __entry REC
#define RE_PRINTK(__fmt, __args...)	"\"" __fmt "\", " __stringify(__args)
#define REMOTE_EVENT(__name, __id, __struct, __printk)		\
	static struct remote_event __REMOTE_EVENT_ATTRS remote_event_##__name = { \
		.name		= #__name,				\
		.id		= __id,					\
		.get_fields	= remote_event_fields_##__name,		\
		.print_fmt	= __printk,				\
		.print		= remote_event_print_##__name,		\
	}
#include REMOTE_EVENT_INCLUDE(REMOTE_EVENT_INCLUDE_FILE)
#undef __entry

#undef REMOTE_EVENT
#undef RE_PRINTK
#undef REMOTE_EVENT_INCLUDE
#undef __REMOTE_EVENT_ATTRS
