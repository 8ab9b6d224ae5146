#!/usr/bin/env node
// linklab-run: link (and run) objects with the wasm build of linklab; the
// options are the native linklab CLI's (see lib/cli.mjs).
//   linklab-run --replay BUNDLE.json|SHARE-URL|SHORT-URL [--executor PATH]:
//   link and run a playground bundle, share link or short link (the
//   server's /s/<id>, fetched from it) with its recorded stdin, options
//   and limits, print its stdout and stderr, and compare with the outcome
//   it recorded (exit status 0 when they agree, 1 otherwise).
import { readFileSync } from 'node:fs';
import { runCli } from '../lib/cli.mjs';

if (process.argv[2] === '--replay') {
  const [file, flag, path] = process.argv.slice(3);
  if (!file || (flag && flag !== '--executor')) {
    console.error('usage: linklab-run --replay BUNDLE.json|SHARE-URL|SHORT-URL [--executor PATH]');
    process.exit(2);
  }
  const { replayBundle } = await import('../jest.mjs');
  const where = file.includes('#s=') ? 'the share link' : /^https?:\/\//i.test(file) ? `the short link ${file}` : file;
  try {
    const r = await replayBundle(file, { executor: path });
    for (const n of r.notes) console.error(`linklab-run: note: ${n}`);
    process.stdout.write(r.outcome.stdout ?? '');
    process.stderr.write(r.outcome.stderr ?? '');
    // How it ended when not by exit, as the native command reports it (a
    // fault's kind, pc, symbol and address; the link's error).
    const f = r.outcome.fault;
    if (f) {
      const a = Number(f.address); // page zero is never mapped: a null pointer, plus a field's offset
      const address = a >= 0x1000 ? `address ${f.address}`
        : `null pointer${a ? `+${f.address}` : ''} (address ${f.address})`;
      console.error(`linklab-run: the program ${f.kind} at pc ${f.pc}${f.symbol ? ` (${f.symbol})` : ''}, ${address}`);
    }
    if (r.outcome.error !== undefined) console.error(`linklab-run: linklab error: ${r.outcome.error}`);
    const partial = r.recorded.outputTruncatedAt
      ? ' (its status, exit code and fault: the output was not recorded)'
      : '';
    console.error(`linklab-run: ${where}: the replay matches the recorded outcome${partial}`);
    process.exitCode = 0;
  } catch (e) {
    console.error(`linklab-run: ${e.message}`);
    process.exitCode = 1;
  }
} else {
  // The program's stdin: what was piped in (a terminal gives nothing).
  let stdin = '';
  try {
    if (!process.stdin.isTTY) stdin = readFileSync(0);
  } catch { /* no readable stdin (closed, non-blocking): the program reads end of file */ }
  process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin });
}
