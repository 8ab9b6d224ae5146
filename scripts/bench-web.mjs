#!/usr/bin/env node
// Load-to-first-run benchmark of the playground: a fresh browser context
// (cold cache) opens the page and, the moment the page says it is ready,
// clicks the hello-world example from inside the page (a hover, then the
// click, in one task: no head start for the hover's prefetch, and none of
// Playwright's own round trips, which cost 150-400 ms under load); the
// time is from navigation start to the run's status shown, as the page
// measures it (performance.now()). Prints the median of each phase, from
// the page's performance marks and resource timing. Target: ≤ 1 s.
//   node scripts/bench-web.mjs [RUNS] [ARCH]   (after scripts/run's build steps)
// VERBOSE=1 prints each load's phases.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '../web');
const { chromium } = await import(path.join(WEB, 'node_modules/playwright-core/index.mjs'));
const { startServer } = await import(path.join(WEB, 'server.mjs'));
const { CHROMIUM_ARGS } = await import(path.join(WEB, 'test/chromium.mjs'));

const runs = Number(process.argv[2] ?? 7), arch = process.argv[3] ?? 'x86_64';
const TARGET_MS = 1000;

// Clicks the example as soon as <body data-ready> appears.
function clickWhenReady(arch) {
  new MutationObserver((_, observer) => {
    if (!document.body?.dataset.ready) return;
    observer.disconnect();
    const b = document.querySelector(`button[data-example="hello"][data-arch="${arch}"]`);
    b.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    b.click();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

// What the page recorded, as phases: [name, ms] in order, plus totals.
function measure() {
  const mark = n => performance.getEntriesByName(n, 'mark').at(-1)?.startTime;
  const res = performance.getEntriesByType('resource');
  const ready = window.__readyMs, first = window.__firstRunMs;
  // The last of these the page fetched before it was ready.
  const end = re => Math.max(...res.filter(e => re.test(e.name) && e.startTime < ready).map(e => e.responseEnd));
  const runtime = res.filter(e => /\/runtime\//.test(e.name));
  const at = {
    modules: end(/\.mjs$/), wasm: end(/\.wasm$/), core: mark('core-loaded'), ready, click: mark('example-click'),
    objects: mark('example-loaded'), runtime: mark('runtime-fetched'), connected: mark('connected'),
    session: mark('session-made'), linked: mark('linked'), ran: mark('ran'), first,
  };
  const d = (a, b) => at[b] - at[a];
  return {
    first, ready, out: document.querySelector('#console').textContent,
    runtimeFiles: runtime.length, runtimeBytes: runtime.reduce((n, e) => n + e.encodedBodySize, 0),
    phases: [
      ['page: modules fetched', at.modules], ['page: wasm fetched', at.wasm],
      ['page: core compiled+instantiated', at.core], ['page: ready (panels mounted)', at.ready],
      ['ready → click (harness)', d('ready', 'click')],
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

const server = await startServer({ port: 0 });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const rows = [];
try {
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext();
    await ctx.addInitScript(clickWhenReady, arch);
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.runs, null, { timeout: 30000 });
    const r = await page.evaluate(measure);
    if (!r.out.includes('hello, world')) throw new Error(`run ${i}: unexpected output ${JSON.stringify(r.out)}`);
    rows.push(r);
    if (process.env.VERBOSE)
      console.log(`load ${i}: ${r.first.toFixed(0)} ms`, r.phases.map(([n, v]) => `${n.split(' ')[0]}=${v.toFixed(0)}`).join(' '));
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const median = xs => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const firsts = rows.map(r => r.first), med = median(firsts);
const load = os.loadavg().map(x => x.toFixed(1)).join(' ');
console.log(`bench-web: hello world (${arch}), ${runs} cold loads, load average ${load} on ${os.cpus().length} cores`);
console.log(`  C runtime: ${rows[0].runtimeFiles} requests, ${(rows[0].runtimeBytes / 1e6).toFixed(1)} MB`);
console.log('  phase medians (ms; "page:" ones are times since navigation start):');
for (const [i, [name]] of rows[0].phases.entries()) console.log(`    ${name.padEnd(42)} ${median(rows.map(r => r.phases[i][1])).toFixed(0).padStart(6)}`);
console.log(`  load to first run finished: median ${med.toFixed(0)} ms, min ${Math.min(...firsts).toFixed(0)}, ` +
            `max ${Math.max(...firsts).toFixed(0)}; target ≤ ${TARGET_MS} ms: ${med <= TARGET_MS ? 'met' : 'NOT met'}`);
