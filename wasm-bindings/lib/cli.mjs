// The linklab CLI's link-and-run path on the wasm build. It parses options
// with the native CLI's own parser, makes the command's decisions (-l
// search, the C runtime, the target, the timings line) with the native
// command's code (core/driver, bound as L.driver) and sets the link up as
// the native command does (driver::Link: LinkSession's `command` and
// addCommandInputs); what is left here is what must be JavaScript: reading
// files, the executor transport, writing output.
// Graphs, addresses and relocated contents print in the native format, so the
// two can be diffed.
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import * as L from '../node.mjs';
import { LINKLAB_VERSION } from './bundle.mjs';

async function read(path) {
  try {
    return await readFile(path);
  } catch {
    throw new L.LinklabError(`${path}: cannot open file`);
  }
}

/**
 * Runs the CLI on argv with output to io.stdout / io.stderr (each
 * write(string | Uint8Array)) and io.stdin (string or bytes, default
 * nothing) as the program's standard input; resolves to the exit status.
 */
export async function runCli(argv, io = { stdout: process.stdout, stderr: process.stderr }) {
  try {
    return await main(argv, io);
  } catch (e) {
    io.stderr.write(`linklab error: ${e instanceof L.LinklabError ? e.message : e.stack}\n`);
    return 1;
  }
}

async function main(argv, io) {
  const o = L.parseOptions(argv); // refuses the native-only options by name (L.nativeOnlyOptions())
  if (o.help) return io.stdout.write(o.usage), 0;
  if (o.version) return io.stdout.write(`linklab version ${LINKLAB_VERSION}\n`), 0; // as the native linklab's
  if (!o.inputs.length && !o.harnesses.length) throw new L.LinklabError('no input files (see -help)');
  const t0 = performance.now();
  const inputs = [];
  for (const p of o.inputs) inputs.push({ name: p, bytes: await read(p) });
  for (const p of o.harnesses) inputs.push({ name: p, bytes: await read(p), harness: true });
  for (const l of o.libraries) {
    const p = L.driver.findLibrary(l, o.libraryPaths, existsSync);
    inputs.push({ name: p, bytes: await read(p), library: true });
  }

  // -triple, else the first named object's; with -noexec, archives alone
  // name no target and the link goes on without one, as natively.
  let triple = '';
  try {
    triple = L.driver.inputTriple(o.triple, inputs.filter((i) => !i.library));
  } catch (e) {
    if (!o.noExec || o.triple) throw e; // a -triple no target handles is an error in every mode
  }
  // The C runtime, as the native CLI links it: a run needs one, -noexec
  // links it where the target has one.
  const runtime = triple !== '' && L.driver.selectRuntime(o.runtime, triple, { required: !o.noExec });
  let executor, setup;
  if (!o.noExec) {
    const transport = o.oopExecutorConnect ? await L.connectExecutorTransport(o.oopExecutorConnect)
                                           : L.spawnExecutorTransport(o.oopExecutor || undefined);
    executor = new L.Executor(transport);
    executor.onOutput((stream, data) => (stream === 'stdout' ? io.stdout : io.stderr).write(data));
    setup = executor.setup(triple);
    setup.catch(() => {}); // awaited below
  }
  // The runtime's files are read while the executor starts (its start is a
  // run's longest wait), as the native command reads its inputs then; the
  // archives the objects reach no symbol of are left out.
  const runtimeFiles = runtime ? L.readRuntimeFilesFor(triple, inputs) : null;
  runtimeFiles?.catch(() => {}); // awaited below, after the executor's error if both fail
  await setup;
  try {
    const patterns = o.showGraphs.map((p) => {
      try {
        return new RegExp(p);
      } catch {
        throw new L.LinklabError(`-show-graphs: '${p}' is not a valid regular expression`);
      }
    });
    // A run's session is the executor's program; a -noexec one's slab and
    // link info are what the command line says (driver::Link::slab).
    const s = new L.LinkSession({
      triple: executor ? o.triple : triple, executor, command: executor ? undefined : argv,
      ...(runtime ? { runtime: 'default', runtimeFiles: await runtimeFiles } : {}),
      // Planner warnings as the native CLI prints them, as they happen.
      onWarning: (w) => io.stderr.write(`linklab warning: ${w}\n`),
    });
    const dumps = [];
    if (patterns.length)
      s.addPass('post-fixup', (g) => { if (patterns.some((p) => p.test(g.object))) dumps.push([g.object, g.dump()]); });
    // -show-init-es / -show-entry-es: the tables as llvm-jitlink prints them,
    // the process's when the link has a C runtime.
    const tables = () => s.symbolTables({ process: !!runtime });
    if (o.showInitEs || o.showEntryEs) s.recordProcessLookups();
    // -cc, the inputs, -abs, -sectcreate and -phony-externals, as the native command adds them.
    s.addCommandInputs(argv, inputs, (path) => readFileSync(path));
    if (o.showInitEs) io.stdout.write(tables());
    const entry = o.entry; // empty: core's default for the objects' format (MachO: _main)
    if (executor) {
      // A run links as the native command's does: run() links every object,
      // the C runtime's start code last, and enters the entry through it
      // (a link of the entry alone first lacks the start code the runtime's
      // objects reference). -args is the whole argv; without it argv[0] is
      // the first input, as natively.
      const [argv0, ...args] = o.args.length ? o.args : [o.inputs[0] ?? o.harnesses[0]];
      const limits = {
        instructions: o.maxInstructions || 0, wallMillis: Number(o.timeoutMs || 0), memoryBytes: o.maxMemory || 0,
      };
      const beforeMain = o.showEntryEs ? () => io.stdout.write(tables()) : undefined; // linked, not yet run
      // -env and -file, checked and worded as the native command does (core/cli/execute.cpp).
      for (const e of o.env)
        if (!e.includes('=')) throw new L.LinklabError(`option '-env': '${e}' is not NAME=VALUE`);
      const files = [];
      for (const f of o.files) {
        const eq = f.indexOf('=');
        if (eq <= 0 || eq + 1 === f.length) throw new L.LinklabError(`option '-file': '${f}' is not NAME=PATH`);
        let bytes;
        try {
          bytes = await read(f.slice(eq + 1));
        } catch (e) {
          throw new L.LinklabError(`option '-file': ${e.message}`); // as the native command words it
        }
        files.push({ path: f.slice(0, eq), bytes });
      }
      const r = await s.run({ entry, argv0, args, limits, stdin: io.stdin ?? '', beforeMain, env: o.env, files });
      if (r.exitCode !== undefined) return Number(r.exitCode) & 0xff;
      // As a shell reports a process a signal killed (abort, a fault): 128 + the signal.
      io.stderr.write(`linklab error: ${r.error}\n`);
      return r.signal ? 128 + r.signal : 1;
    }
    const t1 = performance.now();
    let linkError;
    try { await s.link({ entry }); } catch (e) { linkError = e; }
    const t2 = performance.now();
    const out = dumps.map(([n, d]) => `Link graph "${n}" post-fixup:\n${d}`);
    if (o.showEntryEs) out.push(tables());
    if (linkError) { io.stdout.write(out.join('')); throw linkError; }
    if (o.showAddrs || o.showRelocated) out.push(s.linkReport({ addresses: o.showAddrs, relocated: o.showRelocated }));
    if (o.showTimes) out.push(L.driver.formatTimings(t1 - t0, t2 - t1, performance.now() - t0));
    io.stdout.write(out.join(''));
    return 0;
  } finally {
    await executor?.close().catch(() => {});
  }
}

