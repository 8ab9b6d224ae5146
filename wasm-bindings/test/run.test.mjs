// Programs and functions run in a spawned linklab-executor, reached over its
// pipes through the wasm build's executor client.
import { Executor, LinkSession, plan, LinklabError } from '../index.mjs';
import { spawnExecutor, spawnExecutorTransport } from '../node.mjs';
import { program, read, runNative, runWasm } from './helpers.mjs';

const T = {
  x86_64: 'x86_64-unknown-linux-gnu', aarch64: 'aarch64-unknown-linux-gnu', riscv64: 'riscv64-unknown-linux-gnu',
};

describe.each(Object.keys(T))('%s', (arch) => {
  let x;
  beforeEach(async () => { x = await spawnExecutor(T[arch]); });
  afterEach(async () => { await x.close(); });

  async function linked(name) {
    const s = new LinkSession({ executor: x });
    for (const f of program(name, arch).files) s.addObject(read(f), { name: f });
    return s;
  }

  test('main with args: stdout and stderr streamed, exit code', async () => {
    const out = { stdout: '', stderr: '' };
    x.onOutput((stream, b) => { out[stream] += Buffer.from(b).toString(); });
    const r = await (await linked('sys')).run({ args: ['alpha', 'beta'] });
    expect(out).toEqual({ stdout: 'alpha\nbeta\n', stderr: 'done\n' });
    expect(r.exitCode).toBe(43);
    expect(r.status).toBe('returned');
  });

  test('stdin: the run option is what the program reads from fd 0, then end of file', async () => {
    let out = '';
    x.onOutput((stream, b) => { out += Buffer.from(b).toString(); });
    const text = 'hello\nstdin, é\nlast';
    const s = await linked('cat');
    const r = await s.run({ stdin: text });
    expect(out).toBe(text);
    expect(r.exitCode).toBe(Buffer.byteLength(text));
    out = '';
    expect((await s.run({ stdin: new Uint8Array([0x61, 0x62, 0x0a]) })).exitCode).toBe(3);
    expect(out).toBe('ab\n');
    out = '';
    expect((await s.run()).exitCode).toBe(0); // default: empty
    expect(out).toBe('');
    await expect(s.run({ stdin: 42 })).rejects.toThrow('run: stdin must be a string or a Uint8Array');
  });

  test('linklab-run prints and exits like the program and like native linklab', async () => {
    const args = [program('sys', arch).files[0], '-args', 'prog', 'one'];
    const w = await runWasm(args);
    expect(w).toEqual({ stdout: 'one\n', stderr: 'done\n', status: 42 });
    // Both link the C runtime around main (start code on x86-64, exit() after
    // main elsewhere): the same output and status.
    expect(w).toEqual(runNative(args));
    // ...and without it, main is entered directly.
    expect(await runWasm(['-runtime=none', ...args])).toEqual({ stdout: 'one\n', stderr: 'done\n', status: 42 });
  });

  test('functions called through standard plans: integers, floats, stack arguments', async () => {
    const s = await linked('funcs');
    const [add3, fmix, nine] = await s.lookup(['add3', 'fmix', 'nine']);
    const p1 = plan({ signature: 'i64(i64,i64,i64)', triple: T[arch] });
    expect((await x.callWithPlan(add3, p1, [1, 2, 3])).returnValue).toBe(14n);
    expect((await x.callWithPlan(add3, p1, [-5n, 0, 1])).returnValue).toBe(BigInt.asUintN(64, -2n));
    const p2 = plan({ signature: 'f64(f64,i32,f64)', triple: T[arch] });
    const r2 = await x.callWithPlan(fmix, p2, [{ f64: 1.5 }, 4, { f64: 0.25 }]);
    expect(new Float64Array(new BigUint64Array([r2.returnValue]).buffer)[0]).toBe(6.25);
    const p3 = plan({ signature: 'i64(i64,i64,i64,i64,i64,i64,i64,i64,i64)', triple: T[arch] });
    expect(p3.arguments.some((l) => !l.inRegister)).toBe(true);
    expect((await x.callWithPlan(nine, p3, [1, 2, 3, 4, 5, 6, 7, 8, 9])).returnValue).toBe(936n);
    await expect(x.callWithPlan(add3, p1, [1])).rejects.toThrow(/takes 3 argument\(s\), got 1/);
  });

  test('aggregates through plans: by value (copied or on the stack, per ABI) and returned through sret', async () => {
    const s = await linked('funcs');
    const [sumBig, makeBig] = await s.lookup(['sum_big', 'make_big']);
    const big = new Uint8Array(new BigInt64Array([1n, 2n, 3n]).buffer);
    const pSum = plan({ signature: 'i64(byval(24:8))', triple: T[arch] });
    expect((await x.callWithPlan(sumBig, pSum, [big])).returnValue).toBe(14n);
    const pMake = plan({ signature: 'void(sret(24:8),i32)', triple: T[arch] });
    const r = await x.callWithPlan(makeBig, pMake, [5]); // the sret buffer is the call's, not an argument
    expect(r.status).toBe('returned');
    const want = Buffer.from(new BigInt64Array([5n, 6n, 7n]).buffer).toString('hex');
    expect(r.lines).toContain(`sret 0: bytes:${want}`);
    // The CLI's text form works too, and is range-checked by core.
    expect((await x.callWithPlan(sumBig, pSum, `bytes:${Buffer.from(big).toString('hex')}`)).returnValue).toBe(14n);
    await expect(x.callWithPlan(makeBig, pMake, '5000000000')).rejects.toThrow(/5000000000/);
  });

  test('thread-local data linked after the TLS image was installed is refused, naming the object', async () => {
    const [first, late] = program('tls', arch).files;
    const s = new LinkSession({ executor: x });
    s.addObject(read(first), { name: 'first.o' });
    expect((await s.run()).exitCode).toBe(3);
    s.addObject(read(late), { name: 'late.o' });
    await expect(s.lookup(['late']))
      .rejects.toThrow(/late\.o: has thread-local data but was linked after the program's TLS image was installed/);
  });

  test('limits and fault reports', async () => {
    const s = await linked('funcs');
    const [spin, crash] = await s.lookup(['spin', 'crash']);
    const p = plan({ signature: 'void()', triple: T[arch] });
    // Limits parse as the CLI's options do: a non-number or an overlong time is refused, not "no limit".
    await expect(x.callWithPlan(spin, p, [], { wallMillis: 'abc' }))
      .rejects.toThrow(/^wallMillis: 'abc' is not a number$/);
    await expect(x.callWithPlan(spin, p, [], { wallMillis: 99999999999 }))
      .rejects.toThrow(/^wallMillis: 99999999999 ms is too long$/);
    const r1 = await x.callWithPlan(spin, p, [], { instructions: 100000 });
    expect(r1.exitCode).toBeUndefined();
    expect(r1.error).toMatch(/instruction/i);
    const r2 = await x.callWithPlan(crash, plan({ signature: 'i32()', triple: T[arch] }), []);
    expect(r2.status).toBe('fault');
    expect(r2.address).toBe(0x10);
    expect(r2.description).toMatch(/crash\+0x[0-9a-f]+ in \.text/);
  });
});

test('setup without waiting: the link starts at once; an executor that answers otherwise fails the run', async () => {
  for (const tamper of [false, true]) {
    const t = spawnExecutorTransport();
    if (tamper) { // its setup-result (0x82) claims 8 KiB pages: the page size follows version and triple
      const onData = t.onData;
      t.onData = (cb) => onData((data) => {
        const b = Buffer.from(data);
        if (b.readUInt16LE(4) === 0x82) b.writeBigUInt64LE(0x2000n, 12 + 4 + 4 + b.readUInt32LE(16));
        cb(b);
      });
    }
    const x = new Executor(t);
    expect((await x.setup(T.x86_64, { wait: false })).pageSize).toBe(4096);
    const s = new LinkSession({ executor: x });
    for (const f of program('sys', 'x86_64').files) s.addObject(read(f), { name: f });
    const run = s.run({ args: ['a'] });
    if (tamper)
      await expect(run).rejects.toThrow(/^the executor's setup \(page size 0x2000, \d+ symbols\) is not what/);
    else
      expect((await run).exitCode).toBe(42);
    await x.close();
  }
});

test('a dead executor fails requests with a clear error', async () => {
  const x = await spawnExecutor(T.x86_64);
  await x.close();
  await expect(x.setup(T.x86_64)).rejects.toThrow(LinklabError);
});

test('a missing executor binary is a clear error', async () => {
  await expect(spawnExecutor(T.x86_64, '/nonexistent/linklab-executor'))
    .rejects.toThrow(/cannot run \/nonexistent\/linklab-executor/);
});
