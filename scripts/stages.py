#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Earlier versions of the added files that grow over several mails.

patches/mails names "PATH@STAGE" in a mail before the one that brings PATH
itself.  The repository keeps only PATH as it is; each stage is kept as
patches/stages/STAGE/PATH.diff, the change from that stage to the file's
next version (the next stage, or PATH itself): what the next mail adds to
PATH.  A stage is made by undoing those diffs, newest first, from PATH.

In a C file, the definitions the next mail adds whole are named rather than
spelled out: "Drop: NAME..." lines before the diff take out of the next
version each top-level block (a definition with the comment above it,
ending at a blank line) whose name they give, and the diff does the rest.
An edit inside such a definition then never reaches the stage.

  stages.py list               PATH STAGE pairs, oldest stage first
  stages.py extract DIR        write every stage to DIR/STAGE/PATH
  stages.py save DIR           write the diffs from the stages in DIR
  stages.py count              lines in patches/stages/

To change a stage: extract to a directory, edit the files there, save.
When an edit of PATH no longer lets a diff apply, extract from the last
commit (GIT_REV=HEAD stages.py extract DIR), edit, and save.
"""
import os
import re
import subprocess
import sys
import tempfile


def die(msg):
    sys.stderr.write("stages: %s\n" % msg)
    sys.exit(1)


def staged_files():
    """{PATH: [STAGE, ...]} in patches/mails order."""
    files = {}
    with open("patches/mails") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("== "):
                continue
            item = line.split()[0]
            if "@" in item and not item.endswith(".patch"):
                path, stage = item.rsplit("@", 1)
                files.setdefault(path, []).append(stage)
    return files


C_FILE = re.compile(r"\.[ch]$")
KEYS = [re.compile(p) for p in (
    r"#define (\w+)", r".*?(\w+)(?:\[\w*\])? = \{", r"struct (\w+) \{",
    r"(?:DEFINE_\w+|LIST_HEAD|module_param\w*|MODULE_PARM_DESC|EXPORT_SYMBOL\w*)\((\w+)",
    r".*?(\w+)\(", r".*?(\w+);")]


def c_blocks(lines):
    """[(name, first, end)] of the top-level blocks of a C file's lines."""
    out = []
    depth = 0
    first = None
    for i, line in enumerate(lines + [b""]):
        if depth == 0 and not line.strip():
            if first is not None:
                out.append((block_name(lines[first:i]), first, i))
                first = None
            continue
        if first is None:
            first = i
        depth += line.count(b"{") - line.count(b"}")
    return out


def block_name(block):
    for line in block:
        text = line.decode(errors="replace")
        if re.match(r"\s*(/\*|\*|//)", text):
            continue
        for key in KEYS:
            m = key.match(text)
            if m:
                return m.group(1)
        # A return type on a line of its own: the name is on the next.
        if not re.search(r"\*\s*$", text):
            return None
    return None


def drop_blocks(data, names):
    """@data without its blocks named in @names, and the blank lines after them."""
    lines = data.split(b"\n")
    blocks = c_blocks(lines)
    found = {n for n, _, _ in blocks}
    missing = set(names) - found
    if missing:
        return None, sorted(missing)
    cut = set()
    for i, (name, first, end) in enumerate(blocks):
        if name in names:
            nxt = blocks[i + 1][1] if i + 1 < len(blocks) else len(lines)
            cut.update(range(first, nxt))
    return b"\n".join(l for i, l in enumerate(lines) if i not in cut), []


def droppable(older, newer):
    """Names of the blocks @newer has and @older has not (each name once)."""
    old_names = {n for n, _, _ in c_blocks(older.split(b"\n"))}
    names = [n for n, _, _ in c_blocks(newer.split(b"\n"))]
    return [n for i, n in enumerate(names)
            if n and n not in old_names and n not in names[:i]]


def diff_path(stage, path):
    return os.path.join("patches/stages", stage, path + ".diff")


def read_file(path, rev):
    if rev:
        r = subprocess.run(["git", "show", "%s:%s" % (rev, path)],
                           capture_output=True)
        if r.returncode:
            die("%s is not in %s" % (path, rev))
        return r.stdout
    with open(path, "rb") as f:
        return f.read()


def run_on(cmd, *datas):
    """Run @cmd + [files holding @datas] in a scratch directory."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, data in enumerate(datas):
            paths.append(os.path.join(tmp, str(i)))
            with open(paths[-1], "wb") as f:
                f.write(data)
        out = os.path.join(tmp, "out")
        r = subprocess.run([c.replace("OUT", out) for c in cmd] + paths,
                           capture_output=True)
        data = None
        if os.path.exists(out):
            with open(out, "rb") as f:
                data = f.read()
        return r, data


def unapply(newer, diff, what):
    """The version before the change DIFF made to NEWER (bytes)."""
    names = []
    for line in diff.split(b"\n"):
        if line.startswith(b"--- "):
            break
        if line.startswith(b"Drop: "):
            names += line[6:].decode().split()
    if names:
        newer, missing = drop_blocks(newer, names)
        if missing:
            die("%s drops what the next version does not have: %s"
                % (what, " ".join(missing)))
    if b"\n--- " not in b"\n" + diff:
        return newer
    r, older = run_on(["patch", "-R", "-t", "-F0", "-s", "-r", "-",
                       "--no-backup-if-mismatch", "-o", "OUT"], newer, diff)
    if r.returncode:
        die("%s does not apply (undone) to the next version:\n%s%s"
            % (what, r.stdout.decode(), r.stderr.decode()))
    return older


def versions(path, stages, rev):
    """[(STAGE, bytes)] oldest first, made from PATH and the diffs."""
    cur = read_file(path, rev)
    out = []
    for stage in reversed(stages):
        d = diff_path(stage, path)
        diff = read_file(d, rev)
        cur = unapply(cur, diff, d)
        out.append((stage, cur))
    return list(reversed(out))


def cmd_extract(outdir):
    rev = os.environ.get("GIT_REV")
    for path, stages in staged_files().items():
        for stage, data in versions(path, stages, rev):
            dst = os.path.join(outdir, stage, path)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "wb") as f:
                f.write(data)


def cmd_save(indir):
    for path, stages in staged_files().items():
        chain = [os.path.join(indir, s, path) for s in stages] + [path]
        for i, stage in enumerate(stages):
            if not os.path.isfile(chain[i]):
                die("%s: no such file" % chain[i])
            with open(chain[i], "rb") as f:
                older = f.read()
            with open(chain[i + 1], "rb") as f:
                newer = f.read()
            head = b""
            if C_FILE.search(path):
                names = droppable(older, newer)
                newer = drop_blocks(newer, names)[0]
                line = "Drop:"
                for n in names:
                    if len(line) + len(n) >= 80:
                        head += line.encode() + b"\n"
                        line = "Drop:"
                    line += " " + n
                if names:
                    head += line.encode() + b"\n"
            r, _ = run_on(["diff", "-u", "--label", "a/" + path,
                           "--label", "b/" + path], older, newer)
            if r.returncode > 1:
                die(r.stderr.decode())
            d = diff_path(stage, path)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            with open(d, "wb") as f:
                f.write(head + r.stdout)


def cmd_list():
    for path, stages in staged_files().items():
        for s in stages:
            print(path, s)


def cmd_count():
    n = 0
    for root, _, names in os.walk("patches/stages"):
        for name in names:
            with open(os.path.join(root, name), "rb") as f:
                n += f.read().count(b"\n")
    print(n)


def main():
    args = sys.argv[1:]
    if args == ["list"]:
        cmd_list()
    elif args == ["count"]:
        cmd_count()
    elif len(args) == 2 and args[0] == "extract":
        cmd_extract(args[1])
    elif len(args) == 2 and args[0] == "save":
        cmd_save(args[1])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
