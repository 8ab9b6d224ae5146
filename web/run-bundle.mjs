#!/usr/bin/env node
// Runs a playground session bundle (the file the page's Share offers when a
// session is too large for a link) in Node, with the same wasm core, link
// flow and C runtime as the page, and linklab-executor spawned over stdio.
// Program output goes to stdout/stderr; the exit status is the program's.
//   node web/run-bundle.mjs SESSION.json [--executor PATH]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeBundle, fromBase64 } from './src/session-codec.mjs';
import { makeSession, runProgram, runLimits, parseArgs, programName } from './src/link-flow.mjs';
import { ARCHES } from './runtimes.mjs';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const arg = name => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.error('usage: run-bundle.mjs SESSION.json [--executor PATH]');
  process.exit(2);
}
const executorPath = arg('--executor') ?? process.env.LINKLAB_EXECUTOR ??
  path.join(WEB, '../build/emulator/linklab-executor');

try {
  const { session: s, notes } = decodeBundle(fs.readFileSync(file, 'utf8'), file);
  for (const n of notes) console.error(`run-bundle: note: ${n}`);
  const L = await import('../wasm-bindings/node.mjs');
  const objects = s.objects.map(o => ({ name: o.name, harness: o.harness, bytes: fromBase64(o.data) }));
  const arch = s.arch ?? L.inspect(objects[0].bytes, objects[0].name).arch;
  if (!ARCHES[arch]) throw new Error(`${file}: architecture '${arch}' is not one of ${Object.keys(ARCHES).join(', ')}`);
  const { triple } = ARCHES[arch];
  // The same files the page fetches, read from the paths the core names.
  const runtime = s.options?.runtime === false ? null : L.readRuntimeFiles(triple);
  const executor = await L.spawnExecutor(triple, executorPath);
  executor.onOutput((stream, data) => process[stream].write(data));
  try {
    const ctx = makeSession(L, { triple, objects, options: s.options, runtime, executor });
    const r = await runProgram(ctx, {
      argv0: programName(objects), args: parseArgs(s.run?.args ?? ''),
      limits: runLimits(s.run),
    });
    console.error(`run-bundle: ${r.description}`);
    process.exitCode = r.exitCode ?? 1;
  } finally {
    await executor.close().catch(() => {});
  }
} catch (e) {
  console.error(`run-bundle: ${e.message}`);
  process.exitCode = 1;
}
