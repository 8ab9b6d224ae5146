#!/usr/bin/env python3
"""Rewrites a -show-graphs dump so two linkers' dumps compare equal when
they differ only where llvm-jitlink's order is a hash order:

- GOT entries, stubs and $__TLSINFO entries are blocks of one size at no
  address before layout, which JITLink lays out in hash order: each such block's address is replaced
  everywhere by a name made of what it points to (GOT[ext_fn],
  STUBS[...GOT[ext_fn]...]), its rows keep only their offsets in the block,
  and the blocks are sorted;
- lines of one symbol or edge list at the same address, and the absolute and
  external symbol lists, are sorted.

Usage: canon_dump.py < dump > canonical-dump
"""
import re
import sys

TABLES = ["$__GOT", "$__STUBS", "$__TLSINFO"]  # stubs point at GOT entries: GOT first


def split_sections(lines):
    """[(header line or None, [lines])]: the text before, each section, the lists after."""
    parts, cur = [], (None, [])
    for line in lines:
        if line.startswith("section ") or line in ("Absolute symbols:", "External symbols:"):
            parts.append(cur)
            cur = (line, [])
        else:
            cur[1].append(line)
    parts.append(cur)
    return parts


def split_blocks(body):
    """[[lines of one block]], each starting at its `block` line (blank lines dropped)."""
    blocks = []
    for line in body:
        if line.strip().startswith("block "):
            blocks.append([line])
        elif line.strip() and blocks:
            blocks[-1].append(line)
    return blocks


def rename(text, names):
    return re.sub(r"0x[0-9a-f]+", lambda m: names.get(m.group(0), m.group(0)), text)


def main():
    lines = sys.stdin.read().splitlines()
    names = {}
    for table in TABLES:
        for header, body in split_sections(lines):
            if header != f"section {table}:":
                continue
            for block in split_blocks(body):
                addr = block[0].split()[1]
                targets = sorted(rename(m, names) for l in block for m in re.findall(r"target = (\S+)", l))
                names[addr] = f"{table.strip('$_')}[{','.join(targets)}]"
    out = []
    for header, body in split_sections([rename(l, names) for l in lines]):
        if header:
            out.append(header)
        if header in ("Absolute symbols:", "External symbols:"):
            out.extend(sorted(body))
            continue
        blocks = split_blocks(body)
        if not blocks:
            out.extend(body)
            continue
        table = header in [f"section {t}:" for t in TABLES]
        canon = []
        for block in blocks:
            if table:  # rows say where in the block; the block's address is gone
                block = [block[0]] + [re.sub(r"^( +)\S+ ", r"\1", l) if l.startswith("      ") else l
                                      for l in block[1:]]
            # sort runs of list lines that start at the same address
            rows, run = [block[0]], []
            for line in block[1:] + [""]:
                key = line.split()[0] if line.startswith("      ") else None
                if run and (key is None or key != run[0].split()[0]):
                    rows.extend(sorted(run))
                    run = []
                if key is not None:
                    run.append(line)
                elif line:
                    rows.append(line)
            canon.append("\n".join(rows))
        if table:
            canon.sort()
        out.extend(canon)
    print("\n".join(out))


main()
