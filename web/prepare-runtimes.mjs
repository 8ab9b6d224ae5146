// Prepares the C runtimes for delivery over a network, once at build time,
// for the playground server and the static site alike (the page reads them
// through src/runtime-delivery.mjs, which describes the layout). Each
// archive of an architecture's runtime (the wasm package's runtimeInfo
// table) is split into its head (magic and symbol index) and its units (a
// member the index names, up to the next: what the core's RuntimeFetch asks
// for), each stored gzipped under its content's hash; units every gallery
// program using an archive pulls go into one pack. Runs only when an input
// changed (a stamp of the runtime files' sizes and times, the gallery's
// objects and this preparation's sources).
//
//   node web/prepare-runtimes.mjs [OUT] [--gallery DIR]   (default: build/web-runtimes, build/web-gallery)
//
// OUT/index.json: {arch: manifest hash}; OUT/b/<hash>.gz: the blobs.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { ARCHES, cflags } from './runtimes.mjs';
import { makeFilter, firstBlobs, onDemandBlobs, exampleBlobs, indexedMembers, unitBlob }
  from './src/runtime-delivery.mjs';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(WEB);
// Programs whose members make packs besides the gallery's (all C): a C++
// one, so that libstdc++.a has a pack too.
const PACK_SOURCES = [path.join(WEB, 'examples/pack-iostream.cpp')];
const SOURCES = [fileURLToPath(import.meta.url), path.join(WEB, 'src/runtime-delivery.mjs'), ...PACK_SOURCES];
const CLANGXX = process.env.CLANGXX ?? 'clang++-22';

const hashOf = bytes => createHash('sha256').update(bytes).digest('hex').slice(0, 20);

// Writes each blob once (the hash names its content).
function blobWriter(out) {
  fs.mkdirSync(path.join(out, 'b'), { recursive: true });
  let written = 0;
  const used = new Set();
  return {
    // Named by its content's hash, or `as` (a unit: unitBlob).
    put(bytes, as = null) {
      const h = as ?? hashOf(bytes);
      used.add(h);
      const file = path.join(out, 'b', `${h}.gz`);
      if (!fs.existsSync(file)) {
        fs.writeFileSync(`${file}.tmp`, zlib.gzipSync(bytes, { level: 9 }));
        fs.renameSync(`${file}.tmp`, file);
        written += bytes.length;
      }
      return h;
    },
    get written() { return written; },
    // Removes the blobs of earlier preparations, so that OUT does not grow with every runtime update.
    removeUnused() {
      for (const f of fs.readdirSync(path.join(out, 'b')))
        if (!used.has(f.replace(/\.gz$/, ''))) fs.rmSync(path.join(out, 'b', f), { force: true });
    },
  };
}

// The units of each archive a link of `objects` pulls, found as the page
// finds them (RuntimeFetch over the archives' bytes): {file: Set(unit index)}.
function unitsPulled(L, triple, files, objects) {
  const info = L.runtimeInfo(triple);
  const heads = {};
  for (const f of info.files) {
    if (f.name === info.startObject) continue;
    heads[f.name] = { size: files[f.name].bytes.length, bytes: files[f.name].bytes.subarray(0, files[f.name].head) };
  }
  const start = info.startObject ? files[info.startObject].bytes : null;
  const fetch = new L.RuntimeFetch(triple, { objects, heads, start });
  const pulled = {};
  try {
    for (let wanted = fetch.wanted(); wanted.length; wanted = fetch.wanted())
      for (const r of wanted) {
        const f = files[r.file];
        fetch.addMembers(r.file, r.begin, f.bytes.subarray(r.begin, r.end));
        pulled[r.file] ??= new Set();
        for (let i = f.units.indexOf(r.begin); i >= 0 && i < f.units.length && f.units[i] < r.end; i++)
          pulled[r.file].add(i);
      }
  } finally {
    fetch.dispose();
  }
  return pulled;
}

// The gallery's programs for `arch`: [{example: id, objects: [{name, bytes}]}].
function galleryPrograms(gallery, arch) {
  const index = path.join(gallery, 'index.json');
  if (!fs.existsSync(index)) return [];
  return JSON.parse(fs.readFileSync(index, 'utf8')).examples.map(ex => ({
    example: ex.id,
    objects: (ex.build?.[arch] ?? []).map(o => ({
      name: o.name, bytes: fs.readFileSync(path.join(gallery, o.url.replace(/^gallery\//, ''))),
    })),
  })).filter(p => p.objects.length);
}

// PACK_SOURCES compiled for arch into `dir`: [{example: null, objects: [{name, bytes}]}].
function packPrograms(L, arch, dir, log) {
  fs.mkdirSync(dir, { recursive: true });
  return PACK_SOURCES.flatMap(src => {
    const obj = path.join(dir, `${arch}-${path.basename(src).replace(/\.\w+$/, '.o')}`);
    try {
      execFileSync(CLANGXX, [...cflags(L, arch), '-O1', '-c', src, '-o', obj], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      log(`runtimes: ${arch}: ${path.basename(src)} did not compile (${String(e.stderr).trim().split('\n')[0]}); ` +
          'its archives get no pack from it');
      return [];
    }
    return [{ example: null, objects: [{ name: path.basename(obj), bytes: fs.readFileSync(obj) }] }];
  });
}

function prepareArch(L, arch, blobs, programs) {
  const { triple } = ARCHES[arch];
  const info = L.runtimeInfo(triple);
  const files = {};
  for (const f of info.files) {
    const bytes = fs.readFileSync(f.path);
    const isArchive = bytes.toString('latin1', 0, 8) === '!<arch>\n';
    files[f.name] = { bytes, onDemand: !!f.onDemand, archive: isArchive };
    if (!isArchive) continue;
    const { offsets, names } = indexedMembers(bytes);
    files[f.name].units = offsets;
    files[f.name].names = names;
    files[f.name].head = L.archiveHead(bytes.subarray(0, Math.min(bytes.length, 1 << 20))).size;
  }
  // Packs: per archive, the units every program that pulls from it pulls;
  // then per program, the rest of what it pulls from each archive (one
  // unit makes a pack too: programs[] names it, so the page can fetch it
  // before the link's scan asks).
  const common = {};
  const pulledBy = programs.map(p => unitsPulled(L, triple, files, p.objects));
  for (const pulled of pulledBy)
    for (const [file, units] of Object.entries(pulled))
      common[file] = common[file] ? new Set([...common[file]].filter(u => units.has(u))) : units;
  const manifest = { triple, start: info.startObject ?? null, files: {}, packs: [], programs: [] };
  for (const [name, f] of Object.entries(files)) {
    if (!f.archive) {
      manifest.files[name] = { size: f.bytes.length, blob: blobs.put(f.bytes) };
      continue;
    }
    const end = i => (i + 1 < f.units.length ? f.units[i + 1] : f.bytes.length);
    manifest.files[name] = {
      size: f.bytes.length,
      head: { size: f.head, blob: blobs.put(f.bytes.subarray(0, f.head)) },
      units: f.units.length,
      whole: blobs.put(f.bytes), // one request for a link that needs every member (the page's fallback, the reducer)
    };
    f.units.forEach((offset, i) => blobs.put(f.bytes.subarray(offset, end(i)), unitBlob(manifest.files[name], i)));
    if (f.onDemand) {
      const { bits, data } = makeFilter(f.names);
      manifest.files[name].filter = { bits, data: Buffer.from(data).toString('base64') };
    }
    const beyond = p => p[name] && new Set([...p[name]].filter(u => !common[name].has(u)));
    for (const set of [common[name], ...pulledBy.map(beyond)]) {
      const packed = [...(set ?? [])].sort((a, b) => a - b);
      if (!packed.length) continue;
      const blob = blobs.put(Buffer.concat(packed.map(i => f.bytes.subarray(f.units[i], end(i)))));
      if (!manifest.packs.some(p => p.blob === blob)) manifest.packs.push({ blob, units: packed.map(i => [name, i]) });
    }
  }
  // Each program's packs, as the page picks them (the first pack holding a unit: runtime-delivery.mjs).
  const packOf = new Map();
  for (const p of manifest.packs)
    for (const [file, i] of p.units) if (!packOf.has(`${file} ${i}`)) packOf.set(`${file} ${i}`, p);
  programs.forEach((p, k) => {
    const pulled = Object.entries(pulledBy[k]);
    manifest.programs.push({
      example: p.example, files: pulled.map(([file]) => file),
      packs: [...new Set(pulled.flatMap(([file, units]) => [...units].map(i => packOf.get(`${file} ${i}`).blob)))],
    });
  });
  return blobs.put(Buffer.from(JSON.stringify(manifest)));
}

// What every link of each architecture fetches first (firstBlobs), read
// from the prepared manifests in OUT: {arch: [hash]}. config.json carries it,
// so the page asks for them beside the manifest, not after it.
export function firstBlobsOf(out, arches) {
  return ofManifests(out, arches, firstBlobs);
}
// What a link reads of each on-demand archive (onDemandBlobs), from the
// manifests in OUT: {arch: {archive: [hash]}}, for config.json too.
export function onDemandBlobsOf(out, arches) {
  return ofManifests(out, arches, onDemandBlobs);
}
// Each gallery example's packs (exampleBlobs), from the manifests in OUT:
// {arch: {example: [hash]}}, for config.json as well.
export function exampleBlobsOf(out, arches) {
  return ofManifests(out, arches, exampleBlobs);
}
const ofManifests = (out, arches, fn) => Object.fromEntries(Object.entries(arches).map(([arch, hash]) =>
  [arch, fn(JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(out, 'b', `${hash}.gz`)))))]));

// The stamp of what a preparation read: when it matches, OUT is current.
function stamp(L, gallery) {
  const h = createHash('sha256');
  for (const arch of Object.keys(ARCHES))
    for (const f of L.runtimeInfo(ARCHES[arch].triple).files) {
      const s = fs.statSync(f.path);
      h.update(`${f.path} ${s.size} ${s.mtimeMs}\n`);
    }
  for (const s of SOURCES) h.update(fs.readFileSync(s));
  const index = path.join(gallery, 'index.json');
  if (fs.existsSync(index))
    for (const arch of Object.keys(ARCHES))
      for (const p of galleryPrograms(gallery, arch)) for (const o of p.objects) h.update(o.bytes);
  return h.digest('hex');
}

// Prepares OUT (when its stamp is stale) and resolves to its index, {arch: manifest hash}.
export async function prepareRuntimes({
  out = path.join(ROOT, 'build/web-runtimes'), gallery = path.join(ROOT, 'build/web-gallery'), log = () => {},
} = {}) {
  const L = await import('../wasm-bindings/index.mjs');
  const want = stamp(L, gallery);
  const indexFile = path.join(out, 'index.json');
  try {
    const current = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
    if (current.stamp === want) return current.arches;
  } catch { /* none yet, or unreadable: prepare */ }
  const blobs = blobWriter(out);
  const arches = {};
  for (const arch of Object.keys(ARCHES)) {
    const programs = [...galleryPrograms(gallery, arch), ...packPrograms(L, arch, path.join(out, 'objects'), log)];
    arches[arch] = prepareArch(L, arch, blobs, programs);
    log(`runtimes: ${arch} prepared (${programs.length} programs for its packs)`);
  }
  fs.writeFileSync(`${indexFile}.tmp`, JSON.stringify({ stamp: want, arches }, null, 1));
  fs.renameSync(`${indexFile}.tmp`, indexFile);
  blobs.removeUnused();
  log(`runtimes: ${(blobs.written / 1e6).toFixed(1)} MB of new blobs (before gzip) in ${out}`);
  return arches;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const g = args.indexOf('--gallery');
  const gallery = g >= 0 ? path.resolve(args.splice(g, 2)[1]) : undefined;
  const out = args[0] ? path.resolve(args[0]) : undefined;
  prepareRuntimes({ out, gallery, log: m => console.log(m) }).catch(e => {
    console.error(`prepare-runtimes: ${e.message}`);
    process.exit(1);
  });
}
