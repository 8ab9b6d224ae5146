// The lit tests of tests/lit/runtime that run a program, with linklab-run
// (the package's CLI) standing in for linklab: run-lit.py's linklab pass
// with --linklab a shim that execs linklab-run. Tests whose every linklab
// line is -noexec run no program (the in-process comparison of lit lines is
// global-setup's); the ones left out are in LEFT_OUT with why.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { config, slots } from './helpers.mjs';
import { runLines } from './global-setup.mjs';

const DIR = join(config.root, 'tests/lit/runtime');
const LEFT_OUT = {
  'executor_gone.test': 'checks the native CLI against a missing or killed executor (-oop-executor=/bin/true, ' +
    '120 runs); linklab-run\'s transport errors are its own',
  'executor_setup_checked.test': 'finds linklab-executor beside the linklab binary, which the shim is not',
  'noexec_layout_as_run.test': 'linklab-run writes no -debug-script image (cli-parity.test.mjs compares its ' +
    '-noexec -show-addrs layout with the native one)',
  'perf_map.test': 'linklab-run writes no perf map (-perf-support is the native CLI\'s)',
  'triple_unsupported.test': 'one of its lines gives -export-test, which linklab-run refuses by name before the ' +
    '-triple error it checks (roundtrip.test.mjs checks linklab-run\'s -triple errors)',
};
const work = mkdtempSync(join(tmpdir(), 'linklab-lit-runtime-'));
const shim = join(work, 'linklab-run.sh');
writeFileSync(shim, `#!/bin/sh\nLINKLAB_EXECUTOR='${config.executor}' exec '${process.execPath}' ` +
  `'${join(config.root, 'wasm-bindings/bin/linklab-run.mjs')}' "$@"\n`);
chmodSync(shim, 0o755);

// A test runs a program when some linklab command of its RUN lines is not -noexec.
const linklabCommands = (text) => runLines(text).flatMap((l) => l.match(/\blinklab\b[^;|&]*/g) ?? []);
const TESTS = readdirSync(DIR).filter((f) => f.endsWith('.test')).sort();
const RUNS = TESTS.filter((f) => linklabCommands(readFileSync(join(DIR, f), 'utf8')).some((c) => !/-noexec\b/.test(c)));

test('every test left out runs a program and is there', () => {
  for (const f of Object.keys(LEFT_OUT)) expect(RUNS).toContain(f);
  expect(RUNS.filter((f) => !LEFT_OUT[f]).length).toBeGreaterThan(0);
});

// Two at a time: each test is a shell running its lines in turn.
const inSlot = slots(2);

test.concurrent.each(RUNS.filter((f) => !LEFT_OUT[f]))('lit runtime/%s passes with linklab-run as linklab', (f) =>
  inSlot(async () => {
    const r = await promisify(execFile)('python3', [join(config.root, 'tests/lit/run-lit.py'), '--only', 'linklab',
      '--linklab', shim, '--out', join(work, f), join(DIR, f)]).catch((e) => e);
    expect(`${r.stdout}${r.stderr ?? ''}`).toMatch(/^PASS \[linklab\]/);
    expect(r.code ?? 0).toBe(0);
  }), 600000); // a bound, not a time check: the test may wait for a slot on a loaded machine
