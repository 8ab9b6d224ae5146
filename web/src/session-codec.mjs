// A playground session as portable data: the share URL's fragment and the
// downloadable bundle file carry the same JSON. Works in browsers and Node
// (both have CompressionStream and btoa). No DOM here.
//
// Session JSON (version 1):
//   {format: "linklab-session", version: 1, arch,
//    objects: [{name, harness, data: base64}],
//    options: {entry, phonyExternals, absolutes: "NAME=ADDR\n...", slabAddress, runtime},
//    run: {args: [..], instructions, wallMillis, memoryMB},
//    callconv: {spec, signature, function, arguments: [..]},
//    pass: {phase, code}}
export const FORMAT = 'linklab-session';
export const VERSION = 1;
// Past this many characters of fragment, browsers and chat tools start to
// truncate or refuse URLs; the page offers the bundle file instead.
export const MAX_FRAGMENT = 48 * 1024;
const PREFIX = '#s=';

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

async function pipe(bytes, stream) {
  const out = await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer();
  return new Uint8Array(out);
}
const deflate = b => pipe(b, new CompressionStream('deflate-raw'));
const inflate = b => pipe(b, new DecompressionStream('deflate-raw'));

// Checks what a decoded session must have, so a damaged link or file gets a
// message naming the problem rather than a half-restored page.
export function validateSession(s, where) {
  const bad = why => { throw new Error(`${where}: not a linklab session: ${why}`); };
  if (!s || typeof s !== 'object') bad('not a JSON object');
  if (s.format !== FORMAT) bad(`format is ${JSON.stringify(s.format)}, expected "${FORMAT}"`);
  if (s.version !== VERSION) bad(`version ${s.version} is not supported (this page reads version ${VERSION})`);
  if (!Array.isArray(s.objects)) bad('it has no objects list');
  s.objects.forEach((o, i) => {
    if (typeof o?.name !== 'string' || typeof o?.data !== 'string') bad(`object ${i} lacks a name or data`);
  });
  return s;
}

export async function encodeFragment(session) {
  const packed = await deflate(new TextEncoder().encode(JSON.stringify(session)));
  return PREFIX + toBase64(packed).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function hasFragment(hash) { return hash.startsWith(PREFIX); }
export async function decodeFragment(hash) {
  const b64 = hash.slice(PREFIX.length).replace(/-/g, '+').replace(/_/g, '/');
  let session;
  try {
    session = JSON.parse(new TextDecoder().decode(await inflate(fromBase64(b64))));
  } catch (e) {
    throw new Error(`share link: the session in the URL is damaged or truncated (${e.message})`, { cause: e });
  }
  return validateSession(session, 'share link');
}

// The bundle file is the session JSON, indented, as-is.
export function encodeBundle(session) { return JSON.stringify(session, null, 1); }
export function decodeBundle(text, name = 'bundle') {
  let s;
  try {
    s = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name}: not a linklab session bundle (JSON: ${e.message})`, { cause: e });
  }
  return validateSession(s, name);
}
