#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# trace-remote-record[.sh] REMOTE [trace-cmd record arguments]
#
# Record the trace remote /sys/kernel/tracing/remotes/REMOTE (for example
# "hypervisor") with an unmodified trace-cmd: in a private mount namespace
# the remote's directory is bind-mounted over the tracing directory, where
# trace-cmd finds everything it reads from a tracing directory (tracing_on,
# trace, buffer_size_kb, trace_clock, events/header_page, header_event,
# events/*/*/{enable,id,format,filter}, per_cpu/cpuN/trace_pipe_raw), and
# the formats it copies into trace.dat are the remote's own.
#
#   trace-remote-record hypervisor -e hypervisor -o hyp.dat hyp_workload
#   trace-cmd report -i hyp.dat
#
# A command given to trace-cmd runs in that namespace too: there,
# /sys/kernel/tracing is the remote. Needs root, unshare(1) and mount(8).
#
# A remote's time stamps are in nanoseconds of the host's boot clock. So
# that "trace-cmd report" prints them in seconds, as for any trace, the
# recording gets a TSC2NSEC option of multiplier 1: trace-cmd (3.1) prints
# raw the time stamps of clocks it does not know to count nanoseconds, the
# boot clock among them, unless the file says how to convert them. This
# script adds the option itself: libtracecmd installs only its reading
# interface, and trace-cmd record --tsc2nsec takes the multiplier of
# perf's counter conversion (for x86-tsc), not 1.
set -eu

usage() {
	echo "usage: ${0##*/} REMOTE [trace-cmd record arguments]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
remote=$1
shift
case $remote in
''|*/*|.|..) usage ;;
esac

tracefs=${TRACEFS:-/sys/kernel/tracing}
dir=$tracefs/remotes/$remote
if [ ! -d "$dir" ]; then
	echo "${0##*/}: no trace remote '$remote' in $tracefs/remotes/" >&2
	exit 1
fi

# The little-endian unsigned integer of $3 bytes at offset $2 of file $1.
le() {
	od -An -v -tu1 -j "$2" -N "$3" "$1" |
		awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
		     END { for (i = n - 1; i >= 0; i--) v = v * 256 + b[i]; printf "%.0f\n", v }'
}

# $2 as $3 little-endian bytes.
le_bytes() {
	i=0
	while [ $i -lt $2 ]; do
		printf "\\$(printf %o $(($1 >> (8 * i) & 255)))"
		i=$((i + 1))
	done
}

# Add the option to $1, a version 7 trace.dat: a last options section,
# linked from the DONE option that ends the chain so far. Any other file
# is left as it is.
ts_in_ns() {
	f=$1
	[ "$(od -An -c -j 10 -N 3 "$f" | tr -d ' ')" = '7\0\0' ] || return 1
	# After the magic, "7", the endianness (0: little), the long and page
	# sizes: the compression's name and version, then the first options.
	off=18
	for i in 1 2; do
		while [ "$(le "$f" $off 1)" != 0 ]; do off=$((off + 1)); done
		off=$((off + 1))
	done
	sec=$(le "$f" $off 8)
	size=$(wc -c < "$f")
	while :; do
		# Section: id 0 (options), flags 0 (not compressed), description,
		# size; then options: id (2 bytes), size (4), data.
		[ "$(le "$f" $sec 4)" = 0 ] || return 1
		desc=$(le "$f" $((sec + 4)) 4)
		end=$((sec + 16 + $(le "$f" $((sec + 8)) 8)))
		o=$((sec + 16))
		next=
		while [ $o -lt $end ]; do
			id=$(le "$f" $o 2)
			len=$(le "$f" $((o + 2)) 4)
			# TSC2NSEC already there: nothing to do.
			[ "$id" != 14 ] || return 0
			if [ "$id" = 0 ]; then
				next=$(le "$f" $((o + 6)) 8)
				break
			fi
			o=$((o + 6 + len))
		done
		[ -n "$next" ] && [ "$next" -lt "$size" ] || return 1
		[ "$next" != 0 ] || break
		# Forward only: a file that loops is not one trace-cmd wrote.
		[ "$next" -gt "$sec" ] || return 1
		sec=$next
	done
	# The new section first, then the link to it: never a dangling one.
	{
		le_bytes 0 4; le_bytes "$desc" 4; le_bytes 36 8
		# TSC2NSEC: multiplier 1, shift 0, offset 0. DONE: no more.
		le_bytes 14 2; le_bytes 16 4; le_bytes 1 4; le_bytes 0 4; le_bytes 0 8
		le_bytes 0 2; le_bytes 8 4; le_bytes 0 8
	} >> "$f"
	le_bytes "$size" 8 | dd of="$f" bs=1 seek=$((o + 6)) conv=notrunc 2> /dev/null
}

# trace-cmd record's output file: "-o FILE" among its options, before the
# command; and where the command starts ($cmd arguments come before it),
# unless an option this does not know makes that unsure ($sure=0).
out=trace.dat
prev=
cmd=0
sure=1
for a in "$@"; do
	case $prev in
	-o) out=$a ;;
	-[efApCOsrVglnPNbRBmMH]) ;;
	--max-graph-depth|--module|--name|--user|--temp|--proxy) ;;
	--file-version|--compression|--cmdlines-size|--tsync-interval|--ts-offset) ;;
	*)
		case $a in
		-o?*) out=${a#-o} ;;
		--) cmd=$((cmd + 1)); break ;;
		--date|--no-filter|--by-comm|--nosplice|--debug|--poll|--quiet|--fork) ;;
		--verbose|--verbose=*) ;;
		--max-graph-depth|--module|--name|--user|--temp|--proxy) ;;
		--file-version|--compression|--cmdlines-size|--tsync-interval|--ts-offset) ;;
		--*) sure=0 ;;
		-?) ;;
		-*) sure=0 ;;	# -qo FILE: which letters take a value?
		*) break ;;
		esac
		;;
	esac
	prev=$a
	cmd=$((cmd + 1))
done

# trace-cmd forks one recorder per CPU, then the command, without waiting
# for the recorders to start. When the command is over, it stops them with
# SIGUSR1: a recorder that has not started by then records nothing ("0
# bytes"; a short command on a busy machine). So the command first waits,
# ten seconds at most, until each of its live siblings (the recorders:
# trace-cmd's other children) has its trace_pipe_raw open. Tracing is on
# meanwhile. This narrows the window rather than closing it: a recorder
# may still be between its open and its loop. Not done when an option this
# script does not know hides where the command starts.
wait_recorders='
stat_of() { state=$1 ppid=$2; }
end=$(($(date +%s) + 10))
while [ $(date +%s) -lt $end ]; do
	ready=1
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" != $$ ] || continue
		read -r stat 2> /dev/null < $p/stat || continue
		stat_of ${stat##*) }
		[ "$ppid" = $PPID ] && [ "$state" != Z ] || continue
		# Not ours to look at (trace-cmd --user): do not wait for it.
		fds=$(ls -l $p/fd 2> /dev/null) || continue
		echo "$fds" | grep -q "/trace_pipe_raw$" || ready=0
	done
	[ $ready = 0 ] || break
	sleep 0.01
done'
if [ $sure = 1 ] && [ $cmd -lt $# ]; then
	i=0
	for a in "$@"; do
		[ $i != 0 ] || set --
		[ $i != $cmd ] || set -- "$@" sh -c "$wait_recorders"'
exec "$@"' trace-remote-record
		set -- "$@" "$a"
		i=$((i + 1))
	done
fi

# trace-cmd empties the function tracing lists when it ends, as it does the
# kernel's: those of a remote that has them are set again afterwards.
saved=
for f in set_ftrace_filter set_ftrace_notrace; do
	[ -w "$dir/$f" ] || continue
	[ -n "$saved" ] || saved=$(mktemp -d)
	cat "$dir/$f" > "$saved/$f"
done

# ^C stops the recording (trace-cmd writes the file) and not this script.
trap : INT TERM
status=0
unshare -m sh -c '
	mount --make-rprivate / 2> /dev/null || true
	mount --bind "$1" "$2" || exit 1
	shift 2
	exec trace-cmd record "$@"' trace-remote-record "$dir" "$tracefs" "$@" || status=$?
if [ -n "$saved" ]; then
	for f in "$saved"/*; do
		cat "$f" > "$dir/${f##*/}" || status=1
	done
	rm -rf "$saved"
fi
if [ $status = 0 ] && [ -f "$out" ] && ! ts_in_ns "$out"; then
	echo "${0##*/}: $out: not a trace.dat of version 7, time stamps stay in ns" >&2
fi
exit $status
