// Shared by the server's tests (serve.test.mjs, deploy.test.mjs): a server
// in its own process, clients over WebSocket through the npm package, raw
// executor frames, and bounded waits.
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { spawn, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import * as L from '../../wasm-bindings/node.mjs';
import { makeSession, runProgram } from '../src/link-flow.mjs';
import { ARCHES, cflags } from '../runtimes.mjs';

export const WEB = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(WEB);
export { L };

// Polls cond() every 50 ms until it is truthy or `ms` pass (then throws what).
export async function until(cond, ms, what) {
  for (const end = Date.now() + ms; ;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

// `node web/server.mjs ARGS` in its own process; resolves to {url, proc,
// logs (parsed JSON lines), stop()}.
export async function serverProcess(args, env = {}) {
  const proc = spawn(process.execPath, [path.join(WEB, 'server.mjs'), '--port', '0', ...args],
                     { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const logs = [];
  let err = '';
  proc.stderr.on('data', d => {
    err += d;
    for (let i; (i = err.indexOf('\n')) >= 0; err = err.slice(i + 1)) {
      try { logs.push(JSON.parse(err.slice(0, i))); } catch { logs.push({ raw: err.slice(0, i) }); }
    }
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', d => {
      out += d;
      const m = /linklab playground: (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on('exit', code => reject(new Error(`server exited with ${code}: ${JSON.stringify(logs.slice(-3))}`)));
    setTimeout(() => reject(new Error('server did not start in 20 s')), 20000).unref();
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await Promise.race([new Promise(r => proc.once('exit', r)), new Promise(r => setTimeout(r, 8000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    }
  };
  return { url, proc, logs, stop };
}

// The linklab-executor processes whose parent is pid (from /proc; the
// server's other child is esbuild's service).
export function executorsOf(pid) {
  const out = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && /^(linklab-exec|setpriv)/.test(comm)) out.push(Number(d));
    } catch { /* exited meanwhile */ }
  }
  return out;
}
export const alive = pid => { try { process.kill(pid, 0); return true; } catch { return false; } };
export const rssBytes = pid => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

// A metric's value from /metrics text (sum over label sets matching `labels`).
export async function metric(url, name, labels = '') {
  const text = await (await fetch(new URL('metrics', url))).text();
  let sum = 0, seen = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    seen = true;
  }
  if (!seen) throw new Error(`no metric ${name}${labels} in:\n${text.slice(0, 2000)}`);
  return sum;
}

// A ws WebSocket class that sends `origin` (what a browser page sends).
export const originSocket = origin => class extends WebSocket {
  constructor(url) { super(url, { origin }); }
};
export const wsUrl = url => url.replace(/^http/, 'ws') + 'executor';

// Objects built from the test inputs (clang-22, the gallery's flags).
export function compileInput(src, arch, dir, extra = []) {
  const out = path.join(dir, `${path.basename(src).replace(/\.[cs]$/, '')}-${arch}.o`);
  execFileSync('clang-22', ['-Qunused-arguments', ...cflags(L, arch), '-O1', ...extra, '-c',
    path.join(WEB, 'test/inputs', src), '-o', out]);
  return { name: path.basename(out), bytes: fs.readFileSync(out) };
}

// A client of the bridge through the package: connects (with origin),
// sets up an executor for arch. Resolves to {executor, transport, ws,
// news (the bridge's status messages), output (text), run(objects, opts)}.
export async function client(url, origin, arch = 'x86_64') {
  const ws = new (originSocket(origin))(wsUrl(url));
  ws.on('error', () => {}); // a refused upgrade: the transport reports its close
  const transport = await L.webSocketTransport(ws);
  const news = [];
  transport.onStatus(n => news.push(n));
  const executor = new L.Executor(transport);
  const c = { ws, transport, executor, news, output: '' };
  executor.onOutput((_, d) => { c.output += Buffer.from(d).toString(); });
  const { triple } = ARCHES[arch];
  await executor.setup(triple);
  c.run = (objects, { runtime = null, limits = {}, args = [] } = {}) => {
    const ctx = makeSession(L, { triple, objects, runtime, executor });
    return runProgram(ctx, { argv0: objects[0].name.replace(/\.o$/, ''), args, limits });
  };
  c.close = () => transport.close();
  return c;
}

// Raw executor frames (core/protocol/PROTOCOL.md), for clients that are not the package.
export function frame(kind, seq, payload = Buffer.alloc(0)) {
  const b = Buffer.alloc(12 + payload.length);
  b.writeUInt32LE(8 + payload.length, 0);
  b.writeUInt16LE(kind, 4);
  b.writeUInt32LE(seq, 8);
  payload.copy(b, 12);
  return b;
}
// The protocol version the executor speaks, from the one header that defines it.
const PROTOCOL_H = fs.readFileSync(path.join(ROOT, 'core/protocol/protocol.h'), 'utf8');
const VERSION = Number(/ProtocolVersion = (\d+)/.exec(PROTOCOL_H)[1]);
export function setupFrame(triple = ARCHES.x86_64.triple, seq = 1) {
  const t = Buffer.from(triple), p = Buffer.alloc(8 + t.length);
  p.writeUInt32LE(VERSION, 0);
  p.writeUInt32LE(t.length, 4);
  t.copy(p, 8);
  return frame(1, seq, p);
}
// Opens a raw WebSocket; resolves when open (or with {refused: status}).
export function rawSocket(url, origin, headers = {}) {
  return new Promise(resolve => {
    const ws = new WebSocket(wsUrl(url), { origin, headers });
    ws.messages = [];
    ws.closed = new Promise(r => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('message', (d, binary) => ws.messages.push(binary ? d : JSON.parse(d.toString())));
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_, res) => resolve({ refused: res.statusCode }));
    ws.on('error', () => {});
  });
}

// A free TCP port on host (for nginx and PostgreSQL).
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, host, () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}
