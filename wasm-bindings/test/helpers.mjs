// Shared by the suites: the config global-setup wrote, and the two linkers
// run the same way (native binary vs the wasm build's CLI, in-process).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runCli } from '../lib/cli.mjs';

export const config = JSON.parse(readFileSync(process.env.LINKLAB_TEST_CONFIG, 'utf8'));
process.env.LINKLAB_EXECUTOR = config.executor;

export function runNative(args) {
  const r = spawnSync(config.linklab, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

export async function runWasm(args) {
  let stdout = '', stderr = '';
  const dec = (x) => (typeof x === 'string' ? x : Buffer.from(x).toString('utf8'));
  const status = await runCli(args, {
    stdout: { write: (x) => (stdout += dec(x)) },
    stderr: { write: (x) => (stderr += dec(x)) },
  });
  return { stdout, stderr, status };
}

export const program = (name, arch) => config.programs.find((p) => p.name === name && p.arch === arch);
export const read = (p) => new Uint8Array(readFileSync(p));

// A limiter: slots(n)(fn) runs fn once fewer than n others it started are
// running, in the order they were asked for.
export function slots(n) {
  let busy = 0;
  const waiting = [];
  return async (fn) => {
    if (busy >= n) await new Promise((resolve) => waiting.push(resolve));
    else busy++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next(); else busy--;
    }
  };
}
