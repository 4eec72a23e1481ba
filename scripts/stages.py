#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Earlier versions of the added files that grow over several mails.

patches/mails names "PATH@STAGE" in a mail before the one that brings PATH
itself.  The repository keeps only PATH as it is; each stage is kept as
patches/stages/STAGE/PATH.diff, the change from that stage to the file's
next version (the next stage, or PATH itself): what the next mail adds to
PATH.  A stage is made by undoing those diffs, newest first, from PATH.

  stages.py list               PATH STAGE pairs, oldest stage first
  stages.py extract DIR        write every stage to DIR/STAGE/PATH
  stages.py save DIR           write the diffs from the stages in DIR
  stages.py count              lines in patches/stages/

To change a stage: extract to a directory, edit the files there, save.
When an edit of PATH no longer lets a diff apply, extract from the last
commit (GIT_REV=HEAD stages.py extract DIR), edit, and save.
"""
import os
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


def unapply(newer, diff, what):
    """The version before the change DIFF made to NEWER (bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "newer")
        out = os.path.join(tmp, "older")
        patch = os.path.join(tmp, "diff")
        with open(src, "wb") as f:
            f.write(newer)
        with open(patch, "wb") as f:
            f.write(diff)
        r = subprocess.run(["patch", "-R", "-t", "-F0", "-s", "-r", "-",
                            "--no-backup-if-mismatch", "-o", out, src, patch],
                           capture_output=True, text=True)
        if r.returncode:
            die("%s does not apply (undone) to the next version:\n%s%s"
                % (what, r.stdout, r.stderr))
        with open(out, "rb") as f:
            return f.read()


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
            r = subprocess.run(["diff", "-u", "--label", "a/" + path,
                                "--label", "b/" + path, chain[i], chain[i + 1]],
                               capture_output=True)
            if r.returncode > 1:
                die(r.stderr.decode())
            d = diff_path(stage, path)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            with open(d, "wb") as f:
                f.write(r.stdout)


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
