// The playground's session bundle (the share link's fragment and the bundle
// file carry the same JSON), its versions, and replaying one: link and run it
// as the page did, and compare with the outcome the page recorded. Used by
// the page (through web/src/session-codec.mjs), by `linklab/jest` and by
// `linklab-run --replay`. No DOM and no Node modules here.
//
// Session JSON:
//   {format: "linklab-session", version, linklab (the version that made it),
//    arch, objects: [{name, harness, data: base64}],
//    options: {entry, phonyExternals, absolutes: "NAME=ADDR\n...", slabAddress, runtime},
//    run: {args, instructions, wallMillis, memoryMB, stdin, argv0?},
//    callconv: {spec, signature, function, arguments: [..]},
//    pass: {phase, code},
//    outcome: {status, exitCode?, stdout, stderr, fault?: {kind, pc, address, symbol}}
//             | {status, exitCode?, outputTruncatedAt, fault?}
//             | {error}}   (the last run, when there was one)
// A run whose output a server cut at its output cap records where
// (outputTruncatedAt, in bytes) instead of the output it cut: replays
// compare its status, exit code and fault, and say its output was not recorded.
// Version 1 had neither `linklab` nor `outcome`, version 2 neither run.stdin,
// run.argv0, outcome.stderr nor outcome.fault; both still open (a missing
// stdin is none; their outcomes are compared on what they record). A share link
// is the same JSON, deflated, base64url, after "#s=" in the page's URL.
// run.stdin is what the program reads; the replay gives it the same.
import { makeSession, runProgram, parseArgs, programName } from './link-flow.mjs';

export const BUNDLE_FORMAT = 'linklab-session';
export const BUNDLE_VERSION = 3; // core/repro/bundle.h's BundleFormatVersion
/** This package's version (package.json's; a test keeps the two equal). */
export const LINKLAB_VERSION = '0.1.0';

export function toBase64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
export function fromBase64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * Checks a decoded session (`where` names it in messages) and says what
 * differs from this linklab: {session, notes}. A session of a newer format
 * version, or one that is not a session, is an error.
 */
export function openBundle(s, where) {
  const bad = why => { throw new Error(`${where}: not a linklab session: ${why}`); };
  if (!s || typeof s !== 'object') bad('not a JSON object');
  const shown = v => (v === undefined ? 'missing' : JSON.stringify(v));
  if (s.format !== BUNDLE_FORMAT) bad(`format is ${shown(s.format)}, expected "${BUNDLE_FORMAT}"`);
  if (!Number.isInteger(s.version) || s.version < 1) bad(`version is ${shown(s.version)}, not a format version`);
  if (s.version > BUNDLE_VERSION)
    throw new Error(`${where}: made by linklab ${s.linklab ?? '(unknown)'} in session format version ` +
                    `${s.version}; this is linklab ${LINKLAB_VERSION}, which reads versions up to ` +
                    `${BUNDLE_VERSION}: open it with a newer linklab`);
  if (!Array.isArray(s.objects)) bad('it has no objects list');
  s.objects.forEach((o, i) => {
    if (typeof o?.name !== 'string' || typeof o?.data !== 'string') bad(`object ${i} lacks a name or data`);
    if (o.data.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(o.data))
      bad(`object ${i} (${o.name}): its data is not base64`);
  });
  const notes = [];
  if (s.linklab !== LINKLAB_VERSION)
    notes.push(`${where} was made by ` +
               `${s.linklab ? `linklab ${s.linklab}` : 'a linklab that did not record its version'}` +
               ` (session format ${s.version}); this is linklab ${LINKLAB_VERSION} (format ${BUNDLE_VERSION})`);
  return { session: s, notes };
}

// Past this many characters of fragment, browsers and chat tools start to
// truncate or refuse URLs; the page offers only the bundle file then.
export const MAX_FRAGMENT = 48 * 1024;
export const FRAGMENT_PREFIX = '#s=';

async function pipe(bytes, stream) {
  const out = await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer();
  return new Uint8Array(out);
}

/** The share link's fragment ("#s=...") of a session. */
export async function encodeFragment(session) {
  const packed = await pipe(new TextEncoder().encode(JSON.stringify(session)), new CompressionStream('deflate-raw'));
  return FRAGMENT_PREFIX + toBase64(packed).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
/** Whether `text` (a URL or its fragment) carries a shared session. */
export function hasFragment(text) { return String(text).includes(FRAGMENT_PREFIX); }
/** Decodes a share link, or its fragment alone: {session, notes}. */
export async function decodeFragment(text) {
  const t = String(text);
  const b64 = t.slice(t.indexOf(FRAGMENT_PREFIX) + FRAGMENT_PREFIX.length).replace(/-/g, '+').replace(/_/g, '/');
  let session;
  try {
    const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
    const packed = await pipe(fromBase64(padded), new DecompressionStream('deflate-raw'));
    session = JSON.parse(new TextDecoder().decode(packed));
  } catch (e) {
    throw new Error(`share link: the session in the URL is damaged or truncated (${e.message})`, { cause: e });
  }
  return openBundle(session, 'share link');
}

/** The bundle file is the session JSON, indented, as-is. */
export function encodeBundle(session) { return JSON.stringify(session, null, 1); }

/** Parses a bundle file's text: {session, notes}. */
export function decodeBundleText(text, where = 'bundle') {
  let s;
  try {
    s = JSON.parse(text);
  } catch (e) {
    throw new Error(`${where}: not a linklab session bundle (JSON: ${e.message})`, { cause: e });
  }
  return openBundle(s, where);
}

// A short link: the playground server's /s/<id> (server/links.mjs), or
// the page's /?s=<id> it opens, under any prefix; the session is at
// <prefix>/s/<id>.json.
const SHORT_ID = /^[A-Za-z0-9_-]{22}$/;
const SHORT_FETCH_MS = 30000; // an answer that never comes must not hold a replay
const SHORT_MAX_BYTES = 64 << 20; // more than any server stores: a hostile answer is cut off

// {url, prefix, id} of a short link; null for text that is not one (a fragment link is not).
function shortLinkParts(text) {
  let url;
  try { url = new URL(String(text)); } catch { return null; }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || hasFragment(url.hash)) return null;
  const m = /^(.*\/)s\/([^/]*?)(\.json)?$/.exec(url.pathname);
  if (m) return { url, prefix: m[1], id: decodeURIComponent(m[2]) };
  const id = url.searchParams.get('s');
  return id === null ? null : { url, prefix: url.pathname.replace(/[^/]*$/, ''), id };
}

/**
 * Fetches the session a short link names from its server: {session,
 * notes}. Errors say which link and why: an id that is not one, an id the
 * server does not know (or a server that keeps no links), a server that
 * cannot be reached or does not answer within 30 s, an answer that is not a
 * session.
 */
export async function fetchShortLink(text) {
  const parts = shortLinkParts(text);
  if (!parts) throw new Error(`${String(text).slice(0, 200)}: not a short link (http(s)://HOST/s/<id>)`);
  const { url, prefix, id } = parts;
  const where = `short link ${url.href}`;
  if (!SHORT_ID.test(id))
    throw new Error(`${where}: '${id.slice(0, 60)}' is not a short link id (22 letters, digits, - or _)`);
  const json = new URL(`${prefix}s/${id}.json`, url.origin);
  let r, body;
  try {
    r = await fetch(json, { signal: AbortSignal.timeout(SHORT_FETCH_MS), headers: { accept: 'application/json' } });
    body = await readCapped(r, SHORT_MAX_BYTES);
  } catch (e) {
    const why = e?.name === 'TimeoutError' ? `no answer within ${SHORT_FETCH_MS / 1000} s`
      : e?.cause?.code ?? e?.cause?.message ?? e?.message;
    throw new Error(`${where}: cannot reach the playground server at ${url.origin} (${why})`, { cause: e });
  }
  if (!r.ok) {
    let said = '';
    try { said = JSON.parse(body).error ?? ''; } catch { /* not the server's JSON error */ }
    throw new Error(r.status === 404 ? `${where}: the server at ${url.origin} has no session ${id}` +
                                       `${said ? ` (${said})` : ''}`
      : `${where}: the server at ${url.origin} answered HTTP ${r.status}${said ? `: ${said}` : ''}`);
  }
  return decodeBundleText(body, where);
}
async function readCapped(response, max) {
  const reader = response.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the answer is larger than ${max} bytes`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return new TextDecoder().decode(all);
}

const hex = n => `0x${BigInt(n).toString(16)}`;

/**
 * Names an address in a link (`info`: the session's linkInfo()) as the
 * native linklab does (exec::Program::symbolize): "sym+0xoff in SECTION of
 * OBJECT" for the highest symbol of the section holding it at or below it,
 * else "SECTION+0xoff in SECTION of OBJECT"; '' outside every section.
 * Assembler-local labels (.L*) are skipped: they share addresses with the
 * functions they sit in. Symbols in no section (absolutes such as the ELF
 * null symbol at 0) are never named.
 */
export function symbolizeIn(info, addr) {
  const a = Number(addr);
  for (const o of info ?? []) for (const sec of o.sections ?? []) {
    if (a < sec.address || a >= sec.address + Math.max(sec.size, 1)) continue;
    let best = null;
    for (const [name, s] of Object.entries(o.symbols))
      if (s.section === sec.name && s.address <= a && (!best || s.address > best.address) && !name.startsWith('.L'))
        best = { name, address: s.address };
    const where = best ? `${best.name}+${hex(a - best.address)}` : `${sec.name}+${hex(a - sec.address)}`;
    return `${where} in ${sec.name} of ${o.name}`;
  }
  return '';
}

/**
 * The outcome a bundle records of a run result `r` (LinkSession.run's) and
 * its output: {status, exitCode?, stdout, stderr, fault?}; a fault records
 * its kind, pc, address and the symbol holding pc (`symbolize(addr)`).
 * Output a server cut at truncatedAt bytes is not the program's: the
 * outcome records where it was cut instead.
 */
export function runOutcome(r, { stdout, stderr, truncatedAt = 0 }, symbolize = () => '') {
  return {
    status: r.status, ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
    ...(truncatedAt ? { outputTruncatedAt: truncatedAt } : { stdout, stderr }),
    ...(r.fault ? { fault: { kind: r.fault, pc: hex(r.pc), address: hex(r.address), symbol: symbolize(r.pc) } } : {}),
  };
}

/** What a replay of `recorded` cannot compare, as a note (null: it compares everything). */
export function outcomeNote(recorded) {
  return recorded?.outputTruncatedAt
    ? `the recorded run's output was cut at ${recorded.outputTruncatedAt} bytes by the server's output cap, so ` +
      'the bundle does not record it: the replay compares the status, exit code and fault, not the output'
    : null;
}

/**
 * Links and runs `session` as the page does, with `executor` (set up for
 * the session's triple) and the C runtime's files by name (or null), giving
 * the program the recorded stdin, arguments and limits: resolves to its
 * outcome (runOutcome's) or {error}.
 */
export async function runSession(L, session, { executor, runtime, triple, onOutput }) {
  const objects = session.objects.map(o => ({ name: o.name, harness: !!o.harness, bytes: fromBase64(o.data) }));
  const out = { stdout: '', stderr: '' };
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  executor.onOutput((stream, data) => {
    out[stream] += decoders[stream].decode(data, { stream: true });
    onOutput?.(stream, data);
  });
  let ctx;
  try {
    ctx = makeSession(L, { triple, objects, options: session.options, runtime, executor });
    const r = await runProgram(ctx, {
      argv0: session.run?.argv0 || programName(objects), args: parseArgs(session.run?.args ?? ''),
      limits: L.driver.runLimits(session.run),
      stdin: session.run?.stdin ?? '',
    });
    for (const s of ['stdout', 'stderr']) out[s] += decoders[s].decode(); // a sequence cut at the end: U+FFFD
    const info = r.fault ? ctx.session.linkInfo() : null;
    return runOutcome(r, out, a => symbolizeIn(info, a));
  } catch (e) {
    return { error: e.message };
  } finally {
    ctx?.session.dispose();
  }
}

/**
 * What differs between a recorded outcome and a replayed one (empty: none).
 * `version` is the bundle's format: stderr and a fault's kind, pc, address
 * and symbol are compared from version 3, which records them.
 */
export function compareOutcomes(recorded, got, version = BUNDLE_VERSION) {
  const diffs = [];
  const show = v => JSON.stringify(v ?? null);
  if ('error' in recorded || 'error' in got) {
    if (recorded.error !== got.error)
      diffs.push(`error: recorded ${show(recorded.error)}, replayed ${show(got.error)}`);
    return diffs;
  }
  const full = version >= 3;
  const output = recorded.outputTruncatedAt ? [] : ['stdout', ...(full ? ['stderr'] : [])];
  for (const key of ['status', 'exitCode', ...output])
    if (recorded[key] !== got[key])
      diffs.push(`${key}: recorded ${show(recorded[key])}, replayed ${show(got[key])}`);
  if (full && (recorded.fault || got.fault))
    for (const key of ['kind', 'pc', 'address', 'symbol'])
      if (recorded.fault?.[key] !== got.fault?.[key])
        diffs.push(`fault ${key}: recorded ${show(recorded.fault?.[key])}, replayed ${show(got.fault?.[key])}`);
  return diffs;
}
