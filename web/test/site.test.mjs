// The static site (scripts/build-site → web/build-site.mjs) served by a
// plain static file server (no Range, no compression, no cache headers),
// driven in Chromium: with an executor endpoint (the playground server's
// bridge) the gallery runs; without one the page links, shows graphs and
// disassembles, and says running needs an executor (and short links a
// server's store). The C runtime arrives
// as prepared blobs: a C program fetches nothing of libstdc++.a or libm.a,
// no blob twice, and a second visit fetches none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import http from 'node:http';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../server.mjs';
import { buildSite } from '../build-site.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';
import { blobOwners, blobsIn } from './runtime-blobs.mjs';

const WEB = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const GALLERY = JSON.parse(fs.readFileSync(path.join(WEB, 'examples/gallery.json'), 'utf8')).examples;

// A static file server as plain as they come: GET of files under root, a
// type by extension, nothing else. Records every request.
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.css': 'text/css',
                '.json': 'application/json', '.wasm': 'application/wasm' };
function staticServer(root) {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url, range: req.headers.range });
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/\/$/, '/index.html');
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, origin: `http://127.0.0.1:${server.address().port}`, requests,
    close: () => new Promise(r => { server.closeAllConnections(); server.close(r); }),
  })));
}

// What hello world prints, built for this host.
function hostHello(dir) {
  const exe = path.join(dir, 'hello');
  execFileSync('clang-22', ['-O1', path.join(WEB, 'examples/hello.c'), '-o', exe]);
  return spawnSync(exe, [], { encoding: 'utf8', argv0: 'hello' }).stdout;
}

let tmp, site, bare, playground, withExecutor, withoutExecutor, browser, HELLO;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linklab-site-'));
  HELLO = hostHello(tmp);
  // One build; the site without an executor is the same files with its own config.json.
  site = path.join(tmp, 'site');
  await buildSite(site, { precompress: false }); // the plain server serves no .gz/.br siblings
  bare = path.join(tmp, 'bare');
  execFileSync('cp', ['-al', site, bare]);
  withoutExecutor = await staticServer(bare);
  withExecutor = await staticServer(site);
  playground = await startServer({ port: 0, origins: [withExecutor.origin] });
  const config = JSON.parse(fs.readFileSync(path.join(site, 'config.json'), 'utf8'));
  assert.equal(config.executor, undefined, 'built without --executor');
  fs.rmSync(path.join(site, 'config.json')); // a hard link shared with bare: replaced, not rewritten
  const executor = `${playground.url.replace(/^http/, 'ws')}executor`;
  fs.writeFileSync(path.join(site, 'config.json'), JSON.stringify({ ...config, executor }));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await playground?.close();
  await withExecutor?.close();
  await withoutExecutor?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function openPage(url, context = browser) {
  const page = await context.newPage({ viewport: { width: 1400, height: 900 } });
  page.errors = [];
  page.on('pageerror', e => page.errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 60000 });
  return page;
}
const counter = (page, name) => page.evaluate(n => Number(document.body.dataset[n] ?? 0), name);
async function after_(page, name, act) {
  const n = await counter(page, name);
  await act();
  await page.waitForFunction(([c, k]) => Number(document.body.dataset[c] ?? 0) > k, [name, n], { timeout: 60000 });
  return { status: await page.textContent('#run-status'), console: await page.textContent('#console') };
}

const blobsFetched = (requests, from = 0) => blobsIn(requests.slice(from).map(r => r.url));
const siteOwners = root =>
  blobOwners(path.join(root, 'runtimes'), JSON.parse(fs.readFileSync(path.join(root, 'config.json'), 'utf8')).runtimes);

test('without an executor the static site links, draws graphs, disassembles, says running needs one', async () => {
  const page = await openPage(withoutExecutor.url);
  assert.match(await page.getAttribute('#run', 'title'), /running needs an executor: see Hosting/);
  const run = await after_(page, 'runs', () => page.click('button[data-example="hello"][data-arch="x86_64"]'));
  assert.match(run.status, /^running needs an executor: see Hosting/);
  assert.doesNotMatch(run.status, /1006/);
  await after_(page, 'links', () => page.click('#link'));
  assert.match(await page.textContent('#run-status'), /^linked main at 0x/, await page.textContent('#link-error'));
  await page.waitForSelector('#cy canvas', { timeout: 60000 }); // the graph view (its chunk, cytoscape) drew
  await page.click('button[data-tab="disasm"]');
  await page.waitForFunction(() => /call 0x/.test(document.querySelector('#disasm-body')?.textContent ?? ''),
                             null, { timeout: 60000 }).catch(async e => {
    const status = await page.textContent('#disasm-status');
    throw new Error(`${e.message}: ${status} ${await page.textContent('#disasm-body')}`);
  });
  // Short links need a server's store: Share offers the fragment link only, and a short link says why it cannot open.
  await page.click('#share');
  await page.waitForSelector('#share-url');
  assert.equal(await page.locator('#make-short').count(), 0);
  await page.goto(`${withoutExecutor.url}?s=${'A'.repeat(22)}`);
  await page.waitForSelector('body[data-ready]', { timeout: 60000 });
  assert.match(await page.textContent('#banner'), /^short link A{22}: short links need a server with a link store/);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(withoutExecutor.requests.filter(r => r.range), [], 'no Range request');
  await page.close();
});

test('with an executor the static site runs the gallery; the runtime comes as prepared blobs, each once', async () => {
  const context = await browser.newContext();
  const page = await openPage(withExecutor.url, context);
  const owners = siteOwners(site);
  const start = withExecutor.requests.length;
  let r = await after_(page, 'runs', () => page.click('button[data-example="hello"][data-arch="x86_64"]'));
  assert.equal(r.console, HELLO, r.status);
  const hello = blobsFetched(withExecutor.requests, start);
  const files = hello.map(h => owners.get(h)?.split(' ').slice(0, 2).join(' '));
  assert.ok(files.every(Boolean), 'every blob fetched is one the manifest names');
  assert.equal(new Set(hello).size, hello.length, 'no blob twice');
  assert.ok(files.includes('x86_64 libc.a'), files.join(', '));
  assert.ok(!files.some(f => /libstdc\+\+|libm\.a/.test(f)), `a C program fetched ${files.join(', ')}`);
  // The rest of the gallery on x86-64 and hello world on RISC-V, each with its host-built output where it has one.
  for (const ex of GALLERY.filter(e => e.id !== 'hello')) {
    r = await after_(page, 'runs', () => page.click(`button[data-example="${ex.id}"][data-arch="x86_64"]`));
    assert.match(r.status, /exit code \d+/, `${ex.id}: ${r.status}`);
  }
  r = await after_(page, 'runs', () => page.click('button[data-example="hello"][data-arch="riscv64"]'));
  assert.equal(r.console, HELLO, r.status);
  const all = blobsFetched(withExecutor.requests, start);
  assert.equal(new Set(all).size, all.length, 'no blob twice');
  assert.deepEqual(page.errors, []);
  await page.close();
  // A second visit: the runtime comes from the browser's cache, nothing from the network.
  const again = withExecutor.requests.length;
  const second = await openPage(withExecutor.url, context);
  r = await after_(second, 'runs', () => second.click('button[data-example="hello"][data-arch="riscv64"]'));
  assert.equal(r.console, HELLO, r.status);
  assert.deepEqual(blobsFetched(withExecutor.requests, again), []);
  assert.deepEqual(withExecutor.requests.filter(r => r.range), [], 'no Range request');
  await context.close();
});
