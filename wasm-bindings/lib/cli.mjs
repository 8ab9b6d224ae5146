// The linklab CLI's link-and-run path on the wasm build. It
// parses options with the native CLI's own parser (bound from core) and
// prints graphs, addresses and relocated contents in the same format, so the
// two can be diffed; programs run in a spawned (or connected) executor.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as L from '../node.mjs';

async function findLibrary(o, name) {
  for (const dir of o.libraryPaths) if (existsSync(`${dir}/lib${name}.a`)) return `${dir}/lib${name}.a`;
  throw new L.LinklabError(`library -l${name}: lib${name}.a not found in the -L paths`);
}
async function read(path) {
  try {
    return await readFile(path);
  } catch {
    throw new L.LinklabError(`${path}: cannot open file`);
  }
}

/**
 * Runs the CLI on argv with output to io.stdout / io.stderr (each
 * write(string | Uint8Array)); resolves to the exit status.
 */
export async function runCli(argv, io = { stdout: process.stdout, stderr: process.stderr }) {
  try {
    return await main(argv, io);
  } catch (e) {
    io.stderr.write(`linklab error: ${e instanceof L.LinklabError ? e.message : e.stack}\n`);
    return 1;
  }
}

// As the native CLI's selectRuntime: a run needs the runtime (an unknown
// one is readRuntimeFiles' error); -noexec links it for ELF objects of a
// triple that has one.
function linksRuntime(o, firstObject, executor) {
  if (o.runtime !== 'default' || !firstObject) return false;
  if (executor) return true;
  if (!firstObject.bytes.subarray(0, 4).equals(Buffer.from('\x7fELF', 'latin1'))) return false;
  try { L.runtimeInfo(o.triple || L.inspect(firstObject.bytes).triple); return true; } catch { return false; }
}

async function main(argv, io) {
  const o = L.parseOptions(argv);
  if (o.help) return io.stdout.write(o.usage), 0;
  if (!o.inputs.length && !o.harnesses.length) throw new L.LinklabError('no input files (see -help)');
  if (o.checkFiles.length) throw new L.LinklabError('-check is not supported by linklab-run (use the native linklab)');
  if (o.callSymbol) throw new L.LinklabError('-call is not supported by linklab-run (use the native linklab)');
  const t0 = performance.now();
  const inputs = [];
  for (const p of o.inputs) inputs.push({ name: p, bytes: await read(p) });
  for (const p of o.harnesses) inputs.push({ name: p, bytes: await read(p), harness: true });
  for (const l of o.libraries) { const p = await findLibrary(o, l); inputs.push({ name: p, bytes: await read(p) }); }

  // The first input that is not an archive: it names the triple.
  const firstObject = inputs.find((i) => !i.bytes.subarray(0, 8).equals(Buffer.from('!<arch>\n')));
  let executor, triple;
  if (o.runtime !== 'default' && o.runtime !== 'none')
    throw new L.LinklabError(`option '-runtime': '${o.runtime}' is not 'default' or 'none'`);
  if (!o.noExec) {
    triple = o.triple || L.inspect(firstObject.bytes).triple;
    const transport = o.oopExecutorConnect ? await L.connectExecutorTransport(o.oopExecutorConnect)
                                           : L.spawnExecutorTransport(o.oopExecutor || undefined);
    executor = new L.Executor(transport);
    executor.onOutput((stream, data) => (stream === 'stdout' ? io.stdout : io.stderr).write(data));
    await executor.setup(triple);
  }
  try {
    const patterns = o.showGraphs.map((p) => {
      try { return new RegExp(p); } catch { throw new L.LinklabError(`-show-graphs: '${p}' is not a valid regular expression`); }
    });
    const runtime = linksRuntime(o, firstObject, executor);
    const s = new L.LinkSession({
      // With the runtime a slab session needs its triple first, as the native CLI takes it from the inputs.
      triple: o.triple || (runtime && !executor ? L.inspect(firstObject.bytes).triple : o.triple), executor, phonyExternals: o.phonyExternals, recordContents: o.showRelocated,
      slabAddress: o.slabAddress, slabPageSize: o.slabPageSize, slabAllocate: o.slabAllocate, // '' : core's defaults
      // The C runtime, as the native CLI links it (its -runtime option), -noexec too.
      ...(runtime ? { runtime: 'default', runtimeFiles: L.readRuntimeFiles(o.triple || L.inspect(firstObject.bytes).triple) } : {}),
      // Planner warnings as the native CLI prints them, as they happen.
      onWarning: (w) => io.stderr.write(`linklab warning: ${w}\n`),
    });
    for (const c of o.conventions) s.addConvention(c, { origin: '-cc' });
    const dumps = [];
    if (patterns.length)
      s.addPass('post-fixup', (g) => { if (patterns.some((p) => p.test(g.object))) dumps.push([g.object, g.dump()]); });
    for (const i of inputs) s.addObject(i.bytes, { name: i.name, harness: !!i.harness });
    for (const a of o.absolutes) {
      const eq = a.indexOf('=');
      if (eq <= 0) throw new L.LinklabError(`-abs: '${a}' is not NAME=ADDRESS`);
      s.defineAbsolute(a.slice(0, eq), a.slice(eq + 1));
    }
    const t1 = performance.now();
    let linkError;
    const entry = o.entry; // empty: core's default for the objects' format (MachO: _main)
    try { await s.link({ entry }); } catch (e) { linkError = e; }
    const t2 = performance.now();
    const out = dumps.map(([n, d]) => `Link graph "${n}" post-fixup:\n${d}`);
    if (linkError) { io.stdout.write(out.join('')); throw linkError; }
    if (o.showAddrs || o.showRelocated) out.push(s.linkReport({ addresses: o.showAddrs, relocated: o.showRelocated }));
    if (o.showTimes) out.push(`linklab timings: load ${(t1 - t0).toFixed(3)} ms, link ${(t2 - t1).toFixed(3)} ms, total ${(performance.now() - t0).toFixed(3)} ms\n`);
    io.stdout.write(out.join(''));
    if (!executor) return 0;
    // -args is the whole argv; without it argv[0] is the first input, as natively.
    const [argv0, ...args] = o.args.length ? o.args : [o.inputs[0] ?? o.harnesses[0]];
    const limits = { instructions: o.maxInstructions || 0, wallMillis: Number(o.timeoutMs || 0), memoryBytes: o.maxMemory || 0 };
    const r = await s.run({ entry, argv0, args, limits });
    if (r.exitCode === undefined) throw new L.LinklabError(r.error);
    return Number(r.exitCode) & 0xff;
  } finally {
    await executor?.close().catch(() => {});
  }
}

