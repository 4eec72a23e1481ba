/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events of trace remotes: what the kernel knows about the records a remote
 * writes. Use include/trace/define_remote_events.h to generate them from
 * REMOTE_EVENT() definitions.
 */
#ifndef _LINUX_TRACE_REMOTE_EVENT_H
#define _LINUX_TRACE_REMOTE_EVENT_H

#include <linux/types.h>

struct trace_seq;

/**
 * struct remote_event_hdr - Header of every record a remote writes
 * @id:		The event id (common_type).
 * @flags:	0 (common_flags).
 * @preempt_count: 0 (common_preempt_count).
 * @pid:	0 (common_pid).
 *
 * Laid out as struct trace_entry, the kernel's own event header: tools
 * that decode trace_pipe_raw take the common fields of every event from the
 * first format they read, and need them all. A remote runs no task of the host and has
 * no interrupt state or preemption count to record: they are 0.
 */
struct remote_event_hdr {
	unsigned short	id;
	unsigned char	flags;
	unsigned char	preempt_count;
	int		pid;
};

/*
 * The header of a record of event @__id, all of it: one 8-byte store for
 * a constant id.
 */
#define REMOTE_EVENT_HDR(__id)	((struct remote_event_hdr){ .id = (__id) })

/**
 * struct remote_event_field - One field of a remote event record
 * @type:	C type, as written in the definition.
 * @name:	Field name.
 * @offset:	Offset in the record, header included.
 * @size:	sizeof() the field.
 * @align:	__alignof__() the field.
 * @is_signed:	Whether the type is signed.
 */
struct remote_event_field {
	const char	*type;
	const char	*name;
	unsigned int	offset;
	unsigned int	size;
	unsigned int	align;
	bool		is_signed;
};

/**
 * struct remote_event - An event a remote can write
 * @name:	Event name, unique in its remote.
 * @id:		Event id in the record header.
 * @get_fields: Returns the record's fields after the header and their number.
 * @fields:	Set from @get_fields at registration.
 * @nr_fields:	Number of @fields.
 * @print_fmt:	The print format, as shown in the "format" file.
 * @print:	Prints a record's fields.
 * @enabled:	Whether the remote was told to write it.
 */
struct remote_event {
	const char				*name;
	unsigned short				id;
	const struct remote_event_field		*(*get_fields)(unsigned int *nr);
	const struct remote_event_field		*fields;
	unsigned int				nr_fields;
	const char				*print_fmt;
	void					(*print)(void *rec, struct trace_seq *seq);
	bool					enabled;
};

/*
 * The fields of a record, in RE_STRUCT(re_field(type, name)...), an array
 * of a literal length in re_array(type, name, len). RE_STRUCT()
 * keeps them in parentheses, so that they pass through other macros as one
 * argument; __RE_UNPAREN drops them.
 */
#define re_field(__type, __name)	__type __name;
#define re_array(__type, __name, __len)	__type __name[__len];
#define RE_STRUCT(__fields...)		(__fields)
#define __RE_UNPAREN(__fields...)	__fields

/**
 * REMOTE_EVENT_FORMAT() - Declare the record of a remote event
 * @__name:	Event name.
 * @__struct:	RE_STRUCT() of its fields.
 *
 * Declares struct remote_event_format_<__name>: struct remote_event_hdr,
 * then the fields in C layout. This is all a writer needs.
 */
#define REMOTE_EVENT_FORMAT(__name, __struct)				\
	struct remote_event_format_##__name {				\
		struct remote_event_hdr	hdr;				\
		__RE_UNPAREN __struct					\
	}

#endif /* _LINUX_TRACE_REMOTE_EVENT_H */
