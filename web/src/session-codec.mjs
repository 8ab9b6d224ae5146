// A playground session as portable data: the share URL's fragment and the
// downloadable bundle file carry the same JSON, whose format, versions and
// checks are the package's (wasm-bindings/lib/bundle.mjs), so a bundle the
// page makes is one `linklab/jest` and `linklab-run --replay` read. Works in
// browsers and Node (both have CompressionStream and btoa). No DOM here.
import { BUNDLE_FORMAT, BUNDLE_VERSION, LINKLAB_VERSION, decodeBundleText, openBundle, toBase64, fromBase64 }
  from '../../wasm-bindings/lib/bundle.mjs';

export { toBase64, fromBase64, LINKLAB_VERSION };
export const FORMAT = BUNDLE_FORMAT;
export const VERSION = BUNDLE_VERSION;
// Past this many characters of fragment, browsers and chat tools start to
// truncate or refuse URLs; the page offers the bundle file instead.
export const MAX_FRAGMENT = 48 * 1024;
const PREFIX = '#s=';

async function pipe(bytes, stream) {
  const out = await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer();
  return new Uint8Array(out);
}
const deflate = b => pipe(b, new CompressionStream('deflate-raw'));
const inflate = b => pipe(b, new DecompressionStream('deflate-raw'));

export async function encodeFragment(session) {
  const packed = await deflate(new TextEncoder().encode(JSON.stringify(session)));
  return PREFIX + toBase64(packed).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function hasFragment(hash) { return hash.startsWith(PREFIX); }
// Both decoders give {session, notes}: notes say when another linklab
// version made it (it still opens when the format allows).
export async function decodeFragment(hash) {
  const b64 = hash.slice(PREFIX.length).replace(/-/g, '+').replace(/_/g, '/');
  let session;
  try {
    session = JSON.parse(new TextDecoder().decode(await inflate(fromBase64(b64))));
  } catch (e) {
    throw new Error(`share link: the session in the URL is damaged or truncated (${e.message})`, { cause: e });
  }
  return openBundle(session, 'share link');
}

// The bundle file is the session JSON, indented, as-is.
export function encodeBundle(session) { return JSON.stringify(session, null, 1); }
export function decodeBundle(text, name = 'bundle') { return decodeBundleText(text, name); }
