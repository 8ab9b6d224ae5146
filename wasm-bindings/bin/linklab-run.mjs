#!/usr/bin/env node
// linklab-run: link (and run) objects with the wasm build of linklab; the
// options are the native linklab CLI's (see lib/cli.mjs).
//   linklab-run --replay BUNDLE.json [--executor PATH]: link and run a
//   playground bundle, print its output, and compare with the outcome the
//   page recorded (exit status 0 when they agree, 1 otherwise).
import { runCli } from '../lib/cli.mjs';

if (process.argv[2] === '--replay') {
  const [file, flag, path] = process.argv.slice(3);
  if (!file || (flag && flag !== '--executor')) {
    console.error('usage: linklab-run --replay BUNDLE.json [--executor PATH]');
    process.exit(2);
  }
  const { replayBundle } = await import('../jest.mjs');
  try {
    const r = await replayBundle(file, { executor: path });
    for (const n of r.notes) console.error(`linklab-run: note: ${n}`);
    process.stdout.write(r.outcome.stdout ?? '');
    console.error(`linklab-run: ${file}: the replay matches the recorded outcome`);
    process.exitCode = 0;
  } catch (e) {
    console.error(`linklab-run: ${e.message}`);
    process.exitCode = 1;
  }
} else {
  process.exitCode = await runCli(process.argv.slice(2));
}
