#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hyp-stat, built with ASan and UBSan, over 2000 mutations (fixed seed) of
# pieces of real text (scripts/tests/hyp-stat-corpus: the remote's trace and trace-cmd
# report -t of a guest's run): bytes changed, inserted, lines repeated,
# dropped and moved, time stamps moved; and "record" over 200 tracefs
# stand-ins whose trace_pipe_raw pages (hyp-stat-corpus/remote, real ones)
# have bytes changed, headers included; and "report" of 100 trace.dat files
# (hyp-stat-corpus/hyp.dat.gz: trace-remote-record of hyp_workload -v 2 -r 1
# -c 2 -s 1 -w 1 in protected mode, made uncompressed with trace-cmd convert
# --compression none) with bytes changed, which libtracecmd may also refuse
# (exit 1, "libtracecmd cannot read it"). Each must give no sanitizer report,
# exit 0, a timeline that is strict UTF-8 JSON with no negative duration and
# no overlap on a track, and a report with no share over 100 % and no time
# beyond the input's.
set -euo pipefail
SRC=${SRC:-build/linux}
CASES=${CASES:-2000}
BIN_CASES=${BIN_CASES:-200}
DAT_CASES=${DAT_CASES:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Wall -Wextra -Werror \
	-o "$tmp/hyp-stat" "$SRC"/tools/tracing/hyp-stat/*.c \
	$(pkg-config --cflags --libs libtracecmd libtracefs libtraceevent)
# libtracefs keeps what its constructor allocates until exit.
echo 'leak:libtracefs.so' > "$tmp/lsan.supp"
export LSAN_OPTIONS=suppressions=$tmp/lsan.supp
gzip -dc scripts/tests/hyp-stat-corpus/hyp.dat.gz > "$tmp/hyp.dat"
python3 - "$tmp" "$CASES" "$BIN_CASES" "$DAT_CASES" scripts/tests/hyp-stat-corpus/*.txt <<'EOF2'
import concurrent.futures, json, os, random, re, shutil, subprocess, sys, threading

tmp, cases, bin_cases, dat_cases = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
seeds = sys.argv[5:]
corpus = [open(f, "rb").read().split(b"\n") for f in seeds]
rng = random.Random(34)
specials = b'"\\\x00\x01\x1f\x7f\x80\xbf\xc3\xe2\xed\xf4\xff[]:= \t.-'

def stamp(m):
    return b"%d.%06d" % (rng.randrange(10), rng.randrange(10 ** 6))

def mutate(lines):
    lines = list(lines)
    for _ in range(rng.randint(1, 12)):
        if not lines:
            break
        j = rng.randrange(len(lines))
        op = rng.randrange(7)
        line = bytearray(lines[j])
        if op == 0 and line:
            line[rng.randrange(len(line))] = rng.randrange(256)
        elif op == 1:
            at = rng.randrange(len(line) + 1)
            line[at:at] = bytes([rng.choice(specials)]) * rng.choice((1, 1, 2, 300, 5000))
        elif op == 2:
            lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
            continue
        elif op == 3:
            line = bytearray(re.sub(rb"\d+\.\d+", stamp, bytes(line), count=1))
        elif op == 4:
            del lines[j]
            continue
        elif op == 5:
            k = rng.randrange(len(lines))
            lines[j], lines[k] = lines[k], lines[j]
            continue
        else:
            line = bytearray(re.sub(rb"\d+", lambda m: b"%d" % rng.choice(
                (0, -1, 2 ** 31, 2 ** 63, 2 ** 64 + 1, 4095)), bytes(line), count=1))
        lines[j] = bytes(line)
    return b"\n".join(lines)

env = {"ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "print_stacktrace=1"}

def check(p, json_path, limit):
    if p.returncode or p.stderr:
        return "exit %d: %s" % (p.returncode, p.stderr[-300:])
    try:
        ev = json.loads(open(json_path, "rb").read().decode("utf-8"))["traceEvents"]
        tracks = {}
        for e in ev:
            if e["ph"] == "X":
                assert e["dur"] >= 0, e
                tracks.setdefault((e["pid"], e["tid"]), []).append(e)
        for k, v in tracks.items():
            v.sort(key=lambda e: e["ts"])
            for a, b in zip(v, v[1:]):
                assert a["ts"] + a["dur"] <= b["ts"] + 1e-6, ("overlap", k, a, b)
        out = p.stdout.decode("utf-8", "replace")
        for m in re.finditer(r"([0-9.]+)%", out):
            assert float(m.group(1)) <= 100.0, m.group(0)
        # No figure beyond what the input's time stamps can span.
        for m in re.finditer(r"\d+\.\d{3}\b", out):
            assert float(m.group(0)) < limit, m.group(0)
    except Exception as e:
        return repr(e)[:300]
    return None

def run(case):
    json_path = "%s/t%d.json" % (tmp, threading.get_ident())
    p = subprocess.run([tmp + "/hyp-stat", "report", "--timeline", json_path],
                       input=inputs[case], capture_output=True, env=env)
    # Text: time stamps of at most 10 s, with 9 or 10 digits changed.
    return check(p, json_path, 1.9e13)

# A tracefs stand-in: the remote's files, its pages with bytes changed.
remote = "scripts/tests/hyp-stat-corpus/remote"
pages = [open("%s/per_cpu/cpu%d/trace_pipe_raw" % (remote, c), "rb").read() for c in (0, 1)]

def standin(case):
    d = "%s/fs%d/remotes/hypervisor" % (tmp, case)
    shutil.copytree(remote, d)
    for f in ("tracing_on", "trace", "buffer_size_kb", "events/enable",
              "events/hypervisor/enable"):
        open("%s/%s" % (d, f), "w").close()
    for e in os.listdir(d + "/events/hypervisor"):
        if os.path.isdir("%s/events/hypervisor/%s" % (d, e)):
            open("%s/events/hypervisor/%s/enable" % (d, e), "w").close()
    for c, page in enumerate(pages):
        b = bytearray(page)
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.choice((0, 0xff, rng.randrange(256)))
        open("%s/per_cpu/cpu%d/trace_pipe_raw" % (d, c), "wb").write(b)

def run_bin(case):
    fs = "%s/fs%d" % (tmp, case)
    p = subprocess.run([tmp + "/hyp-stat", "record", "-t", fs, "-k", remote + "/kallsyms",
                        "--timeline", fs + "/t.json", "--", "true"],
                       capture_output=True, env=env)
    # Binary: any 64-bit ns time stamp; nothing wraps.
    why = check(p, fs + "/t.json", 2 ** 64 / 1e3)
    if not why:
        shutil.rmtree(fs)
    return why

# A trace.dat with bytes changed, through libtracecmd.
dat = open(tmp + "/hyp.dat", "rb").read()

def run_dat(case):
    path = "%s/d%d.dat" % (tmp, case)
    b = bytearray(dat)
    for _ in range(dat_rng[case].randint(1, 20)):
        b[dat_rng[case].randrange(len(b))] = dat_rng[case].randrange(256)
    open(path, "wb").write(b)
    # libtracecmd allocates what a size field says: a huge one fails, as
    # malloc() would without ASan, rather than abort.
    p = subprocess.run([tmp + "/hyp-stat", "report", "--timeline", path + ".json", path],
                       capture_output=True,
                       env=dict(env, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"))
    err = re.sub(rb"==\d+==WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]+ bytes\n",
                 b"", p.stderr)
    if p.returncode == 1 and re.fullmatch(rb"hyp-stat: \S+: libtracecmd cannot read it\n", err):
        why = None
    else:
        why = check(p, path + ".json", 2 ** 64 / 1e3)
    if not why:
        os.remove(path)
    return why

inputs = []
for case in range(cases):
    lines = rng.choice(corpus)
    at = rng.randrange(len(lines))
    inputs.append(mutate(lines[at:at + rng.choice((20, 80, 300))] or lines))

failed = 0
# A case per CPU at a time.
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
    for case, why in enumerate(pool.map(run, range(cases))):
        if why:
            failed += 1
            open("%s/case%d" % (tmp, case), "wb").write(inputs[case])
            print("case %d: %s" % (case, why))
for case in range(bin_cases):
    standin(case)
# record waits for quiet polls: four at a time.
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    for case, why in enumerate(pool.map(run_bin, range(bin_cases))):
        if why:
            failed += 1
            print("binary case %d: %s" % (case, why))
dat_rng = [random.Random(rng.random()) for _ in range(dat_cases)]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
    for case, why in enumerate(pool.map(run_dat, range(dat_cases))):
        if why:
            failed += 1
            print("trace.dat case %d: %s" % (case, why))
print("%d cases, %d binary, %d trace.dat, %d failed" % (cases, bin_cases, dat_cases, failed))
sys.exit(1 if failed else 0)
EOF2
