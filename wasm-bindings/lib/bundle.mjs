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
//    run: {args, instructions, wallMillis, memoryMB},
//    callconv: {spec, signature, function, arguments: [..]},
//    pass: {phase, code},
//    outcome: {status, exitCode?, stdout} | {error}}   (the last run, when there was one)
// Version 1 had neither `linklab` nor `outcome`; it still opens.
import { makeSession, runProgram, runLimits, parseArgs, programName } from './link-flow.mjs';

export const BUNDLE_FORMAT = 'linklab-session';
export const BUNDLE_VERSION = 2;
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

/**
 * Links and runs `session` as the page does, with `executor` (set up for
 * the session's triple) and the C runtime's files by name (or null):
 * resolves to its outcome, {status, exitCode?, stdout} or {error}.
 */
export async function runSession(L, session, { executor, runtime, triple }) {
  const objects = session.objects.map(o => ({ name: o.name, harness: !!o.harness, bytes: fromBase64(o.data) }));
  let stdout = '';
  const decoder = new TextDecoder();
  executor.onOutput((stream, data) => { if (stream === 'stdout') stdout += decoder.decode(data, { stream: true }); });
  try {
    const ctx = makeSession(L, { triple, objects, options: session.options, runtime, executor });
    const r = await runProgram(ctx, {
      argv0: programName(objects), args: parseArgs(session.run?.args ?? ''), limits: runLimits(session.run),
    });
    return { status: r.status, ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}), stdout };
  } catch (e) {
    return { error: e.message };
  }
}

/** What differs between a recorded outcome and a replayed one (empty: none). */
export function compareOutcomes(recorded, got) {
  const diffs = [];
  if ('error' in recorded || 'error' in got) {
    if (recorded.error !== got.error)
      diffs.push(`error: recorded ${JSON.stringify(recorded.error ?? null)}, ` +
                 `replayed ${JSON.stringify(got.error ?? null)}`);
    return diffs;
  }
  for (const key of ['status', 'exitCode', 'stdout'])
    if (recorded[key] !== got[key])
      diffs.push(`${key}: recorded ${JSON.stringify(recorded[key])}, replayed ${JSON.stringify(got[key])}`);
  return diffs;
}
