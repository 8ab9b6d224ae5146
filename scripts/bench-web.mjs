#!/usr/bin/env node
// Load-to-first-run benchmark of the playground: a fresh browser context
// (cold cache) opens the page, clicks the hello-world example and waits for
// its run to finish; the time is from navigation start to the run's end, as
// the page measures it (performance.now()). Target: ≤ 1 s on localhost.
//   node scripts/bench-web.mjs [RUNS] [ARCH]   (after scripts/run's build steps)
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '../web');
const { chromium } = await import(path.join(WEB, 'node_modules/playwright-core/index.mjs'));
const { startServer } = await import(path.join(WEB, 'server.mjs'));
const { CHROMIUM_ARGS } = await import(path.join(WEB, 'test/chromium.mjs'));

const runs = Number(process.argv[2] ?? 5), arch = process.argv[3] ?? 'x86_64';
const server = await startServer({ port: 0 });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const rows = [];
try {
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready]');
    await page.click(`button[data-example="hello"][data-arch="${arch}"]`);
    await page.waitForFunction(() => document.body.dataset.runs, null, { timeout: 30000 });
    const r = await page.evaluate(() => ({ ready: window.__readyMs, firstRun: window.__firstRunMs, timing: window.__timing, out: document.querySelector('#console').textContent }));
    if (!r.out.includes('hello, world')) throw new Error(`run ${i}: unexpected output ${JSON.stringify(r.out)}`);
    rows.push(r);
    if (process.env.VERBOSE) console.log(JSON.stringify(r.timing), r.ready.toFixed(0), r.firstRun.toFixed(0));
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const med = k => rows.map(r => r[k]).sort((a, b) => a - b)[rows.length >> 1];
const fmt = v => `${v.toFixed(0)} ms`;
console.log(`bench-web: hello world (${arch}), ${runs} cold loads`);
console.log(`  page ready (wasm core loaded): median ${fmt(med('ready'))}`);
console.log(`  load to first run finished:    median ${fmt(med('firstRun'))}, min ${fmt(Math.min(...rows.map(r => r.firstRun)))}, max ${fmt(Math.max(...rows.map(r => r.firstRun)))}  (target ≤ 1000 ms)`);
