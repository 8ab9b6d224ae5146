// The Debug panel in Chromium (playwright-core) against the real server,
// wasm core and linklab-executor: the gallery's GOT-and-PLT example stopped
// at a breakpoint in its `mul` stub (x86-64: in mul, whose calls the link
// made direct), stepped through the stub into mul and out again, then run
// to its end, on x86_64, aarch64 and riscv64.
// Screenshots go to web/artifacts/ (gitignored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../server.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const WEB = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ARTIFACTS = path.join(WEB, 'artifacts');
const WAIT = { timeout: 60000 };

let server, browser, tmp;
before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linklab-debug-'));
  server = await startServer({ port: 0, maxExecutors: 4, store: path.join(tmp, 'links') });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const counter = (page, name) => page.evaluate(n => Number(document.body.dataset[n] ?? 0), name);
// Clicks `button` and waits for the Debug panel's next stop (or end): the status line then.
async function act(page, button, event = 'debugStops') {
  const n = await counter(page, event);
  await page.click(button);
  await page.waitForFunction(([e, k]) => Number(document.body.dataset[e] ?? 0) > k, [event, n], WAIT);
  return page.textContent('#run-status');
}

for (const arch of ['x86_64', 'aarch64', 'riscv64']) {
  test(`Debug panel: GOT-and-PLT on ${arch}, through the mul stub into mul and back`, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready]', WAIT);
    // The example links and runs undebugged first: what it prints.
    const runs = await counter(page, 'runs');
    await page.click(`button[data-example="gotplt"][data-arch="${arch}"]`);
    await page.waitForFunction(k => Number(document.body.dataset.runs ?? 0) > k, runs, WAIT);
    const printed = await page.textContent('#console');
    assert.match(printed, /add\(mul\(2, 3\), sub\(9, 4\)\) = 11/);

    // x86-64's link calls mul directly (each call's stub edge was in range:
    // relaxed), so its stub is never run and the breakpoint list says so;
    // AArch64 and RISC-V call through it.
    const viaStub = arch !== 'x86_64';
    await page.click('button[data-tab="debug"]');
    await page.fill('#dbg-breaks', viaStub ? 'mul@plt' : 'mul@plt mul');
    assert.match(await act(page, '#dbg-start'), /^stopped \(entry\) at 0x[0-9a-f]+ _start\+0x0 in \.text/);
    assert.match(await page.textContent('#dbg-break-list'), viaStub ? /mul@plt at 0x[0-9a-f]+: stub for mul$/
      : /mul@plt at 0x[0-9a-f]+: stub for mul: no call goes through it \(the link calls mul directly\)/);

    let status, object, label;
    if (viaStub) {
      status = await act(page, '#dbg-continue');
      const STUB =
        /^stopped \(breakpoint mul@plt\) at 0x[0-9a-f]+ mul@plt\+0x0 in \$__STUBS of gotplt-main\.o \[stub for mul\]$/;
      assert.match(status, STUB);
      assert.match(await page.textContent('#dbg-where'), /section \$__STUBS of gotplt-main\.o · block 0x/);
      assert.match(await page.textContent('#dbg-fixups'), /→ GOT entry for mul/, 'the stub instruction\'s fixup');
      [object, label] = ['gotplt-main.o', 'stub for mul'];
    } else {
      await act(page, '#dbg-continue'); // the loop's call of mul, through ops[]
      status = await act(page, '#dbg-continue'); // main's own
      assert.match(status, /^stopped \(breakpoint mul\) at 0x[0-9a-f]+ mul\+0x0 in \.text of gotplt-lib\.o$/);
      [object, label] = ['gotplt-lib.o', ''];
    }
    const pc = /at (0x[0-9a-f]+)/.exec(status)[1];
    assert.match(await page.textContent('#dbg-bt'), /#1 0x[0-9a-f]+ main\+0x[0-9a-f]+ in \.text of gotplt-main\.o/);
    await page.screenshot({ path: path.join(ARTIFACTS, `debug-gotplt-${arch}-breakpoint.png`) });

    // The Disassembly view highlights pc in its block, with its fixup.
    await page.click('button[data-tab="disasm"]');
    await page.waitForSelector(`#disasm[data-rendered^="${object} "][data-rendered$=" ${pc}"]`, WAIT);
    const current = await page.evaluate(() => {
      const row = document.querySelector('#disasm-body tr.current');
      const h = row?.closest('table')?.previousElementSibling;
      return row && { address: row.dataset.address, label: h?.dataset.label, fixup: row.lastElementChild.textContent };
    });
    assert.equal(current?.address, pc);
    assert.equal(current.label, label);
    if (viaStub) assert.match(current.fixup, /→ GOT entry for mul/);
    await page.screenshot({ path: path.join(ARTIFACTS, `debug-gotplt-${arch}-disasm.png`) });

    await page.click('button[data-tab="debug"]');
    for (let i = 0; i < 6 && !/ mul\+0x0 /.test(status); i++) status = await act(page, '#dbg-stepi');
    assert.match(status, /^stopped \((step|breakpoint mul)\) at 0x[0-9a-f]+ mul\+0x0 in \.text of gotplt-lib\.o$/);
    assert.match(await page.textContent('#dbg-bt'), /#1 0x[0-9a-f]+ main\+0x[0-9a-f]+/);
    assert.ok(await page.locator('#dbg-regs tr').count() > 16, 'the general registers');
    await page.screenshot({ path: path.join(ARTIFACTS, `debug-gotplt-${arch}-callee.png`) });
    for (let i = 0; i < 4 && !/ main\+/.test(status); i++) status = await act(page, '#dbg-next');
    assert.match(status, / main\+0x[0-9a-f]+ in \.text of gotplt-main\.o$/);

    // Memory at an address: the code where the program stopped.
    await page.fill('#dbg-mem-addr', pc);
    await page.click('#dbg-read');
    const dumped = at => document.querySelector('#dbg-mem').textContent.trimStart().startsWith(`${at}  `);
    await page.waitForFunction(dumped, pc, WAIT);

    const end = await act(page, '#dbg-continue', 'debugEnds');
    assert.match(end, /^program ended: exited with status 0 · exit code 0$/);
    assert.equal(await page.textContent('#console'), printed);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
