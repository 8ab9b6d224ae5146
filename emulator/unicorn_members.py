#!/usr/bin/env python3
"""Picks the members of Debian's libunicorn.a that the executor's QEMU targets
need, for liblinklab-unicorn.so.

The archive holds all 16 of Unicorn's targets; the dynamic loader relocates
every pointer table in the library as the executor starts (64,000 relative
relocations, a copy-on-write page fault each page, ~7 ms of a hello world's
start-up on a VM). A member belongs to the targets whose suffix its global
symbols, defined or referenced, carry (tcg_gen_code_riscv64); one that
belongs only to targets not kept is left out, and the references the kept
ones make to those (uc_open's dispatch on the architecture) are defined as
0, unreachable since the executor opens only the targets kept.

Usage: unicorn_members.py ARCHIVE NM OUTDIR TARGET...
Writes the members kept to OUTDIR and OUTDIR/link.rsp, the linker arguments
(members, then -Wl,--defsym for each reference to a target left out).
"""
import os
import re
import subprocess
import sys


def members(archive):
    """(name, bytes) of each member of a GNU ar archive, in order."""
    data = open(archive, "rb").read()
    if data[:8] != b"!<arch>\n":
        sys.exit(f"{archive}: not an ar archive")
    pos, long_names = 8, b""
    while pos + 60 <= len(data):
        header = data[pos:pos + 60]
        name, size = header[:16].decode().strip(), int(header[48:58])
        body = data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name in ("/", "/SYM64/"):
            continue
        if name == "//":
            long_names = body
            continue
        if name.startswith("/"):
            start = int(name[1:])
            name = long_names[start:long_names.index(b"/", start)].decode()
        yield name.rstrip("/"), body


def symbols(archive, nm):
    """Per member, in order: (defined globals, undefined symbols)."""
    out = subprocess.run([nm, archive], capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        if line.endswith(":") and " " not in line:
            result.append((set(), set()))
            continue
        fields = line.split()
        if not result or len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        if kind == "U":
            result[-1][1].add(name)
        elif kind.isupper():
            result[-1][0].add(name)
    return result


def main():
    archive, nm, outdir, *keep = sys.argv[1:]
    syms = symbols(archive, nm)
    # Every target compiles TCG's code generator under its own suffix.
    targets = {m.group(1) for defined, _ in syms for s in defined if (m := re.fullmatch(r"tcg_gen_code_(\w+)", s))}
    if missing := set(keep) - targets:
        sys.exit(f"{archive}: no Unicorn target named {', '.join(sorted(missing))} (it has {', '.join(sorted(targets))})")
    dropped = targets - set(keep)
    suffix = re.compile(r"_(" + "|".join(sorted(targets, key=len, reverse=True)) + r")$")
    os.makedirs(outdir, exist_ok=True)
    objects, kept_defs, kept_undefs, dropped_defs = [], set(), set(), set()
    for i, ((name, body), (defined, undefined)) in enumerate(zip(members(archive), syms, strict=True)):
        owners = {m.group(1) for s in defined | undefined if (m := suffix.search(s))}
        if owners and owners <= dropped:
            dropped_defs |= defined
            continue
        path = os.path.join(outdir, f"{i:03d}-{name}")
        with open(path, "wb") as f:
            f.write(body)
        objects.append(path)
        kept_defs |= defined
        kept_undefs |= undefined
    unreachable = sorted((kept_undefs - kept_defs) & dropped_defs)
    with open(os.path.join(outdir, "link.rsp"), "w") as f:
        f.write("\n".join(objects + [f"-Wl,--defsym={s}=0" for s in unreachable]) + "\n")


if __name__ == "__main__":
    main()
