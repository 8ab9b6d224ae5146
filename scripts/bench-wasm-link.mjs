#!/usr/bin/env node
// The wasm side of scripts/bench-wasm.sh: in one Node process, loads the
// package, reads the C runtime's files and the objects (as the native CLI
// maps them: not timed), then links LINKS times what `linklab -noexec
// -entry=ENTRY -phony-externals` links (the objects and the x86-64 glibc
// runtime, every file of it, as the native CLI adds them). The first link
// copies the runtime in and reads its archives' indexes (PreparedRuntime);
// the next ones share them, as a page or server linking again would. Prints one JSON
// line: {moduleMs, links: [ms per link, the first in a fresh process first]}.
//   node scripts/bench-wasm-link.mjs LINKS ENTRY OBJECT... [--addresses FILE]
// --addresses FILE: writes the last link's -show-addrs text there, for the
// check that both sides link the same graphs at the same addresses.
import { readFileSync, writeFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const at = argv.indexOf('--addresses');
const addressesFile = at >= 0 ? argv.splice(at, 2)[1] : null;
const [links, entry, ...paths] = argv;

const t0 = performance.now();
const L = await import('../wasm-bindings/node.mjs');
const moduleMs = performance.now() - t0;

const TRIPLE = 'x86_64-unknown-linux-gnu';
const files = L.readRuntimeFiles(TRIPLE);
const objects = paths.map((p) => [p, readFileSync(p)]);
const times = [];
let runtime = null; // copied in and its archives' indexes read by the first link, shared by the next ones
for (let i = 0; i < Number(links); i++) {
  const start = performance.now();
  runtime ??= new L.PreparedRuntime(TRIPLE, files);
  const last = i === Number(links) - 1;
  // Link info only where -show-addrs wants it, as the native command records it.
  const s = new L.LinkSession({ triple: TRIPLE, slabAddress: 0x10000000, slabAllocate: '64Mb', phonyExternals: true,
                                runtime: 'default', runtimeFiles: runtime, linkInfo: !!(addressesFile && last) });
  for (const [name, bytes] of objects) s.addObject(bytes, { name });
  await s.link({ entry });
  times.push(performance.now() - start);
  if (addressesFile && last) writeFileSync(addressesFile, s.linkReport({ addresses: true }));
  s.dispose();
}
console.log(JSON.stringify({ moduleMs, links: times }));
