// Node-only additions: an executor spawned as a child process, talking the
// executor protocol over its stdin/stdout pipes (as `linklab` does natively).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { connect } from 'node:net';
import { Executor, LinklabError, runtimeInfo } from './index.mjs';
import * as L from './index.mjs';
import { runtimeFiles } from './lib/link-flow.mjs';

export * from './index.mjs';

/** A transport to `path stdio` (default: linklab-executor on PATH or $LINKLAB_EXECUTOR). */
export function spawnExecutorTransport(path = process.env.LINKLAB_EXECUTOR || 'linklab-executor') {
  const child = spawn(path, ['stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let onClose = () => {};
  const closed = (why) => onClose(why);
  child.on('error', (e) => closed(`cannot run ${path}: ${e.message}`));
  child.on('exit', (code, signal) => closed(`${path} exited (${signal ?? `status ${code}`})`));
  child.stdin.on('error', () => {}); // EPIPE after the child died: reported by 'exit'
  return {
    send: (b) => child.stdin.write(b),
    onData: (cb) => child.stdout.on('data', cb),
    onClose: (cb) => { onClose = cb; },
    close: () => { child.stdin.end(); },
    child,
  };
}

/** Spawns an executor and sets it up for `triple`. */
export async function spawnExecutor(triple, path) {
  const x = new Executor(spawnExecutorTransport(path));
  try {
    await x.setup(triple);
  } catch (e) {
    await x.close().catch(() => {});
    throw e instanceof LinklabError ? e : new LinklabError(String(e));
  }
  return x;
}

/** A transport to a running `linklab-executor listen=HOST:PORT`. */
export function connectExecutorTransport(hostPort) {
  const i = hostPort.lastIndexOf(':');
  if (i <= 0) return Promise.reject(new LinklabError(`-oop-executor-connect: '${hostPort}' is not HOST:PORT`));
  return new Promise((resolve, reject) => {
    const sock = connect({ host: hostPort.slice(0, i), port: Number(hostPort.slice(i + 1)) });
    let onClose = () => {};
    sock.once('error', (e) => reject(new LinklabError(`cannot connect to executor at ${hostPort}: ${e.message}`)));
    sock.once('connect', () => {
      sock.on('error', (e) => onClose(`executor connection: ${e.message}`));
      sock.on('close', () => onClose('executor connection closed'));
      resolve({
        send: (b) => sock.write(b),
        onData: (cb) => sock.on('data', cb),
        onClose: (cb) => { onClose = cb; },
        close: () => sock.end(),
      });
    });
  });
}

/**
 * The C runtime's files for `triple` read from their Debian paths (as the
 * native CLI reads them): {name: Uint8Array}, for LinkSession's runtimeFiles.
 */
export function readRuntimeFiles(triple) {
  const info = runtimeInfo(triple);
  return Object.fromEntries(info.files.map((f) => [f.name, readRuntimeFile(info, f.name)]));
}

/**
 * As readRuntimeFiles, without the on-demand archives (libstdc++.a, libm.a)
 * that `objects` ([{name, bytes}], archives included) reach no symbol of:
 * only their heads are read to tell (runtimeFilesNeeded). A C program's
 * link then reads and indexes half the bytes.
 */
export function readRuntimeFilesFor(triple, objects) {
  const info = runtimeInfo(triple);
  return runtimeFiles(L, triple, (name, length) => readRuntimeFile(info, name, length), objects);
}

// One file of the runtime `info`, whole or its first `length` bytes.
function readRuntimeFile(info, name, length) {
  const { path } = info.files.find((f) => f.name === name);
  try {
    if (length === undefined) return readFileSync(path); // a Buffer is a Uint8Array: no copy
    const fd = openSync(path, 'r');
    try {
      const b = new Uint8Array(length);
      return b.subarray(0, readSync(fd, b, 0, length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    throw new LinklabError(`C runtime ${info.description}: ${path} is missing ` +
                           "(install the package, or run with runtime 'none')");
  }
}
