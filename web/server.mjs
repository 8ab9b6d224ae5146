// The playground's server: serves the static page (web/) with its modules
// as one file (page-bundle.mjs), the wasm package (wasm-bindings/), the
// graph libraries from node_modules, the gallery objects and the C
// runtime's files; bridges a WebSocket at /executor to `linklab-executor
// stdio` processes (server/bridge.mjs: a capped number, a FIFO queue,
// per-client limits, capped run limits); stores short links (/s,
// server/links.mjs); answers /healthz and /metrics (Prometheus). The page
// does all linking; the server moves bytes. Options: server/options.mjs
// (`node web/server.mjs --help`).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { runtimeFile } from './runtimes.mjs';
import { prepareRuntimes, firstBlobsOf, onDemandBlobsOf, exampleBlobsOf } from './prepare-runtimes.mjs';
import { pageBundler, BUNDLE_PREFIX } from './page-bundle.mjs';
import { DEFAULTS, parseOptions, usage } from './server/options.mjs';
import { MAX_MESSAGE, ExecutorSlots, RunRate, serveSession } from './server/bridge.mjs';
import { serveFile, sendCompressible } from './server/static.mjs';
import { serverMetrics } from './server/metrics.mjs';
import { handleLinks, openStore } from './server/links.mjs';
import { jsonLogger, quiet } from './server/log.mjs';

export { MAX_MESSAGE };
const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(WEB);

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
    // The same package files under the paths the page bundle's source map gives them (esbuild
    // resolves linklab/... through node_modules/linklab, a link to wasm-bindings/).
    ['/wasm-bindings/lib/', path.join(ROOT, 'wasm-bindings/lib/')],
    ['/gallery/', gallery + '/'],
    ['/', WEB + '/'],
  ];
}
const HIDDEN = /(^|\/)(node_modules|test|artifacts|server\/|\.)/; // under the web/ root mount

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
const BLOB = /^\/runtimes\/b\/([0-9a-f]{20}(?:-\d{1,7})?)\.gz$/; // a unit's: its archive's hash, its index
// config.json also names the short-link endpoint when there is a store.
async function servePrepared(req, res, urlPath, runtimes, links) {
  if (urlPath === '/config.json') {
    const [prepared, first, onDemand, examples] =
      await Promise.all([runtimes.arches, runtimes.first, runtimes.onDemand, runtimes.examples]);
    res.writeHead(200, { 'content-type': MIME['.json'], 'cache-control': 'no-cache' });
    const config = { executor: 'executor', ...(links ? { links: 's' } : {}), runtimes: prepared ?? {},
                     ...(first ? { runtimeFirst: first } : {}), ...(onDemand ? { runtimeOnDemand: onDemand } : {}),
                     ...(examples ? { runtimeExamples: examples } : {}) };
    return res.end(JSON.stringify(config));
  }
  const m = BLOB.exec(urlPath);
  if (!m) return text(res, 404, `not found: ${urlPath}\n`);
  return serveFile(req, res, path.join(runtimes.dir, 'b', `${m[1]}.gz`), 'application/octet-stream',
                   'public, max-age=31536000, immutable');
}

async function serveStatic(req, res, urlPath, gallery, bundler, runtimes, links) {
  if (urlPath === '/config.json' || urlPath?.startsWith('/runtimes/'))
    return servePrepared(req, res, urlPath, runtimes, links);
  if (urlPath?.startsWith(BUNDLE_PREFIX)) {
    const f = await bundler.file(urlPath.slice(BUNDLE_PREFIX.length));
    if (!f) return text(res, 404, `not found: ${req.url}\n`);
    return sendGenerated(req, res, MIME[path.extname(urlPath)], urlPath, f);
  }
  let file;
  if (urlPath?.startsWith('/runtime/')) {
    try { file = await runtimePath(urlPath); } catch (e) {
      return text(res, 503, 'C runtime table unavailable (the wasm package did not load: ' +
        `${e.message}); run scripts/build-wasm.sh\n`);
    }
  } else file = urlPath && resolveFile(urlPath, gallery);
  if (!file) return text(res, 404, `not found: ${req.url}\n`);
  return serveFile(req, res, file, MIME[path.extname(file)] ?? 'application/octet-stream');
}
// A file built in memory (the page bundle), or 304 when the browser's copy has its tag.
function sendGenerated(req, res, type, urlPath, { data, etag }) {
  return sendCompressible(req, res, { type, cacheControl: 'no-cache', key: urlPath, size: data.length,
                                      tag: etag?.slice(1, -1), read: async () => data });
}
function text(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(body);
}

// setpriv (util-linux) gives each executor a parent-death signal: if the
// server dies, even by SIGKILL, the kernel kills its executors.
const SETPRIV = (() => {
  try { execFileSync('setpriv', ['--help'], { stdio: 'ignore' }); return 'setpriv'; } catch { return null; }
})();

// The client's address: the socket's, or behind a proxy we trust, the
// last X-Forwarded-For hop (the address nginx saw).
function clientAddress(req, trustProxy) {
  const fwd = trustProxy && req.headers['x-forwarded-for'];
  return fwd ? fwd.split(',').pop().trim() : req.socket.remoteAddress;
}

// An address on this machine: 127.0.0.0/8 or ::1 (also IPv4-mapped).
const isLoopback = address => /^(::ffff:)?127\./.test(address ?? '') || address === '::1';

// Starts the server; resolves to {url, port, close(), executors, metrics}
// (executors: the live executor processes, for tests that kill one mid-run).
// Options: server/options.mjs; log(event, fields, level) gets structured
// events (server.mjs's command line prints them as JSON lines).
export async function startServer(options = {}) {
  const opts = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  opts.executor ??= process.env.LINKLAB_EXECUTOR ?? path.join(ROOT, 'build/emulator/linklab-executor');
  opts.gallery ??= process.env.LINKLAB_GALLERY ?? path.join(ROOT, 'build/web-gallery');
  opts.store ??= process.env.LINKLAB_STORE ?? path.join(ROOT, 'data/links');
  opts.runtimes ??= process.env.LINKLAB_RUNTIMES ?? path.join(ROOT, 'build/web-runtimes');
  const log = opts.log ?? quiet;
  const { gallery } = opts;
  const metrics = serverMetrics();
  const store = await openStore(opts.store, { maxTotal: opts.storeMaxBytes });
  const executors = new Set();
  const slots = new ExecutorSlots(opts.maxExecutors, opts.queue, () => {
    metrics.queue.set(slots.waiting);
  });
  const ctx = {
    opts, slots, metrics, log, executors, rate: new RunRate(opts.runsPerMinute),
    // The executor keeps at most --max-output bytes of each run's output and says so (its output-cap).
    spawnArgs: (args => SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', opts.executor, ...args]] : [opts.executor, args])(
      ['stdio', ...(opts.maxOutput ? [`output-cap=${opts.maxOutput}`] : [])]),
  };
  const bundler = pageBundler({ root: WEB, log: m => log('bundle', { message: m }) });
  // Prepared when stale (scripts/run and scripts/test prepare them first).
  const prepared = {
    dir: opts.runtimes,
    arches: prepareRuntimes({ out: opts.runtimes, gallery, log: m => log('runtimes', { message: m }) }).catch(e => {
      log('runtimes.unprepared', { error: e.message, message: 'the page links without them' }, 'warn');
      return null;
    }),
  };
  prepared.first = prepared.arches.then(a => a && firstBlobsOf(opts.runtimes, a)).catch(() => null);
  prepared.onDemand = prepared.arches.then(a => a && onDemandBlobsOf(opts.runtimes, a)).catch(() => null);
  prepared.examples = prepared.arches.then(a => a && exampleBlobsOf(opts.runtimes, a)).catch(() => null);
  let closing = false;
  const server = http.createServer({
    // Requests whose headers (or an upgrade's) dribble in are dropped.
    headersTimeout: opts.handshakeTimeout, requestTimeout: Math.max(opts.handshakeTimeout, 30_000),
    connectionsCheckingInterval: Math.min(1000, opts.handshakeTimeout),
  }, async (req, res) => {
    let urlPath;
    try { urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { urlPath = null; }
    try {
      if (urlPath === '/healthz') return text(res, closing ? 503 : 200, closing ? 'closing\n' : 'ok\n');
      if (urlPath === '/metrics') {
        res.writeHead(200, { 'content-type': metrics.register.contentType });
        return res.end(await metrics.register.metrics());
      }
      if (urlPath && await handleLinks(req, res, urlPath, { store, maxBytes: opts.linkMaxBytes, metrics, log })) return;
      await serveStatic(req, res, urlPath, gallery, bundler, prepared, !!store);
    } catch (e) {
      log('request.error', { url: req.url, error: e.message }, 'error');
      if (!res.headersSent) text(res, 500, 'internal error\n'); else res.destroy();
    }
  });
  // Messages from the page may come compressed (permessage-deflate): a run's
  // first message is the link's segment writes, ~0.65 MB for hello world,
  // which deflate halves. maxPayload bounds the inflated size. Nothing is
  // compressed on the way back (ws applies the threshold only without
  // context takeover): replies are small, and the send buffer then counts
  // what a client has yet to take. A client on this machine (loopback) gets
  // no compression: its bytes cost nothing, and deflating and inflating them
  // takes the CPU its browser and its executor share.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE,
                                    perMessageDeflate: { serverNoContextTakeover: true, threshold: Infinity } });
  const wssLocal = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE, perMessageDeflate: false });
  const perClient = new Map(); // address -> open connections
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => {});
    const { port: p } = server.address();
    // Only pages from an allowed origin may drive an executor: a page from
    // any other origin could otherwise run code through it. By default the
    // server's own origin (what the page's address bar says).
    const own = [`http://${req.headers.host}`, `https://${req.headers.host}`];
    const loopback = [`http://127.0.0.1:${p}`, `http://localhost:${p}`, `http://[::1]:${p}`];
    // `origins` (startServer only) adds to the default, as a static site using this bridge needs.
    const allowed = [...(opts.origin.length ? opts.origin : opts.host.startsWith('127.') || opts.host === 'localhost' ||
      opts.host === '::1' ? [...loopback, `http://${opts.host}:${p}`] : own), ...(options.origins ?? [])];
    const address = clientAddress(req, opts.trustProxy);
    if (new URL(req.url, 'http://x').pathname !== '/executor' || !allowed.includes(req.headers.origin) || closing) {
      log('upgrade.refused', { address, origin: req.headers.origin ?? null, url: req.url }, 'warn');
      metrics.refused.inc({ reason: 'origin' });
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    (isLoopback(address) ? wssLocal : wss).handleUpgrade(req, socket, head, ws => {
      const open = (perClient.get(address) ?? 0) + 1;
      perClient.set(address, open);
      ws.on('close', () => {
        const n = perClient.get(address) - 1;
        if (n) perClient.set(address, n); else perClient.delete(address);
      });
      if (open > opts.sessionsPerClient) {
        metrics.refused.inc({ reason: 'client_sessions' });
        log('session.refused', { address, open }, 'warn');
        ws.close(1008, `too many sessions from your address (at most ${opts.sessionsPerClient})`);
        setTimeout(() => ws.terminate(), 1000).unref();
        return;
      }
      serveSession(ws, address, ctx);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const actual = server.address().port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  log('server.listening',
      { host: opts.host, port: actual, maxExecutors: opts.maxExecutors, store: store?.kind ?? 'none' });
  return {
    url: `http://${shownHost}:${actual}/`, port: actual, executors, gallery, metrics, store,
    // Ends every executor, then every connection, then the store.
    close: () => new Promise(r => {
      closing = true;
      bundler.close();
      for (const c of executors) c.kill('SIGKILL');
      for (const ws of [...wss.clients, ...wssLocal.clients]) ws.terminate();
      server.closeAllConnections?.();
      server.close(() => (store ? store.close() : Promise.resolve()).then(r, r));
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let opts;
  try { opts = parseOptions(process.argv.slice(2)); } catch (e) {
    process.stderr.write(`linklab server: ${e.message}\n${usage()}`);
    process.exit(2);
  }
  if (opts.help) { process.stdout.write(usage()); process.exit(0); }
  const log = jsonLogger();
  opts.log = log;
  if (!fs.existsSync(opts.executor ?? path.join(ROOT, 'build/emulator/linklab-executor')))
    log('executor.missing', { message: 'linklab-executor not found; linking works, running does not' }, 'warn');
  let server = null;
  const local = /^(127\.|localhost$|::1$)/.test(opts.host ?? DEFAULTS.host);
  try {
    server = await startServer(opts);
  } catch (err) {
    // A local playground whose port another server has takes any free one
    // rather than stop; a public one stops (its proxy expects that port).
    if (err.code !== 'EADDRINUSE' || !local) {
      log('server.failed', { error: err.message }, 'error');
      process.exit(1);
    }
    log('server.port_in_use', { port: opts.port ?? DEFAULTS.port }, 'warn');
    server = await startServer({ ...opts, port: 0 });
  }
  console.log(`linklab playground: ${server.url}`);
  // Every executor ends with the server (setpriv's parent-death signal
  // covers a SIGKILL of the server; these, an orderly stop).
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.once(sig, () => {
    log('server.stopping', { signal: sig, executors: server.executors.size });
    const force = setTimeout(() => process.exit(1), 5000);
    server.close().then(() => { clearTimeout(force); process.exit(0); });
  });
}
