#!/usr/bin/env python3
"""Prints a perf jitdump file (jitdump-specification.txt) one record a line,
for FileCheck: the header, then CODE_LOAD name/size/bytes, DEBUG_INFO,
UNWINDING_INFO and CLOSE records. Exits 1 on a malformed file."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
magic, version, header_size, mach, _, pid, _, flags = struct.unpack_from("<IIIIIIQQ", data, 0)
if magic != 0x4A695444 or header_size > len(data):
    sys.exit(f"{sys.argv[1]}: not a jitdump (magic {magic:#x})")
print(f"jitdump version {version} machine {mach} flags {flags}")
pos = header_size
names = {0: "CODE_LOAD", 1: "CODE_MOVE", 2: "DEBUG_INFO", 3: "CLOSE", 4: "UNWINDING_INFO"}
while pos < len(data):
    rid, size, _ = struct.unpack_from("<IIQ", data, pos)
    if size < 16 or pos + size > len(data):
        sys.exit(f"record at {pos:#x}: size {size:#x} runs past the end")
    body = data[pos + 16:pos + size]
    if rid == 0:
        rpid, tid, vma, addr, code_size, index = struct.unpack_from("<IIQQQQ", body, 0)
        name_end = body.index(b"\0", 40)
        code = body[name_end + 1:]
        if len(code) != code_size or vma != addr:
            sys.exit(f"CODE_LOAD at {pos:#x}: {len(code)} code bytes, header says {code_size}")
        print(f"CODE_LOAD {body[40:name_end].decode()} size {code_size} code {code.hex()}")
    else:
        print(names.get(rid, f"record {rid}"))
    pos += size
