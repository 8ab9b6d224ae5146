#!/usr/bin/env node
// What a link puts on the wire: links and runs gallery programs through the
// npm package (the page's link flow, web/src/link-flow.mjs) against a
// spawned linklab-executor, counting what the client sends from its setup
// (not waited for: setup(triple, {wait: false})) to the run's result: frames by kind, bytes, bytes after
// permessage-deflate (one raw-deflate stream over the messages, each
// flushed, as the browser's WebSocket sends them), how many of those bytes
// are zeros, and the round trips the client waits on (a batch of requests
// sent only once a reply came in, the run itself included). Counts, no
// timings: the same on any machine.
//   node scripts/bench-wire.mjs [--arch x86_64,...] [--example hello,...] [--timeline]
// Needs the executor (build/), wasm (wasm-bindings/dist) and gallery (build/web-gallery) builds.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values: o } = parseArgs({ options: {
  arch: { type: 'string', default: 'x86_64' }, example: { type: 'string', default: 'hello' },
  timeline: { type: 'boolean', default: false },
} });
process.env.LINKLAB_EXECUTOR ??= path.join(ROOT, 'build/emulator/linklab-executor');

const L = await import(path.join(ROOT, 'wasm-bindings/node.mjs'));
const { makeSession, runProgram } = await import(path.join(ROOT, 'web/src/link-flow.mjs'));
const { ARCHES } = await import(path.join(ROOT, 'web/runtimes.mjs'));
const gallery = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/examples/gallery.json'), 'utf8')).examples;

// Frame kinds by number (core/protocol/PROTOCOL.md).
const KINDS = { 1: 'setup', 2: 'reserve', 3: 'finalize', 4: 'deallocate', 5: 'lookup', 6: 'run-main', 7: 'call',
  8: 'read-memory', 9: 'write-memory', 10: 'setup-tls', 11: 'hangup', 12: 'input', 13: 'debug-resume', 14: 'write' };

function* framesOf(buf) {
  for (let at = 0; at + 4 <= buf.length; at += 4 + buf.readUInt32LE(at))
    yield { kind: buf.readUInt16LE(at + 4), bytes: buf.subarray(at, at + 4 + buf.readUInt32LE(at)) };
}

// A spawned executor's transport that counts once `counting` is set.
function countingTransport() {
  const t = L.spawnExecutorTransport();
  const deflate = zlib.createDeflateRaw();
  const c = { counting: false, messages: 0, frames: 0, bytes: 0, zeros: 0, deflated: 0, kinds: {}, waits: 0,
    repliedSinceSend: false, timeline: [], chunks: [] };
  deflate.on('data', (d) => { c.deflated += d.length; });
  const send = t.send;
  t.send = (b) => {
    const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
    if (c.counting) {
      c.messages++;
      if (c.repliedSinceSend) c.waits++;
      c.repliedSinceSend = false;
      const kinds = {};
      for (const f of framesOf(buf)) {
        const k = KINDS[f.kind] ?? f.kind;
        c.frames++;
        (c.kinds[k] ??= { frames: 0, bytes: 0 }).frames++;
        c.kinds[k].bytes += f.bytes.length;
        kinds[k] = (kinds[k] ?? 0) + 1;
      }
      c.bytes += buf.length;
      for (const x of buf) c.zeros += x === 0;
      c.chunks.push(buf);
      c.timeline.push(`send ${buf.length} B: ${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ')}`);
    }
    return send(b);
  };
  const onData = t.onData;
  t.onData = (cb) => onData((data) => {
    if (c.counting) {
      c.repliedSinceSend = true;
      c.timeline.push(`recv ${data.length} B`);
    }
    cb(data);
  });
  // permessage-deflate's size: the messages through one stream, each ending in a flush.
  c.deflatedSize = async () => {
    for (const m of c.chunks) await new Promise((resolve) => { deflate.write(m); deflate.flush(zlib.constants.Z_SYNC_FLUSH, resolve); });
    return c.deflated;
  };
  return { t, c };
}

const objectsOf = (ex, arch) => ex.objects.map((ob) => {
  const name = path.basename(ob.src.replace('{arch}', arch)).replace(/\.[cs]$/, '.o');
  return { name, harness: !!ob.harness, bytes: fs.readFileSync(path.join(ROOT, 'build/web-gallery', arch, ex.id, name)) };
}).sort((a, b) => b.harness - a.harness);

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
for (const arch of o.arch.split(',')) {
  for (const id of o.example.split(',')) {
    const ex = gallery.find((e) => e.id === id);
    if (!ex) throw new Error(`no gallery example ${id}`);
    const { triple } = ARCHES[arch];
    const { t, c } = countingTransport();
    const executor = new L.Executor(t);
    let out = '';
    executor.onOutput((s, d) => { out += Buffer.from(d).toString(); });
    c.counting = true;
    await executor.setup(triple, { wait: false });
    const objects = objectsOf(ex, arch);
    const ctx = makeSession(L, { triple, objects, runtime: L.readRuntimeFiles(triple), executor });
    const r = await runProgram(ctx, { argv0: objects.find((x) => !x.harness).name.replace(/\.o$/, ''), args: ex.args ?? [], limits: {} });
    c.counting = false;
    await executor.close().catch(() => {});
    const deflated = await c.deflatedSize();
    console.log(`${arch} ${id}: ${r.status} ${JSON.stringify(r.exitCode ?? r.value ?? '')}, output ${out.length} B`);
    console.log(`  sent ${c.frames} frames in ${c.messages} messages: ${kb(c.bytes)} (${kb(c.zeros)} zeros), ` +
                `${kb(deflated)} deflated; ${c.waits + 1} round trips waited on (the run's included)`);
    for (const [k, v] of Object.entries(c.kinds).sort((a, b) => b[1].bytes - a[1].bytes))
      console.log(`    ${k.padEnd(12)} ${String(v.frames).padStart(5)} frames ${kb(v.bytes).padStart(10)}`);
    if (o.timeline) for (const line of c.timeline) console.log(`    ${line}`);
  }
}
