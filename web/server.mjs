// The playground's one local server: serves the static page (web/) with its
// modules as one file (page-bundle.mjs), the wasm package (wasm-bindings/),
// the graph libraries from node_modules, the gallery objects and the C
// runtime's files, and bridges a WebSocket at /executor to
// a `linklab-executor stdio` process — one process per connection, killed
// when the connection closes. It listens on loopback only; the page does all
// linking, the server only moves bytes.
//
//   node web/server.mjs [--port N] [--executor PATH] [--gallery DIR]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { runtimeFile } from './runtimes.mjs';
import { prepareRuntimes } from './prepare-runtimes.mjs';
import { pageBundler, BUNDLE_PREFIX } from './page-bundle.mjs';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(WEB);

// One executor frame is at most 64 MiB + 4 (PROTOCOL.md); the playground's
// programs are far smaller, so the bridge refuses anything past this cap
// before it reaches the executor.
export const MAX_MESSAGE = 16 << 20;

const MIME = {
  '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.js': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.map': 'application/json',
  '.c': 'text/plain; charset=utf-8', '.s': 'text/plain; charset=utf-8', '.S': 'text/plain; charset=utf-8',
};

// URL prefix → folder. Only these trees are served; node_modules only for the
// packages the page imports.
function mounts(gallery) {
  return [
    ['/node_modules/cytoscape/', path.join(WEB, 'node_modules/cytoscape/')],
    ['/node_modules/cytoscape-dagre/', path.join(WEB, 'node_modules/cytoscape-dagre/')],
    ['/node_modules/@alexaltea/capstone-js/dist/', path.join(WEB, 'node_modules/@alexaltea/capstone-js/dist/')],
    ['/linklab/', path.join(ROOT, 'wasm-bindings/')],
    // The same package files as web/src imports them by relative path.
    ['/wasm-bindings/lib/', path.join(ROOT, 'wasm-bindings/lib/')],
    ['/gallery/', gallery + '/'],
    ['/', WEB + '/'],
  ];
}
const HIDDEN = /(^|\/)(node_modules|test|artifacts|\.)/; // under the web/ root mount

// The wasm package, for the C runtime table (runtimeInfo): the server serves
// exactly the files the page's session will ask for, from the paths the core
// names. Loaded on first use, so the server still starts (and serves the
// page, which then says the core is missing) before the wasm is built.
let pkg = null;
const loadPackage = () => (pkg ??= import('../wasm-bindings/index.mjs'));

// /runtime/<arch>/<name> → the Debian path the core's runtime table gives.
async function runtimePath(urlPath) {
  const [arch, name, ...rest] = urlPath.slice('/runtime/'.length).split('/');
  if (rest.length) return null;
  return runtimeFile(await loadPackage(), arch, name)?.path ?? null;
}

function resolveFile(urlPath, gallery) {
  for (const [prefix, dir] of mounts(gallery)) {
    if (!urlPath.startsWith(prefix)) continue;
    const rel = urlPath.slice(prefix.length) || 'index.html';
    if (prefix === '/' && HIDDEN.test(rel)) return null;
    const file = path.resolve(dir, rel);
    return file.startsWith(dir) ? file : null; // no climbing out with ..
  }
  return null;
}

// The prepared C runtimes (prepare-runtimes.mjs): config.json names each
// architecture's manifest; /runtimes/b/<hash>.gz are their blobs, named by
// their content's hash, so a browser keeps them for good.
const BLOB = /^\/runtimes\/b\/([0-9a-f]{20})\.gz$/;
async function servePrepared(res, urlPath, runtimes) {
  if (urlPath === '/config.json') {
    const prepared = await runtimes.arches;
    return send(res, 200, MIME['.json'], JSON.stringify({ executor: 'executor', runtimes: prepared ?? {} }));
  }
  const m = BLOB.exec(urlPath);
  let data;
  try { data = m && await fs.promises.readFile(path.join(runtimes.dir, 'b', `${m[1]}.gz`)); } catch { data = null; }
  if (!data) return send(res, 404, 'text/plain', `not found: ${urlPath}\n`);
  send(res, 200, 'application/octet-stream', data, { 'cache-control': 'public, max-age=31536000, immutable' });
}

async function serveStatic(req, res, gallery, bundler, runtimes) {
  let urlPath;
  try { urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { urlPath = null; }
  if (urlPath === '/config.json' || urlPath?.startsWith('/runtimes/')) return servePrepared(res, urlPath, runtimes);
  if (urlPath?.startsWith(BUNDLE_PREFIX)) {
    const f = await bundler.file(urlPath.slice(BUNDLE_PREFIX.length));
    if (!f) return send(res, 404, 'text/plain', `not found: ${req.url}\n`);
    return sendWhole(req, res, MIME[path.extname(urlPath)], f);
  }
  let file;
  if (urlPath?.startsWith('/runtime/')) {
    try { file = await runtimePath(urlPath); } catch (e) {
      return send(res, 503, 'text/plain',
        `C runtime table unavailable (the wasm package did not load: ${e.message}); run scripts/build-wasm.sh\n`);
    }
  } else file = urlPath && resolveFile(urlPath, gallery);
  if (!file) return send(res, 404, 'text/plain', `not found: ${req.url}\n`);
  const type = MIME[path.extname(file)] ?? 'application/octet-stream';
  // Ranges, `bytes=START-[END][, ...]`: the page reads an archive's head
  // (its symbol index), then only the members a link pulls, a batch a round.
  const ranges = parseRanges(req.headers.range);
  if (ranges) return serveRanges(res, file, type, ranges, req.url);
  let whole;
  try {
    whole = await readWhole(file);
  } catch (e) {
    return send(res, 404, 'text/plain', `not found: ${req.url} (${e.code})\n`);
  }
  sendWhole(req, res, type, whole);
}
// A whole file, or 304 when the browser's copy has its tag.
function sendWhole(req, res, type, { data, etag }) {
  if (etag && req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag, 'cache-control': 'no-cache' });
    return res.end();
  }
  send(res, 200, type, data, etag ? { etag } : {});
}
// Whole files served, kept in memory while their size and mtime stay: the
// C runtime's archives are megabytes (libc.a and libgcc.a, 8.5 MB for
// x86-64), and fs.readFile reads them in 512 KB tasks on libuv's 4-thread
// pool, where every other request's read queued behind them (a 1 KB object
// took 230 ms on a loaded machine). One read each, once. The tag lets a
// browser revalidate instead of downloading again.
const wholeFiles = new Map(); // path -> {size, mtimeMs, data, etag}
async function readWhole(file) {
  // A hit costs one stat (each file-system call is a trip to libuv's pool, slow under load).
  const hit = wholeFiles.get(file);
  if (hit) {
    const { size, mtimeMs } = await fs.promises.stat(file);
    if (hit.size === size && hit.mtimeMs === mtimeMs) return hit;
  }
  const fd = await fs.promises.open(file);
  try {
    const { size, mtimeMs } = await fd.stat();
    const data = Buffer.allocUnsafe(size);
    for (let at = 0; at < size;) {
      const { bytesRead } = await fd.read(data, at, size - at, at);
      if (!bytesRead) throw Object.assign(new Error('file shrank while read'), { code: 'ESHORT' });
      at += bytesRead;
    }
    const entry = { size, mtimeMs, data, etag: `"${size.toString(16)}-${Math.round(mtimeMs).toString(16)}"` };
    wholeFiles.set(file, entry);
    return entry;
  } finally {
    await fd.close();
  }
}
// [[start, end]] (end inclusive, Infinity for open) of a `bytes=` header, or null.
const MAX_RANGES = 4096;
function parseRanges(header) {
  const m = /^bytes=(\d+-\d*(?:,\s*\d+-\d*)*)$/.exec(header ?? '');
  if (!m) return null;
  const ranges = m[1].split(',').map(r => r.trim().split('-')).map(([a, b]) => [Number(a), b ? Number(b) : Infinity]);
  return ranges.length <= MAX_RANGES ? ranges : null;
}
// One range as its bytes with Content-Range; several as multipart/byteranges
// (RFC 9110 §14.6), each part with its own Content-Range. Sliced from the
// file kept in memory (readWhole): a link's rounds ask libc.a again and again.
async function serveRanges(res, file, type, ranges, url) {
  let data;
  try {
    ({ data } = await readWhole(file));
  } catch (e) {
    return send(res, 404, 'text/plain', `not found: ${url} (${e.code})\n`);
  }
  const size = data.length;
  if (ranges.some(([start, end]) => start >= size || end < start)) {
    res.writeHead(416, { 'content-range': `bytes */${size}`, 'cache-control': 'no-cache' });
    return res.end();
  }
  const bodies = ranges.map(([start, end]) => data.subarray(start, Math.min(end, size - 1) + 1));
  const contentRange = ([start], body) => `bytes ${start}-${start + body.length - 1}/${size}`;
  if (ranges.length === 1)
    return send(res, 206, type, bodies[0], { 'content-range': contentRange(ranges[0], bodies[0]) });
  const boundary = `linklab-${Date.now().toString(36)}`;
  const parts = ranges.flatMap((r, i) => [
    Buffer.from(`--${boundary}\r\ncontent-type: ${type}\r\ncontent-range: ${contentRange(r, bodies[i])}\r\n\r\n`),
    bodies[i], Buffer.from('\r\n')]);
  const body = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
  send(res, 206, `multipart/byteranges; boundary=${boundary}`, body);
}
function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache', 'accept-ranges': 'bytes', ...headers });
  res.end(body);
}

// Cuts the executor's byte stream after its last whole frame (u32 LE size,
// then that many bytes), so each WebSocket message carries whole frames:
// every frame that arrived together goes out as one message (a link's
// ~1300 replies would otherwise be ~1300 messages).
function frameSplitter(onFrames) {
  let buf = Buffer.alloc(0);
  return chunk => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const end = wholeFrames(buf);
    if (end) onFrames(buf.subarray(0, end));
    buf = buf.subarray(end);
  };
}
// The length of the whole frames at the start of buf.
function wholeFrames(buf) {
  let end = 0;
  while (buf.length - end >= 4 && buf.length - end - 4 >= buf.readUInt32LE(end)) end += 4 + buf.readUInt32LE(end);
  return end;
}

function bridge(ws, executorPath, executors, log) {
  const child = spawn(executorPath, ['stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  executors.add(child);
  let stderr = '';
  child.stderr.on('data', d => { stderr = (stderr + d).slice(-2000); });
  child.stdout.on('data', frameSplitter(frames => ws.send(frames, { binary: true })));
  child.stdin.on('error', () => {}); // a dead executor is reported by 'exit'
  child.on('error', err => ws.close(1011, `cannot start executor: ${err.message}`.slice(0, 120)));
  child.on('exit', (code, signal) => {
    executors.delete(child);
    const why = signal ? `executor killed by ${signal}` : `executor exited with status ${code}`;
    log(`executor ${child.pid}: ${why}${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`);
    // WebSocket close reasons are limited to 123 bytes.
    if (ws.readyState === ws.OPEN) ws.close(signal || code ? 1011 : 1000, why.slice(0, 120));
  });
  ws.on('message', (data, isBinary) => {
    // One message is whole frames: their size fields add up to its length.
    if (!isBinary || !data.length || wholeFrames(data) !== data.length)
      return ws.close(1003, 'bridge: a message must be whole binary executor frames');
    child.stdin.write(data);
  });
  ws.on('close', () => child.kill('SIGKILL'));
  // Oversized or malformed WebSocket frames arrive as errors (ws then closes
  // with 1009/1002); without a listener they would take the server down.
  ws.on('error', err => log(`executor ${child.pid}: connection error: ${err.message}`));
  log(`executor ${child.pid}: started for a connection`);
}

// Starts the server; resolves to {url, port, close(), executors} (the live
// executor processes, for tests that kill one mid-run).
export function startServer({
  port = 8080, host = '127.0.0.1',
  executor = process.env.LINKLAB_EXECUTOR ?? path.join(ROOT, 'build/emulator/linklab-executor'),
  gallery = process.env.LINKLAB_GALLERY ?? path.join(ROOT, 'build/web-gallery'),
  runtimes = process.env.LINKLAB_RUNTIMES ?? path.join(ROOT, 'build/web-runtimes'),
  origins = [], // pages of other origins allowed to drive executors (a static site using this bridge)
  log = () => {},
} = {}) {
  const executors = new Set();
  const bundler = pageBundler({ root: WEB, log });
  // Prepared when stale (scripts/run and scripts/test prepare them first).
  const prepared = {
    dir: runtimes,
    arches: prepareRuntimes({ out: runtimes, gallery, log }).catch(e => {
      log(`C runtimes not prepared: ${e.message}; the page links without them`);
      return null;
    }),
  };
  const server = http.createServer((req, res) => serveStatic(req, res, gallery, bundler, prepared));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  server.on('upgrade', (req, socket, head) => {
    const { port: p } = server.address();
    // Only pages this server served may drive an executor: a page from any
    // other origin could otherwise run code through it.
    const allowed = [`http://127.0.0.1:${p}`, `http://localhost:${p}`, `http://[::1]:${p}`, ...origins];
    if (new URL(req.url, 'http://x').pathname !== '/executor' || !allowed.includes(req.headers.origin)) {
      log(`refused WebSocket from origin ${req.headers.origin ?? '(none)'} to ${req.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, ws => bridge(ws, executor, executors, log));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolve({
        url: `http://${host}:${actual}/`, port: actual, executors, gallery,
        close: () => new Promise(r => {
          bundler.close();
          for (const c of executors) c.kill('SIGKILL');
          for (const ws of wss.clients) ws.terminate();
          server.close(() => r());
        }),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = name => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
  const opts = { log: m => console.error(`[server] ${m}`) };
  if (arg('--port')) opts.port = Number(arg('--port'));
  if (arg('--executor')) opts.executor = arg('--executor');
  if (arg('--gallery')) opts.gallery = arg('--gallery');
  if (!fs.existsSync(opts.executor ?? path.join(ROOT, 'build/emulator/linklab-executor')))
    console.error('[server] warning: linklab-executor not found; linking works, running does not');
  const started = s => console.log(`linklab playground: ${s.url}`);
  const failed = err => { console.error(`linklab server: ${err.message}`); process.exit(1); };
  startServer(opts).then(started, err => {
    if (err.code !== 'EADDRINUSE') return failed(err);
    // Another server has the port: take any free one rather than stop.
    console.error(`[server] port ${opts.port ?? 8080} is in use; picking a free one`);
    startServer({ ...opts, port: 0 }).then(started, failed);
  });
}
