#!/usr/bin/env node
// The playground server under load: USERS simulated users, each a Node
// client of the npm package over WebSocket (as the page is), link and run
// gallery programs (with glibc) on a random architecture, RUNS each, all at
// once against one server started here on loopback (or --url). Every run
// finishes or gets the server's "busy" answer. Prints runs per second (and
// per core the server may use), p50/p99 latency from connecting to the run's
// result, queue wait (the server's histogram), and the executor count
// before and after, which must be back to its baseline.
//   node scripts/bench-serve.mjs [--users 50] [--runs 2] [--max-executors N] [--queue N] [--seed S] [--url URL]
// Needs the executor, wasm and gallery builds (scripts/run's build steps).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values: o } = parseArgs({ options: {
  users: { type: 'string', default: '50' }, runs: { type: 'string', default: '2' },
  'max-executors': { type: 'string', default: String(os.availableParallelism()) },
  queue: { type: 'string', default: '64' }, seed: { type: 'string', default: '1' }, url: { type: 'string' },
} });
const USERS = Number(o.users), RUNS = Number(o.runs), CORES = Number(o['max-executors']);

const L = await import(path.join(ROOT, 'wasm-bindings/node.mjs'));
const { makeSession, runProgram } = await import(path.join(ROOT, 'web/src/link-flow.mjs'));
const { ARCHES } = await import(path.join(ROOT, 'web/runtimes.mjs'));
const { serverProcess, metric, originSocket, wsUrl, executorsOf } = await import(path.join(ROOT, 'web/test/serve-helpers.mjs'));

// The gallery's programs that run main and print (the callconv example needs a plan).
const gallery = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/examples/gallery.json'), 'utf8')).examples
  .filter(ex => !ex.callconv);
const objectsOf = (ex, arch) => ex.objects.map(ob => {
  const name = path.basename(ob.src.replace('{arch}', arch)).replace(/\.[cs]$/, '.o');
  return { name, harness: !!ob.harness, bytes: fs.readFileSync(path.join(ROOT, 'build/web-gallery', arch, ex.id, name)) };
}).sort((a, b) => b.harness - a.harness);
const runtimes = Object.fromEntries(Object.entries(ARCHES).map(([a, { triple }]) => [a, L.readRuntimeFiles(triple)]));

// A small seeded generator, so two runs of the benchmark do the same work.
let seed = Number(o.seed) >>> 0 || 1;
const random = n => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed % n; };

const server = o.url ? { url: o.url, stop: async () => {} }
  : await serverProcess(['--max-executors', String(CORES), '--queue', o.queue, '--sessions-per-client', String(USERS * 2),
    '--runs-per-minute', String(USERS * RUNS * 10), '--store', fs.mkdtempSync(path.join(os.tmpdir(), 'bench-serve-'))]);
const origin = server.url.slice(0, -1);
const WS = originSocket(origin);
const executorsNow = async () => (server.proc ? executorsOf(server.proc.pid).length : await metric(server.url, 'linklab_executors_running'));
const baseline = await executorsNow();

const latencies = [], waits = [], outcomes = {};
async function oneRun() {
  const arch = Object.keys(ARCHES)[random(Object.keys(ARCHES).length)];
  const ex = gallery[random(gallery.length)];
  const { triple } = ARCHES[arch];
  const t0 = performance.now();
  let transport;
  try {
    transport = await L.webSocketTransport(wsUrl(server.url), { WebSocket: WS });
    // The bridge says {queue: N} while the session waits and {queue: 0} when its executor starts.
    const tSetup = performance.now();
    let waited = 0;
    transport.onStatus(n => { if (n.queue === 0) waited = performance.now() - tSetup; });
    const executor = new L.Executor(transport);
    executor.onOutput(() => {});
    await executor.setup(triple);
    waits.push(waited);
    const objects = objectsOf(ex, arch);
    const ctx = makeSession(L, { triple, objects, runtime: runtimes[arch], executor });
    const r = await runProgram(ctx, { argv0: objects.find(x => !x.harness).name.replace(/\.o$/, ''), args: ex.args ?? [], limits: {} });
    latencies.push(performance.now() - t0);
    outcomes[r.status] = (outcomes[r.status] ?? 0) + 1;
  } catch (e) {
    const why = /server busy/.test(e.message) ? 'busy' : `error: ${e.message}`;
    outcomes[why] = (outcomes[why] ?? 0) + 1;
  } finally {
    transport?.close();
  }
}

const start = performance.now();
await Promise.all(Array.from({ length: USERS }, async () => { for (let i = 0; i < RUNS; i++) await oneRun(); }));
const seconds = (performance.now() - start) / 1000;

// Executors end as their connections close: wait (bounded) for the baseline.
let after = await executorsNow();
for (let i = 0; i < 100 && after > baseline; i++) { await new Promise(r => setTimeout(r, 100)); after = await executorsNow(); }
const qSum = await metric(server.url, 'linklab_queue_wait_seconds_sum'), qCount = await metric(server.url, 'linklab_queue_wait_seconds_count');
await server.stop();

latencies.sort((a, b) => a - b);
waits.sort((a, b) => a - b);
const pct = (p, xs = latencies) => xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN;
const done = latencies.length;
console.log(`bench-serve: ${USERS} users x ${RUNS} runs, max ${CORES} executors, ${os.cpus().length} cores, ` +
            `node ${process.version}`);
console.log(`  outcomes: ${JSON.stringify(outcomes)}`);
console.log(`  ${done} runs in ${seconds.toFixed(1)} s: ${(done / seconds).toFixed(2)} runs/s, ` +
            `${(done / seconds / CORES).toFixed(2)} runs/s per executor core`);
console.log(`  latency (connect to result): p50 ${pct(0.5).toFixed(0)} ms, p99 ${pct(0.99).toFixed(0)} ms`);
console.log(`  queue wait: p50 ${pct(0.5, waits).toFixed(0)} ms, p99 ${pct(0.99, waits).toFixed(0)} ms; ` +
            `server's mean ${qCount ? (qSum / qCount * 1000).toFixed(0) : 0} ms over ${qCount} sessions`);
console.log(`  executors: ${baseline} before, ${after} after`);
if (after !== baseline) { console.error('bench-serve: executors were left running'); process.exitCode = 1; }
if (Object.keys(outcomes).some(k => k.startsWith('error'))) process.exitCode = 1;
