// Compiles the gallery's C and assembly sources for every architecture into
// <out>/<arch>/<example>/<object>.o and writes <out>/index.json, the
// manifest the page reads (gallery.json plus each object's URL).
//   node web/examples/build-gallery.mjs [OUT]   (default: build/web-gallery)
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as L from '../../wasm-bindings/index.mjs';
import { ARCHES, cflags } from '../runtimes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(process.argv[2] ?? path.join(HERE, '../../build/web-gallery'));
const CLANG = process.env.CLANG ?? 'clang-22';
const gallery = JSON.parse(fs.readFileSync(path.join(HERE, 'gallery.json'), 'utf8'));

let built = 0, skipped = 0;
for (const ex of gallery.examples) {
  ex.build = {};
  for (const arch of Object.keys(ARCHES)) {
    const dir = path.join(OUT, arch, ex.id);
    fs.mkdirSync(dir, { recursive: true });
    ex.build[arch] = ex.objects.map(o => {
      const src = path.join(HERE, o.src.replace('{arch}', arch));
      const name = path.basename(src).replace(/\.[cs]$/, '.o');
      const obj = path.join(dir, name);
      // Rebuild only what changed (the source, or the flags: the runtime's
      // headers): scripts/run calls this on every start.
      const flags = ['-Qunused-arguments', ...cflags(L, arch), '-O1', '-c', ...(o.cflags ?? [])];
      const stamp = `${obj}.flags`, want = flags.join(' ');
      if (!fs.existsSync(obj) || fs.statSync(obj).mtimeMs < fs.statSync(src).mtimeMs ||
          !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== want) {
        execFileSync(CLANG, [...flags, src, '-o', obj], { stdio: 'inherit' });
        fs.writeFileSync(stamp, want);
        ++built;
      } else ++skipped;
      return { name, url: `gallery/${arch}/${ex.id}/${name}`, harness: !!o.harness,
               source: `examples/${path.basename(src)}` };
    });
  }
}
fs.writeFileSync(path.join(OUT, 'index.json'), JSON.stringify(gallery, null, 1));
console.log(`gallery: ${built} objects compiled, ${skipped} up to date, in ${OUT}`);
