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

exec unshare -m sh -c '
	mount --make-rprivate / 2> /dev/null || true
	mount --bind "$1" "$2" || exit 1
	shift 2
	exec trace-cmd record "$@"' trace-remote-record "$dir" "$tracefs" "$@"
