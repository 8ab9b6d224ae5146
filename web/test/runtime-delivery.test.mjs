// The prepared C runtimes (prepare-runtimes.mjs) read back through the
// page's reader (src/runtime-delivery.mjs) in Node, from build/web-runtimes:
// every archive put together from its blobs is the archive, byte for byte;
// a link from the members fetched works; the on-demand archives' filters
// keep libstdc++.a and libm.a away from a C program and not from one that
// needs them. (The browser side: playground.test.mjs and site.test.mjs.)
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as L from '../../wasm-bindings/index.mjs';
import * as flow from '../../wasm-bindings/lib/link-flow.mjs';
import { ARCHES, cflags } from '../runtimes.mjs';
import { prepareRuntimes } from '../prepare-runtimes.mjs';
import { runtimeDelivery, referencedNames, emptyHead, makeFilter, filterMayHold, indexedMembers }
  from '../src/runtime-delivery.mjs';

const WEB = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const RUNTIMES = path.join(WEB, '../build/web-runtimes');
let arches, tmp;
before(async () => {
  arches = await prepareRuntimes({ out: RUNTIMES });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linklab-delivery-'));
});

// The reader over the prepared folder, counting what it reads.
function reader() {
  const read = [];
  const d = runtimeDelivery('mem:/', {
    cacheName: null,
    fetchBytes: async url => {
      read.push(url);
      return new Uint8Array(fs.readFileSync(path.join(RUNTIMES, url.slice('mem:/'.length))));
    },
  });
  return { ...d, read };
}
function compile(src, arch, out, compiler = 'clang-22') {
  const file = path.join(tmp, out);
  fs.writeFileSync(`${file}.src`, src);
  execFileSync(compiler, [...cflags(L, arch), '-O1', '-c', '-x', compiler.includes('++') ? 'c++' : 'c', `${file}.src`,
                          '-o', file]);
  return { name: out, bytes: new Uint8Array(fs.readFileSync(file)) };
}

test('each archive put together from its prepared blobs is the archive, byte for byte', async () => {
  for (const arch of ['x86_64', 'riscv64']) {
    const io = await reader().io(arches[arch]);
    for (const f of L.runtimeInfo(ARCHES[arch].triple).files)
      assert.ok(Buffer.from(await io.whole(f.name)).equals(fs.readFileSync(f.path)), `${arch} ${f.name}`);
  }
});

test('the units are the members the archive index names, as the package lists them', () => {
  const libc = L.runtimeInfo(ARCHES.x86_64.triple).files.find(f => f.name === 'libc.a').path;
  const bytes = fs.readFileSync(libc);
  const { offsets, names } = indexedMembers(bytes);
  const info = L.inspect(bytes, 'libc.a');
  assert.deepEqual(new Set(names), new Set(info.symbolIndex.map(e => e.symbol))); // the package lists each once
  // The package gives each member's data offset, after its 60-byte header.
  const headers = info.symbolIndex.map(e => info.members[e.member].offset - 60);
  assert.deepEqual(offsets, [...new Set(headers)].sort((a, b) => a - b));
  assert.throws(() => indexedMembers(Buffer.from('not an archive')), /not an ar archive/);
  const cut = Buffer.from(bytes.subarray(0, 100));
  assert.throws(() => indexedMembers(cut), /truncated symbol index/);
});

test('an on-demand archive\'s filter holds all its names; its stand-in head makes it unneeded', () => {
  const names = Array.from({ length: 5000 }, (_, i) => `_ZN3foo${i}barEv`);
  const filter = makeFilter(names);
  assert.ok(names.every(n => filterMayHold(filter, n)));
  const others = Array.from({ length: 5000 }, (_, i) => `other_${i}`).filter(n => filterMayHold(filter, n));
  assert.ok(others.length < 100, `${others.length} false positives of 5000`);
  assert.deepEqual(L.archiveHead(emptyHead()), { size: 8, complete: true });
  const hello = compile('#include <stdio.h>\nint main() { puts("hi"); }\n', 'x86_64', 'hi.o');
  const needed = L.runtimeFilesNeeded(ARCHES.x86_64.triple, [hello],
                                      { 'libstdc++.a': emptyHead(), 'libm.a': emptyHead() });
  assert.ok(!needed.includes('libstdc++.a') && !needed.includes('libm.a') && needed.includes('libc.a'), needed);
});

test('a C program links from the members fetched, nothing of libstdc++.a or libm.a; C++ gets libstdc++', async () => {
  const arch = 'x86_64', triple = ARCHES[arch].triple;
  for (const [obj, wants] of [
    [compile('#include <stdio.h>\nint main() { printf("%d\\n", 1); }\n', arch, 'c.o'), []],
    [compile('#include <math.h>\ndouble f(double x) { return cos(x); }\nint main() { return f(0) > 2; }\n', arch,
             'm.o'), ['libm.a']],
    [compile('#include <iostream>\nint main() { std::cout << "x" << std::endl; }\n', arch, 'x.o', 'clang++-22'),
     ['libstdc++.a', 'libm.a']],
  ]) {
    const d = reader();
    const io = await d.io(arches[arch], referencedNames(L, [obj]));
    const fetch = await flow.fetchRuntime(L, triple, io, [obj]);
    const ctx = flow.makeSession(L, { triple, objects: [obj], runtime: fetch });
    const at = await ctx.session.link({ entry: ctx.entry });
    assert.ok(BigInt(at) > 0n, obj.name);
    ctx.session.dispose();
    const owners = (await import('./runtime-blobs.mjs')).blobOwners(RUNTIMES, arches);
    const files = new Set(d.read.map(u => owners.get(/([0-9a-f]+(?:-\d+)?)\.gz$/.exec(u)[1]).split(' ')[1]));
    for (const n of ['libstdc++.a', 'libm.a']) assert.equal(files.has(n), wants.includes(n), `${obj.name}: ${n}`);
    assert.equal(new Set(d.read).size, d.read.length, `${obj.name}: a blob read twice`);
  }
});
