// Bad inputs end in LinklabError exceptions carrying the core's message (the
// native CLI's, word for word), and the module stays usable afterwards.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driver, inspect, LinkSession, LinklabError, plan, validatePlan } from '../index.mjs';
import { program, read, runNative, runWasm } from './helpers.mjs';

const ARCHES = ['x86_64', 'aarch64', 'riscv64'];
let dir;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'linklab-bad-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Truncations at every 97th byte and flipped bytes in the headers, per arch.
function badObjects(arch) {
  const good = readFileSync(program('funcs', arch).files[0]);
  const out = [['garbage', Buffer.from('this is not an object file at all')], ['empty', Buffer.alloc(0)]];
  for (let n = 1; n < good.length; n += 97) out.push([`truncated-${n}`, good.subarray(0, n)]);
  for (const at of [0x10, 0x12, 0x28, 0x3a, 0x3c, 0x3e]) {
    const b = Buffer.from(good);
    b[at] ^= 0xff;
    out.push([`flipped-${at.toString(16)}`, b]);
  }
  return out;
}

// A link that must work, to show the module survived what came before.
async function stillWorks(arch) {
  const s = new LinkSession({ slabAddress: 0x10000, phonyExternals: true });
  s.addObject(read(program('sys', arch).files[0]), { name: 'sys.o' });
  expect(await s.link()).toBeGreaterThan(0x10000);
}

describe.each(ARCHES)('%s', (arch) => {
  test('bad objects: same message as native linklab, module still usable', async () => {
    let failures = 0;
    for (const [name, bytes] of badObjects(arch)) {
      const path = join(dir, `${arch}-${name}.o`);
      writeFileSync(path, bytes);
      const args = ['-noexec', '-no-process-syms', '-phony-externals', '-slab-address=0x10000', path];
      const n = runNative(args);
      const w = await runWasm(args);
      expect(w).toEqual(n);
      if (n.status) {
        failures++;
        expect(n.stderr).toMatch(new RegExp(`^linklab error: ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      }
      // Inspection reads less than a link (no section contents, no graph),
      // so it may accept what the link refuses; it must never fail otherwise.
      try {
        inspect(bytes, path);
      } catch (e) {
        expect(e).toBeInstanceOf(LinklabError);
        expect(e.message.startsWith(path)).toBe(true);
      }
    }
    expect(failures).toBeGreaterThan(10);
    await stillWorks(arch);
  });

  test('bad specs and foreign plans throw with the planner message', async () => {
    const triple = `${arch}-unknown-linux-gnu`;
    expect(() => plan({ spec: 'gpr:nosuchreg', signature: 'i64(i64)', triple }))
      .toThrow(/'nosuchreg' is not a .* register/);
    expect(() => plan({ signature: 'i64(', triple })).toThrow(/signature 'i64\(/);
    const other = arch === 'x86_64' ? 'riscv64-unknown-linux-gnu' : 'x86_64-unknown-linux-gnu';
    const foreign = plan({ signature: 'i64(i64)', triple: other }).text;
    expect(() => validatePlan(foreign, { signature: 'i64(i64)', triple })).toThrow(/foreign target schema/);
    expect(() => validatePlan('v1;garbage', { signature: 'i64(i64)', triple })).toThrow(/malformed plan/);
    await stillWorks(arch);
  });
});

test('session misuse is reported, not crashed on', async () => {
  expect(() => new LinkSession({ slabPageSize: 3000 })).toThrow(/^slabPageSize: 3000 is not a power of two$/);
  // Core's settings name the package's field, not the CLI's option.
  expect(() => new LinkSession({ slabAddress: 'zz' })).toThrow(/^slabAddress: 'zz' is not a number$/);
  expect(() => new LinkSession({ slabAllocate: '1Qb' })).toThrow(/^slabAllocate: '1Qb' is not a number$/);
  expect(() => new LinkSession({ triple: 'sparc-sun-solaris' }))
    .toThrow(/unsupported target triple 'sparc-sun-solaris'/);
  const s = new LinkSession({ slabAddress: 0x10000 });
  s.addObject(read(program('sys', 'x86_64').files[0]), { name: 'x.o' });
  expect(() => s.addObject(read(program('sys', 'aarch64').files[0]), { name: 'a.o' }))
    .toThrow(/a\.o: object is for aarch64/);
  await expect(s.lookup(['no_such_symbol'])).rejects.toThrow(/no_such_symbol/);
  expect(() => s.addPass('nonsense', () => {})).toThrow(/unknown phase 'nonsense'/);
  expect(() => s.addObject('not bytes')).toThrow(TypeError);
  await stillWorks('x86_64');
});

// The page's absolute-symbol lines and run-limit fields are read by core
// (driver::parseAbsoluteLines, parseRunFields), not by JavaScript of its own.
test('the page\'s absolutes and limits: values, and errors naming the line or field', () => {
  expect(driver.parseAbsoluteLines('a = 0x10\n\n  b=2 '))
    .toEqual([{ name: 'a', address: '16' }, { name: 'b', address: '2' }]);
  expect(() => driver.parseAbsoluteLines('ok=1\nfar 0x10'))
    .toThrow("absolute symbols, line 2: 'far 0x10' is not NAME=ADDRESS");
  expect(() => driver.parseAbsoluteLines('x=zz')).toThrow("absolute symbols, line 1: 'zz' is not a number");
  expect(driver.runLimits({ memoryMB: '64', wallMillis: ' 1000 ' }))
    .toEqual({ instructions: '0', wallMillis: 1000, memoryBytes: String(64 << 20) });
  expect(driver.runLimits()).toEqual({ instructions: '0', wallMillis: 0, memoryBytes: '0' });
  expect(() => driver.runLimits({ instructions: 'x' })).toThrow(/^instruction limit: 'x' is not a number$/);
  expect(() => driver.runLimits({ memoryMB: '1e3' })).toThrow(/^memory limit: '1e3' is not a number$/);
  expect(() => driver.runLimits({ memoryMB: String(2n ** 50n) })).toThrow(/^memory limit: \d+ MiB is too large$/);
});
