// A playground session as portable data: the share URL's fragment and the
// downloadable bundle file carry the same JSON, whose format, versions,
// checks and codecs are the package's (`linklab/bundle`,
// wasm-bindings/lib/bundle.mjs), so a bundle or link the page makes is one
// `linklab/jest` and `linklab-run --replay` read. No DOM here.
import { BUNDLE_FORMAT, BUNDLE_VERSION, decodeBundleText } from 'linklab/bundle';

export {
  toBase64, fromBase64, LINKLAB_VERSION, MAX_FRAGMENT, encodeFragment, decodeFragment, hasFragment, encodeBundle,
} from 'linklab/bundle';
export const FORMAT = BUNDLE_FORMAT;
export const VERSION = BUNDLE_VERSION;
export function decodeBundle(text, name = 'bundle') { return decodeBundleText(text, name); }
