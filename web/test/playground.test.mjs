// Browser tests of the playground: Debian's chromium driven by playwright-core
// against the real server, wasm core and linklab-executor. Screenshots of the
// main views go to web/artifacts/ (gitignored).
//   node --test web/test/   (after scripts/run's build steps; see scripts/test-web)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import os from 'node:os';
import zlib from 'node:zlib';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, MAX_MESSAGE } from '../server.mjs';
import { pageBundler } from '../page-bundle.mjs';
import * as L from '../../wasm-bindings/index.mjs';
import { ARCHES as ARCH_TABLE, cflags } from '../runtimes.mjs';
import * as codec from '../src/session-codec.mjs';

const WEB = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ARTIFACTS = path.join(WEB, 'artifacts');
import { CHROMIUM_ARGS } from './chromium.mjs';
import { blobOwners, blobsIn, unitCounts } from './runtime-blobs.mjs';
const ARCHES = Object.keys(ARCH_TABLE);

// What each gallery example prints and returns, on every architecture: the
// same sources built for this host with its C library and run with the
// gallery's arguments (argv[0] as the page gives it). A harness's
// definitions come first and win, as llvm-jitlink's -harness makes them.
const GALLERY = JSON.parse(fs.readFileSync(path.join(WEB, 'examples/gallery.json'), 'utf8')).examples;
function hostRun(ex, dir) {
  const objects = [...ex.objects].sort((a, b) => !!b.harness - !!a.harness);
  const exe = path.join(dir, ex.id);
  execFileSync('clang-22', ['-O1', '-fno-stack-protector', '-Qunused-arguments', '-Wl,--allow-multiple-definition',
    ...objects.flatMap(o => [...(o.cflags ?? []), path.join(WEB, 'examples', o.src.replace('{arch}', 'x86_64'))]),
    '-o', exe], { stdio: ['ignore', 'ignore', 'pipe'] });
  const argv0 = path.basename(objects.find(o => !o.harness).src).replace(/\.[cs]$/, '');
  const r = spawnSync(exe, ex.args ?? [], { encoding: 'utf8', argv0 });
  return { out: r.stdout + r.stderr, exit: r.status };
}
let EXPECT;

let server, browser, tmp;
before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linklab-web-'));
  process.env.LINKLAB_CACHE = path.join(tmp, 'runtime-images'); // the native linklab's image cache: not the user's
  EXPECT = Object.fromEntries(GALLERY.map(ex => [ex.id, hostRun(ex, tmp)]));
  // Limits sized for one test process opening many pages at once.
  server = await startServer({ port: 0, maxExecutors: 16, sessionsPerClient: 64, runsPerMinute: 1000,
                               store: path.join(tmp, 'links') });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function openPage(url = server.url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  page.errors = errors;
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}
const runs = page => page.evaluate(() => Number(document.body.dataset.runs ?? 0));
// Does `act`, then waits for the run it starts to finish.
async function afterRun(page, act, timeout = 60000) {
  const n = await runs(page);
  await act();
  await page.waitForFunction(k => Number(document.body.dataset.runs ?? 0) > k, n, { timeout });
  return { status: await page.textContent('#run-status'), console: await page.textContent('#console') };
}
async function afterLink(page, act) {
  const n = await page.evaluate(() => Number(document.body.dataset.links ?? 0));
  await act();
  await page.waitForFunction(k => Number(document.body.dataset.links ?? 0) > k, n, { timeout: 60000 });
}
const shot = (page, name) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
function compile(src, arch) {
  const out = path.join(tmp, `${path.basename(src).replace(/\.[cs]$/, '')}-${arch}.o`);
  const flags = ['-Qunused-arguments', ...cflags(L, arch), '-O1', '-c'];
  execFileSync('clang-22', [...flags, path.join(WEB, 'test/inputs', src), '-o', out]);
  return out;
}

test('every gallery example links, draws and runs on every architecture', async () => {
  const page = await openPage();
  for (const arch of ARCHES) for (const [id, want] of Object.entries(EXPECT)) {
    const r = await afterRun(page, () => page.click(`button[data-example="${id}"][data-arch="${arch}"]`));
    assert.equal(r.console, want.out, `${id}/${arch}: status: ${r.status}; link error: ` +
                                      `${await page.textContent('#link-error')}`);
    assert.match(r.status, new RegExp(`exit code ${want.exit}\\b`), `${id}/${arch}: ${r.status}`);
    await page.waitForSelector('#graph[data-counts]:not([hidden])');
    const counts = JSON.parse(await page.getAttribute('#graph', 'data-counts'));
    assert.equal(counts.phase, 'post-fixup');
    assert.ok(counts.blocks > 0 && counts.edges > 0, `${id}/${arch}: graph drawn with ${JSON.stringify(counts)}`);
    if (id === 'hello' && arch === 'x86_64') await shot(page, 'graph-hello-x86_64');
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the phase stepper shows GOT/PLT entries added, addresses assigned, blocks pruned', async () => {
  const page = await openPage();
  await afterRun(page, () => page.click('button[data-example="gotplt"][data-arch="x86_64"]'));
  await page.waitForSelector('#graph[data-counts]:not([hidden])');
  await page.selectOption('#graph-object', 'gotplt-main.o');
  const at = async phase => {
    await page.click(`#phase-steps button:text-is("${phase}")`);
    const counts = JSON.parse(await page.getAttribute('#graph', 'data-counts'));
    return { ...counts, text: await page.textContent('#graph-changes') };
  };
  const prune = await at('prune');
  assert.ok(prune.removed > 0, `pruning drops unreferenced blocks: ${prune.text}`);
  const postPrune = await at('post-prune');
  assert.ok(postPrune.added > 0, `GOT/PLT entries appear after pruning: ${postPrune.text}`);
  const alloc = await at('post-allocation');
  assert.ok(alloc.moved > 0 && alloc.added === 0, `allocation assigns addresses only: ${alloc.text}`);
  await shot(page, 'graph-gotplt-post-allocation');
  // Search highlights; a kind filter hides other edges.
  await page.fill('#graph-search', 'ops');
  assert.equal(await page.getAttribute('#graph', 'data-matches'), '1', 'search finds the ops table entry');
  await page.fill('#graph-search', 'no_such_symbol');
  assert.equal(await page.getAttribute('#graph', 'data-matches'), '0');
  await page.fill('#graph-search', '');
  await page.click('#phase-prev');
  assert.equal(JSON.parse(await page.getAttribute('#graph', 'data-counts')).phase, 'post-prune');
  // Memory map and hex view with fixup sites.
  await page.click('button[data-tab="memory"]');
  assert.match(await page.textContent('#sections'), /gotplt-main\.o\s*\.text/);
  const segs = await page.locator('#segments tr').allTextContents();
  assert.ok(segs.some(r => /R-X/.test(r)) && segs.some(r => /RW-/.test(r)), `segments: ${segs.join(' | ')}`);
  assert.ok(!(await page.isVisible('#cy')), 'only the memory tab is shown');
  assert.ok(await page.locator('#hex .fixup').count() > 0, 'hex view marks fixup sites');
  await shot(page, 'memory-gotplt');
  await page.click('button[data-tab="inspect"]');
  assert.match(await page.textContent('#inspect-body'), /R_X86_64_(PLT32|GOTPCRELX|REX_GOTPCRELX)/);
  // Symbol rows in core's (llvm-readelf's) words: binding, type, section or UND.
  assert.match(await page.textContent('#inspect-body'), /mainGLOBALFUNC\.text0x0/);
  assert.match(await page.textContent('#inspect-body'), /printfGLOBALNOTYPEUND0x0/);
  await shot(page, 'inspect-gotplt');
  await page.close();
});

// The Disassembly view on a GOT load, a call through a stub and a relaxed
// (or, on AArch64, direct) call: inputs/disasm-<arch>.s linked with far
// absolutes, so the GOT load and the stub call cannot be relaxed away.
const DISASM = {
  x86_64: { got: /^mov rax, qword ptr \[rip [+-] 0x/, call: /^call 0x/, stub: /^jmp qword ptr \[rip [+-] 0x/,
            relaxed: ['BranchPCRel32', /^call 0x10100000$/], abs: 'near_fn=0x10100000\n' },
  aarch64: { got: /^ldr x0, \[x0, #0x/, call: /^bl #0x/, stub: /^br x16$/, relaxed: ['Branch26PCRel', /^bl #0x/] },
  riscv64: { got: /^auipc a0, /, call: /^jalr /, stub: /^(jr|jalr) /, relaxed: ['R_RISCV_JAL', /^jal /] },
};
test('the disassembly view marks GOT loads, stub calls and relaxed calls on every architecture', async () => {
  for (const arch of ARCHES) {
    const want = DISASM[arch];
    const page = await openPage();
    await page.setInputFiles('#file-input', [compile(`disasm-${arch}.s`, arch)]);
    await page.waitForSelector(`#objects li[data-name="disasm-${arch}-${arch}.o"]`);
    await page.uncheck('#opt-runtime');
    await page.fill('#opt-abs', `far_data=0x10000000000\nfar_fn=0x10000000000\n${want.abs ?? ''}`);
    await afterLink(page, () => page.click('#link'));
    assert.equal(await page.textContent('#link-error'), '', arch);
    await page.click('button[data-tab="disasm"]');
    await page.waitForSelector('#disasm[data-rendered]', { timeout: 30000 });
    const rows = await page.$$eval('#disasm-body tr.fixup', trs => trs.map(tr => ({
      kinds: tr.dataset.kinds, targets: tr.dataset.targets, before: tr.cells[2].textContent,
      after: tr.cells[4].textContent, fixup: tr.cells[5].textContent })));
    const find = (what, pred) => {
      const r = rows.find(pred);
      assert.ok(r, `${arch}: no ${what} among the fixed-up instructions:\n${JSON.stringify(rows, null, 1)}`);
      return r;
    };
    // The GOT load reaches the entry for far_data; before fixup its operand was not yet there.
    const got = find('GOT load', r => r.targets.includes('GOT entry for far_data') && want.got.test(r.after));
    assert.notEqual(got.before, got.after, `${arch}: ${JSON.stringify(got)}`);
    assert.match(got.fixup, /→ GOT entry for far_data( [+-] 0x\w+)? = 0x[0-9a-f]+ \(\d+ bytes at \+0x[0-9a-f]+\)/);
    find('call through the stub', r => r.targets.includes('stub for far_fn') && want.call.test(r.after));
    const relaxed = find('relaxed call', r => r.kinds === want.relaxed[0] && r.targets === 'near_fn');
    assert.match(relaxed.after, want.relaxed[1], `${arch}: ${JSON.stringify(relaxed)}`);
    // The stub and the GOT entry are listed, labelled, decoded.
    const blocks = await page.$$eval('#disasm-body h3', hs => hs.map(h => ({ label: h.dataset.label })));
    const stub = blocks.find(b => b.label === 'stub for far_fn');
    assert.ok(stub, `${arch}: ${JSON.stringify(blocks.map(b => b.label))}`);
    // An instruction row's after-fixup text (label and header rows have no such cell).
    const listed = label => page.$$eval(`#disasm-body h3[data-label="${label}"] + table tr`,
      trs => trs.filter(r => r.cells[0].tagName === 'TD' && r.cells.length > 4).map(r => r.cells[4].textContent));
    const stubInsns = await listed('stub for far_fn');
    assert.ok(stubInsns.some(t => want.stub.test(t)), `${arch}: stub ${JSON.stringify(stubInsns)}`);
    const entry = await listed('GOT entry for far_data');
    assert.deepEqual(entry, ['.quad 0x10000000000'], arch);
    await shot(page, `disasm-${arch}`);
    // The hex view marks each fixup's real width: 8 bytes per GOT entry.
    await page.click('button[data-tab="memory"]');
    const gotSection = await page.$$eval('#hex-section option',
                                         os => os.find(o => /\$__GOT/.test(o.textContent))?.value);
    await page.selectOption('#hex-section', gotSection);
    const marked = await page.$$eval('#hex .fixup', ss => ss.map(s => s.title));
    assert.ok(marked.length >= 16 && marked.length % 8 === 0, `${arch}: ${marked.length} bytes marked`);
    assert.ok(marked.every(t => /\(8 bytes\)$/.test(t)), `${arch}: ${marked[0]}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// Reproducers: Export as test downloads a zip whose test passes the
// project's lit runner; Reduce shrinks the last link or run while it fails
// the same way (an error, an exit status), shows what it removed and offers
// the reduced session as a bundle and as a test.
const ROOT = path.join(WEB, '..');
function compileRepro(name) {
  const out = path.join(tmp, `${name}.o`);
  execFileSync('clang-22', ['-Qunused-arguments', ...cflags(L, 'x86_64'), '-O1', '-c',
                            path.join(ROOT, 'tests/inputs/repro', `${name}.c`), '-o', out]);
  return out;
}
// `linklab-run --replay` of a bundle file, share link or short link (output up to 4 MiB).
const replayArgs = what => [path.join(ROOT, 'wasm-bindings/bin/linklab-run.mjs'), '--replay', what,
                            '--executor', path.join(ROOT, 'build/emulator/linklab-executor')];
const replayCli = what => spawnSync('node', replayArgs(what), { encoding: 'utf8', maxBuffer: 4 << 20 });
// The same, leaving this process's event loop free: a short link is fetched from the server it runs.
const replayCliAsync = what => new Promise(resolve => {
  const child = spawn('node', replayArgs(what));
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', d => { out.stdout += d; });
  child.stderr.on('data', d => { out.stderr += d; });
  child.on('close', status => resolve({ ...out, status }));
});
async function saveDownload(page, selector, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = path.join(tmp, name);
  await download.saveAs(file);
  return file;
}
// Unzips an exported test into its own folder and runs it (linklab's pass).
function litZip(zip, folder) {
  const dir = path.join(tmp, folder);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync('unzip', ['-q', zip, '-d', dir]);
  const test = fs.readdirSync(path.join(dir, 'repro')).find(f => /^repro\.(test|s)$/.test(f));
  const linklab = path.join(ROOT, 'build/core/linklab');
  const r = spawnSync('python3', [path.join(ROOT, 'tests/lit/run-lit.py'), '--linklab', linklab,
                                  '--out', path.join(dir, 'out'), '--only', 'linklab', path.join(dir, 'repro', test)],
                      { encoding: 'utf8' });
  return { ...r, text: fs.readFileSync(path.join(dir, 'repro', test), 'utf8') };
}
const reductions = page => page.evaluate(() => Number(document.body.dataset.reductions ?? 0));
async function afterReduce(page) {
  const n = await reductions(page);
  await page.click('#reduce');
  await page.waitForFunction(k => Number(document.body.dataset.reductions ?? 0) > k, n, { timeout: 240000 });
  assert.equal(await page.textContent('#repro-error'), '');
}

test('Export as test: a run and a link error become tests that pass the lit runner', async () => {
  const page = await openPage();
  await page.click('button[data-tab="repro"]');
  await page.click('#export-test');
  assert.match(await page.textContent('#repro-error'), /Link or Link & run first/);
  await afterRun(page, () => page.click('button[data-example="print-args"][data-arch="x86_64"]'));
  await page.click('button[data-tab="repro"]');
  assert.match(await page.textContent('#repro-what'), /last run of print-args\.o: exit code 3/);
  await page.click('#export-test');
  assert.match(await page.textContent('#export-files'), /repro\/repro\.test.*repro\/repro\.stdout/s);
  const run = litZip(await saveDownload(page, '#export-download', 'run.zip'), 'export-run');
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.text, /-args .*'two words' 3 > %t\/stdout; test \$\? -eq 3/);
  // A link that fails: the error is the expectation.
  await page.setInputFiles('#file-input', [compile('unresolved.c', 'x86_64')]);
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.waitForSelector('#objects li[data-name="unresolved-x86_64.o"]');
  await afterLink(page, () => page.click('#link'));
  await page.click('button[data-tab="repro"]');
  await page.click('#export-test');
  const err = litZip(await saveDownload(page, '#export-download', 'error.zip'), 'export-error');
  assert.equal(err.status, 0, err.stdout + err.stderr);
  assert.match(err.text, /# ERROR: error: .*missing_function/);
  await shot(page, 'repro-export');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Reduce keeps a link error, then an exit status, and offers the reduced bundle and test', async () => {
  const page = await openPage();
  const objs = ['extra', 'err_main', 'answer', 'needs_missing'].map(compileRepro);
  await page.setInputFiles('#file-input', objs);
  await page.waitForSelector('#objects li[data-name="needs_missing.o"]');
  await page.uncheck('#opt-runtime');
  await afterLink(page, () => page.click('#link'));
  await page.click('button[data-tab="repro"]');
  assert.equal(await page.inputValue('#reduce-kind'), 'error');
  assert.match(await page.inputValue('#reduce-value'), /missing_fn/);
  // A part of the error holds as the whole error: the same missing symbol, referenced by the same object.
  await page.fill('#reduce-value', 'Symbols not found');
  await afterReduce(page);
  const whole = 'Symbols not found: [ missing_fn ] (referenced by needs_missing.o)';
  const errorLog = await page.textContent('#reduce-log');
  assert.ok(errorLog.startsWith(`reduce: keeping the error '${whole}'\n`), errorLog);
  assert.ok(errorLog.endsWith(`reduce: the reduced case fails with: ${whole}\n`), errorLog);
  const removed = await page.locator('#reduce-removed li').allTextContents();
  assert.ok(removed.includes('object extra.o') && removed.includes('object answer.o'), removed.join('\n'));
  assert.match(await page.textContent('#reduce-kept'), /^err_main\.o \(\d+ bytes\), needs_missing\.o \(\d+ bytes\)$/);
  assert.match(await page.textContent('#reduce-log'), /reduce: inputs: 4 to try\n[^]*reduce: done after \d+ tests/);
  assert.match(await page.textContent('#reduce-status'), /\d+ removals in \d+ tests$/);
  const test = litZip(await saveDownload(page, '#reduce-test', 'reduced-error.zip'), 'reduced-error');
  assert.equal(test.status, 0, test.stdout + test.stderr);
  assert.match(test.text, /missing_fn/);
  // The bundle holds the reduced objects; Load puts them in the page.
  const bundle = JSON.parse(fs.readFileSync(await saveDownload(page, '#reduce-bundle', 'reduced.json'), 'utf8'));
  assert.deepEqual(bundle.objects.map(o => o.name), ['err_main.o', 'needs_missing.o']);
  await page.click('#reduce-load');
  await page.waitForFunction(() => document.querySelectorAll('#objects li').length === 2);
  await shot(page, 'repro-reduce');

  // An exit status, through runs in the executor: the noise object goes.
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.setInputFiles('#file-input', ['answer_main', 'extra', 'answer'].map(compileRepro));
  await page.waitForSelector('#objects li[data-name="answer.o"]');
  await page.check('#opt-runtime');
  const r = await afterRun(page, () => page.click('#run'));
  assert.match(r.status, /exit code 42\b/);
  await page.click('button[data-tab="repro"]');
  assert.equal(await page.inputValue('#reduce-kind'), 'exitCode');
  assert.equal(await page.inputValue('#reduce-value'), '42');
  await afterReduce(page);
  assert.ok((await page.locator('#reduce-removed li').allTextContents()).includes('object extra.o'));
  assert.match(await page.textContent('#reduce-kept'), /^answer_main\.o \(\d+ bytes\), answer\.o \(\d+ bytes\)$/);
  // Each candidate ran under a bound from the session's own time (the run's 10 s limit, if less); the log ends
  // with the reduced case's outcome.
  const log = await page.textContent('#reduce-log');
  const [, took, bound] = /the session took (\d+) ms; each candidate may run for (\d+) ms/.exec(log);
  assert.equal(Number(bound), Math.min(2 * Number(took) + 1000, 10000));
  assert.ok(log.endsWith('reduce: the reduced case exits with status 42\n'), log);
  // The reduced bundle records the reduced case's own outcome (kept for its status, it prints what its remaining
  // relocations make it print), and replays to it.
  const reduced = await saveDownload(page, '#reduce-bundle', 'reduced-exit.json');
  const { outcome } = JSON.parse(fs.readFileSync(reduced, 'utf8'));
  assert.deepEqual({ ...outcome, stdout: typeof outcome.stdout }, { status: 'exited', exitCode: 42, stdout: 'string',
                                                                    stderr: '' });
  const replay = replayCli(reduced);
  assert.equal(replay.status, 0, replay.stderr);
  assert.match(replay.stderr, /the replay matches the recorded outcome/);
  const exit = litZip(await saveDownload(page, '#reduce-test', 'reduced-exit.zip'), 'reduced-exit');
  assert.equal(exit.status, 0, exit.stdout + exit.stderr);
  assert.match(exit.text, /test \$\? -eq 42/);
  // A failure the session does not show is refused before any reduction.
  await page.selectOption('#reduce-kind', 'exitCode');
  await page.fill('#reduce-value', '7');
  await page.click('#reduce');
  await page.waitForSelector('#repro-error:not([hidden])');
  assert.match(await page.textContent('#repro-error'), /does not fail as specified/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a JS pass runs at its phase and its effect shows in the graph', async () => {
  const page = await openPage();
  await afterRun(page, () => page.click('button[data-example="hello"][data-arch="riscv64"]'));
  await page.click('button[data-tab="passes"]');
  await page.selectOption('#pass-phase', 'pre-prune');
  await afterLink(page, () => page.click('#pass-link'));
  assert.match(await page.textContent('#pass-log'), /hello\.o at pre-prune: \d+ sections/);
  await page.click('#phase-steps button:text-is("pre-prune")');
  await page.fill('#graph-search', 'playground_note');
  assert.match(await page.textContent('#graph-changes'), /pre-prune/);
  assert.equal(await page.getAttribute('#graph', 'data-matches'), '1', 'the block the pass added is in the graph');
  await page.fill('#graph-search', '');
  const counts = JSON.parse(await page.getAttribute('#graph', 'data-counts'));
  const before = counts.blocks;
  // The same link without the pass has one block fewer (the pass's note).
  await page.click('button[data-tab="passes"]');
  await page.uncheck('#pass-on');
  await afterLink(page, () => page.click('#link'));
  await page.click('#phase-steps button:text-is("pre-prune")');
  assert.equal(JSON.parse(await page.getAttribute('#graph', 'data-counts')).blocks, before - 1);
  // A pass that throws is reported next to the pass.
  await page.click('button[data-tab="passes"]');
  await page.fill('#pass-code', '(graph) => { throw new Error("deliberate failure") }');
  await afterLink(page, () => page.click('#pass-link'));
  assert.match(await page.textContent('#pass-error'), /deliberate failure/);
  await shot(page, 'passes');
  await page.close();
});

test('plan a convention and call a function through it, on every architecture', async () => {
  const page = await openPage();
  const regs = { x86_64: ['r10', 'r11', 'r9'], aarch64: ['x9', 'x10', 'x11'], riscv64: ['t4', 't5', 't6'] };
  for (const arch of ARCHES) {
    await afterRun(page, () => page.click(`button[data-example="custom-cc"][data-arch="${arch}"]`));
    await page.click('button[data-tab="callconv"]');
    await page.click('#cc-plan');
    const tableText = await page.textContent('#cc-table');
    for (const r of regs[arch]) assert.ok(tableText.includes(r), `${arch}: plan table lacks ${r}: ${tableText}`);
    assert.match(await page.textContent('#cc-text'), /^[\s\S]*v1;schema=/);
    await page.fill('#cc-args', '7, -2');
    await page.click('#cc-call');
    await page.waitForFunction(() => document.querySelector('#cc-result').textContent);
    assert.match(await page.textContent('#cc-result'), /result 19 \(0x13\)/, arch);
    if (arch === 'aarch64') await shot(page, 'callconv-aarch64');
  }
  // Diagnostics inline: a register that does not exist.
  await page.fill('#cc-spec', 'args:r99');
  await page.click('#cc-plan');
  assert.match(await page.textContent('#cc-error'), /'r99' is not a/);
  await page.close();
});

test('a share URL restores the session in a fresh page and re-runs it', async () => {
  const page = await openPage();
  const first = await afterRun(page, () => page.click('button[data-example="print-args"][data-arch="aarch64"]'));
  await page.click('button[data-tab="runpanel"]');
  await page.fill('#run-args', 'alpha "b c"');
  const rerun = await afterRun(page, () => page.click('#run'));
  assert.match(rerun.console, /argv\[2\] = "b c"/);
  await page.click('#share');
  const url = await page.inputValue('#share-url');
  assert.match(url, /#s=/);
  await page.close();

  const ctx = await browser.newContext();
  const fresh = await ctx.newPage();
  await fresh.goto(url);
  await fresh.waitForSelector('body[data-ready]');
  assert.equal(await fresh.inputValue('#run-args'), 'alpha "b c"');
  assert.match(await fresh.textContent('#objects'), /print-args\.o/);
  const again = await afterRun(fresh, () => fresh.click('#run'));
  assert.equal(again.console, rerun.console);
  assert.ok(first.console !== again.console);
  // A damaged link says so.
  await fresh.goto(url.slice(0, url.length - 20) + 'AAAA');
  await fresh.reload();
  await fresh.waitForSelector('#banner:not([hidden])');
  assert.match(await fresh.textContent('#banner'), /share link/);
  await ctx.close();
});

test('Share makes a short link the server stores; it opens the session; bad, unknown and store-less links say so',
  async () => {
    const page = await openPage();
    await afterRun(page, () => page.click('button[data-example="print-args"][data-arch="riscv64"]'));
    await page.click('button[data-tab="runpanel"]');
    await page.fill('#run-args', 'short "link"');
    await page.click('#share');
    await page.click('#make-short');
    await page.waitForSelector('#short-url');
    const url = await page.inputValue('#short-url');
    assert.match(url, new RegExp(`^${server.url}s/[A-Za-z0-9_-]{22}$`));
    const id = url.slice(-22);
    assert.equal(new URL(page.url()).search, `?s=${id}`);
    await page.close();

    const fresh = await openPage(url); // /s/<id> redirects to /?s=<id>
    assert.equal(new URL(fresh.url()).search, `?s=${id}`);
    assert.equal(await fresh.inputValue('#run-args'), 'short "link"');
    assert.match(await fresh.textContent('#objects'), /print-args\.o/);
    const r = await afterRun(fresh, () => fresh.click('#run'));
    assert.match(r.console, /argv\[2\] = "link"/);
    const bannerAt = async address => {
      await fresh.goto(address);
      await fresh.waitForSelector('body[data-ready]', { timeout: 30000 });
      return fresh.textContent('#banner');
    };
    assert.match(await bannerAt(`${server.url}?s=${'A'.repeat(22)}`),
                 /^short link A{22}: No session is stored under A{22}\.$/);
    assert.match(await bannerAt(`${server.url}?s=no%3Cid`), /^short link: 'no<id' is not a short link id/);
    assert.deepEqual(fresh.errors, []);
    await fresh.close();

    // A server without a store: the page offers no short link and says why it cannot open one.
    const bare = await startServer({ port: 0, store: 'none' });
    try {
      const p = await openPage(`${bare.url}?s=${id}`);
      assert.match(await p.textContent('#banner'),
        new RegExp(`^short link ${id}: short links need a server with a link store, and this site has none`));
      await p.click('#share');
      await p.waitForSelector('#share-url');
      assert.equal(await p.locator('#make-short').count(), 0);
      const direct = await fetch(`${bare.url}s/${id}.json`);
      assert.equal(direct.status, 404);
      assert.match((await direct.json()).error, /keeps no short links/);
      await p.close();
    } finally { await bare.close(); }
  });

test('a JS pass from a share link or a bundle is restored disabled and shown, and runs only once enabled', async () => {
  const page = await openPage();
  const first = await afterRun(page, () => page.click('button[data-example="hello"][data-arch="x86_64"]'));
  assert.equal(first.console, EXPECT.hello.out);
  await page.click('button[data-tab="passes"]');
  const code = '(graph) => { document.title = "the pass ran"; }';
  await page.fill('#pass-code', code);
  await page.check('#pass-on');
  await page.click('#share');
  const url = await page.inputValue('#share-url');
  // A session that fits in a link has its bundle file too.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bundle-link')]);
  const offered = path.join(tmp, 'offered.linklab.json');
  await download.saveAs(offered);
  await page.close();
  const { session } = await codec.decodeFragment(new URL(url).hash);
  assert.deepEqual(codec.decodeBundle(fs.readFileSync(offered, 'utf8')).session, session);
  assert.equal(session.pass.enabled, true, 'the shared session carries an enabled pass');
  const bundle = path.join(tmp, 'pass.linklab.json');
  fs.writeFileSync(bundle, codec.encodeBundle(session));

  const opened = [];
  const fromLink = await openPage(url);
  opened.push(fromLink);
  const fromFile = await openPage();
  await fromFile.setInputFiles('#bundle-input', bundle);
  await fromFile.waitForSelector('#objects li[data-name="hello.o"]');
  opened.push(fromFile);
  for (const p of opened) {
    await p.waitForSelector('#banner:not([hidden])');
    assert.match(await p.textContent('#banner'), /carries a JS pass .* restored disabled/);
    assert.equal(await p.isVisible('#passes'), true, 'the pass is shown');
    assert.equal(await p.inputValue('#pass-code'), code);
    assert.equal(await p.isChecked('#pass-on'), false);
    const r = await afterRun(p, () => p.click('#run'));
    assert.equal(r.console, first.console);
    assert.notEqual(await p.title(), 'the pass ran', 'a restored pass does not run before it is enabled');
    await p.click('button[data-tab="passes"]');
    await p.check('#pass-on');
    await afterRun(p, () => p.click('#run'));
    assert.equal(await p.title(), 'the pass ran', 'enabled by the user, it runs');
    assert.deepEqual(p.errors, []);
    await p.close();
  }
});

// The reproducer round trip on every architecture: a two-object program
// (function-pointer table, a global, stdin, printf) and a faulting one, run
// in the page, shared as a link and a bundle file, replay under
// `linklab-run --replay` (the link and the file) and `replayBundle` to the
// page's outcome (status, stdout, stderr, a fault's kind, pc, address and
// symbol); `linklab -save-bundle` of the same objects loads in the page and
// runs to the native outcome; the page's "Export as test" of the run (its
// stdin included) passes the lit runner.
test('round trip: page -> link and bundle -> linklab-run --replay and replayBundle; linklab -save-bundle -> page',
  async () => {
    const { replayBundle } = await import('../../wasm-bindings/jest.mjs');
    const linklab = path.join(ROOT, 'build/core/linklab');
    const executor = path.join(ROOT, 'build/emulator/linklab-executor');
    const build = (name, arch) => {
      const out = path.join(tmp, `${name}-rt-${arch}.o`);
      execFileSync('clang-22', ['-Qunused-arguments', ...cflags(L, arch), '-O1', '-c',
                                path.join(ROOT, 'tests/inputs/repro', `${name}.c`), '-o', out]);
      return out;
    };
    // Both cases on x86_64, one on each other arch: the package's round trip
    // (wasm-bindings/test/roundtrip.test.mjs) runs both on every arch.
    const RUNS = [['x86_64', 'table'], ['x86_64', 'fault'], ['aarch64', 'fault'], ['riscv64', 'table']];
    assert.deepEqual([...new Set(RUNS.map(([arch]) => arch))], ARCHES);
    for (const [arch, kind] of RUNS) {
      const c = kind === 'table'
        ? { objs: [build('table_main', arch), build('table_ops', arch)], stdin: '6 7\n',
            stdout: 'add(6, 7) = 13\nmul(6, 7) = 42\nsub(6, 7) = -1\ncalls: 3\n' }
        : { objs: [build('null_field', arch)], stdin: '', stdout: 'reading\n', fault: true };
      const page = await openPage();
      await page.setInputFiles('#file-input', c.objs);
      await page.waitForSelector(`#objects li[data-name="${path.basename(c.objs.at(-1))}"]`);
      await page.click('button[data-tab="runpanel"]');
      await page.fill('#run-stdin', c.stdin);
      const r = await afterRun(page, () => page.click('#run'));
      assert.equal(r.console, c.stdout, `${arch}: ${r.status}`);
      if (c.fault) assert.match(r.status, /null pointer\+0x10 \(address 0x10\)/, `${arch}: ${r.status}`);
      await page.click('#share');
      const url = await page.inputValue('#share-url');
      const file = await saveDownload(page, '#bundle-link', `rt-${arch}-${kind}.linklab.json`);
      const saved = codec.decodeBundle(fs.readFileSync(file, 'utf8')).session;
      assert.equal(saved.run.stdin, c.stdin);
      assert.equal(saved.outcome.stdout, c.stdout);
      if (c.fault) assert.match(saved.outcome.fault.symbol, /^main\+0x[0-9a-f]+ in \.text of null_field-rt-\w+\.o$/);
      for (const what of [url, file]) {
        const x = replayCli(what);
        assert.equal(x.status, 0, `${arch} ${what.slice(0, 60)}: ${x.stderr}`);
        assert.equal(x.stdout, c.stdout);
      }
      assert.deepEqual((await replayBundle(file, { executor })).outcome, saved.outcome);
      // Exported as a test, the run is fed the stdin it read; a fault's
      // test expects linklab's status for it (128+SIGSEGV) and its kind.
      await page.click('button[data-tab="repro"]');
      await page.click('#export-test');
      const lit = litZip(await saveDownload(page, '#export-download', `rt-${arch}-${kind}.zip`),
                         `export-rt-${arch}-${kind}`);
      assert.equal(lit.status, 0, `${arch}: ${lit.stdout}${lit.stderr}\n${lit.text}`);
      if (c.fault) {
        assert.match(lit.text.replace(/\\\n# RUN: +/g, ''), /; test \$\? -eq 139\n/, arch); // RUN lines wrap
        assert.match(lit.text, /# FAULT: error: program .* at pc \{\{\.\*\}\}, null pointer\+0x10\n/, arch);
      } else assert.match(lit.text, /linklab .* %S\/repro\.stdin/s, arch);
      assert.deepEqual(page.errors, []);
      await page.close();

      // The native CLI's bundle of the same run, loaded in the page, runs to the same outcome.
      const cliBundle = path.join(tmp, `rt-cli-${arch}.linklab.json`);
      const n = spawnSync(linklab, [`-save-bundle=${cliBundle}`, ...c.objs], { input: c.stdin, encoding: 'utf8' });
      assert.equal(n.stdout, c.stdout);
      const fresh = await openPage();
      await fresh.setInputFiles('#bundle-input', cliBundle);
      await fresh.waitForSelector(`#objects li[data-name="${path.basename(c.objs.at(-1))}"]`);
      assert.equal(await fresh.inputValue('#run-stdin'), c.stdin);
      const again = await afterRun(fresh, () => fresh.click('#run'));
      assert.equal(again.console, c.stdout);
      const cli = JSON.parse(fs.readFileSync(cliBundle, 'utf8')).outcome;
      if (c.fault) assert.deepEqual(saved.outcome.fault, cli.fault, arch);
      else assert.equal(cli.exitCode, saved.outcome.exitCode);
      await fresh.close();
    }
  });

test('a session too large for a link becomes a bundle that the page and linklab-run --replay load', async () => {
  const page = await openPage();
  // The harness example plus a 3 MiB archive does not fit in a URL.
  await afterRun(page, () => page.click('button[data-example="harness"][data-arch="x86_64"]'));
  await page.setInputFiles('#file-input', ['/usr/lib/gcc/x86_64-linux-gnu/12/libgcc.a']);
  await page.waitForSelector('#objects li[data-name="libgcc.a"]');
  const before = await afterRun(page, () => page.click('#run'));
  assert.match(before.console, /channel 2: 18 C, heater on/);
  await page.click('#share');
  await page.waitForSelector('#bundle-link');
  assert.match(await page.textContent('#share-box'), /too large for a link/);
  // The server stores it too: its short link opens the whole session.
  await page.waitForSelector('#short-url');
  const short = await page.inputValue('#short-url');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bundle-link')]);
  const bundle = path.join(tmp, 'session.linklab.json');
  await download.saveAs(bundle);
  await page.close();

  const opened = await openPage(short);
  assert.equal(await opened.locator('#objects li').count(), 4);
  assert.ok(await opened.isChecked('#objects li[data-name="test_thermostat.o"] input[data-harness]'));
  await opened.close();

  const fresh = await openPage();
  await fresh.setInputFiles('#bundle-input', bundle);
  await fresh.waitForSelector('#objects li[data-name="libgcc.a"]');
  assert.equal(await fresh.locator('#objects li').count(), 4);
  assert.ok(await fresh.isChecked('#objects li[data-name="test_thermostat.o"] input[data-harness]'));
  const again = await afterRun(fresh, () => fresh.click('#run'));
  assert.equal(again.console, before.console);
  await fresh.close();

  // The page recorded its run and its version: the bundle replays as a
  // test, printing what the page's console showed.
  const saved = JSON.parse(fs.readFileSync(bundle, 'utf8'));
  assert.equal(saved.linklab, JSON.parse(fs.readFileSync(path.join(WEB, '../wasm-bindings/package.json'))).version);
  assert.ok(saved.outcome?.stdout && before.console.includes(saved.outcome.stdout), JSON.stringify(saved.outcome));
  const replay = replayCli(bundle);
  assert.match(replay.stderr, /the replay matches the recorded outcome/);
  assert.equal(replay.stdout, saved.outcome.stdout);
  assert.equal(replay.status, 0);
  // The short link replays too, fetched from the server; an id it does not
  // know and a server that does not answer are errors saying so.
  const viaShort = await replayCliAsync(short);
  assert.match(viaShort.stderr, /: the short link http:\/\/\S+\/s\/[\w-]{22}: the replay matches the recorded outcome/);
  assert.equal(viaShort.stdout, saved.outcome.stdout);
  assert.equal(viaShort.status, 0);
  const unknown = await replayCliAsync(short.replace(/[\w-]{22}$/, 'A'.repeat(22)));
  assert.match(unknown.stderr, /has no session A{22} \(No session is stored under A{22}\.\)/);
  assert.equal(unknown.status, 1);
  assert.match(replayCli(short.replace(/[\w-]{22}$/, 'nope')).stderr, /'nope' is not a short link id/);
  const closed = await new Promise(resolve => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
  const gone = replayCli(`http://127.0.0.1:${closed}/s/${'A'.repeat(22)}`);
  assert.match(gone.stderr, new RegExp(`cannot reach the playground server at http://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)`));
  assert.equal(gone.status, 1);
});

test('bad input gets readable errors next to what caused it', async () => {
  const page = await openPage();
  const hello = fs.readFileSync(path.join(server.gallery, 'x86_64/hello/hello.o'));
  await page.setInputFiles('#file-input', [
    { name: 'garbage.o', mimeType: 'application/octet-stream',
      buffer: Buffer.from('this is not an object file at all') },
    { name: 'truncated.o', mimeType: 'application/octet-stream', buffer: hello.subarray(0, 200) },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('.obj-error').length === 2);
  const errs = await page.locator('.obj-error').allTextContents();
  assert.match(errs[0], /^garbage\.o: .*(ELF|magic)/i);
  assert.match(errs[1], /^truncated\.o: .*(past|truncated|end|beyond)/i);
  await page.click('#run');
  assert.match(await page.textContent('#link-error'), /garbage\.o, truncated\.o are not usable/);
  await shot(page, 'errors-bad-objects');
  // Mixed architectures are refused with both sides named.
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.setInputFiles('#file-input', [compile('unresolved.c', 'x86_64'), compile('unresolved.c', 'riscv64')]);
  await page.waitForSelector('#arch-error:not([hidden])');
  assert.match(await page.textContent('#arch-error'), /x86_64: unresolved-x86_64\.o; riscv64: unresolved-riscv64\.o/);
  // An unresolved symbol is named, with the object that needs it, which is
  // marked as the culprit.
  await page.click('#objects li:nth-child(2) button[data-remove]');
  await afterLink(page, () => page.click('#link'));
  assert.match(await page.textContent('#link-error'), /missing_function.*referenced by unresolved-x86_64\.o/);
  assert.match(await page.getAttribute('#objects li[data-name="unresolved-x86_64.o"]', 'class'), /culprit/);
  // An out-of-range fixup names the kind, the symbol and the value.
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.setInputFiles('#file-input', [compile('far.s', 'x86_64')]);
  await page.waitForSelector('#objects li[data-name="far-x86_64.o"]');
  await page.uncheck('#opt-runtime');
  await page.fill('#opt-abs', 'far=0x10000000000');
  await afterLink(page, () => page.click('#link'));
  const range = await page.textContent('#link-error');
  assert.match(range, /far-x86_64\.o/);
  assert.match(range, /far/);
  assert.match(range, /range/i);
  assert.match(await page.getAttribute('#objects li[data-name="far-x86_64.o"]', 'class'), /culprit/);
  assert.match(await page.textContent('#run-status'), /link failed: /);
  await page.fill('#opt-abs', 'far 0x10');
  await afterLink(page, () => page.click('#link'));
  assert.match(await page.textContent('#link-error'), /absolute symbols, line 1: 'far 0x10' is not NAME=ADDRESS/);
  await shot(page, 'errors-out-of-range');
  assert.equal(await page.locator('body[data-ready]').count(), 1);
  await page.close();
});

test("an archive's architecture comes from its members, and Inspect lists them", async () => {
  const page = await openPage();
  const archive = (name, members) => {
    const out = path.join(tmp, name);
    fs.rmSync(out, { force: true });
    execFileSync('llvm-ar-22', ['rcs', out, ...members]);
    return out;
  };
  const notes = path.join(tmp, 'notes.txt');
  fs.writeFileSync(notes, 'not an object\n');
  const lib = archive('lib.a', [compile('missing.c', 'x86_64'), notes]);
  await page.setInputFiles('#file-input', [compile('unresolved.c', 'x86_64'), lib]);
  await page.waitForSelector('#objects li[data-name="lib.a"]');
  assert.equal(await page.locator('.obj-error').count(), 0, 'a non-object member does not make the archive unusable');
  assert.match(await page.textContent('#arch-badge'), /^x86_64 /);
  // The member is pulled in for missing_function: 1 + 41.
  const r = await afterRun(page, () => page.click('#run'));
  assert.match(r.status, /exit code 42\b/, r.status);
  await page.click('button[data-tab="inspect"]');
  await page.selectOption('#inspect-object', { label: 'lib.a' });
  const body = () => page.textContent('#inspect-body');
  assert.match(await body(), /static archive for x86_64, 2 members, 1 symbol in its index/);
  assert.match(await body(), /missing-x86_64\.o\s*0x[0-9a-f]+\s*\d+\s*x86_64\s*\d/); // core's arch name
  assert.match(await body(), /notes\.txt.*not an object: /);
  await page.selectOption('#inspect-member', { label: 'missing-x86_64.o' });
  assert.match(await body(), /lib\.a\(missing-x86_64\.o\): ELF x86-64 \(machine 62\), x86_64-unknown-linux-gnu,/);
  assert.match(await body(), /In the symbol index\s*missing_function/);
  await shot(page, 'inspect-archive');
  // Members for two architectures: refused, both named, members still listed.
  const mixed = archive('mixed.a', [compile('missing.c', 'x86_64'), compile('missing.c', 'riscv64')]);
  await page.setInputFiles('#file-input', [mixed]);
  await page.waitForSelector('#objects li[data-name="mixed.a"] .obj-error');
  assert.match(await page.textContent('#objects li[data-name="mixed.a"] .obj-error'),
    /^mixed\.a: members for different architectures: x86_64: missing-x86_64\.o; riscv64: missing-riscv64\.o$/);
  await page.selectOption('#inspect-object', { label: 'mixed.a' });
  assert.match(await body(), /missing-riscv64\.o/);
  // MachO and COFF objects: the format inspect() reports, and that format's columns
  // (MachO relocations with their pc-relative bit and width; COFF's without).
  const asm = (name, triple, sym) => {
    const out = path.join(tmp, name);
    execFileSync('llvm-mc-22', [`-triple=${triple}`, '-filetype=obj', '-o', out],
      { input: `.globl ${sym}main\n${sym}main:\n call ${sym}ext\n ret\n` });
    return out;
  };
  await page.setInputFiles('#file-input', [asm('call-macho.o', 'x86_64-apple-macosx', '_'),
                                           asm('call-coff.o', 'x86_64-pc-windows-msvc', '')]);
  await page.waitForSelector('#objects li[data-name="call-coff.o"]');
  await page.selectOption('#inspect-object', { label: 'call-macho.o' });
  assert.match(await body(), /call-macho\.o: MachO \S+ \(machine 16777223\), x86_64-apple-/);
  assert.match(await body(), /#nameflagsprotsizeaddressblocks(.*?)__TEXT,__text0x80000400/);
  assert.match(await body(), /sectionoffsettypesymbolpcrellength__TEXT,__text0x1X86_64_RELOC_BRANCH_extyes4/);
  await page.selectOption('#inspect-object', { label: 'call-coff.o' });
  assert.match(await body(), /call-coff\.o: COFF \S+ \(machine 34404\), x86_64-pc-windows-/);
  assert.match(await body(), /sectionoffsettypesymbol\.text0x1IMAGE_REL_AMD64_REL32ext$/);
  assert.doesNotMatch(await body(), /ELF/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('killing the executor mid-run is reported, and the next run works', async () => {
  const page = await openPage();
  await page.setInputFiles('#file-input', [compile('spin.c', 'x86_64')]);
  await page.waitForSelector('#objects li[data-name="spin-x86_64.o"]');
  await page.click('button[data-tab="runpanel"]');
  await page.fill('#lim-time', '60000');
  const n = await runs(page);
  await page.click('#run');
  await page.waitForFunction(() => /running…/.test(document.querySelector('#run-status').textContent));
  await page.waitForFunction(() => document.querySelector('#console').textContent.includes('spinning'));
  // The newest executor is this run's (earlier pages' may still be exiting).
  const child = [...server.executors].pop();
  process.kill(child.pid, 'SIGKILL');
  await page.waitForFunction(k => Number(document.body.dataset.runs) > k, n);
  assert.match(await page.textContent('#run-status'), /executor killed by SIGKILL.*next run starts a new executor/);
  await shot(page, 'executor-killed');
  // Recovery: the next run gets a new executor.
  const r = await afterRun(page, () => page.click('button[data-example="hello"][data-arch="x86_64"]'));
  assert.match(r.console, /hello, world/);
  // The stop button ends a long run the same way.
  await page.setInputFiles('#file-input', [compile('spin.c', 'x86_64')]);
  await page.waitForSelector('#objects li[data-name="spin-x86_64.o"]');
  await page.click('#objects li:nth-child(1) button[data-remove]');
  const m = await runs(page);
  await page.click('#run');
  await page.waitForFunction(() => document.querySelector('#console').textContent.includes('spinning'));
  await page.click('#stop');
  await page.waitForFunction(k => Number(document.body.dataset.runs) > k, m);
  assert.match(await page.textContent('#run-status'), /run ended: stopped/);
  // An instruction limit ends the same program; a fault names pc and symbol.
  await page.click('button[data-tab="runpanel"]');
  await page.fill('#lim-insn', '200000');
  const limited = await afterRun(page, () => page.click('#run2'));
  assert.match(limited.status, /instruction limit/i);
  await page.fill('#lim-insn', '');
  await page.click('#objects li:nth-child(1) button[data-remove]');
  for (const arch of ARCHES) {
    await page.setInputFiles('#file-input', [compile('fault.c', arch)]);
    await page.waitForSelector(`#objects li[data-name="fault-${arch}.o"]`);
    const f = await afterRun(page, () => page.click('#run'));
    const pc = name => `^fault: .* at pc 0x[0-9a-f]+ \\[main\\+0x[0-9a-f]+ in \\.text of ${name}-\\w+\\.o\\], `;
    const field = 'null pointer\\+0x10 \\(address 0x10\\) ·';
    assert.match(f.status, new RegExp(pc('fault') + field), `${arch}: ${f.status}`);
    await page.click('#objects li:nth-child(1) button[data-remove]');
    // Address 0 is a null pointer, not the C runtime's null symbol (absolute 0).
    await page.setInputFiles('#file-input', [compile('null.c', arch)]);
    await page.waitForSelector(`#objects li[data-name="null-${arch}.o"]`);
    const n = await afterRun(page, () => page.click('#run'));
    assert.match(n.status, new RegExp(pc('null') + 'null pointer \\(address 0x0\\) ·'), `${arch}: ${n.status}`);
    await page.click('#objects li:nth-child(1) button[data-remove]');
  }
  await shot(page, 'run-fault');
  await page.close();
});

test('runs the sandbox or the limits end are reported in words: seccomp, output cut, time and memory limits',
  async () => {
    // linklab-executor-probe: the executor plus a guest system call that makes its host process open a file.
    const probe = path.join(WEB, '../build/tests/linklab-executor-probe');
    assert.ok(fs.existsSync(probe), `${probe} missing: build the linklab-executor-probe target (scripts/build does)`);
    const s = await startServer({ port: 0, executor: probe, maxOutput: 64 << 10, store: 'none' });
    try {
      const page = await openPage(s.url);
      const run = async (src, fill = {}) => {
        const name = `${src.replace(/\.c$/, '')}-x86_64.o`;
        if (await page.locator('#objects li').count()) await page.click('#objects li:nth-child(1) button[data-remove]');
        await page.setInputFiles('#file-input', [compile(src, 'x86_64')]);
        await page.waitForSelector(`#objects li[data-name="${name}"]`);
        await page.click('button[data-tab="runpanel"]');
        for (const [field, value] of Object.entries({ '#lim-time': '10000', '#lim-mem': '', ...fill }))
          await page.fill(field, value);
        return afterRun(page, () => page.click('#run2'));
      };
      let r = await run('escape.c');
      assert.match(r.status, new RegExp('^run ended: .*executor killed by SIGSYS: its sandbox stopped a system call ' +
                                        'it may not make \\(seccomp\\)\\. The next run starts a new executor\\.$'));
      assert.equal(r.console, 'escaping\n');
      r = await run('output-flood.c');
      assert.match(r.status,
                   /^exited with status 3 · exit code 3 · \d+ ms · output cut at 64 KiB: the server's output limit$/);
      assert.equal(r.console, `${'y'.repeat(1023)}\n`.repeat(64) +
        '\nlinklab: output truncated at 65536 bytes (the executor\'s output cap)\n');
      // The cut output is not what the program wrote: a bundle records where
      // it was cut instead, and a replay says it compares the rest.
      await page.click('#share');
      const url = await page.inputValue('#share-url');
      const { outcome } = (await codec.decodeFragment(url)).session;
      assert.deepEqual(outcome, { status: 'exited', exitCode: 3, outputTruncatedAt: 65536 });
      const replayed = replayCli(url);
      assert.equal(replayed.status, 0, replayed.stderr);
      assert.equal(replayed.stdout, `${'y'.repeat(1023)}\n`.repeat(100));
      assert.match(replayed.stderr, /note: the recorded run's output was cut at 65536 bytes by the server's output/);
      assert.match(replayed.stderr, /matches the recorded outcome \(its status, exit code and fault: the output/);
      r = await run('spin.c', { '#lim-time': '1000' });
      assert.match(r.status, /^time limit at pc 0x[0-9a-f]+.*: wall-time limit of 1000 ms reached/);
      r = await run('memory-hog.c', { '#lim-mem': '64' });
      assert.match(r.status, /^memory limit at pc 0x[0-9a-f]+.*exceeds the memory cap/);
      assert.deepEqual(page.errors, []);
      await shot(page, 'run-limits');
      await page.close();
    } finally { await s.close(); }
  });

// Of each of arch's runtime files, what the page downloaded of its prepared
// blobs (prepare-runtimes.mjs): {file: {requests, bytes, kinds}}; no blob twice.
const RUNTIMES = path.join(WEB, '../build/web-runtimes');
async function downloaded(page, arch) {
  const entries = await page.evaluate(() => performance.getEntriesByType('resource')
    .map(e => ({ name: e.name, bytes: e.encodedBodySize })));
  const arches = JSON.parse(fs.readFileSync(path.join(RUNTIMES, 'index.json'), 'utf8')).arches;
  const owners = blobOwners(RUNTIMES, arches);
  const hashes = blobsIn(entries.map(e => e.name));
  assert.equal(new Set(hashes).size, hashes.length, 'a blob fetched twice');
  const out = {};
  for (const e of entries) {
    const [hash] = blobsIn([e.name]);
    const [a, file, kind] = (owners.get(hash) ?? '').split(' ');
    if (a !== arch) continue;
    const f = out[file] ??= { requests: 0, bytes: 0, kinds: [] };
    f.requests++;
    f.bytes += e.bytes;
    f.kinds.push(kind);
  }
  return out;
}
const runtimeSize = (arch, name) =>
  fs.statSync(L.runtimeInfo(ARCH_TABLE[arch].triple).files.find(f => f.name === name).path).size;

test('the page fetches only the runtime members a program pulls (libstdc++, libm if reached) and runs it', async () => {
  const arch = 'x86_64';
  const page = await openPage();
  // C: of libc.a the members hello world pulls (most in one pack), compressed; nothing of libstdc++.a and libm.a.
  let r = await afterRun(page, () => page.click(`button[data-example="hello"][data-arch="${arch}"]`));
  assert.equal(r.console, EXPECT.hello.out);
  let got = await downloaded(page, arch);
  assert.ok(got['libc.a'].bytes < runtimeSize(arch, 'libc.a') / 4, JSON.stringify(got));
  for (const n of ['libstdc++.a', 'libm.a']) assert.equal(got[n], undefined, `${n}: ${JSON.stringify(got)}`);
  // C calling libm: libm.a's head and members too, and the program prints what the host build prints.
  const src = path.join(WEB, '../tests/inputs/run/math.c');
  const exe = path.join(tmp, 'math-host');
  execFileSync('clang-22', ['-O1', src, '-o', exe, '-lm']);
  const mathObj = path.join(tmp, 'math.o');
  execFileSync('clang-22', ['-Qunused-arguments', ...cflags(L, arch), '-O1', '-c', src, '-o', mathObj]);
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.setInputFiles('#file-input', [mathObj]);
  await page.waitForSelector('#objects li[data-name="math.o"]');
  r = await afterRun(page, () => page.click('#run'));
  assert.equal(r.console, execFileSync(exe, { encoding: 'utf8' }), r.status);
  got = await downloaded(page, arch);
  assert.ok(got['libm.a'].requests > 1 && got['libm.a'].bytes < runtimeSize(arch, 'libm.a') / 4, JSON.stringify(got));
  assert.equal(got['libstdc++.a'], undefined);
  // C++ (an exception thrown in one object and caught in another): libstdc++.a's members too.
  const cxx = ['throw_main.cpp', 'throw_lib.cpp'].map(f => path.join(WEB, '../tests/inputs/parity-cxx', f));
  const cxxExe = path.join(tmp, 'cxx-host');
  execFileSync('g++', ['-O1', ...cxx, '-o', cxxExe]);
  const cxxObjs = cxx.map(f => {
    const out = path.join(tmp, path.basename(f).replace(/\.cpp$/, '.o'));
    execFileSync('clang++-22', [...cflags(L, arch), '-O1', '-c', f, '-o', out]);
    return out;
  });
  await page.click('#objects li:nth-child(1) button[data-remove]');
  await page.setInputFiles('#file-input', cxxObjs);
  await page.waitForSelector('#objects li[data-name="throw_lib.o"]');
  r = await afterRun(page, () => page.click('#run'));
  assert.equal(r.console, execFileSync(cxxExe, { encoding: 'utf8' }), r.status);
  got = await downloaded(page, arch);
  assert.ok(got['libstdc++.a'].requests > 1, JSON.stringify(got));
  for (const n of ['libstdc++.a', 'libm.a', 'libc.a']) assert.ok(got[n].bytes < runtimeSize(arch, n) / 2, n);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an example clicked before the core has loaded downloads meanwhile, its packs before the manifest', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  // The wasm and the runtime's manifest are held back until the click's own downloads have gone out:
  // the blobs config.json names for every link and for this example do not wait for the manifest.
  const config = await (await fetch(`${server.url}config.json`)).json();
  const blobs = [...config.runtimeFirst.x86_64, ...config.runtimeExamples.x86_64.hello];
  assert.ok(config.runtimeExamples.x86_64.hello.length > 0, JSON.stringify(config.runtimeExamples));
  let release;
  const held = new Promise(resolve => { release = resolve; });
  for (const url of ['**/linklab_core.wasm', `**/runtimes/b/${config.runtimes.x86_64}.gz`])
    await page.route(url, async route => { await held; await route.continue(); });
  const requested = [];
  page.on('request', r => requested.push(new URL(r.url()).pathname));
  await page.goto(server.url);
  await page.waitForSelector('body[data-examples-ready]', { timeout: 30000 });
  assert.equal(await page.locator('body[data-ready]').count(), 0, 'the core loaded while its wasm was held');
  await page.click('button[data-example="hello"][data-arch="x86_64"]');
  const started = () => requested.includes('/gallery/x86_64/hello/hello.o') &&
                        blobs.every(h => requested.includes(`/runtimes/b/${h}.gz`));
  for (let i = 0; i < 300 && !started(); i++) await new Promise(resolve => setTimeout(resolve, 100));
  assert.ok(started(), `requested while the wasm was held: ${requested.join(' ')}`);
  release();
  await page.waitForFunction(() => Number(document.body.dataset.runs ?? 0) > 0, null, { timeout: 60000 });
  assert.equal(await page.textContent('#console'), EXPECT.hello.out);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link that needs a member the fetch did not reach is linked again from the whole archives', async () => {
  const page = await openPage();
  const arch = 'x86_64';
  await afterRun(page, () => page.click(`button[data-example="hello"][data-arch="${arch}"]`));
  const arches = JSON.parse(fs.readFileSync(path.join(RUNTIMES, 'index.json'), 'utf8')).arches;
  const units = unitCounts(RUNTIMES, arches, arch);
  let libc = (await downloaded(page, arch))['libc.a'];
  assert.ok(libc.requests < units['libc.a'] / 4 && !libc.kinds.includes('whole'), JSON.stringify(libc));
  // A pass makes hello.o point at strfmon, which nothing hello world links defines: the scan, which
  // runs before any pass, never fetched its member.
  await page.click('button[data-tab="passes"]');
  await page.selectOption('#pass-phase', 'pre-prune');
  await page.fill('#pass-code', `(graph) => {
    if (graph.object !== 'hello.o') return;
    graph.createSection('.data.extra', 'RW-');
    const b = graph.addContentBlock('.data.extra', new Uint8Array(8), { alignment: 8 });
    graph.addDefinedSymbol({ block: b, name: 'points_at_strfmon', size: 8, live: true });
    graph.addEdge({ block: b, kind: 'Pointer64', offset: 0, target: graph.addExternalSymbol('strfmon') });
  }`);
  await afterLink(page, () => page.click('#pass-link'));
  assert.match(await page.textContent('#run-status'), /^linked main at 0x/, await page.textContent('#link-error'));
  // The whole of libc.a now, in one request.
  libc = (await downloaded(page, arch))['libc.a'];
  assert.equal(libc.kinds.filter(k => k === 'whole').length, 1, JSON.stringify(libc));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the page loads its own modules as one bundle and preloads every module it loads before ready', async () => {
  const page = await openPage();
  const { loaded, fetched } = await page.evaluate(() => ({
    loaded: performance.getEntriesByType('resource').filter(e => e.startTime < window.__readyMs)
      .map(e => new URL(e.name).pathname).filter(p => p.endsWith('.mjs')),
    fetched: [...document.querySelectorAll('link[rel=modulepreload], script[type=module][src]')]
      .map(l => new URL(l.href ?? l.src).pathname),
  }));
  assert.deepEqual([...new Set(loaded)].sort(), [...fetched].sort());
  assert.ok(loaded.includes('/bundle/app.mjs'), loaded.join(' '));
  assert.deepEqual(loaded.filter(p => !p.startsWith('/linklab/') && !p.startsWith('/bundle/')), []);
  // The source map leads back to the source modules, which the server serves.
  const map = await (await fetch(new URL('bundle/app.mjs.map', server.url))).json();
  const sources = map.sources.map(s => new URL(s, new URL('bundle/', server.url)).pathname);
  for (const s of ['/src/app.mjs', '/wasm-bindings/lib/link-flow.mjs']) assert.ok(sources.includes(s), String(sources));
  for (const s of ['/src/panels/run.mjs', '/wasm-bindings/lib/repro.mjs'])
    assert.equal((await fetch(new URL(s, server.url))).status, 200, s);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the page imports the package by its exports: linklab/... specifiers, mapped as package.json says', () => {
  const exportsMap = JSON.parse(fs.readFileSync(path.join(WEB, '../wasm-bindings/package.json'))).exports;
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const imports = JSON.parse(html.match(/<script type="importmap">([\s\S]*?)<\/script>/)[1]).imports;
  const used = new Set();
  const walk = dir => fs.readdirSync(dir, { withFileTypes: true }).forEach(e => {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) return walk(f);
    if (!f.endsWith('.mjs')) return;
    const text = fs.readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /(from|import\() *'[./]*wasm-bindings\//, `${f} imports the package by path`);
    for (const m of text.matchAll(/(?:from|import\() *'(linklab(?:\/[^']*)?)'/g)) used.add(m[1]);
  });
  walk(path.join(WEB, 'src'));
  assert.ok(used.has('linklab') && used.has('linklab/bundle'), [...used].join(' '));
  // Unbundled (no esbuild), the browser resolves each through the import map.
  for (const s of used) {
    const target = exportsMap[s === 'linklab' ? '.' : `./${s.slice('linklab/'.length)}`]?.default;
    assert.ok(target, `${s}: not in the package's exports`);
    assert.equal(imports[s], `/linklab/${target.slice(2)}`, s);
  }
});

test('the page bundle follows its sources: rebuilt after an edit, the sources when it cannot build', async () => {
  const root = fs.mkdtempSync(path.join(tmp, 'bundle-'));
  fs.mkdirSync(path.join(root, 'src'));
  const write = (f, text) => fs.writeFileSync(path.join(root, 'src', f), text);
  write('app.mjs', "import { v } from './v.mjs';\nconsole.log(v, import('./lazy.mjs'));\n");
  write('v.mjs', "export const v = 'one';\n");
  write('lazy.mjs', 'export default 1;\n');
  const logged = [];
  const b = pageBundler({ root, log: m => logged.push(m) });
  try {
    const text = async () => String((await b.file('app.mjs')).data);
    const first = await text();
    assert.match(first, /"one"/);
    assert.match(first, /import\("\/src\/lazy\.mjs"\)/); // loaded on demand, not bundled
    assert.equal(await b.file('nothing.mjs'), null);
    write('v.mjs', "export const v = 'two';\n");
    const deadline = Date.now() + 10000;
    while (!/"two"/.test(await text()) && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
    assert.match(await text(), /"two"/);
    // A source that does not parse: the entry module imports the sources, and the log says why.
    write('v.mjs', 'export const = ;\n');
    while (!/^import /.test(await text()) && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
    assert.equal(await text(), "import '/src/app.mjs';\n");
    assert.match(logged.join('\n'), /page bundle: .*serving the source modules instead/);
  } finally {
    b.close();
  }
});

test('the bridge refuses foreign origins and messages that are not whole frames', async () => {
  const { WebSocket } = await import('ws');
  const url = server.url.replace('http', 'ws') + 'executor';
  const refused = await new Promise(resolve => {
    const ws = new WebSocket(url, { origin: 'http://evil.example' });
    ws.on('unexpected-response', (_, res) => resolve(res.statusCode));
    ws.on('open', () => resolve('opened'));
  });
  assert.equal(refused, 403);
  const closed = await new Promise(resolve => {
    const ws = new WebSocket(url, { origin: server.url.slice(0, -1) });
    ws.on('open', () => ws.send(Buffer.from([9, 0, 0, 0, 1])));
    ws.on('close', (code, reason) => resolve(`${code} ${reason}`));
  });
  assert.match(closed, /^1003 bridge: a message must be whole binary executor frames/);
  // Past the size cap the connection closes before anything reaches the executor.
  const big = Buffer.alloc(MAX_MESSAGE + 8);
  big.writeUInt32LE(big.length - 4, 0);
  const tooBig = await new Promise(resolve => {
    const ws = new WebSocket(url, { origin: server.url.slice(0, -1) });
    ws.on('open', () => ws.send(big));
    ws.on('close', code => resolve(code));
  });
  assert.equal(tooBig, 1009);
});

test('the server tags whole files for revalidation and serves a file again once it changed', async () => {
  const gallery = fs.mkdtempSync(path.join(tmp, 'gallery-'));
  const own = await startServer({ port: 0, gallery, store: path.join(tmp, 'links-etag') });
  try {
    const file = path.join(gallery, 'index.json');
    fs.writeFileSync(file, '{"examples": []}');
    const url = `${own.url}gallery/index.json`;
    const first = await fetch(url);
    assert.equal(await first.text(), '{"examples": []}');
    const etag = first.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
    // As a browser revalidates its cached copy (fetch() with If-None-Match would add Cache-Control: no-cache).
    const revalidate = () => new Promise((resolve, reject) =>
      http.get(url, { headers: { 'if-none-match': etag } }, res => { res.resume(); resolve(res.statusCode); })
        .on('error', reject));
    assert.equal(await revalidate(), 304);
    // A change is served.
    fs.writeFileSync(file, '{"examples": [1]}');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.equal(await revalidate(), 200);
    const changed = await fetch(url);
    assert.equal(await changed.text(), '{"examples": [1]}');
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.equal((await fetch(`${own.url}gallery/missing.json`)).status, 404);

    // A brotli sibling no older than its file is sent as the file's brotli encoding; an older one is not.
    const big = path.join(gallery, 'big.json'), text = JSON.stringify({ examples: Array(400).fill('x') });
    fs.writeFileSync(big, text);
    const sibling = zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
    fs.writeFileSync(`${big}.br`, sibling);
    const brGet = () => new Promise((resolve, reject) =>
      http.get(`${own.url}gallery/big.json`, { headers: { 'accept-encoding': 'br' } }, res => {
        const parts = [];
        res.on('data', d => parts.push(d));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
      }).on('error', reject));
    let sent = await brGet();
    assert.equal(sent.encoding, 'br');
    assert.ok(sent.body.equals(sibling), 'the sibling, as it is');
    fs.utimesSync(big, new Date(), new Date(Date.now() + 10000)); // the file changed after its sibling was made
    sent = await brGet();
    assert.ok(!sent.body.equals(sibling) && zlib.brotliDecompressSync(sent.body).toString() === text);

    // The wasm core (and the page's text files) go out compressed as the browser asks: brotli, else gzip.
    const wasm = fs.readFileSync(path.join(WEB, '../wasm-bindings/dist/linklab_core.wasm'));
    const get = headers => new Promise((resolve, reject) =>
      http.get(`${own.url}linklab/dist/linklab_core.wasm`, { headers }, res => {
        const parts = [];
        res.on('data', d => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
      }).on('error', reject));
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.body.length < wasm.length / 2, `${br.body.length} bytes of ${wasm.length}`);
    assert.ok(zlib.brotliDecompressSync(br.body).equals(wasm));
    const gz = await get({ 'accept-encoding': 'gzip, br;q=0' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(gz.body).equals(wasm));
    const plain = await get({});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.equals(wasm));
    assert.equal((await get({ 'accept-encoding': 'br', 'if-none-match': br.headers.etag })).status, 304);
    assert.notEqual(br.headers.etag, plain.headers.etag);
    const part = await get({ 'accept-encoding': 'br', range: 'bytes=0-3' }); // a range: the file's own bytes
    assert.equal(part.status, 206);
    assert.ok(part.body.equals(wasm.subarray(0, 4)));
  } finally {
    await own.close();
  }
});

test("the server serves exactly the C runtime files the package names, from the core's paths", async () => {
  const L = await import('../../wasm-bindings/index.mjs');
  for (const [arch, { triple }] of Object.entries(ARCH_TABLE)) {
    const info = L.runtimeInfo(triple);
    assert.ok(info.files.length >= 2, `${arch}: ${JSON.stringify(info)}`);
    for (const f of info.files) {
      const r = await fetch(`${server.url}runtime/${arch}/${f.name}`);
      assert.equal(r.status, 200, `${arch}/${f.name}`);
      assert.ok(Buffer.from(await r.arrayBuffer()).equals(fs.readFileSync(f.path)), `${arch}/${f.name} is ${f.path}`);
    }
  }
  // One byte range (an archive's head, before the page decides to fetch the rest).
  const libc = L.runtimeInfo(ARCH_TABLE.x86_64.triple).files.find(f => f.name === 'libc.a').path;
  const part = await fetch(`${server.url}runtime/x86_64/libc.a`, { headers: { range: 'bytes=0-99' } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), `bytes 0-99/${fs.statSync(libc).size}`);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(fs.readFileSync(libc).subarray(0, 100)));
  const past = await fetch(`${server.url}runtime/x86_64/libc.a`, { headers: { range: 'bytes=999999999-' } });
  assert.equal(past.status, 416);
  // Names outside the table, and folders, are not served.
  const refused = ['x86_64/libsemihost.a', 'x86_64/crt1.a', 'mips/libc.a', 'x86_64/libc.a/x',
                   'x86_64/..%2F..%2Fetc%2Fpasswd'];
  for (const bad of refused)
    assert.equal((await fetch(`${server.url}runtime/${bad}`)).status, 404, bad);
});
