#!/usr/bin/env python3
"""Fails when a folder includes a header of a folder above it.

The layers, lowest first; folders on one line are siblings and include
none of each other. Read top-down, the list is the data flow: objects
become graphs (readers), graphs are linked (link, arch), a session links
many on demand, the ELF platform adds what a process needs, a program runs
in an executor through the protocol, and the driver and CLI sit on top.
"""
import pathlib
import re
import sys

LAYERS = [
    ["support"],                   # errors, bits, byte buffers
    ["target"],                    # triples and the registry of arches, formats and their pairs
    ["graph"],                     # LinkGraph: sections, blocks, symbols, edges
    ["link"],                      # the generic link algorithm, passes, memory managers
    ["arch"],                      # edge kinds, fixups, GOT/PLT/stub builders per architecture
    ["object"],                    # archives
    ["elf", "macho", "coff"],      # graph builders per object format
    ["session"],                   # lazy linking of many graphs, symbol resolution
    ["platform"],                  # the ELF process image: TLS, init arrays, IFUNC, eh-frame registration
    ["check"],                     # jitlink-check expressions over a linked session
    ["protocol"],                  # the executor protocol, its client and transports
    ["program"],                   # a program linked with its C runtime and run in an executor
    ["callconv"],                  # calling-convention specs, plans, thunks and calls through them
    ["api"],                       # graph editing and JSON export
    ["driver"],                    # one set-up for every link and run
    ["repro"],                     # reproducers: bundles, exported tests, the reducer
    ["cli", "emulator", "wasm-bindings"],  # the linklab command; linklab-executor; the WebAssembly package
]
RANK = {Folder: Rank for Rank, Line in enumerate(LAYERS) for Folder in Line}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_-]+)/[^"]+"', re.M)


def folderOf(Path, Root):
    Parts = Path.relative_to(Root).parts
    if Parts[0] == "core":
        return Parts[1]
    return Parts[0]


def main():
    Root = pathlib.Path(__file__).resolve().parent.parent
    Files = [P for Dir in ("core", "emulator", "wasm-bindings/src") for P in (Root / Dir).rglob("*")
             if P.suffix in (".h", ".cpp", ".def")]
    Bad = []
    for P in sorted(Files):
        Own = folderOf(P, Root)
        if Own not in RANK:
            Bad.append(f"{P.relative_to(Root)}: folder '{Own}' is in no layer of scripts/check-layers.py")
            continue
        for M in INCLUDE.finditer(P.read_text(errors="replace")):
            Dep = M.group(1)
            if Dep == Own or Dep not in RANK:
                continue
            if RANK[Dep] >= RANK[Own]:
                Line = P.read_text(errors="replace").count("\n", 0, M.start()) + 1
                Bad.append(f"{P.relative_to(Root)}:{Line}: {Own} includes {M.group(0).split()[-1]} "
                           f"({Dep} is {'a sibling' if RANK[Dep] == RANK[Own] else 'above it'})")
    for B in Bad:
        print(B)
    if Bad:
        print(f"check-layers: {len(Bad)} include(s) against the layers")
        return 1
    print(f"check-layers: {len(Files)} files, every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
