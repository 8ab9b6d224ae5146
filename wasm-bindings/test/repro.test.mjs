// Reproducers through the package: exportTest writes the test linklab
// -export-test writes (run here by tests/lit/run-lit.py), reduce shrinks a
// case with core's reducer while an asynchronous test of each candidate (a
// slab link, or a run in a spawned executor) says it still fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as L from '../node.mjs';
import { caseOutcome, failureOf, reduceCase, stillFails } from '../lib/repro.mjs';
import { config, read } from './helpers.mjs';

const TRIPLE = 'x86_64-linux-gnu';
const work = mkdtempSync(join(config.work, 'repro-'));
function compile(name) {
  const out = join(work, `${name}.o`);
  const flags = L.runtimeInfo(TRIPLE).cflags.split(' ');
  execFileSync('clang-22', [`--target=${TRIPLE}`, ...flags, '-O1', '-c',
                            join(config.root, 'tests/inputs/repro', `${name}.c`), '-o', out]);
  return { name: `${name}.o`, bytes: read(out) };
}
const obj = Object.fromEntries(['err_main', 'answer_main', 'answer', 'extra', 'needs_missing', 'null_field']
  .map((n) => [n, compile(n)]));
const runtime = L.readRuntimeFiles(TRIPLE);

// Writes an exported test to a folder and runs it under the project's lit runner (linklab's pass).
function lit(t, folder) {
  const dir = join(work, folder);
  for (const f of t.files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.text);
  }
  return spawnSync('python3', [join(config.root, 'tests/lit/run-lit.py'), '--linklab', config.linklab,
                               '--out', join(dir, 'out'), '--only', 'linklab', join(dir, t.testFile)],
                   { encoding: 'utf8' });
}

// A run in an executor of its own, as the page's reducer does.
async function outcome(c) {
  if (c.noExec) return caseOutcome(L, c, { triple: TRIPLE, runtime });
  const executor = await L.spawnExecutor(TRIPLE);
  try {
    return await caseOutcome(L, c, { triple: TRIPLE, executor, runtime });
  } finally {
    await executor.close();
  }
}

describe('exportTest', () => {
  test('a run: its exit status and output are the expectation, and the test passes lit', async () => {
    const c = { objects: [obj.answer_main, obj.answer], args: ['answer'] };
    const o = await outcome(c);
    expect(o).toEqual({ exitCode: 42, output: '42\n' });
    const t = L.exportTest(c, o);
    expect(t.testFile).toBe('repro.test');
    expect(t.files.map((f) => f.path).sort()).toEqual(['Inputs/repro-answer_main_o.yaml', 'Inputs/repro-answer_o.yaml',
                                                       'repro.stdout', 'repro.test'].sort());
    expect(t.files.find((f) => f.path === 'repro.stdout').text).toBe('42\n');
    const text = t.files[0].text;
    expect(text).toMatch(/^# RUN: linklab .*> %t\/stdout; test \$\? -eq 42$/m);
    expect(text).toContain(`# REQUIRES-LINKLAB-ONLY: ${L.UNASKED_LLVM_JITLINK}`);
    expect(t.checks).toBeGreaterThan(0);
    const r = lit(t, 'run');
    expect(r.stdout + r.stderr).toMatch(/PASS/);
    expect(r.status).toBe(0);
  });

  test('a link error: the message is the expectation; assembly where the caller accepts it', async () => {
    const c = { objects: [obj.err_main, obj.needs_missing], noExec: true, runtime: 'none' };
    const o = await outcome(c);
    expect(o.error).toMatch(/missing_fn/);
    const offered = [];
    const t = L.exportTest(c, o, { name: 'missing', linklabOnly: '', acceptAssembly: (name, text, flags) => {
      offered.push([name, flags]);
      return true;
    } });
    expect(offered.map(([n]) => n)).toEqual(['err_main.o', 'needs_missing.o']);
    expect(offered[0][1]).toMatch(/-triple=x86_64/);
    expect(t.testFile).toBe('missing.s');
    expect(t.files[0].text).toMatch(/# RUN: not linklab -noexec [^]* 2>&1 \| FileCheck %s --check-prefix=ERROR\n/);
    expect(t.files[0].text).toMatch(/# ERROR: error: Symbols not found: \[ missing_fn \]/);
    expect(t.files[0].text).not.toContain('REQUIRES-LINKLAB-ONLY');
    const r = lit(t, 'error');
    expect(r.status).toBe(0);
  });

  test('a fault: the test expects status 128+SIGSEGV and the report\'s kind, and passes lit', async () => {
    const c = { objects: [obj.null_field], args: ['null_field'] };
    const o = await outcome(c);
    expect(o).toMatchObject({ signal: 11, output: 'reading\n' });
    expect(o.error).toMatch(/^program read of unmapped memory at pc .*, null pointer\+0x10 \(address 0x10\)$/);
    const t = L.exportTest(c, o, { name: 'fault' });
    const text = t.files[0].text;
    expect(text).not.toContain('not linklab');
    expect(text).toMatch(/^# RUN: linklab .*> %t\/stdout 2> %t\/stderr; test \$\? -eq 139$/m);
    expect(text).toContain('# FAULT: error: program read of unmapped memory at pc {{.*}}, null pointer+0x10\n');
    const r = lit(t, 'fault');
    expect(r.status).toBe(0);
    // A different fault fails the test.
    const other = L.exportTest(c, { ...o, error: o.error.replace('+0x10', '+0x18') }, { name: 'fault' });
    expect(lit(other, 'other-fault').status).not.toBe(0);
  });

  test('bad cases and outcomes are refused, naming what is wrong', () => {
    expect(() => L.exportTest({ objects: [] }, {})).toThrow(/objects: expected a non-empty array/);
    expect(() => L.exportTest({ objects: [obj.answer] }, {})).toThrow(/needs its exitCode/);
    expect(() => L.exportTest({ objects: [{ name: 'x.o', bytes: new Uint8Array(8) }] }, { exitCode: 0 }))
      .toThrow(/x\.o/);
    expect(() => L.exportTest({ objects: [obj.answer], runtime: 'musl' }, { exitCode: 0 }))
      .toThrow(/'musl' is not 'default' or 'none'/);
    expect(() => L.exportTest({ objects: [obj.answer] }, { signal: 11 })).toThrow(/needs its error/);
    expect(() => L.exportTest({ objects: [obj.answer] }, { signal: 'x', error: 'e' })).toThrow(/not a signal number/);
    const boom = () => { throw new Error('boom'); };
    expect(() => L.exportTest({ objects: [obj.answer], noExec: true }, {}, { acceptAssembly: boom }))
      .toThrow(/acceptAssembly for answer\.o: boom/);
  });
});

// One test per failure kind, each through reduceCase (what the page's Reduce
// runs) ending at the known minimal set with the same failure, each bounded
// by its `seconds`.
describe('reduce', () => {
  const outcomeWith = (c, limits) => (c.noExec ? outcome(c) : runWith(c, limits));
  async function runWith(c, limits) {
    const executor = await L.spawnExecutor(TRIPLE);
    try {
      return await caseOutcome(L, c, { triple: TRIPLE, executor, runtime, limits });
    } finally {
      await executor.close();
    }
  }
  const reduceWith = (c, want, progress) =>
    reduceCase(L, c, want, { outcomeOf: outcomeWith, seconds: 120, onProgress: (l) => progress.push(l) });

  test('an error substring holds as the whole error: only what leads to missing_fn stays', async () => {
    const c = { objects: [obj.extra, obj.err_main, obj.answer, obj.needs_missing], noExec: true, runtime: 'none' };
    expect(failureOf(await outcome(c)).error).toMatch(/missing_fn/);
    const progress = [];
    // "Symbols not found" alone would let a candidate fail on main instead.
    const r = await reduceWith(c, { error: 'Symbols not found' }, progress);
    const whole = 'Symbols not found: [ missing_fn ] (referenced by needs_missing.o)';
    expect(r.failure).toEqual({ error: whole, whole: true });
    expect(r.objects.map((o) => o.name)).toEqual(['err_main.o', 'needs_missing.o']);
    expect(r.removed).toEqual(expect.arrayContaining(['object extra.o', 'object answer.o']));
    expect(r.timedOut).toBe(false);
    expect(progress.slice(0, 3)).toEqual([`reduce: keeping the error '${whole}'`,
      expect.stringMatching(/^reduce: the session took \d+ ms; each candidate may run for \(no run\)$/),
      'reduce: inputs: 4 to try']);
    expect(progress).toContain('reduce: removed object extra.o');
    expect(progress.at(-1)).toBe(`reduce: the reduced case fails with: ${whole}`);
    const symbols = (o) =>
      L.inspect(o.bytes, o.name).symbols.map((s) => s.name).filter((n) => n && !n.endsWith('.c')).sort();
    expect(symbols(r.objects[0])).toEqual(['answer2', 'main']);
    expect(symbols(r.objects[1])).toEqual(['answer2', 'missing_fn']);
    // The reduced case's outcome, re-run, exports to a test that passes.
    expect(stillFails(r.outcome, r.failure)).toBe(true);
    expect(lit(L.exportTest({ ...c, objects: r.objects }, r.outcome, { name: 'reduced' }), 'reduced').status).toBe(0);
  });

  test('an exit status, with runs in an executor under the session\'s bound: the noise object goes', async () => {
    const c = { objects: [obj.answer_main, obj.extra, obj.answer], args: ['answer'] };
    const progress = [];
    const r = await reduceWith(c, { exitCode: 42 }, progress);
    const [, took] = /^reduce: the session took (\d+) ms/.exec(progress[1]);
    expect(r.candidateMillis).toBe(2 * Number(took) + 1000);
    expect(r.objects.map((o) => o.name)).toEqual(['answer_main.o', 'answer.o']);
    expect(r.outcome.exitCode).toBe(42);
    expect(progress.at(-1)).toBe('reduce: the reduced case exits with status 42');
  });

  test('an output mismatch: it still runs and prints other than expected, without the noise', async () => {
    const c = { objects: [obj.answer_main, obj.extra, obj.answer], args: ['answer'] };
    const r = await reduceWith(c, { output: '41\n' }, []);
    expect(r.objects.map((o) => o.name)).toEqual(['answer_main.o', 'answer.o']);
    expect(r.outcome.error).toBeUndefined();
    expect(r.outcome.output).not.toBe('41\n');
  });

  test('a fault holds as the whole report (kind, pc, symbol, address): the noise object goes', async () => {
    const c = { objects: [obj.null_field, obj.extra], args: ['null_field'] };
    const first = await runWith(c, {});
    const progress = [];
    const r = await reduceWith(c, failureOf(first), progress);
    expect(r.failure).toEqual({ error: first.error, whole: true });
    expect(first.error)
      .toMatch(/\(main\+0x[0-9a-f]+ in \.text of null_field\.o\), null pointer\+0x10 \(address 0x10\)$/);
    expect(r.objects.map((o) => o.name)).toEqual(['null_field.o']);
    // The same fault at main+offset; its pc moved with extra.o's going.
    const at = (e) => e.replace(/at pc 0x[0-9a-f]+ /, 'at pc * ');
    expect(r.outcome.signal).toBe(11);
    expect(at(r.outcome.error)).toBe(at(first.error));
    expect(at(progress.at(-1))).toBe(at(`reduce: the reduced case fails with: ${first.error}`));
  });

  test('an input that does not fail, and a bad predicate, are errors', async () => {
    const c = { objects: [obj.answer_main, obj.answer] };
    await expect(L.reduce(c, async () => false)).rejects.toThrow(/does not fail as specified/);
    await expect(L.reduce(c, 'no')).rejects.toThrow(/fails must be a function/);
    await expect(L.reduce(c, async () => { throw new Error('predicate broke'); })).rejects.toThrow(/predicate broke/);
    // No time: the input is tested, then the reducer stops with it.
    let calls = 0;
    const r = await L.reduce(c, async () => ++calls > 0, { seconds: 0 });
    expect(r.timedOut).toBe(true);
    expect(r.objects.length).toBe(2);
    expect(calls).toBe(1);
  });
});
