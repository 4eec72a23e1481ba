#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftrace-check.sh OBJDUMP READELF OBJ ROOT...
#
# Fail if a function the hypervisor's function tracer may run (the ROOTs and
# everything they call, directly or not) has a patch site: tracing it would
# recurse. OBJ is the partially linked hypervisor (kvm_nvhe.tmp.o). An
# indirect call from one of them fails too: where it goes cannot be checked.
# A ROOT that is not a function of OBJ fails, as a misspelt one would
# otherwise check nothing.
#
# GNU and LLVM binutils both: the instructions are read without their
# encoding (--no-show-raw-insn), where the two print the same fields.

set -e
objdump=$1
readelf=$2
obj=$3
shift 3

{
	$readelf -rW "$obj" | awk '
		/^Relocation section/ { in_sites = ($3 == "'"'"'.rela.hyp.ftrace_sites'"'"'") }
		in_sites && $3 == "R_AARCH64_ABS64" && $5 == ".hyp.text" { print "site", $7 }'
	$objdump -h -j .hyp.text "$obj" | awk '$2 == ".hyp.text" { print "vma", $4 }'
	$objdump -dr --no-show-raw-insn -j .hyp.text "$obj"
} | awk -v roots="$*" '
	function hex(s,    i, n, c) {
		n = 0
		s = tolower(s)
		sub(/^0x/, "", s)
		sub(/:$/, "", s)
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
	$2 == "blr" || $2 == "br" { indirect[fn] = 1; next }
	($2 == "bl" || $2 == "b") && $4 ~ /^<[^+]+>$/ {
		call[fn] = call[fn] " " substr($4, 2, length($4) - 2)
	}
	END {
		bad = 0
		n = split(roots, todo, " ")
		for (i = 1; i <= n; i++) {
			seen[todo[i]] = 1
			from[todo[i]] = "(root)"
			if (!(todo[i] in start))
				fail("no function " todo[i])
		}
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
