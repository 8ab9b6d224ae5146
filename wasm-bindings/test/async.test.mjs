// A big link (Debian's libsqlite3.a members) gives the event loop turns:
// timers fire while it runs, and it matches the native link's addresses.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinkSession } from '../index.mjs';
import { runNative } from './helpers.mjs';

const LIB = '/usr/lib/x86_64-linux-gnu/libsqlite3.a';

(existsSync(LIB) ? test : test.skip)('the sqlite link yields to the event loop and agrees with native', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linklab-sqlite-'));
  try {
    execFileSync('ar', ['x', LIB], { cwd: dir });
    const files = readdirSync(dir).sort().map((f) => join(dir, f));
    const s = new LinkSession({ slabAddress: 0x10000000, slabAllocate: '64Mb', phonyExternals: true });
    for (const f of files) s.addObject(readFileSync(f), { name: f });
    // Turns of the loop, counted in its check phase, where the link's own
    // slices run: a timer (setInterval 0) could not tell, since a link of two
    // slices can run both before the loop next reaches its timers phase.
    let ticks = 0;
    let turn = setImmediate(function tick() { ticks++; turn = setImmediate(tick); });
    const addr = await s.link({ entry: 'sqlite3_open' });
    clearImmediate(turn);
    expect(ticks).toBeGreaterThan(0);
    expect(s.linkInfo().length).toBeGreaterThan(50);
    // The native CLI's -show-addrs line for sqlite3_open gives the same address.
    const n = runNative(['-noexec', '-no-process-syms', '-entry=sqlite3_open', '-phony-externals',
                         '-slab-allocate=64Mb', '-slab-address=0x10000000', '-show-addrs', ...files]);
    const line = n.stdout.split('\n').find((l) => /^\s+"sqlite3_open" target addr = /.test(l));
    expect(line).toBeDefined();
    expect(Number(line.match(/target addr = (0x[0-9a-f]+)/)[1])).toBe(addr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
