#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftrace-check.sh OBJDUMP READELF OBJ ROOT...
#
# Fail if a function the hypervisor's function tracer may run (the ROOTs and
# everything they call, directly or not) has a patch site: tracing it would
# recurse. OBJ is the partially linked hypervisor (kvm_nvhe.tmp.o). An
# indirect call from one of them fails too: where it goes cannot be checked.
#
# Fail also if .hyp.text holds data (a $d mapping symbol): the hypervisor
# reads every word of its text as an instruction when it looks for the calls
# to its functions, and could take data for a call and rewrite it.

set -e
objdump=$1
readelf=$2
obj=$3
shift 3

if $readelf -sW "$obj" | awk -v sec="$($readelf -SW "$obj" |
	sed -n 's/^ *\[ *\([0-9]*\)\] \.hyp\.text .*/\1/p')" '
	$7 == sec && $8 ~ /^\$d/ { found = 1 } END { exit !found }'; then
	echo "hypervisor function tracer: data in .hyp.text" >&2
	exit 1
fi

{
	$readelf -rW "$obj" | awk '
		/^Relocation section/ { in_sites = ($3 == "'"'"'.rela.hyp.ftrace_sites'"'"'") }
		in_sites && $3 == "R_AARCH64_ABS64" && $5 == ".hyp.text" { print "site", $7 }'
	$objdump -h -j .hyp.text "$obj" | awk '$2 == ".hyp.text" { print "vma", $4 }'
	$objdump -dr -j .hyp.text "$obj"
} | awk -v roots="$*" '
	function hex(s,    i, n, c) {
		n = 0
		s = tolower(s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1))
			n = n * 16 + c - 1
		}
		return n
	}
	function fail(msg) {
		print "hypervisor function tracer: " msg > "/dev/stderr"
		bad = 1
	}
	$1 == "site" { site[hex($2)] = 1; next }
	$1 == "vma" { vma = hex($2); next }
	/^[0-9a-f]+ <[^>]+>:$/ {
		fn = substr($2, 2, length($2) - 3)
		start[fn] = hex($1) - vma
		next
	}
	fn == "" { next }
	/R_AARCH64_(CALL|JUMP)26/ { call[fn] = call[fn] " " $3; next }
	$3 == "blr" || $3 == "br" { indirect[fn] = 1; next }
	($3 == "bl" || $3 == "b") && $5 ~ /^<[^+]+>$/ {
		call[fn] = call[fn] " " substr($5, 2, length($5) - 2)
	}
	END {
		n = split(roots, todo, " ")
		for (i = 1; i <= n; i++) {
			seen[todo[i]] = 1
			from[todo[i]] = "(root)"
		}
		bad = 0
		for (i = 1; i <= n; i++) {
			f = todo[i]
			if (f in start && (site[start[f]] || site[start[f] + 4]))
				fail("calls " f " (from " from[f] "), which has a patch site")
			if (indirect[f])
				fail("indirect call in " f)
			m = split(call[f], c, " ")
			for (j = 1; j <= m; j++) {
				if (c[j] in seen)
					continue
				seen[c[j]] = 1
				from[c[j]] = f
				todo[++n] = c[j]
			}
		}
		exit bad
	}'
