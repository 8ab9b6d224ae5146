// Bundles as tests: a bundle encoded by the page's own codec
// (web/src/session-codec.mjs), with the outcome the native CLI gives for the
// same objects recorded in it, replays through `linklab/jest` and through
// `linklab-run --replay`; a wrong recorded outcome fails both, saying what
// differs; a bundle from another linklab version opens with a note, and one
// of a newer format is refused.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayBundle } from '../jest.mjs';
import { LINKLAB_VERSION, BUNDLE_VERSION } from '../lib/bundle.mjs';
import * as codec from '../../web/src/session-codec.mjs';
import { config, program, read, runNative } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'linklab-bundle-'));
const cli = join(config.root, 'wasm-bindings/bin/linklab-run.mjs');

// The session the page would share for `name` on `arch`, with the run the
// native linklab makes of the same objects as its recorded outcome.
function pageBundle(name, arch) {
  const files = program(name, arch).files;
  const native = runNative([...files]);
  return {
    format: codec.FORMAT, version: codec.VERSION, linklab: codec.LINKLAB_VERSION, arch,
    objects: files.map((f, i) => ({ name: `${name}-${i}.o`, harness: false, data: codec.toBase64(read(f)) })),
    options: { entry: 'main', phonyExternals: false, absolutes: '', slabAddress: '', runtime: true },
    run: { args: '' },
    outcome: { status: 'exited', exitCode: native.status, stdout: native.stdout, stderr: native.stderr },
  };
}
function writeBundle(session, file) {
  const path = join(work, file);
  writeFileSync(path, typeof session === 'string' ? session : codec.encodeBundle(session));
  return path;
}
const replayCli = (path) => spawnSync(process.execPath, [cli, '--replay', path, '--executor', config.executor],
                                      { encoding: 'utf8' });

test('package.json and the bundles agree on the linklab version', () => {
  const pkg = JSON.parse(readFileSync(join(config.root, 'wasm-bindings/package.json'), 'utf8'));
  expect(LINKLAB_VERSION).toBe(pkg.version);
  expect(codec.VERSION).toBe(BUNDLE_VERSION);
});

describe.each(['x86_64', 'aarch64', 'riscv64'])('a page bundle on %s', (arch) => {
  test('replays under Jest and linklab-run --replay, matching its recorded outcome', async () => {
    const s = pageBundle('hello', arch);
    expect(s.outcome.stdout).toBe('hello, world!\n');
    const path = writeBundle(s, `hello-${arch}.linklab.json`);
    const r = await replayBundle(path, { executor: config.executor });
    expect(r.outcome).toEqual(s.outcome);
    expect(r.notes).toEqual([]);
    const c = replayCli(path);
    expect(c.stderr).toMatch(/the replay matches the recorded outcome/);
    expect(c.stdout).toBe('hello, world!\n');
    expect(c.status).toBe(0);
  });
});

test('a wrong recorded outcome fails the replay, naming what differs', async () => {
  const s = pageBundle('hello', 'x86_64');
  s.outcome = { ...s.outcome, stdout: 'goodbye\n' };
  const path = writeBundle(s, 'wrong.linklab.json');
  await expect(replayBundle(path, { executor: config.executor }))
    .rejects
    .toThrow(/differs from the recorded outcome:\n {2}stdout: recorded "goodbye\\n", replayed "hello, world!\\n"/);
  const c = replayCli(path);
  expect(c.status).toBe(1);
  expect(c.stderr).toMatch(/stdout: recorded "goodbye\\n"/);
});

test('a recorded link error replays as that error', async () => {
  const s = pageBundle('hello', 'x86_64');
  s.options.entry = 'no_such_entry';
  s.outcome = { error: 'placeholder' };
  const failed = await replayBundle(writeBundle(s, 'err.linklab.json'), { executor: config.executor })
    .catch((e) => e.message);
  const replayed = /replayed "(.*)"$/m.exec(failed)[1];
  expect(replayed).toMatch(/no_such_entry/);
  s.outcome = { error: JSON.parse(`"${replayed}"`) };
  await expect(replayBundle(writeBundle(s, 'err2.linklab.json'), { executor: config.executor })).resolves.toBeTruthy();
});

test('a bundle made by another linklab version opens with a note and still replays', async () => {
  const s = pageBundle('hello', 'x86_64');
  s.version = 1;        // the format before `linklab` and `outcome` existed...
  s.linklab = '0.0.9';  // ...as written by an older linklab that recorded an outcome...
  delete s.outcome.stderr; // ...without stderr, which is then not compared
  const path = writeBundle(s, 'old.linklab.json');
  const r = await replayBundle(path, { executor: config.executor });
  expect(r.notes).toEqual([`${path} was made by linklab 0.0.9 (session format 1); ` +
                           `this is linklab ${LINKLAB_VERSION} (format ${BUNDLE_VERSION})`]);
  const c = replayCli(path);
  expect(c.status).toBe(0);
  expect(c.stderr).toMatch(/note: .* was made by linklab 0\.0\.9/);
  // The page's decoder says the same.
  expect(codec.decodeBundle(readFileSync(path, 'utf8'), 'old').notes[0]).toMatch(/^old was made by linklab 0\.0\.9/);
});

test('a bundle of a newer format is refused, naming both versions', async () => {
  const s = pageBundle('hello', 'x86_64');
  s.version = BUNDLE_VERSION + 1;
  s.linklab = '9.0.0';
  const path = writeBundle(s, 'new.linklab.json');
  await expect(replayBundle(path)).rejects.toThrow(
    `made by linklab 9.0.0 in session format version ${BUNDLE_VERSION + 1}; this is linklab ${LINKLAB_VERSION}, ` +
    `which reads versions up to ${BUNDLE_VERSION}`);
  expect(replayCli(path).status).toBe(1);
  await expect(codec.decodeFragment(await codec.encodeFragment(s))).rejects.toThrow(/newer linklab/);
});

test('a bundle without a recorded outcome or with damaged JSON is a clear error', async () => {
  const s = pageBundle('hello', 'x86_64');
  delete s.outcome;
  await expect(replayBundle(writeBundle(s, 'none.linklab.json'))).rejects.toThrow(/records no outcome/);
  await expect(replayBundle(writeBundle('{"format":', 'bad.linklab.json')))
    .rejects.toThrow(/not a linklab session bundle/);
});
