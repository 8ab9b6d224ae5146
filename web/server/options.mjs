// The server's options: one table gives each option's flag, default and
// meaning; `node web/server.mjs --help` prints it. startServer() takes the
// same names as an object.
import os from 'node:os';
import { parseArgs } from 'node:util';

const MiB = 1 << 20;
// [name, type, default, help]. Durations are milliseconds, sizes bytes.
export const OPTIONS = [
  ['host', 'string', '127.0.0.1', 'address to listen on (0.0.0.0 or :: for every interface)'],
  ['port', 'number', 8080, 'port to listen on (0: any free one)'],
  ['origin', 'list', [], 'an origin allowed to open /executor (repeatable; default: the server\'s own)'],
  ['executor', 'string', undefined, 'the linklab-executor binary'],
  ['gallery', 'string', undefined, 'the built gallery folder'],
  ['runtimes', 'string', undefined, 'the prepared C runtimes folder (build/web-runtimes)'],
  ['maxExecutors', 'number', os.availableParallelism?.() ?? os.cpus().length, 'executors running at once'],
  ['queue', 'number', 64, 'sessions waiting for an executor; past it: "server busy"'],
  ['sessionsPerClient', 'number', 8, 'open connections per remote address'],
  ['runsPerMinute', 'number', 120, 'runs started per remote address per minute'],
  ['idleTimeout', 'number', 120_000, 'a connection with no message either way this long is closed'],
  ['sessionLifetime', 'number', 15 * 60_000, 'a connection is closed this long after it opened'],
  ['handshakeTimeout', 'number', 10_000, 'an HTTP request (or upgrade) whose headers take longer is dropped'],
  ['maxInstructions', 'number', 0, 'cap on a run\'s instruction budget (0: the client\'s, none if it sets none)'],
  ['maxWallMillis', 'number', 10_000, 'cap on a run\'s wall time'],
  ['maxMemory', 'number', 512 * MiB, 'cap on a run\'s memory'],
  ['maxOutput', 'number', 1 * MiB, 'program output per run; past it the session ends ("output limit")'],
  ['sendBuffer', 'number', 4 * MiB, 'bytes queued to a client that is not reading before the executor is paused'],
  ['stallTimeout', 'number', 10_000, 'a client that leaves the send buffer full this long is cut off'],
  ['trustProxy', 'boolean', false, 'take the client address from X-Forwarded-For (behind nginx)'],
  ['store', 'string', undefined, 'short-link store: a folder (default: data/links under the repo), postgres://… or none'],
  ['linkMaxBytes', 'number', 8 * MiB, 'largest session a short link stores'],
  ['storeMaxBytes', 'number', 1024 * MiB, 'total size of the file link store'],
];
export const DEFAULTS = Object.fromEntries(OPTIONS.map(([n, , d]) => [n, d]));

const flag = name => name.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`);

export function usage() {
  return 'usage: node web/server.mjs [options]\n' + OPTIONS.map(([n, t, d, h]) =>
    `  --${flag(n)}${t === 'boolean' ? '' : ' X'}`.padEnd(26) +
    `${h}${d === undefined || (Array.isArray(d) && !d.length) ? '' : ` (${d})`}`).join('\n') + '\n';
}

// argv → options; throws an Error naming the bad flag or value.
export function parseOptions(argv) {
  const spec = { help: { type: 'boolean' } };
  for (const [n, t] of OPTIONS)
    spec[flag(n)] = { type: t === 'boolean' ? 'boolean' : 'string', multiple: t === 'list' };
  const { values } = parseArgs({ args: argv, options: spec, strict: true });
  const out = { help: !!values.help };
  for (const [n, t] of OPTIONS) {
    const v = values[flag(n)];
    if (v === undefined) continue;
    if (t === 'number') {
      if (!/^\d+$/.test(v)) throw new Error(`--${flag(n)}: '${v}' is not a whole number`);
      out[n] = Number(v);
    } else if (t === 'list') {
      out[n] = v.map(o => {
        let u;
        try { u = new URL(o); } catch { throw new Error(`--origin: '${o}' is not a URL`); }
        if (!/^https?:$/.test(u.protocol)) throw new Error(`--origin: '${o}' is not http(s)`);
        return u.origin;
      });
    } else out[n] = v;
  }
  return out;
}
