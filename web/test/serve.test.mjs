// The server as a public service, on loopback: the origin allow-list from
// Chromium, the executor cap and its queue, per-client limits, capped run
// limits, timeouts, back-pressure, Range caps, short links, metrics, and
// what happens when the server dies. Every wait is bounded; limits the
// tests rely on are in instructions or far from the times they allow.
//   node --test test/serve.test.mjs   (after the executor, wasm and gallery builds)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chromium } from 'playwright-core';
import { startServer } from '../server.mjs';
import { START } from '../server/bridge.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';
import {
  until, freePort, serverProcess, executorsOf, alive, rssBytes, metric, client, compileInput, rawSocket, setupFrame,
  frame, ROOT,
} from './serve-helpers.mjs';

let tmp, spin, flood;
const servers = [];
// A server in this process, with test-sized limits; closed after the tests.
async function serve(opts = {}) {
  const s = await startServer({ port: 0, store: path.join(tmp, `links-${servers.length}`), ...opts });
  servers.push(s);
  s.origin = s.url.slice(0, -1);
  return s;
}
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linklab-serve-'));
  spin = [compileInput('serve-spin.c', 'x86_64', tmp)];
  flood = [compileInput('serve-flood.c', 'x86_64', tmp)];
});
const launch = () =>
  chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
after(async () => {
  for (const s of servers) await s.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('Chromium runs a program through a server on 127.0.0.2 from an allowed origin; another origin is refused',
  async () => {
    const port = await freePort('127.0.0.2');
    const allowed = `http://127.0.0.2:${port}`;
    const s = await serve({ host: '127.0.0.2', port, origin: [allowed] });
    // Started as an operator would, allowing two origins that are not the page's.
    const proc = await serverProcess(['--host', '127.0.0.2', '--origin', 'http://127.0.0.2:1',
      '--origin', 'https://linklab.example', '--store', path.join(tmp, 'links-proc')]);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(s.url);
      await page.waitForSelector('body[data-ready]', { timeout: 30000 });
      const n = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
      await page.click('button[data-example="hello"][data-arch="x86_64"]');
      await page.waitForFunction(k => Number(document.body.dataset.runs ?? 0) > k, n, { timeout: 60000 });
      assert.match(await page.textContent('#console'), /hello, world/);
      assert.match(await page.textContent('#run-status'), /exit code 0/);
      // The run's socket (opened as the page loaded) is not compressed: the page is on the server's machine.
      const extensions = await page.evaluate(async () => (await window.earlyExecutorSocket).extensions);
      assert.equal(extensions, '');
      // The process server allows two other origins only: the same page's
      // connection to it is refused at the upgrade (403) and counted.
      const refusedBefore = await metric(proc.url, 'linklab_sessions_refused_total', 'reason="origin"').catch(() => 0);
      const closed = await page.evaluate(url => new Promise(resolve => {
        const ws = new WebSocket(url);
        ws.onopen = () => resolve('opened');
        ws.onclose = e => resolve(`closed ${e.code}`);
      }), proc.url.replace('http', 'ws') + 'executor');
      assert.equal(closed, 'closed 1006');
      assert.equal(await metric(proc.url, 'linklab_sessions_refused_total', 'reason="origin"'), refusedBefore + 1);
      assert.ok(proc.logs.some(l => l.event === 'upgrade.refused' && l.origin === allowed), JSON.stringify(proc.logs));
      // The page served by that server cannot run either: its own origin is not on the list.
      await page.goto(proc.url);
      await page.waitForSelector('body[data-ready]', { timeout: 30000 });
      const m = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
      await page.click('button[data-example="hello"][data-arch="x86_64"]');
      await page.waitForFunction(k => Number(document.body.dataset.runs ?? 0) > k, m, { timeout: 60000 });
      assert.match(await page.textContent('#run-status'), /cannot connect to executor/);
      assert.equal(await page.textContent('#console'), '');
    } finally {
      await browser.close();
      await proc.stop();
    }
  });

test('past --max-executors sessions queue in order and the page shows its position; past the queue: server busy',
  async () => {
    const s = await serve({ maxExecutors: 1, queue: 1, maxWallMillis: 300_000 });
    // The only executor, held by a session that is running a loop.
    const holder = await client(s.url, s.origin);
    const spinning = holder.run(spin, { limits: { wallMillis: 60000 } });
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(s.url);
      await page.waitForSelector('body[data-ready]', { timeout: 30000 });
      const n = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
      await page.click('button[data-example="hello"][data-arch="x86_64"]');
      const status = () => document.querySelector('#run-status').textContent;
      await page.waitForFunction(`/position 1 in the queue/.test((${status})())`, null, { timeout: 30000 });
      assert.equal(await metric(s.url, 'linklab_queue_length'), 1);
      // The queue holds one: the next session is told the server is busy.
      const third = await rawSocket(s.url, s.origin);
      third.send(setupFrame());
      assert.deepEqual(await third.closed, { code: 1013, reason: 'server busy, try again later' });
      assert.equal(await metric(s.url, 'linklab_sessions_refused_total', 'reason="busy"'), 1);
      // The holder leaves: the page's run starts and finishes.
      holder.close();
      await assert.rejects(spinning, /executor/);
      await page.waitForFunction(k => Number(document.body.dataset.runs ?? 0) > k, n, { timeout: 60000 });
      assert.match(await page.textContent('#console'), /hello, world/);
      assert.equal(await metric(s.url, 'linklab_queue_length'), 0);
      assert.ok(await metric(s.url, 'linklab_queue_wait_seconds_count') >= 2);
      await page.close();
      await until(() => s.executors.size === 0, 5000, 'executors to end');
    } finally {
      await browser.close();
    }
  });

test('run limits above the server caps are lowered to them', async () => {
  const s = await serve({ maxInstructions: 2_000_000, maxWallMillis: 1500 });
  const c = await client(s.url, s.origin);
  // No budget asked (0): the cap applies; an enormous one: the cap applies.
  for (const instructions of [0, '18446744073709551615']) {
    const r = await c.run(spin, { limits: { instructions, wallMillis: 0xffffffff } });
    assert.equal(r.status, 'instruction limit', JSON.stringify(r));
    // The count includes the instruction that met the budget.
    assert.ok(BigInt(r.instructions) - 2_000_000n <= 1n, `${r.instructions} instructions`);
  }
  c.close();
  // Without an instruction cap, the wall-time cap: a client asking for 49.7 days gets 1.5 s.
  const t = await serve({ maxWallMillis: 1500 });
  const d = await client(t.url, t.origin);
  const t0 = Date.now();
  const r = await d.run(spin, { limits: { wallMillis: 0xffffffff } });
  assert.equal(r.status, 'time limit', JSON.stringify(r));
  assert.ok(Date.now() - t0 < 30000);
  assert.equal(await metric(t.url, 'linklab_runs_finished_total', 'status="time_limit"'), 1);
  d.close();
});

test('the executor cuts output at --max-output and the client is told; an executor that does not is cut off',
  async () => {
    const s = await serve({ maxOutput: 256 << 10, maxInstructions: 20000 });
    const c = await client(s.url, s.origin);
    const note = '\nlinklab: output truncated at 262144 bytes (the executor\'s output cap)\n';
    for (let run = 1; run <= 2; run++) { // per run: the second is cut as the first
      c.output = '';
      const r = await c.run(flood);
      assert.equal(r.status, 'instruction limit', JSON.stringify(r));
      assert.equal(c.output.length, (256 << 10) + note.length);
      assert.ok(c.output.endsWith(note), c.output.slice(-200));
      assert.equal(c.news.filter(n => n.output?.truncatedAt === 256 << 10).length, run);
    }
    assert.equal(await metric(s.url, 'linklab_runs_truncated_total'), 2);
    c.close();
    // An executor that ignores the cap (a wrapper that drops it) is cut off by the bridge.
    const executor = process.env.LINKLAB_EXECUTOR ?? path.join(ROOT, 'build/emulator/linklab-executor');
    const uncapped = path.join(tmp, 'uncapped-executor');
    fs.writeFileSync(uncapped, `#!/bin/sh\nexec '${executor}' stdio\n`, { mode: 0o755 });
    const t = await serve({ maxOutput: 256 << 10, executor: uncapped });
    const d = await client(t.url, t.origin);
    await assert.rejects(d.run(flood), /output limit: the program wrote more than 262144 bytes/);
    assert.ok(d.output.length <= (256 << 10) + (64 << 10) + 4096, `${d.output.length} bytes got through`);
    await until(() => t.executors.size === 0, 5000, 'the executor to end');
    assert.equal(await metric(t.url, 'linklab_runs_failed_total', 'reason="output_limit"'), 1);
  });

test('per-client limits: concurrent sessions and runs per minute', async () => {
  const s = await serve({ sessionsPerClient: 2, runsPerMinute: 3, maxInstructions: 10000 });
  const [a, b] = [await rawSocket(s.url, s.origin), await rawSocket(s.url, s.origin)];
  const c = await rawSocket(s.url, s.origin);
  assert.deepEqual(await c.closed, { code: 1008, reason: 'too many sessions from your address (at most 2)' });
  a.close(); b.close();
  await Promise.all([a.closed, b.closed]);
  const d = await client(s.url, s.origin);
  for (let i = 0; i < 3; i++) assert.equal((await d.run(spin)).status, 'instruction limit');
  await assert.rejects(d.run(spin), /rate limit: at most 3 runs a minute from one address/);
});

test('idle connections, half-sent frames and half-sent requests are dropped after their timeouts', async () => {
  const s = await serve({ idleTimeout: 500, handshakeTimeout: 1000 });
  const t0 = Date.now();
  const idle = await rawSocket(s.url, s.origin);
  assert.deepEqual(await idle.closed, { code: 1001, reason: 'idle timeout: nothing sent for 500 ms' });
  assert.ok(Date.now() - t0 < 10000);
  // A WebSocket frame header announcing 1000 bytes, then 10 of them.
  const half = await rawSocket(s.url, s.origin);
  half._socket.write(Buffer.concat([Buffer.from([0x82, 0xfe, 0x03, 0xe8, 1, 2, 3, 4]), Buffer.alloc(10)]));
  await Promise.race([new Promise(r => half._socket.once('close', r)),
    new Promise((_, reject) => setTimeout(() => reject(new Error('half-sent frame kept open')), 10000))]);
  // An HTTP request whose headers never end.
  const sock = net.connect(s.port, '127.0.0.1');
  sock.write('GET /executor HTTP/1.1\r\nHost: x\r\n');
  sock.on('data', () => {});
  await Promise.race([new Promise(r => sock.once('close', r)),
    new Promise((_, reject) => setTimeout(() => reject(new Error('half-sent request kept open')), 10000))]);
  assert.equal(await metric(s.url, 'linklab_sessions_open'), 0);
});

test('a session ends at its absolute lifetime even while it keeps talking', async () => {
  const s = await serve({ sessionLifetime: 800, idleTimeout: 5000 });
  const ws = await rawSocket(s.url, s.origin);
  ws.send(setupFrame());
  const talk = setInterval(() => ws.send(frame(5, 2, Buffer.alloc(4))), 100); // lookup of nothing
  try {
    assert.deepEqual(await ws.closed, { code: 1001, reason: 'session lifetime of 800 ms reached' });
  } finally { clearInterval(talk); }
  await until(() => s.executors.size === 0, 5000, 'the executor to end');
});

test('executors start only when a session sends its first message', async () => {
  const s = await serve();
  const sockets = await Promise.all(Array.from({ length: 5 }, () => rawSocket(s.url, s.origin)));
  await new Promise(r => setTimeout(r, 300));
  assert.equal(s.executors.size, 0);
  assert.equal(await metric(s.url, 'linklab_sessions_open'), 5);
  sockets[0].send(setupFrame());
  await until(() => sockets[0].messages.length, 10000, 'the setup result');
  assert.equal(s.executors.size, 1);
  for (const ws of sockets) ws.close();
  await until(() => s.executors.size === 0, 5000, 'the executor to end');
});

test('START, as the first message only, starts the executor before any frame', async () => {
  const s = await serve();
  const ws = await rawSocket(s.url, s.origin);
  ws.send(START);
  await until(() => s.executors.size === 1, 10000, 'the executor to start');
  ws.send(setupFrame());
  await until(() => ws.messages.length, 10000, 'the setup result');
  ws.send(START);
  assert.equal((await ws.closed).code, 1003);
  await until(() => s.executors.size === 0, 5000, 'the executor to end');
});

test('a frame sent right after START while the session queues reaches the executor once it starts',
  async () => {
    const s = await serve({ maxExecutors: 1, queue: 1, maxWallMillis: 300_000 });
    const holder = await client(s.url, s.origin);
    const spinning = holder.run(spin, { limits: { wallMillis: 60000 } });
    await until(() => s.executors.size === 1, 10000, 'the holder\'s executor');
    // START and a frame in one go: the socket is read before the bridge
    // pauses it for the queue.
    const ws = await rawSocket(s.url, s.origin);
    ws.send(START);
    ws.send(setupFrame());
    await until(() => ws.messages.some(m => m.queue === 1), 10000, 'the queue position');
    holder.close();
    await assert.rejects(spinning, /executor/);
    await until(() => ws.messages.some(m => Buffer.isBuffer(m)), 10000, 'the setup result');
    assert.equal((await fetch(`${s.url}healthz`)).status, 200);
    ws.close();
    await until(() => s.executors.size === 0, 5000, 'the executors to end');
  });

test('a compressed message inflating past the message limit is refused (1009); the server stays up', async () => {
  // A client elsewhere (as nginx forwards it) gets compression, one on the server's machine does not.
  const s = await serve({ trustProxy: true });
  const local = await rawSocket(s.url, s.origin);
  assert.equal(local.extensions, '');
  local.close();
  const ws = await rawSocket(s.url, s.origin, { 'x-forwarded-for': '203.0.113.7' });
  assert.match(ws.extensions, /permessage-deflate/);
  ws.send(frame(0x09, 1, Buffer.alloc(17 << 20))); // ~17 KB on the wire
  const { code } = await ws.closed;
  assert.equal(code, 1009);
  assert.equal(s.executors.size, 0);
  assert.equal((await fetch(`${s.url}healthz`)).status, 200);
});

test('a client that stops reading is cut off at a bounded buffer; so is one that floods a busy executor', async () => {
  const proc = await serverProcess(['--send-buffer', String(256 << 10), '--stall-timeout', '1000',
    '--max-output', String(1 << 30), '--max-wall-millis', '20000', '--store', path.join(tmp, 'links-slow')]);
  try {
    const origin = proc.url.slice(0, -1);
    const base = rssBytes(proc.proc.pid);
    const reader = await client(proc.url, origin);
    let first;
    const got = new Promise(r => { first = r; });
    reader.executor.onOutput(() => first());
    const running = reader.run(flood);
    await got;
    reader.ws._socket.pause(); // stops reading
    await until(() => proc.logs.some(l => l.event === 'executor.exit'), 20000, 'the executor to end');
    assert.equal(await metric(proc.url, 'linklab_sessions_refused_total', 'reason="slow_reader"'), 1);
    // Reading again, the client finds its session closed.
    reader.ws._socket.resume();
    await assert.rejects(running, /executor/);
    const afterSlow = rssBytes(proc.proc.pid);
    assert.ok(afterSlow - base < 96 << 20, `server grew by ${(afterSlow - base) >> 20} MiB`);

    // The flooder: its program loops (so its executor reads nothing) while
    // it sends 4 MiB messages of whole frames as fast as the socket takes them.
    const flooder = await client(proc.url, origin);
    const looping = flooder.run(spin, { limits: { wallMillis: 20000 } }).catch(e => e);
    await new Promise(r => setTimeout(r, 500));
    const junk = frame(0x09, 9, Buffer.alloc(4 << 20)); // write-memory: whole, valid-looking frames
    let sent = 0;
    const t0 = Date.now();
    while (flooder.ws.readyState === 1 && Date.now() - t0 < 15000) {
      if (flooder.ws.bufferedAmount < 16 << 20) { flooder.ws.send(junk); sent += junk.length; }
      await new Promise(r => setTimeout(r, 1));
    }
    assert.ok(flooder.ws.readyState !== 1, `the flooder was not cut off (sent ${sent >> 20} MiB)`);
    assert.match(String((await looping)?.message), /client flooding/);
    assert.equal(await metric(proc.url, 'linklab_sessions_refused_total', 'reason="flooding"'), 1);
    const grown = rssBytes(proc.proc.pid) - base;
    assert.ok(grown < 128 << 20, `server grew by ${grown >> 20} MiB while the client sent ${sent >> 20} MiB`);
    await until(async () => await metric(proc.url, 'linklab_executors_running') === 0, 5000, 'executors to end');
  } finally {
    await proc.stop();
  }
});

test('Range requests are capped: a range bomb gets 416 or at most the file, and the server stays up', async () => {
  const s = await serve();
  const url = `${s.url}index.html`;
  const size = fs.statSync(path.join(import.meta.dirname, '../index.html')).size;
  const bomb = `bytes=${Array.from({ length: 4096 }, () => '0-').join(',')}`;
  const r1 = await fetch(url, { headers: { range: bomb } });
  assert.equal(r1.status, 416);
  assert.match(await r1.text(), /more than 2048 ranges/);
  // Ranges asking for the file many times over.
  const overlap = `bytes=${Array.from({ length: 60 }, () => '0-').join(',')}`;
  const r2 = await fetch(url, { headers: { range: overlap } });
  assert.equal(r2.status, 416);
  assert.match(await r2.text(), /the ranges add up to more than the file/);
  // Several disjoint ranges: one multipart answer with each part's bytes.
  const r4 = await fetch(url, { headers: { range: 'bytes=0-9,100-109' } });
  assert.equal(r4.status, 206);
  assert.match(r4.headers.get('content-type'), /^multipart\/byteranges; boundary=/);
  const body = Buffer.from(await r4.arrayBuffer()).toString('latin1');
  assert.match(body, new RegExp(`content-range: bytes 100-109/${size}`));
  assert.equal((await fetch(`${s.url}healthz`)).status, 200);
});

test('short links: content-derived ids in the file store, clear errors for bad ones', async () => {
  const s = await serve({ linkMaxBytes: 4096, storeMaxBytes: 6000 });
  const session = { format: 'linklab-session', version: 1, arch: 'x86_64', objects: [], run: { args: 'a b' } };
  const post = body =>
    fetch(`${s.url}s`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  const a = await (await post(session)).json();
  assert.match(a.id, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(a.url, `/s/${a.id}`);
  // The same session, keys in another order: the same link.
  const reordered = { run: { args: 'a b' }, objects: [], arch: 'x86_64', version: 1, format: 'linklab-session' };
  const b = await (await post(reordered)).json();
  assert.equal(b.id, a.id);
  const open = await fetch(`${s.url}s/${a.id}`, { redirect: 'manual' });
  assert.equal(open.status, 302);
  assert.equal(open.headers.get('location'), `/?s=${a.id}`);
  assert.deepEqual(await (await fetch(`${s.url}s/${a.id}.json`)).json(), session);
  const files = fs.readdirSync(path.join(tmp, `links-${servers.length - 1}`), { recursive: true });
  assert.ok(files.some(f => f.endsWith(`${a.id}.json`)) && !files.some(f => f.endsWith('.tmp')), files.join());
  // Errors: a page (or JSON for POST) that says what is wrong.
  const bad = [
    [await fetch(`${s.url}s/not-an-id`), 400, /is not a short link id/],
    [await fetch(`${s.url}s/${'A'.repeat(22)}`), 404, /No session is stored under A{22}/],
    [await fetch(`${s.url}s/${'%00'.repeat(30)}`), 400, /is not a short link id/],
    [await post('{"format":'), 400, /session is not JSON/],
    [await post({ hello: 1 }), 400, /not a linklab session/],
    [await post({ ...session, pad: 'x'.repeat(5000) }), 413, /session too large/],
  ];
  for (const [r, status, text] of bad) {
    assert.equal(r.status, status);
    assert.match(await r.text(), text);
  }
  // The store's total cap.
  for (let i = 0; ; i++) {
    const r = await post({ ...session, pad: 'y'.repeat(1500) + i });
    if (r.status === 507) { assert.match(await r.text(), /link store full/); break; }
    assert.equal(r.status, 200);
    assert.ok(i < 5, 'the total cap never applied');
  }
  assert.equal((await fetch(`${s.url}healthz`)).status, 200);
});

test('/metrics is Prometheus text with the run counters; /healthz answers', async () => {
  const s = await serve({ maxInstructions: 10000 });
  const c = await client(s.url, s.origin);
  assert.equal((await c.run(spin)).status, 'instruction limit');
  c.close();
  const text = await (await fetch(`${s.url}metrics`)).text();
  for (const name of ['linklab_executors_running', 'linklab_queue_length', 'linklab_runs_started_total',
    'linklab_runs_finished_total', 'linklab_runs_failed_total', 'linklab_run_duration_seconds_bucket',
    'linklab_queue_wait_seconds_bucket', 'linklab_server_process_resident_memory_bytes'])
    assert.match(text, new RegExp(`^# TYPE ${name.replace(/_bucket$/, '')} `, 'm'), name);
  assert.equal(await metric(s.url, 'linklab_runs_started_total'), 1);
  assert.equal(await metric(s.url, 'linklab_runs_finished_total', 'status="instruction_limit"'), 1);
  const h = await fetch(`${s.url}healthz`);
  assert.equal(h.status, 200);
  assert.equal(await h.text(), 'ok\n');
});

test('the server killed (SIGKILL or SIGTERM) ends every executor it started', async () => {
  for (const signal of ['SIGKILL', 'SIGTERM']) {
    const proc = await serverProcess(['--store', path.join(tmp, `links-${signal}`)]);
    const origin = proc.url.slice(0, -1);
    const clients = await Promise.all([client(proc.url, origin), client(proc.url, origin)]);
    const runs = clients.map(c => c.run(spin, { limits: { wallMillis: 60000 } }).catch(e => e));
    const two = () => { const p = executorsOf(proc.proc.pid); return p.length === 2 && p; };
    const pids = await until(two, 10000, 'two executors');
    await new Promise(r => setTimeout(r, 300));
    proc.proc.kill(signal);
    await until(() => pids.every(p => !alive(p)), 5000, `executors ${pids} to end after ${signal}`);
    for (const r of await Promise.all(runs)) assert.match(String(r?.message), /executor/);
    if (signal === 'SIGTERM') assert.ok(proc.logs.some(l => l.event === 'server.stopping'), JSON.stringify(proc.logs));
    await proc.stop();
  }
});

test('500 connect/close cycles leave no executor, socket or memory behind', async () => {
  const proc = await serverProcess(['--max-executors', '4', '--store', path.join(tmp, 'links-cycles')]);
  try {
    const origin = proc.url.slice(0, -1);
    const fds = () => fs.readdirSync(`/proc/${proc.proc.pid}/fd`).length;
    // Warm-up (first executor start, first metrics) before the baseline.
    for (let i = 0; i < 5; i++) {
      const ws = await rawSocket(proc.url, origin);
      ws.send(setupFrame());
      ws.close();
      await ws.closed;
    }
    await until(async () => await metric(proc.url, 'linklab_executors_running') === 0, 10000, 'warm-up executors');
    const base = { fds: fds(), rss: rssBytes(proc.proc.pid) };
    for (let i = 0; i < 500; i += 10) {
      await Promise.all(Array.from({ length: 10 }, async (_, j) => {
        const ws = await rawSocket(proc.url, origin);
        if ((i + j) % 10 === 0) ws.send(setupFrame()); // every tenth starts an executor
        ws.close();
        await ws.closed;
      }));
    }
    const settled = async () => await metric(proc.url, 'linklab_executors_running') === 0 &&
                                await metric(proc.url, 'linklab_sessions_open') === 0;
    await until(settled, 15000, 'sessions and executors to end');
    assert.deepEqual(executorsOf(proc.proc.pid), []);
    await until(() => fds() <= base.fds + 2, 5000, `descriptors back to ${base.fds} (now ${fds()})`);
    const grown = rssBytes(proc.proc.pid) - base.rss;
    assert.ok(grown < 48 << 20, `server grew by ${grown >> 20} MiB over 500 cycles`);
  } finally {
    await proc.stop();
  }
});

test('--origin and numbers are checked on the command line', async () => {
  const { spawnSync } = await import('node:child_process');
  const server = path.join(import.meta.dirname, '../server.mjs');
  const run = (...a) => spawnSync(process.execPath, [server, ...a], { encoding: 'utf8' });
  assert.match(run('--origin', 'ftp://x').stderr, /--origin: 'ftp:\/\/x' is not http\(s\)/);
  assert.match(run('--max-executors', 'many').stderr, /--max-executors: 'many' is not a whole number/);
  assert.match(run('--bogus').stderr, /Unknown option '--bogus'/);
  assert.match(run('--help').stdout, /--max-executors X\s+executors running at once/);
});
