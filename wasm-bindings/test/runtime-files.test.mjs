// The C runtime's on-demand archives (libstdc++.a, libm.a): a program gets
// them only when it reaches a symbol their index lists, decided from their
// heads alone (what the playground fetches), and runs the same as with
// every file. Passes limited to some objects call into JS for those only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LinkSession, LinklabError, RuntimeFetch, archiveHead, runtimeFilesNeeded, runtimeInfo } from '../index.mjs';
import { readRuntimeFiles, spawnExecutor } from '../node.mjs';
import { fetchRuntime, runtimeFiles } from '../lib/link-flow.mjs';
import * as L from '../index.mjs';
import { config, read } from './helpers.mjs';

const dir = join(config.work, 'runtime-files');
mkdirSync(dir, { recursive: true });
const ARCHES = ['x86_64', 'aarch64', 'riscv64'];
const tripleOf = (arch) => `${arch}-unknown-linux-gnu`;
function compile(arch, sources, tag, cxx = false) {
  return sources.map((src, i) => {
    const out = join(dir, `${arch}-${tag}-${i}.o`);
    execFileSync(cxx ? 'clang++-22' : 'clang-22', ['-c', '-O1', ...runtimeInfo(tripleOf(arch)).cflags.split(' '),
                                                  join(config.root, 'tests/inputs', src), '-o', out],
                 { stdio: ['ignore', 'ignore', 'pipe'] });
    return { name: out, bytes: read(out) };
  });
}

// The page's loader over the Debian files: records how many bytes of each file it handed out.
function diskLoader(triple) {
  const paths = Object.fromEntries(runtimeInfo(triple).files.map((f) => [f.name, f.path]));
  const loaded = {}, requests = {};
  const load = async (name, length) => {
    const whole = new Uint8Array(readFileSync(paths[name]));
    const b = length ? whole.subarray(0, length) : whole;
    loaded[name] = Math.max(loaded[name] ?? 0, b.length);
    requests[name] = (requests[name] ?? 0) + 1;
    return b;
  };
  return { load, loaded, requests };
}

async function run(arch, objects, files) {
  const x = await spawnExecutor(tripleOf(arch));
  try {
    const s = new LinkSession({ executor: x });
    for (const o of objects) s.addObject(o.bytes, { name: o.name });
    let stdout = '';
    const r = await s.run({ argv0: 'prog', runtime: 'default', runtimeFiles: files,
                            onOutput: (stream, d) => { stdout += Buffer.from(d).toString(); } });
    return { status: r.status, exitCode: r.exitCode, stdout };
  } finally {
    await x.close();
  }
}

const CASES = [
  // name, sources, C++?, the on-demand archives it needs
  ['C', ['run/hello.c'], false, []],
  ['C with libm', ['run/math.c'], false, ['libm.a']],
  ['C++', ['parity-cxx/throw_main.cpp', 'parity-cxx/throw_lib.cpp'], true, ['libstdc++.a', 'libm.a']],
];

describe.each(ARCHES)('%s', (arch) => {
  test.each(CASES)('%s: only the on-demand archives it reaches are fetched, and it runs as with every file',
    async (tag, sources, cxx, onDemand) => {
      const triple = tripleOf(arch);
      const objects = compile(arch, sources, tag.replace(/\W+/g, '_'), cxx);
      const { load, loaded, requests } = diskLoader(triple);
      const files = await runtimeFiles(L, triple, load, objects);
      const info = runtimeInfo(triple);
      const want = info.files.filter((f) => !f.onDemand || onDemand.includes(f.name)).map((f) => f.name);
      expect(Object.keys(files)).toEqual(want);
      for (const f of info.files.filter((f) => f.onDemand && !onDemand.includes(f.name))) {
        expect(loaded[f.name]).toBeLessThan(1 << 20); // its head, not the archive
        expect(requests[f.name]).toBe(1); // the first guess holds the whole head
      }
      const some = await run(arch, objects, files);
      const every = await run(arch, objects, readRuntimeFiles(triple));
      expect(some).toEqual(every);
      expect(some.status).toBe('exited');
    });
});

// fetchRuntime's reads over the Debian files, as the server answers them;
// counts the bytes and the rounds of range requests.
function rangeReader(triple) {
  const paths = Object.fromEntries(runtimeInfo(triple).files.map((f) => [f.name, f.path]));
  const file = (name) => new Uint8Array(readFileSync(paths[name]));
  const seen = { bytes: 0, requests: 0 };
  const io = {
    whole: async (name) => { const b = file(name); seen.bytes += b.length; return b; },
    head: async (name, length) => {
      const b = file(name);
      seen.bytes += Math.min(length, b.length);
      return { bytes: b.subarray(0, length), size: b.length };
    },
    ranges: async (name, ranges) => {
      seen.requests++;
      const b = file(name);
      return ranges.map((r) => { seen.bytes += r.end - r.begin; return b.subarray(r.begin, r.end); });
    },
  };
  return { io, seen };
}

describe.each(ARCHES)('%s', (arch) => {
  test.each(CASES)('%s: fetched a member at a time, it runs as with every file, from a fraction of the bytes',
    async (tag, sources, cxx) => {
      const triple = tripleOf(arch);
      const objects = compile(arch, sources, `members_${tag.replace(/\W+/g, '_')}`, cxx);
      const { io, seen } = rangeReader(triple);
      const fetched = await fetchRuntime(L, triple, io, objects);
      expect(fetched.membersPulled).toBeGreaterThan(50);
      const every = readRuntimeFiles(triple);
      const whole = Object.values(every).reduce((n, b) => n + b.length, 0);
      expect(seen.bytes).toBeLessThan(whole * (cxx ? 0.75 : 0.35)); // libstdc++'s members are large
      expect(seen.requests).toBeLessThan(60); // a request per archive a round
      expect(await run(arch, objects, fetched)).toEqual(await run(arch, objects, every));
    });
});

test('RuntimeFetch names bad input, and is taken once', async () => {
  const triple = tripleOf('x86_64');
  const [hello] = compile('x86_64', ['run/hello.c'], 'fetch_bad');
  const { io } = rangeReader(triple);
  expect(() => new RuntimeFetch(triple, { objects: [hello], heads: {} }))
    .toThrow(/the bytes of crt1\.o \(.*crt1\.o\) were not supplied/);
  const start = await io.whole('crt1.o');
  expect(() => new RuntimeFetch(triple, { objects: [hello], heads: {}, start }))
    .toThrow(/the head of libstdc\+\+\.a \(.*libstdc\+\+\.a\) was not supplied/);
  expect(() => new RuntimeFetch(triple, { heads: { 'libc.a': { bytes: new Uint8Array(8) } }, start }))
    .toThrow('RuntimeFetch: the head of libc.a needs its archive\'s size');
  const fetched = await fetchRuntime(L, triple, io, [hello]);
  expect(fetched.wanted()).toEqual([]);
  expect(() => fetched.addMembers('libc.a', 1e12, new Uint8Array(60)))
    .toThrow(/libc\.a: bytes at 0xe8d4a51000 run past the archive's end/);
  expect(() => fetched.addMembers('libstdc++.a', 0, new Uint8Array(60)))
    .toThrow("C runtime glibc (Debian libc6-dev): libstdc++.a is not an archive this link fetches");
  const s = new LinkSession({ triple });
  s.useRuntime(fetched);
  expect(() => new LinkSession({ triple }).useRuntime(fetched))
    .toThrow('useRuntime: this RuntimeFetch was taken by a session already, or disposed of');
  s.dispose();
});

test('a C program needs neither libstdc++ nor libm; a missing head counts as needed', () => {
  const triple = tripleOf('x86_64');
  const [hello] = compile('x86_64', ['run/hello.c'], 'needed');
  const heads = {};
  for (const f of runtimeInfo(triple).files.filter((f) => f.onDemand)) heads[f.name] = read(f.path);
  expect(runtimeFilesNeeded(triple, [hello], heads)).toEqual(['libc.a', 'libgcc.a', 'libgcc_eh.a', 'crt1.o']);
  expect(runtimeFilesNeeded(triple, [hello], { 'libm.a': heads['libm.a'] }))
    .toEqual(['libstdc++.a', 'libm.a', 'libc.a', 'libgcc.a', 'libgcc_eh.a', 'crt1.o']);
  expect(() => runtimeFilesNeeded('mips-unknown-linux-gnu', [hello], heads)).toThrow(LinklabError);
});

test('archiveHead reads the index size from any prefix and names bad input', () => {
  const libm = read(runtimeInfo(tripleOf('x86_64')).files.find((f) => f.name === 'libm.a').path);
  expect(archiveHead(libm.subarray(0, 10))).toEqual({ size: 68, complete: false });
  // The index's size, then the next member's header, then the long-name table that header starts.
  const asks = [68];
  for (let h = archiveHead(libm.subarray(0, 68)); !h.complete; h = archiveHead(libm.subarray(0, h.size))) {
    expect(h.size).toBeGreaterThan(asks.at(-1));
    asks.push(h.size);
  }
  expect(asks.length).toBe(4);
  const size = asks.at(-1);
  expect(size).toBeLessThan(libm.length);
  expect(archiveHead(libm.subarray(0, size))).toEqual({ size, complete: true });
  expect(() => archiveHead(new TextEncoder().encode('!<arhc>\nxxxxxxxx')))
    .toThrow('archive: not an ar archive (bad magic)');
  const s = new LinkSession({ triple: tripleOf('x86_64') });
  // Without libc.a (not on demand) the runtime is refused, naming it.
  const files = readRuntimeFiles(tripleOf('x86_64'));
  delete files['libc.a'];
  expect(() => s.useRuntime(files)).toThrow(/the bytes of libc\.a \(.*libc\.a\) were not supplied/);
});

test('a pass limited to some objects is called for those only', async () => {
  const objects = compile('x86_64', ['run/hello.c'], 'passes');
  const triple = tripleOf('x86_64');
  const s = new LinkSession({ triple });
  s.addObject(objects[0].bytes, { name: 'hello.o' });
  s.useRuntime(readRuntimeFiles(triple));
  const mine = [], all = new Set();
  s.addPass('post-fixup', (g) => mine.push(g.object), { objects: ['hello.o'] });
  s.addPass('post-fixup', (g) => all.add(g.object));
  await s.link({ entry: 'main' });
  expect(mine).toEqual(['hello.o']);
  expect(all.size).toBeGreaterThan(10); // the runtime's members too
  expect(() => s.addPass('post-fixup', () => {}, { objects: 'hello.o' }))
    .toThrow('addPass: objects must be an array of object names');
});
