// The package loads in Chromium without a bundler: a static server hands out
// the package folder, a page imports index.mjs and uses it.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { program } from './helpers.mjs';

const PKG = fileURLToPath(new URL('..', import.meta.url));
const TYPES = {
  '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html',
  '.o': 'application/octet-stream',
};
const chromiumPath = (() => {
  try { return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim(); } catch { return ''; }
})();

let server, base;
beforeAll(async () => {
  const obj = program('sys', 'x86_64').files[0];
  server = createServer(async (req, res) => {
    const path = req.url === '/sys.o' ? obj : join(PKG, decodeURIComponent(req.url.split('?')[0]));
    if (req.url === '/page.html') return res.end('<!doctype html><title>linklab</title>');
    if (!path.startsWith(PKG) && path !== obj || !existsSync(path)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' })
      .end(await readFile(path));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
afterAll(() => server?.close());

(chromiumPath ? test : test.skip)('imports, inspects, links with a JS pass and plans in Chromium', async () => {
  const browser = await chromium.launch({ executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/page.html`);
    const r = await page.evaluate(async () => {
      const L = await import('/index.mjs');
      const bytes = new Uint8Array(await (await fetch('/sys.o')).arrayBuffer());
      const info = L.inspect(bytes, 'sys.o');
      const s = new L.LinkSession({ slabAddress: 0x10000, snapshot: ['post-fixup'] });
      let passRan = false;
      s.addPass('pre-prune', (g) => { passRan = g.data().symbols.some((x) => x.name === 'main'); });
      s.addObject(bytes, { name: 'sys.o' });
      const main = await s.link();
      const p = L.plan({ signature: 'i64(i64,i64)', triple: 'aarch64-unknown-linux-gnu' });
      let err = '';
      try { L.inspect(new Uint8Array([1, 2, 3]), 'junk'); } catch (e) { err = `${e.name}: ${e.message}`; }
      return { arch: info.arch, main, passRan, dump: s.snapshots[0].dump.slice(0, 20), plan: p.describe, err };
    });
    expect(r.arch).toBe('x86_64');
    expect(r.main).toBeGreaterThanOrEqual(0x10000);
    expect(r.passRan).toBe(true);
    expect(r.dump).toMatch(/^LinkGraph "sys.o"/);
    expect(r.plan).toContain('x0');
    expect(r.err).toMatch(/^LinklabError: junk: not a relocatable object: unknown file format/);
  } finally {
    await browser.close();
  }
});
