// Reproducers from a playground session, shared by the page and Node: the
// session as a reproducer case (what the package's exportTest and reduce
// take), a case's outcome (linked into a slab as linklab -noexec links, or
// run in an executor), and the failures -reduce keeps. `L` is the package.
import { makeSession, parseArgs, programName } from './link-flow.mjs';

/**
 * The case of a page session (`L`: the package): objects [{name, bytes, harness}], options as
 * the page's fields give them ({entry, phonyExternals, absolutes: text,
 * runtime: bool}), args as typed, the program's stdin; noExec for a link
 * without a run.
 */
export function sessionCase(L, { objects, options = {}, args = '', stdin = '', noExec = false }) {
  return {
    objects: objects.map(o => ({ name: o.name, bytes: o.bytes, harness: !!o.harness })),
    entry: options.entry ?? '', args: noExec ? [] : [programName(objects), ...parseArgs(args)],
    absolutes: L.driver.parseAbsoluteLines(options.absolutes).map((a) => `${a.name}=${a.address}`),
    noExec, phonyExternals: !!options.phonyExternals, runtime: options.runtime === false ? 'none' : 'default',
    stdin: noExec ? '' : String(stdin ?? ''),
  };
}

/**
 * What case `c` does: {error} (the link failed, or the run ended without
 * an exit status, as linklab reports both) or {exitCode, output}. A -noexec
 * case links into a slab; otherwise `executor` (set up for `triple`) runs
 * it. runtime: the C runtime's files by name, for c.runtime 'default'.
 */
export async function caseOutcome(L, c, { triple, executor, runtime = null, limits = {} }) {
  const { objects, entry = '', args = [], absolutes = [], noExec = false, phonyExternals = false, stdin = '' } = c;
  const options = { entry, phonyExternals, absolutes: absolutes.join('\n') };
  let ctx = null, output = '';
  const decoder = new TextDecoder();
  try {
    ctx = makeSession(L, { triple, objects, options, runtime: (c.runtime ?? 'default') === 'default' ? runtime : null,
                           executor: noExec ? undefined : executor });
    if (noExec) {
      await ctx.session.link({ entry: ctx.entry });
      return { exitCode: 0, output: '' };
    }
    const [argv0, ...rest] = args.length ? args : [programName(objects)];
    const onOutput = (stream, data) => { if (stream === 'stdout') output += decoder.decode(data, { stream: true }); };
    const r = await ctx.session.run({ entry: ctx.entry, argv0, args: rest, limits, onOutput, stdin });
    if (r.exitCode !== undefined) return { exitCode: r.exitCode, output };
    // A fault (or a signal the program raised): its report, and the signal linklab exits 128+ of.
    const error = r.error ?? r.description;
    return r.signal ? { error, signal: r.signal, output } : { error };
  } catch (e) {
    return { error: e.message };
  } finally {
    if (noExec) ctx?.session.dispose();
  }
}

/**
 * The failure an outcome shows, as linklab -reduce takes it without
 * -reduce-*: its error's first line, else a non-zero exit status; null when
 * it linked and exited 0 (then only an expected output can say what fails).
 */
export function failureOf(outcome) {
  if (outcome.error !== undefined) return { error: String(outcome.error).split('\n')[0] };
  if (outcome.exitCode) return { exitCode: outcome.exitCode };
  return null;
}

/**
 * The failure a reduction of a session whose outcome was `outcome` keeps,
 * as linklab -reduce keeps it: an error substring holds only as the whole
 * error (its first line) it is part of, naming the same symbols, objects
 * and, for a fault, the same pc and address ({error, whole: true}); a
 * candidate failing on another missing symbol has lost the failure. An exit
 * status or an expected output is kept as given.
 */
export function keptFailure(want, outcome) {
  if (want.error === undefined || outcome.error === undefined) return want;
  const whole = String(outcome.error).split('\n')[0];
  return whole.includes(want.error) ? { error: whole, whole: true } : want;
}

// A fault's pc (and an address it symbolizes) moves with the layout as
// objects and sections go: the same fault is at the same symbol and offset,
// which the report names beside the value (as linklab -reduce compares them).
const stable = (error) => String(error).split('\n')[0].replace(/(at pc|address) 0x[0-9a-f]+ \(/g, '$1 * (');

/** Whether `outcome` still shows `failure`: {error: substring, whole?} | {exitCode} | {output: expected}. */
export function stillFails(outcome, failure) {
  if (failure.error !== undefined) {
    if (outcome.error === undefined) return false;
    return failure.whole ? stable(outcome.error) === stable(failure.error) : outcome.error.includes(failure.error);
  }
  if (failure.exitCode !== undefined) return outcome.error === undefined && outcome.exitCode === failure.exitCode;
  if (failure.output !== undefined) return outcome.error === undefined && outcome.output !== failure.output;
  throw new Error('a failure is {error}, {exitCode} or {output}');
}

const describeFailure = (f) => (f.error !== undefined ? (f.whole ? `the error '${f.error}'`
  : `an error containing '${f.error}'`) : f.exitCode !== undefined ? `exit status ${f.exitCode}`
  : 'output that differs from the expected');
const describeOutcome = (o) => (o.error !== undefined ? `it fails with: ${String(o.error).split('\n')[0]}`
  : `it exits with status ${o.exitCode}`);

/**
 * Reduces case `c` while it keeps failing as `want` says, as linklab -reduce
 * does: the session is run first, timed, and `want` made exact from what it
 * did (keptFailure); each candidate's run may take twice the session's time
 * plus a second (or limits.wallMillis if less), so one that hangs costs
 * that; then core's stages (L.reduce, bounded by `seconds`), and the
 * reduced case is run once more with `limits`: its outcome is the one its
 * bundle and test record. outcomeOf(candidate, limits) resolves to
 * caseOutcome's result. onProgress(line) gets what is kept, each candidate's
 * bound, every stage and removal, and the reduced case's failure. Resolves
 * to L.reduce's {objects, removed, tests, timedOut} with {failure, outcome,
 * candidateMillis}.
 */
export async function reduceCase(L, c, want, { outcomeOf, limits = {}, seconds = 60, onProgress = () => {} }) {
  const started = performance.now();
  const first = await outcomeOf(c, limits);
  const tookMs = Math.round(performance.now() - started);
  const failure = keptFailure(want, first);
  if (!stillFails(first, failure))
    throw new Error(`the session does not fail as specified: it was to keep ${describeFailure(failure)}, ` +
                    `and ${describeOutcome(first)}`);
  onProgress(`reduce: keeping ${describeFailure(failure)}`);
  const derived = 2 * tookMs + 1000, given = Number(limits.wallMillis) || Infinity;
  const candidateMillis = c.noExec ? 0 : Math.min(given, derived);
  onProgress(`reduce: the session took ${tookMs} ms; each candidate may run for ` +
             (c.noExec ? '(no run)' : `${candidateMillis} ms`));
  const bounded = { ...limits, ...(candidateMillis ? { wallMillis: candidateMillis } : {}) };
  const r = await L.reduce(c, async (cand) => stillFails(await outcomeOf(cand, bounded), failure),
                           { seconds, onProgress });
  const outcome = await outcomeOf({ ...c, objects: r.objects }, limits);
  onProgress(`reduce: the reduced case ${outcome.error !== undefined
    ? `fails with: ${String(outcome.error).split('\n')[0]}` : `exits with status ${outcome.exitCode}`}`);
  return { ...r, failure, outcome, candidateMillis };
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Files [{path, text | bytes}] as a zip archive (stored, no compression:
 * test files are small), each under `folder/`: what the page downloads for
 * an exported test (unzip it; tests/lit/run-lit.py runs folder/testFile).
 */
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01, the format's first day: the same files give the same zip

export function zipFiles(files, folder) {
  const enc = new TextEncoder();
  const parts = [], central = [];
  let offset = 0;
  const header = (size) => { const b = new Uint8Array(size); return [b, new DataView(b.buffer)]; };
  for (const f of files) {
    const name = enc.encode(`${folder}/${f.path}`);
    const data = f.bytes ?? enc.encode(f.text);
    const crc = crc32(data);
    const [local, l] = header(30);
    l.setUint32(0, 0x04034b50, true); l.setUint16(4, 20, true); l.setUint16(6, 0x0800, true); // UTF-8 names
    l.setUint16(12, DOS_DATE, true);
    l.setUint32(14, crc, true); l.setUint32(18, data.length, true); l.setUint32(22, data.length, true);
    l.setUint16(26, name.length, true);
    const [cen, c] = header(46);
    c.setUint32(0, 0x02014b50, true); c.setUint16(4, 0x314, true); c.setUint16(6, 20, true);
    c.setUint16(8, 0x0800, true);
    c.setUint16(14, DOS_DATE, true);
    c.setUint32(16, crc, true); c.setUint32(20, data.length, true); c.setUint32(24, data.length, true);
    c.setUint16(28, name.length, true);
    c.setUint32(38, 0o100644 << 16, true); // a file mode, as made by Unix (0x314)
    c.setUint32(42, offset, true);
    parts.push(local, name, data);
    central.push(cen, name);
    offset += 30 + name.length + data.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const [end, e] = header(22);
  e.setUint32(0, 0x06054b50, true); e.setUint16(8, files.length, true); e.setUint16(10, files.length, true);
  e.setUint32(12, size, true); e.setUint32(16, offset, true);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of all) { out.set(b, at); at += b.length; }
  return out;
}
