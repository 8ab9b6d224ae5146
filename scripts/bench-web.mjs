#!/usr/bin/env node
// Load-to-first-run benchmark of the playground: a fresh browser context
// (cold cache) opens the page and, the moment it shows its examples (before
// its core has loaded: the click's downloads overlap the core's), clicks
// the hello-world example from inside the page (a hover, then the
// click, in one task: no head start for the hover's prefetch, and none of
// Playwright's own round trips, which cost 150-400 ms under load); the
// time is from navigation start to the run's status shown, as the page
// measures it (performance.now()). Prints the median of each phase, from
// the page's performance marks and resource timing. Target: ≤ 1 s.
//   node scripts/bench-web.mjs [RUNS] [ARCH] [--throttle 20mbit,40ms] [--site] [--cxx]
// --throttle: Chromium's network emulation (CDP) at that download and upload
// rate and round-trip latency. --site: the static site (web/build-site.mjs)
// from a static server without Range support that serves precompressed
// siblings as nginx's gzip_static/brotli_static do, the executor from the
// playground server. --cxx: a C++ iostream hello world (compiled here,
// handed to the page as a dropped file) instead of the gallery's C one.
// VERBOSE=1 prints each load's phases; WATERFALL=1 also each request before
// the run finished (start, first byte, end in ms; bytes on the wire, encoded,
// decoded), the page's long tasks (start+duration), its executor WebSocket's
// messages (time, > sent or < received, bytes) and its marks.
//
// Chromium's emulation itself sometimes stalls every request of a page for
// 65536 of its ticks (one tick: a 1500-byte packet at the download rate;
// 39.3 s at 20 Mbit/s, 19.7 s at 40): its throttling timer is then armed as
// for an empty queue (ThrottlingNetworkInterceptor::CalculateDesiredTime's
// 0x10000), sometimes twice over. No real network does that: a load with a
// request that long is counted, reported and loaded again (at most RUNS more times).
import os from 'node:os';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '../web');
const { chromium } = await import(path.join(WEB, 'node_modules/playwright-core/index.mjs'));
const { CHROMIUM_ARGS } = await import(path.join(WEB, 'test/chromium.mjs'));
// The playground server in a process of its own, as scripts/run starts it:
// in this one its event loop would share the benchmark's (Playwright's, and
// with --throttle a CDP event per request), and each executor it starts
// would fork this larger process, which holds the server's event loop.
const { serverProcess } = await import(path.join(WEB, 'test/serve-helpers.mjs'));

const argv = process.argv.slice(2);
const flag = name => { const i = argv.indexOf(name); return i >= 0 ? argv.splice(i, 1).length : 0; };
const option = name => { const i = argv.indexOf(name); return i >= 0 ? argv.splice(i, 2)[1] : undefined; };
const throttleSpec = option('--throttle'), useSite = flag('--site'), cxx = flag('--cxx');
const runs = Number(argv[0] ?? 7), arch = argv[1] ?? 'x86_64';
if (!Number.isInteger(runs) || runs < 1 || argv.length > 2) {
  console.error('usage: node scripts/bench-web.mjs [RUNS] [ARCH] [--throttle 20mbit,40ms] [--site] [--cxx]');
  process.exit(2);
}
const TARGET_MS = throttleSpec ? (cxx ? 3500 : arch === 'x86_64' ? 2000 : 2500) : 1000;

// "20mbit,40ms" → CDP's Network.emulateNetworkConditions (bytes/s, ms).
function throttle(spec) {
  const m = /^(\d+(?:\.\d+)?)(k|m)bit,(\d+)ms$/i.exec(spec ?? '');
  if (!m) throw new Error(`--throttle ${spec}: expected RATE{k,m}bit,LATENCYms (20mbit,40ms)`);
  const rate = Number(m[1]) * (m[2].toLowerCase() === 'm' ? 1e6 : 1e3) / 8;
  return { offline: false, latency: Number(m[3]), downloadThroughput: rate, uploadThroughput: rate };
}

// A static server for the site: whole files only (no Range), a precompressed
// sibling (.br, else .gz) when the browser takes it, no cache headers.
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css',
                '.json': 'application/json', '.wasm': 'application/wasm' };
function staticServer(root) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/\/$/, '/index.html');
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root) || !fs.existsSync(file)) return res.writeHead(404).end();
    const headers = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
    const accept = req.headers['accept-encoding'] ?? '';
    const enc = [['br', '.br'], ['gzip', '.gz']].find(([e, x]) => accept.includes(e) && fs.existsSync(file + x));
    if (enc) Object.assign(headers, { 'content-encoding': enc[0], vary: 'accept-encoding' });
    res.writeHead(200, headers).end(fs.readFileSync(enc ? file + enc[1] : file));
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise(r => { server.closeAllConnections(); server.close(r); }),
  })));
}

// The C++ hello world's object for arch, built with the runtime's flags.
async function cxxObject(arch) {
  const L = await import(path.join(WEB, '../wasm-bindings/node.mjs'));
  const { cflags } = await import(path.join(WEB, 'runtimes.mjs'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  const src = path.join(dir, 'hello.cpp'), obj = path.join(dir, 'hello_cxx.o');
  fs.writeFileSync(src, '#include <iostream>\nint main() { std::cout << "hello, world" << std::endl; }\n');
  execFileSync('clang++-22', [...cflags(L, arch), '-O1', '-c', src, '-o', obj]);
  return [...fs.readFileSync(obj)];
}

// Drops the object (bytes) on the page once it is ready, then runs it.
function dropWhenReady([bytes]) {
  new MutationObserver((_, observer) => {
    if (!document.body?.dataset.ready) return;
    observer.disconnect();
    performance.mark('example-click');
    const input = document.querySelector('#file-input'), dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], 'hello_cxx.o'));
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const added = new MutationObserver(() => {
      if (!document.querySelector('#objects li[data-name="hello_cxx.o"]')) return;
      added.disconnect();
      performance.mark('example-loaded');
      document.querySelector('#run').click();
    });
    added.observe(document.querySelector('#objects'), { childList: true, subtree: true });
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

// Clicks the example as soon as the examples can be clicked (<body
// data-examples-ready>: the page shows them before its core has loaded).
function clickWhenReady(arch) {
  new MutationObserver((_, observer) => {
    if (!document.body?.dataset.examplesReady) return;
    observer.disconnect();
    const b = document.querySelector(`button[data-example="hello"][data-arch="${arch}"]`);
    b.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    b.click();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-examples-ready'] });
}

// What the page recorded, as phases: [name, ms] in order, plus totals.
function measure() {
  const mark = n => performance.getEntriesByName(n, 'mark').at(-1)?.startTime;
  const res = performance.getEntriesByType('resource');
  const ready = window.__readyMs, first = window.__firstRunMs;
  // The last of these the page fetched before it was ready.
  const end = re => Math.max(...res.filter(e => re.test(e.name) && e.startTime < ready).map(e => e.responseEnd));
  const runtime = res.filter(e => /\/runtimes?\//.test(e.name));
  const before = res.filter(e => e.responseEnd <= first);
  const at = {
    modules: end(/\.mjs$/), wasm: end(/\.wasm$/), core: mark('core-loaded'), examples: window.__examplesReadyMs, ready,
    click: mark('example-click'),
    objects: mark('example-loaded'), runtime: mark('runtime-fetched'), connected: mark('connected'),
    session: mark('session-made'), linked: mark('linked'), ran: mark('ran'), first,
  };
  const d = (a, b) => at[b] - at[a];
  return {
    first, ready, out: document.querySelector('#console').textContent,
    waterfall: res.filter(e => e.startTime < first).map(e => [e.name.replace(location.origin, ''), e.startTime, e.responseStart, e.responseEnd,
                                  e.transferSize, e.encodedBodySize, e.decodedBodySize]),
    marks: performance.getEntriesByType('mark').map(m => [m.name, m.startTime]),
    long: window.__long ?? [], ws: (window.__ws ?? []).filter(([t]) => t <= first),
    runtimeFiles: runtime.length, runtimeBytes: runtime.reduce((n, e) => n + e.encodedBodySize, 0),
    requests: before.length, bytes: before.reduce((n, e) => n + e.transferSize, 0),
    phases: [
      ['page: examples clickable', at.examples], ['page: modules fetched', at.modules], ['page: wasm fetched', at.wasm],
      ['page: core compiled+instantiated', at.core], ['page: ready (panels mounted)', at.ready],
      ['examples clickable → click (harness)', d('examples', 'click')],
      ['click → example objects loaded', d('click', 'objects')],
      ['click → runtime files fetched', d('click', 'runtime')],
      ['click → executor set up', d('click', 'connected')],
      ['objects+runtime+executor → session made', at.session - Math.max(at.objects, at.runtime, at.connected)],
      ['link (session → last object emitted)', d('session', 'linked')],
      ['run (TLS, IFUNCs, main, exit)', d('linked', 'ran')],
      ['run → status shown', d('ran', 'first')],
    ],
  };
}

let site = null, siteDir = null;
if (useSite) {
  const { buildSite } = await import(path.join(WEB, 'build-site.mjs'));
  siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-site-'));
  await buildSite(siteDir);
  site = await staticServer(siteDir);
}
const server = await serverProcess(site ? ['--origin', site.origin] : []); // the page's origin, when not the server's
process.on('exit', () => server.proc.kill()); // a benchmark that fails leaves no server behind
if (site) {
  const config = JSON.parse(fs.readFileSync(path.join(siteDir, 'config.json'), 'utf8'));
  fs.writeFileSync(path.join(siteDir, 'config.json'), JSON.stringify({ ...config, executor: `${server.url.replace(/^http/, 'ws')}executor` }));
}
// A server that has run a while: its start-up work (the page bundle, the
// runtimes' check, compressing the wasm once) is not part of a page load.
await Promise.all(['', 'bundle/app.mjs', 'linklab/dist/linklab_core.wasm', 'config.json'].map(async p =>
  (await fetch(server.url + p, { headers: { 'accept-encoding': 'br, gzip' } })).arrayBuffer()));
const object = cxx ? await cxxObject(arch) : null;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const rows = [];
const stallMs = throttleSpec ? 0x10000 * 1500 / throttle(throttleSpec).downloadThroughput * 1000 : Infinity;
// A request held for one or more whole stalls (two in a row took a load 79 s).
const emulationStall = r => r.waterfall.some(([, s, , e]) => e - s >= stallMs && (e - s) % stallMs < 5000);
let stalls = 0;
try {
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext();
    if (process.env.WATERFALL) await ctx.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver(l => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); })
        .observe({ type: 'longtask', buffered: true });
      // The executor's WebSocket messages: [time, '>' sent or '<' received, bytes].
      window.__ws = [];
      const WS = window.WebSocket, size = d => d.byteLength ?? d.size ?? d.length;
      window.WebSocket = class extends WS {
        constructor(...a) {
          super(...a);
          window.__ws.push([performance.now(), 'new', 0]);
          this.addEventListener('open', () => window.__ws.push([performance.now(), 'open', 0]));
          this.addEventListener('message', e => window.__ws.push([performance.now(), '<', size(e.data)]));
        }
        send(d) { window.__ws.push([performance.now(), '>', size(d)]); super.send(d); }
      };
    });
    if (object) await ctx.addInitScript(dropWhenReady, [object]);
    else await ctx.addInitScript(clickWhenReady, arch);
    const page = await ctx.newPage();
    // Requests not finished, for a load that never ends: {id: [url, sent at (ms since goto)]}.
    const pending = new Map(), t0 = Date.now();
    if (throttleSpec) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      cdp.on('Network.requestWillBeSent', e => pending.set(e.requestId, [e.request.url, Date.now() - t0]));
      for (const ev of ['Network.loadingFinished', 'Network.loadingFailed']) cdp.on(ev, e => pending.delete(e.requestId));
      await cdp.send('Network.emulateNetworkConditions', throttle(throttleSpec));
    }
    await page.goto(site ? site.url : server.url, { waitUntil: 'commit' }); // the page measures itself
    try {
      await page.waitForFunction(() => document.body?.dataset.runs, null, // body: not yet at commit
                                 { timeout: 60000 + 2 * Math.min(stallMs, 1e6) });
    } catch (e) {
      const state = await page.evaluate(() => ({
        status: document.querySelector('#run-status')?.textContent, banner: document.querySelector('#banner')?.textContent,
        marks: performance.getEntriesByType('mark').map(m => `${m.name}=${m.startTime.toFixed(0)}`).join(' '),
        ws: (window.__ws ?? []).map(([t, d, n]) => `${t.toFixed(0)}${d}${n || ''}`).join(' '),
      })).catch(err => ({ error: err.message }));
      console.log(`load ${i} did not finish: ${JSON.stringify(state)}; requests pending (ms after goto): ` +
                  JSON.stringify([...pending.values()]));
      throw e;
    }
    const r = await page.evaluate(measure);
    if (!r.out.includes('hello, world')) throw new Error(`run ${i}: unexpected output ${JSON.stringify(r.out)}`);
    if (emulationStall(r) && stalls < runs) {
      stalls++;
      console.log(`load ${i}: ${r.first.toFixed(0)} ms, Chromium's emulation stalled (${stallMs.toFixed(0)} ms): loaded again`);
      await ctx.close();
      i--;
      continue;
    }
    rows.push(r);
    if (process.env.VERBOSE)
      console.log(`load ${i}: ${r.first.toFixed(0)} ms`, r.phases.map(([n, v]) => `${n.split(' ')[0]}=${v.toFixed(0)}`).join(' '));
    if (process.env.WATERFALL) {
      for (const [n, s, rs, e, t, enc, dec] of r.waterfall)
        console.log(`  ${s.toFixed(0).padStart(5)} ${rs.toFixed(0).padStart(5)} ${e.toFixed(0).padStart(5)} ${String(t).padStart(8)} ${String(enc).padStart(8)} ${String(dec).padStart(8)} ${n}`);
      console.log('  long tasks', r.long.map(([s, d]) => `${s.toFixed(0)}+${d.toFixed(0)}`).join(' '));
      console.log('  websocket', r.ws.map(([t, d, n]) => `${t.toFixed(0)}${d}${n || ''}`).join(' '));
      console.log('  marks', r.marks.map(([n, t]) => `${n}=${t.toFixed(0)}`).join(' '));
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await site?.close();
  if (siteDir) fs.rmSync(siteDir, { recursive: true, force: true });
}
const median = xs => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const firsts = rows.map(r => r.first), med = median(firsts);
const load = os.loadavg().map(x => x.toFixed(1)).join(' ');
const what = `${cxx ? 'C++ iostream' : 'C'} hello world (${arch}) from ${site ? 'the static site' : 'the playground server'}`;
console.log(`bench-web: ${what}, ${runs} cold loads${throttleSpec ? `, network ${throttleSpec}` : ''}, ` +
            `load average ${load} on ${os.cpus().length} cores`);
if (stalls) console.log(`  ${stalls} load(s) stalled in Chromium's network emulation (${stallMs.toFixed(0)} ms) and were loaded again`);
console.log(`  C runtime: ${rows[0].runtimeFiles} requests, ${(rows[0].runtimeBytes / 1e6).toFixed(2)} MB; ` +
            `everything before the run finished: ${rows[0].requests} requests, ` +
            `median ${(median(rows.map(r => r.bytes)) / 1e6).toFixed(2)} MB transferred`);
console.log('  phase medians (ms; "page:" ones are times since navigation start):');
for (const [i, [name]] of rows[0].phases.entries()) console.log(`    ${name.padEnd(42)} ${median(rows.map(r => r.phases[i][1])).toFixed(0).padStart(6)}`);
console.log(`  load to first run finished: median ${med.toFixed(0)} ms, min ${Math.min(...firsts).toFixed(0)}, ` +
            `max ${Math.max(...firsts).toFixed(0)}; target ≤ ${TARGET_MS} ms: ${med <= TARGET_MS ? 'met' : 'NOT met'}`);
