// For tests: which runtime file each prepared blob holds, from the
// manifests on disk (prepare-runtimes.mjs), and which blobs a page fetched.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { unitBlob } from '../src/runtime-delivery.mjs';

// hash → "arch file kind" (kind: file, head, unit, whole, pack; "arch
// manifest" for a manifest) for the runtimes in `dir` (a runtimes/ folder)
// whose manifests `arches` ({arch: hash}) names.
export function blobOwners(dir, arches) {
  const owners = new Map();
  for (const [arch, hash] of Object.entries(arches)) {
    owners.set(hash, `${arch} manifest`);
    const m = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'b', `${hash}.gz`))));
    for (const [name, f] of Object.entries(m.files)) {
      const kinds = [[f.blob, 'file'], [f.head?.blob, 'head'], [f.whole, 'whole'],
                     ...Array.from({ length: f.units ?? 0 }, (_, i) => [unitBlob(f, i), 'unit'])];
      for (const [h, kind] of kinds) if (h) owners.set(h, `${arch} ${name} ${kind}`);
    }
    for (const p of m.packs) owners.set(p.blob, `${arch} ${p.units[0][0]} pack`);
  }
  return owners;
}
// The number of units of each archive of arch's manifest: {file: count}.
export function unitCounts(dir, arches, arch) {
  const m = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'b', `${arches[arch]}.gz`))));
  return Object.fromEntries(Object.entries(m.files).filter(([, f]) => f.units).map(([n, f]) => [n, f.units]));
}
// The blob hashes in a list of request URLs.
export const blobsIn = urls => urls.map(u => /\/runtimes\/b\/([0-9a-f]+(?:-\d+)?)\.gz$/.exec(u)?.[1]).filter(Boolean);
