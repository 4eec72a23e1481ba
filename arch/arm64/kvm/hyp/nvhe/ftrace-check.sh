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
# Fail also if .hyp.text holds data (a $d mapping symbol), but for the kCFI
# type hash, one word right before a function: the hypervisor reads every
# word of its text as an instruction when it looks for the calls to its
# functions, and could take data for a call and rewrite it. A type hash
# that reads as a branch to a function with a patch site fails too.
#
# GNU and LLVM binutils both: the instructions are read without their
# encoding (--no-show-raw-insn), where the two print the same fields.

set -e
objdump=$1
readelf=$2
obj=$3
shift 3

sec=$($readelf -SW "$obj" | sed -n 's/^ *\[ *\([0-9]*\)\] \.hyp\.text .*/\1/p')
{
	$readelf -sW "$obj" | awk -v sec="$sec" '
		$7 == sec && $8 ~ /^\$[dx]/ { print "map", $2, substr($8, 2, 1) }
		$7 == sec && $4 == "FUNC" { print "func", $2 }'
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
	# Where a B or BL encoded as @w, at @pc, goes; -1 if it is neither.
	function branch_to(w, pc,    op, imm) {
		op = int(w / 67108864)
		if (op != 5 && op != 37)
			return -1
		imm = w % 67108864
		if (imm >= 33554432)
			imm -= 67108864
		return pc + imm * 4
	}
	$1 == "map" { map[hex($2)] = $3; next }
	$1 == "func" { func_at[hex($2)] = 1; next }
	$1 == "site" { site[hex($2)] = 1; next }
	$1 == "vma" { vma = hex($2); next }
	/^[0-9a-f]+ <[^>]+>:$/ {
		fn = substr($2, 2, length($2) - 3)
		start[fn] = hex($1) - vma
		next
	}
	fn == "" { next }
	/R_AARCH64_(CALL|JUMP)26/ { call[fn] = call[fn] " " $3; next }
	# LLVM prints the bytes of data whatever the option: the word is last.
	$NF ~ /^0x/ && $(NF - 1) == ".word" { word[hex($1) - vma] = hex($NF); next }
	$2 == "blr" || $2 == "br" { indirect[fn] = 1; next }
	($2 == "bl" || $2 == "b") && $4 ~ /^<[^+]+>$/ {
		call[fn] = call[fn] " " substr($4, 2, length($4) - 2)
	}
	END {
		bad = 0
		# A data run goes from its $d to the next mapping symbol.
		n = 0
		for (a in map)
			addrs[++n] = a + 0
		for (i = 2; i <= n; i++) {
			a = addrs[i]
			for (j = i - 1; j >= 1 && addrs[j] > a; j--)
				addrs[j + 1] = addrs[j]
			addrs[j + 1] = a
		}
		for (i = 1; i <= n; i++) {
			a = addrs[i]
			if (map[a] != "d")
				continue
			if (i == n || addrs[i + 1] != a + 4 || !((a + 4) in func_at)) {
				fail(sprintf("data in .hyp.text at 0x%x", a))
				continue
			}
			to = (a in word) ? branch_to(word[a], a) : -1
			if (to >= 0 && (site[to] || site[to + 4] || site[to - 4]))
				fail(sprintf("type hash at 0x%x reads as a call to a patch site",
					     a))
		}
		m = split(roots, todo, " ")
		for (i = 1; i <= m; i++) {
			seen[todo[i]] = 1
			from[todo[i]] = "(root)"
			if (!(todo[i] in start))
				fail("no function " todo[i])
		}
		for (i = 1; i <= m; i++) {
			f = todo[i]
			if (f in start && (site[start[f]] || site[start[f] + 4]))
				fail("calls " f " (from " from[f] "), which has a patch site")
			if (indirect[f])
				fail("indirect call in " f)
			k = split(call[f], c, " ")
			for (j = 1; j <= k; j++) {
				if (c[j] in seen)
					continue
				seen[c[j]] = 1
				from[c[j]] = f
				todo[++m] = c[j]
			}
		}
		exit bad
	}'
