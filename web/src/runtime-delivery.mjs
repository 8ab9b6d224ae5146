// The C runtime as the page fetches it: prepared at build time
// (web/prepare-runtimes.mjs) into content-addressed, gzipped blobs under
// runtimes/, described by one manifest per architecture:
//
//   {triple, start, files: {name: {size, blob}                (a whole file: the start object)
//                           name: {size, head: {size, blob}, units: count, whole,
//                                  filter?}},                 (an archive)
//    packs: [{blob, units: [[file, index]]}],
//    programs: [{example, files, packs}]}                      (what each program prepare-runtimes linked
//                                                                pulls: its packs, from which archives)
//
// A unit is what the core's RuntimeFetch fetches as one member
// (Archive::memberExtent: from a member the symbol index names to the next
// one); a pack is units fetched as one request: an archive's first pack
// holds what every program prepare-runtimes links pulls from it, later ones
// what one of those programs pulls beyond that. Blob names are their content's
// hash, so they never change: fetched once (Cache API where the page has
// one, else the HTTP cache), never revalidated. A unit's blob is named by
// its archive's (whole) hash and its index (unitBlob), and where units start
// is read from the archive's head (indexedMembers), so the manifest lists
// neither: a quarter of its size. The page inflates blobs itself
// (DecompressionStream), so any static host serves them compressed.

// The offsets of the members an ar archive's symbol index names, sorted and
// distinct (System V / GNU index `/`, 32-bit, or `/SYM64/`): the units'
// starts. `bytes`: the archive, or at least its head.
export function indexedMembers(bytes) {
  const text = (at, n) => String.fromCharCode(...bytes.subarray(at, at + n));
  if (bytes.length < 8 || text(0, 8) !== '!<arch>\n') throw new Error('not an ar archive');
  const name = text(8, 16).trim(), size = Number(text(8 + 48, 10).trim()), at = 8 + 60;
  const wide = name === '/SYM64/';
  if (name !== '/' && !wide) return { offsets: [], names: [] };
  if (!(size >= (wide ? 8 : 4)) || at + size > bytes.length) throw new Error('truncated symbol index');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const w = wide ? 8 : 4;
  const read = i => (wide ? Number(view.getBigUint64(at + i * w)) : view.getUint32(at + i * w));
  const count = read(0);
  if ((count + 1) * w > size) throw new Error('symbol index larger than its member');
  const offsets = new Set();
  for (let i = 1; i <= count; i++) offsets.add(read(i));
  // The names follow the offsets, NUL-terminated, one per entry.
  const names = new TextDecoder('latin1').decode(bytes.subarray(at + w + count * w, at + size))
    .split('\0').slice(0, count);
  return { offsets: [...offsets].sort((a, b) => a - b), names };
}
// The blob of an archive's unit `i`: named by the archive's hash (which
// covers every unit) and the index, not listed in the manifest.
export const unitBlob = (f, i) => `${f.whole}-${i}`;

// A Bloom filter over an on-demand archive's index names (libstdc++.a,
// libm.a): a program none of whose names it may hold does not need the
// archive, so its head is not fetched. False positives only cost the head.
export const FILTER_HASHES = 7;
export const FILTER_BITS_PER_NAME = 12;
function hashes(name, bits) {
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) + 0x9e3779b9;
  }
  h2 |= 1;
  const out = [];
  for (let k = 0; k < FILTER_HASHES; k++) out.push(((h1 + Math.imul(k, h2)) >>> 0) % bits);
  return out;
}
export function makeFilter(names) {
  const bits = Math.max(64, names.length * FILTER_BITS_PER_NAME);
  const words = new Uint8Array(Math.ceil(bits / 8));
  for (const n of names) for (const b of hashes(n, bits)) words[b >> 3] |= 1 << (b & 7);
  return { bits, data: words };
}
export function filterMayHold({ bits, data }, name) {
  return hashes(name, bits).every(b => data[b >> 3] & (1 << (b & 7)));
}

// A complete archive head with no index (its first member, empty, is not
// one): what an on-demand archive the program needs nothing from looks like
// to the core, which then does not link it, as if its real head had been
// read and matched no name.
export function emptyHead() {
  const header = 'none/'.padEnd(16) + '0'.padEnd(12) + '0'.padEnd(6) + '0'.padEnd(6) + '644'.padEnd(8) +
                 '0'.padEnd(10) + '`\n';
  return new TextEncoder().encode('!<arch>\n' + header);
}

// What every link of an architecture reads first, whatever its objects:
// each archive that is not on demand's first pack (what all the programs
// pulling from it pull) and head, and the start object. A manifest's blob
// hashes, in the order to ask for them: an archive's pack before its head,
// as libc.a's is most of the bytes (0.43 MB of x86-64's 0.5) and a host's six
// connections would otherwise give it one only once the small heads had
// come back; its head right after, as the scan starts from the heads.
// prepare-runtimes puts them in config.json.
export function firstBlobs(m) {
  const always = Object.entries(m.files).filter(([, f]) => !f.filter);
  const first = new Map(); // archive → its first pack
  for (const p of m.packs) if (!first.has(p.units[0][0])) first.set(p.units[0][0], p.blob);
  return always.flatMap(([n, f]) => [first.get(n), f.head?.blob ?? f.blob]).filter(Boolean);
}

// What a link reads of each on-demand archive it needs, by archive: its
// head and the packs of the programs prepare-runtimes linked that pulled
// from it (libstdc++.a: the C++ pack program's). prepare-runtimes puts
// them in config.json too, so that a page that can tell a program is C++
// asks for them before the manifest is in.
export function onDemandBlobs(m) {
  const out = {};
  for (const [name, f] of Object.entries(m.files)) {
    if (!f.filter) continue;
    const packs = (m.programs ?? []).filter(p => p.files.includes(name)).flatMap(p => p.packs);
    out[name] = [f.head.blob, ...new Set(packs)];
  }
  return out;
}

// What a gallery example's link reads beyond firstBlobs: the packs its
// program pulls ({example: [hash]}). prepare-runtimes puts them in
// config.json too, so that a click asks for them beside the manifest.
export function exampleBlobs(m) {
  return Object.fromEntries((m.programs ?? []).filter(p => p.example).map(p => [p.example, p.packs]));
}

const MAX_IN_FLIGHT = 32;
const fromBase64 = s => Uint8Array.from(atob(s), c => c.charCodeAt(0));

// The names an object's link looks up outside it (its undefined globals),
// as the wasm package's inspect() lists them, or null when that cannot be
// told (an archive, an object that does not parse): then every on-demand
// head is fetched, as the core decides from the heads.
export function referencedNames(L, objects) {
  const names = new Set();
  for (const o of objects) {
    let info;
    try { info = L.inspect(o.bytes, o.name); } catch { return null; }
    if (info.format === 'archive' || !Array.isArray(info.symbols)) return null;
    for (const s of info.symbols) if (s.shndx === 0 && s.name) names.add(s.name); // SHN_UNDEF
  }
  return names;
}

// The Cache API's cache the page keeps blobs in (null where there is none:
// not a secure context, or a test's `cacheName: null`).
export const RUNTIME_CACHE = 'linklab-runtimes';
export const openRuntimeCache = (name = RUNTIME_CACHE) =>
  (globalThis.caches && name ? globalThis.caches.open(name).catch(() => null) : Promise.resolve(null));

// Reads prepared runtimes: `base` is the URL of the runtimes/ folder,
// `fetchBytes(url)` → Promise of a blob's (compressed) bytes, in place of
// fetch (tests); `cache`:
// a Promise of the Cache to use (index.html opens it as the page starts:
// opening one takes a fresh page hundreds of milliseconds, which a click's
// first runtime request would otherwise wait for), or null for cacheName's;
// `empty`: the cache is known to hold nothing (the page's first visit), so
// requests go out without waiting for it to open (what they fetch is kept
// once it has); `onKept()` is called once a blob has been kept.
export function runtimeDelivery(base, {
  fetchBytes = null, cacheName = RUNTIME_CACHE, cache = null, empty = false, onKept = () => {},
} = {}) {
  const blobs = new Map(); // hash → Promise of inflated bytes; a failed one is forgotten
  const manifests = new Map(); // hash → Promise of manifest
  const fetchResponse = fetchBytes ? async url => new Response(await fetchBytes(url)) : defaultFetch;
  // Requests in flight are capped: a browser fails the ones past its own limit.
  let inFlight = 0;
  const waiting = [];
  async function limited(fn) {
    while (inFlight >= MAX_IN_FLIGHT) await new Promise(resolve => waiting.push(resolve));
    inFlight++;
    try { return await fn(); } finally { inFlight--; waiting.shift()?.(); }
  }
  // The Cache and the URLs it holds, read once: a blob it does not hold goes
  // to the network at once, not after a lookup (each is a round trip to the
  // browser process).
  const opened = (cache ?? openRuntimeCache(cacheName)).then(async c =>
    c && { cache: c, urls: new Set((await c.keys()).map(r => r.url)) }).catch(() => null);
  // A blob's inflated bytes: from the Cache, or inflated as it downloads
  // (the Cache keeps the compressed bytes).
  async function fetchCached(url) {
    const { cache: kept, urls } = (empty ? null : await opened) ?? {};
    const hit = urls?.has(url) && await kept.match(url);
    if (hit) return inflate(hit.body);
    return limited(async () => {
      const r = await fetchResponse(url);
      const copy = r.clone();
      // A full cache only costs the next visit.
      opened.then(c => c && c.cache.put(url, copy).then(onKept)).catch(() => {});
      return inflate(r.body);
    });
  }
  function blob(hash) {
    if (!blobs.has(hash)) {
      const p = fetchCached(`${base}b/${hash}.gz`);
      p.catch(() => blobs.delete(hash));
      blobs.set(hash, p);
    }
    return blobs.get(hash);
  }
  function manifest(hash) {
    if (!manifests.has(hash)) {
      const p = (async () => {
        const m = JSON.parse(new TextDecoder().decode(await blob(hash)));
        for (const [name, f] of Object.entries(m.files)) {
          if (f.filter) f.filter = { bits: f.filter.bits, data: fromBase64(f.filter.data) };
          // Where each unit starts and which one starts where, read from the head once it is in.
          if (f.head) f.layout = once(async () => layout(name, f, await blob(f.head.blob)));
        }
        m.packOf = new Map(); // "file index" → the first pack holding it (the common one, of packs[] order)
        for (const p of m.packs)
          for (const [file, i] of p.units) if (!m.packOf.has(`${file} ${i}`)) m.packOf.set(`${file} ${i}`, p);
        return m;
      })();
      p.catch(() => manifests.delete(hash));
      manifests.set(hash, p);
    }
    return manifests.get(hash);
  }
  // A pack's bytes split into its units: "file index" → bytes.
  const packs = new Map();
  function pack(m, p) {
    if (!packs.has(p.blob)) {
      const files = [...new Set(p.units.map(([file]) => file))];
      const split = Promise.all([blob(p.blob), ...files.map(file => m.files[file].layout())]).then(([bytes, ...ls]) => {
        const units = new Map(files.map((file, k) => [file, ls[k]]));
        const out = new Map();
        let at = 0;
        for (const [file, i] of p.units) {
          const len = units.get(file).length(i);
          out.set(`${file} ${i}`, bytes.subarray(at, at + len));
          at += len;
        }
        if (at !== bytes.length)
          throw new Error(`runtime pack ${p.blob}: ${bytes.length} bytes, its units add to ${at}`);
        return out;
      });
      split.catch(() => packs.delete(p.blob));
      packs.set(p.blob, split);
    }
    return packs.get(p.blob);
  }
  async function unit(m, file, i) {
    const p = m.packOf.get(`${file} ${i}`);
    return p ? (await pack(m, p)).get(`${file} ${i}`) : blob(unitBlob(m.files[file], i));
  }

  // The io flow.fetchRuntime reads through, for the runtime of manifest
  // `hash`: heads, the start object, member ranges, whole files. With
  // `names` (the program's references: referencedNames) an on-demand archive
  // whose filter holds none of them, and before which no on-demand archive
  // is needed, gets an empty head instead of its own (the core's
  // neededFiles rule: an archive needed makes every later one needed); the
  // blobs the link will read are asked for at once: those of every link,
  // and of each on-demand archive needed its head and the packs of the
  // programs that pulled from it (libstdc++.a: the C++ pack program's).
  async function io(hash, names = null) {
    const m = await manifest(hash);
    const file = name => {
      const f = m.files[name];
      if (!f) throw new Error(`the prepared runtime ${hash} has no file ${name}`);
      return f;
    };
    const skipped = new Set();
    let earlier = !names;
    for (const [name, f] of Object.entries(m.files)) {
      const needed = !f.filter || earlier || [...names].some(n => filterMayHold(f.filter, n));
      if (!needed) skipped.add(name);
      earlier ||= needed && name !== m.start;
    }
    const warm = hashes => { for (const h of hashes) blob(h).catch(() => {}); }; // a read reports a failure
    const onDemand = Object.keys(m.files).filter(n => m.files[n].filter && !skipped.has(n));
    if (names) {
      warm(firstBlobs(m));
      const wanted = onDemandBlobs(m);
      warm(onDemand.flatMap(n => wanted[n]));
    }
    return {
      head: async name => {
        const f = file(name);
        return { bytes: skipped.has(name) ? emptyHead() : await blob(f.head.blob), size: f.size };
      },
      ranges: (name, ranges) => Promise.all(ranges.map(async ({ begin, end }) => {
        const units = await file(name).layout();
        const parts = [];
        for (let i = units.at.get(begin), at = begin; at < end; at += units.length(i++)) {
          if (i === undefined || i >= units.starts.length) throw new Error(`${name}: no member starts at ${at}`);
          parts.push(unit(m, name, i));
        }
        return concat(await Promise.all(parts));
      })),
      // A whole file (for a link that needs members the scan did not reach).
      whole: name => blob(file(name).whole ?? file(name).blob),
      // What every program starts with (firstBlobs), and with `example` (a
      // gallery example's id) the packs that program pulls.
      prefetch: (example = null) => Promise.all([
        ...firstBlobs(m),
        ...(m.programs ?? []).filter(p => example && p.example === example).flatMap(p => p.packs),
      ].map(blob)),
    };
  }
  // Starts fetching blobs before their manifest is in (config.json's first blobs).
  const warm = hashes => Promise.all(hashes.map(blob));
  return { manifest, io, blob, warm };
}

// A memoized call that is tried again after a failure.
function once(fn) {
  let p = null;
  return () => (p ??= fn().catch(e => { p = null; throw e; }));
}
// An archive's units as its head gives them: starts, the unit starting at
// an offset, each unit's length; checked against the manifest's count.
function layout(name, f, head) {
  const starts = indexedMembers(head).offsets;
  if (starts.length !== f.units)
    throw new Error(`runtime ${name}: its head names ${starts.length} members, the manifest ${f.units}`);
  return { starts, at: new Map(starts.map((o, i) => [o, i])),
           length: i => (i + 1 < starts.length ? starts[i + 1] : f.size) - starts[i] };
}

async function defaultFetch(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
  return r;
}
// A gzipped body, inflated as it arrives. (Not through a Blob: the browser
// process keeps those, and reading one back took a fresh page's busy
// browser hundreds of milliseconds.)
async function inflate(body) {
  return new Uint8Array(await new Response(body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
}
function concat(parts) {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
