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
