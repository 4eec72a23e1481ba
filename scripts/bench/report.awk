# SPDX-License-Identifier: GPL-2.0
# The report of make bench (scripts/bench.sh): reads what its guest runs
# printed and prints the figures and the target rows. Variables: unit
# (insns or ns) and mode (the KVM mode the figures were taken in).
$1 == "BENCH" { best[$2 "," $3] = $4; med[$2 "," $3] = $5 }
$1 == "BENCHL" { lbest[$2 "," $3] = $4 }
/rb_bench: .* ratio/ && /best:/ { sub(/.*ratio /, ""); ratio_clock = $1 }
/rb_bench: .*writers alone/ { sub(/.*ratio /, ""); ratio_writer = $1 }
/rb_bench: writer swap, [0-9]+ pages:/ {
	sub(/.*writer swap, /, ""); n = $1; sub(/.*after one page, /, ""); swap[n ",lap"] = $1
}
$1 == "RBENCH" { rd[$2 "," $3 "," $4] = $5 }
$1 == "LBENCH" { lb[$2 "," $3] = $4 }
$1 == "LBENCH1" { lb1[$2 "," $3] = $4 }
$1 ~ /^LBENCH1?$/ && $3 == "latency_ms_histogram" {
	h = $0; sub(/.*histogram /, "", h); hist[$1 "," $2] = h
}
$1 == "RECORD" { rec[$2] = $3 }
$1 == "FTRACE_EXIT" { fexit = fexit " " $2 "(" $3 ")" }
function flat(what, a, b, d) {
	d = a ? (b - a) * 100 / a : 0
	printf "  %-58s %10s  %-8s %s\n", what, sprintf("%d / %d", a, b),
		"+-10%", (d <= 10 && d >= -10) ? "met" : "NOT MET"
}
function marginal(r, lo, hi) { # insns per page between two load sizes (KiB)
	return (rd[r ",load," hi] - rd[r ",load," lo]) / ((hi - lo) / 4)
}
function target(what, v, goal, ok) {
	printf "  %-58s %10s  %-8s %s\n", what, v, goal, ok ? "met" : "NOT MET"
}
function side(what, ours, kernel, r, ok) {
	r = (kernel > 0) ? ours / kernel : 0
	ok = (kernel > 0 && r <= 0.5) ? "met" : "NOT MET"
	printf "  %-58s %10s  %-8s %s\n", what, sprintf("%d / %d = %.2f", ours, kernel, r),
		"<= 0.50", ok
}
# Ours against the kernel's tracers of boot @b (best figures).
function sides(b, fe, fr, ev) {
	side("one traced function, entry: func / function tracer", fe,
	     b["kcall,function"] - b["kcall,off"])
	side("entry and return: func + func_ret / function_graph", fr,
	     b["kcall,graph"] - b["kcall,off"])
	side("one event, u64 payload: EL2 event / kernel trace event", ev,
	     b["kevent,on"] - b["kevent,off"])
}
function pct(a, b) { return b ? sprintf("%+.1f%%", (a - b) * 100 / b) : "?" }
function line(k, what, v) {
	printf "  %-5s out %6s  disabled %6s (%6s vs out, other boot)  enabled %6s (%6s vs disabled)\n",
		what, v[k ",out"], v[k ",disabled"], pct(v[k ",disabled"], v[k ",out"]),
		v[k ",enabled"], pct(v[k ",enabled"], v[k ",disabled"])
}
END {
	print "== hypervisor tracing overhead, 9 runs each (enabled vs disabled: same boot)"
	print "host hypercall loop, " unit "/call:"
	line("hcall", "best", best); line("hcall", "median", med)
	print "guest HVC exit loop, " unit "/exit:"
	line("exit", "best", best); line("exit", "median", med)
	if ("hcall,nof_disabled" in best)
		printf "without function tracing (CONFIG_NVHE_EL2_FTRACE=n), tracing disabled, best: hcall %d, exit %d %s\n",
			best["hcall,nof_disabled"], best["exit,nof_disabled"], unit
	ev = best["event,on"] - best["event,off"]
	printf "one event at EL2 (write_event hypercall, selftest on minus off, %s): best %d, median %d\n",
		unit, ev, med["event,on"] - med["event,off"]
	if ("marker,off" in best)
		printf "guest marker call, answered at EL2 (%s/call): event off best %d, on best %d (the event: %d); a guest HVC answered by the host (exit loop, disabled): %d\n",
			unit, best["marker,off"], best["marker,on"],
			best["marker,on"] - best["marker,off"], best["exit,disabled"]
	fe = best["ftrace,func"] - best["ftrace,off"]
	fr = best["ftrace,funcret"] - best["ftrace,off"]
	if ("ftrace,off" in best) {
		printf "one traced hypervisor function (write_event handler, %s): entry (func) best %d, median %d; entry + return (func, func_ret) best %d, median %d\n",
			unit, fe, med["ftrace,func"] - med["ftrace,off"], fr,
			med["ftrace,funcret"] - med["ftrace,off"]
		printf "guest HVC exit loop, every hypervisor function traced (func, func_ret), %s/exit: best %d (%s vs disabled), median %d\n",
			unit, best["exit,ftrace_all"], pct(best["exit,ftrace_all"], best["exit,disabled"]),
			med["exit,ftrace_all"]
		printf "functions traced per guest exit:%s\n", fexit
	}
	if (unit != "insns")
		exit
	# Issue 11 targets, protected mode, instructions (best figures).
	site = (best["hcall,disabled"] - best["hcall,out"]) / 3
	exitpct = (best["exit,enabled"] - best["exit,out"]) * 100 / best["exit,out"]
	print "== targets (instructions; figure, target, verdict)"
	target("writer alone / kernel ring_buffer", ratio_writer, "<= 0.15", ratio_writer <= 0.15)
	target("writer with clock read / kernel ring_buffer", ratio_clock, "<= 0.25", ratio_clock <= 0.25)
	target("one enabled hypervisor event", ev, "<= 40", ev <= 40)
	target("disabled event site (hcall: 3 sites, disabled - out) / 3", sprintf("%.1f", site), "<= 3", site <= 3)
	target("hcall loop disabled - compiled out", best["hcall,disabled"] - best["hcall,out"], "<= 6",
	       best["hcall,disabled"] - best["hcall,out"] <= 6)
	# Five event sites off and the test of an HVC for the guest
	# marker, behind an indirect call: 14 before the marker.
	target("guest exit loop disabled - compiled out", best["exit,disabled"] - best["exit,out"],
	       "<= 30", best["exit,disabled"] - best["exit,out"] <= 30)
	exitgoal = mode == "nvhe" ? 13 : 8
	target("guest exit loop, hyp_enter/exit + vcpu_exit on, over out", sprintf("%+.1f%%", exitpct),
	       "<= " exitgoal "%", exitpct <= exitgoal)
	if ("ftrace,off" in best) {
		target("one traced hypervisor function entry (func)", fe, "<= 50", fe <= 50)
		target("one traced hypervisor function, entry and return", fr, "<= 120", fr <= 120)
		hn = best["hcall,disabled"] - best["hcall,nof_disabled"]
		en = best["exit,disabled"] - best["exit,nof_disabled"]
		target("hcall loop, no function traced - function tracing out", hn, "<= 2", hn <= 2)
		# The handlers of host hypercalls run their NOP: host_hcall[]
		# stays read-only (3129 against 3125 when it was made so).
		target("guest exit loop, no function traced - function tracing out", en, "<= 4", en <= 4)
	}
	if ("kcall,off" in best) {
		print "== side by side with the kernel tracers, same boot (instructions; ours, the kernel, ratio)"
		sides(best, fe, fr, ev)
	}
	if ("event,on" in lbest) {
		print "== the LLVM=1 kernel (Clang, kCFI, SCS, PAC, BTI, ThinLTO), same rows (instructions)"
		printf "  host hypercall loop: disabled %d, enabled %d; guest exit loop: disabled %d, enabled %d (%s)\n",
			lbest["hcall,disabled"], lbest["hcall,enabled"], lbest["exit,disabled"],
			lbest["exit,enabled"], pct(lbest["exit,enabled"], lbest["exit,disabled"])
		lev = lbest["event,on"] - lbest["event,off"]
		lfe = lbest["ftrace,func"] - lbest["ftrace,off"]
		lfr = lbest["ftrace,funcret"] - lbest["ftrace,off"]
		target("one enabled hypervisor event", lev, "<= 40", lev <= 40)
		target("one traced hypervisor function entry (func)", lfe, "<= 50", lfe <= 50)
		target("one traced hypervisor function, entry and return", lfr, "<= 120", lfr <= 120)
		sides(lbest, lfe, lfr, lev)
	}
	print "== reader costs, 3 pages per CPU / 4 MiB per CPU (instructions; same within 10 %)"
	flat("writer swap after the ring was overwritten 1.5 times", swap["3,lap"], swap["1025,lap"])
	for (i = 1; i <= 2; i++) {
		r = i == 1 ? "test" : "hypervisor"
		if (!((r ",page,8") in rd))
			continue
		flat(r ": trace_pipe_raw read of a page (swap + copy)", rd[r ",page,8"], rd[r ",page,4096"])
		flat(r ": trace_pipe_raw read after a lap", rd[r ",lap,8"], rd[r ",lap,4096"])
		flat(r ": trace_pipe, per event", rd[r ",event,8"], rd[r ",event,4096"])
		lo = marginal(r, 1024, 4096); hi = marginal(r, 4096, 16384)
		printf "  %-58s %10s  %-8s %s\n", r ": load, insns per page, 1-4 MiB / 4-16 MiB",
			sprintf("%d / %d", lo, hi), "linear", (hi - lo) * 100 / lo <= 25 ? "met (25 %)" : "NOT MET"
	}
	print "== trace_pipe reader in real time (TCG, poll_ms default; 1000 events, 1-10 ms apart)"
	for (i = 1; i <= 2; i++) {
		r = i == 1 ? "test" : "hypervisor"
		if (!((r ",latency_p99_us") in lb))
			continue
		printf "  %-58s %10s  %-8s %s\n", r ": write to visible, p50 / p99 (us), 2 vCPUs",
			lb[r ",latency_p50_us"] " / " lb[r ",latency_p99_us"], "p99<=10ms",
			lb[r ",latency_p99_us"] <= 10000 && !lb[r ",latency_events_missing"] ? "met" : "NOT MET"
		if ((r ",latency_p99_us") in lb1)
			printf "  %-58s %10s  %-8s %s\n", r ": write to visible, p50 / p99 (us), 1 vCPU",
				lb1[r ",latency_p50_us"] " / " lb1[r ",latency_p99_us"], "p99<=10ms",
				lb1[r ",latency_p99_us"] <= 10000 && !lb1[r ",latency_events_missing"] ? "met" : "NOT MET"
		printf "    events per latency (ms), 2 vCPUs: %s\n", hist["LBENCH," r]
		printf "    events per latency (ms), 1 vCPU:  %s\n", hist["LBENCH1," r]
		printf "  %-58s %10s\n", r ": first event after the idle part (us), 2 / 1 vCPUs",
			lb[r ",latency_first_after_idle_us"] " / " lb1[r ",latency_first_after_idle_us"]
		printf "  %-58s %10s  %-8s %s\n", r ": blocked reader idle, its wakeups/s",
			lb[r ",idle_reader_wakeups_per_s"], "0", lb[r ",idle_reader_wakeups_per_s"] == 0 ? "met" : "NOT MET"
		printf "  %-58s %10s  %-8s %s\n", r ": blocked reader idle, system switches/s (none open)",
			lb[r ",idle_ctxt_per_s_blocked_reader"] " (" lb[r ",idle_ctxt_per_s_no_reader"] ")", "same",
			lb[r ",idle_ctxt_per_s_blocked_reader"] - lb[r ",idle_ctxt_per_s_no_reader"] <= 1 ? "met" : "NOT MET"
	}
	if ("written" in rec) {
		printf "  %-58s %10s  %-8s %s\n", "hypervisor: trace-cmd record, 1 MiB, 4-vCPU exit loop: lost",
			rec["lost"] " / " rec["written"], "0", rec["lost"] == 0 && rec["lost_lines"] == 0 ? "met" : "NOT MET"
		printf "  %-58s %10s  (%s s; %s events in the report)\n",
			"  events/s per CPU " (rec["lost"] ? "drained while losing" : "kept up with"),
			rec["rate_per_cpu"], rec["seconds"], rec["reported"]
	}
}
