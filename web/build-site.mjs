// Builds the playground as a static site any static host serves (no Node
// at run time, no Range requests): the page's modules, the wasm package and
// the graph libraries bundled by esbuild (the package and the graph view as
// chunks of their own, loaded when first used), Capstone, the gallery, the
// prepared C runtimes (prepare-runtimes.mjs) and config.json, which names
// the executor's WebSocket endpoint (or none: the page then links, inspects
// and disassembles, and says running needs an executor). Every file but
// index.html, config.json and the gallery is named by its content's hash,
// so a host can let browsers keep them for good; every file but config.json
// and the runtimes' (gzipped) blobs also gets .gz and .br siblings for hosts
// that serve precompressed files.
//
//   node web/build-site.mjs OUT [--executor wss://host/executor]   (scripts/build-site)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { prepareRuntimes, firstBlobsOf, onDemandBlobsOf, exampleBlobsOf } from './prepare-runtimes.mjs';
import { unitBlob } from './src/runtime-delivery.mjs';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(WEB);
const PKG = path.join(ROOT, 'wasm-bindings');
const hashOf = bytes => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

// name-<hash>.ext in OUT (or under `dir`), written once: its name.
function putHashed(out, name, bytes) {
  const ext = path.extname(name);
  const file = `${path.basename(name, ext)}-${hashOf(bytes)}${ext}`;
  fs.writeFileSync(path.join(out, file), bytes);
  return file;
}
// What gets .gz/.br siblings: every file of the page but config.json, which
// is edited after the build, and the runtimes' blobs, gzipped already.
const PRECOMPRESSED = /^(?!runtimes\/).*\.(html|mjs|js|css|json|wasm|o)$/;
function compressed(file) {
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }));
}

// The package finds its wasm next to itself (new URL('./dist/…', import.meta.url));
// in the site it is a hashed file next to the chunk.
function wasmLocation(wasmFile) {
  const index = path.join(PKG, 'index.mjs');
  const from = "new URL('./dist/linklab_core.wasm', import.meta.url)";
  return {
    name: 'wasm-location',
    setup(b) {
      b.onLoad({ filter: /wasm-bindings[\\/]index\.mjs$/ }, async a => {
        const text = await fs.promises.readFile(a.path, 'utf8');
        if (a.path !== index || text.split(from).length !== 2)
          throw new Error(`build-site: ${index} no longer locates its wasm as ${from}`);
        return { contents: text.replace(from, `new URL('./${wasmFile}', import.meta.url)`), loader: 'js' };
      });
    },
  };
}

// `precompress: false` skips the .gz/.br siblings (brotli's best takes
// seconds), for a build only a plain static server will serve.
export async function buildSite(out, { executor = null, precompress = true, log = () => {} } = {}) {
  out = path.resolve(out);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });

  // The gallery's objects (compiled when stale), then the runtimes' packs, which follow them.
  const galleryDir = path.join(ROOT, 'build/web-gallery');
  execFileSync(process.execPath, [path.join(WEB, 'examples/build-gallery.mjs'), galleryDir], { stdio: 'inherit' });
  fs.cpSync(galleryDir, path.join(out, 'gallery'), { recursive: true, filter: f => !f.endsWith('.flags') });
  const runtimesDir = path.join(ROOT, 'build/web-runtimes');
  const runtimes = await prepareRuntimes({ out: runtimesDir, gallery: galleryDir, log });
  copyRuntimes(runtimesDir, path.join(out, 'runtimes'), runtimes);

  const wasm = putHashed(out, 'linklab_core.wasm', fs.readFileSync(path.join(PKG, 'dist/linklab_core.wasm')));
  const r = await build({
    absWorkingDir: WEB, entryPoints: ['src/app.mjs'], bundle: true, splitting: true, format: 'esm', target: 'es2022',
    minify: true, outdir: out, entryNames: '[name]-[hash]', chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    plugins: [wasmLocation(wasm)], metafile: true, logLevel: 'warning', // linklab: node_modules/linklab's exports
    external: ['node:*'], // the package's Node branch, never taken in a browser
  });
  const rel = f => path.relative(out, path.resolve(WEB, f));
  const outputs = Object.entries(r.metafile.outputs).map(([f, o]) => ({ file: rel(f), ...o }));
  const entry = outputs.find(o => o.entryPoint === 'src/app.mjs').file;
  // What the page needs before it is ready: the entry's static imports and the package's chunk.
  const pkgChunk = outputs.find(o => o.entryPoint && path.resolve(WEB, o.entryPoint) === path.join(PKG, 'index.mjs'));
  if (!pkgChunk) throw new Error('build-site: the wasm package is not a chunk of its own');
  const staticImports = o => o.imports.filter(i => i.kind === 'import-statement').map(i => rel(i.path));
  const preload = [...new Set([...staticImports(outputs.find(o => o.file === entry)), ...staticImports(pkgChunk),
                               pkgChunk.file])];
  const css = putHashed(out, 'style.css', fs.readFileSync(path.join(WEB, 'src/style.css')));
  // Capstone's script loads capstone.wasm from its own folder: both go in a folder named by their hash.
  const csDist = path.join(WEB, 'node_modules/@alexaltea/capstone-js/dist');
  const csFiles = ['capstone.js', 'capstone.wasm'];
  const csDir = `capstone-${hashOf(Buffer.concat(csFiles.map(f => fs.readFileSync(path.join(csDist, f)))))}`;
  fs.mkdirSync(path.join(out, csDir));
  for (const f of csFiles) fs.copyFileSync(path.join(csDist, f), path.join(out, csDir, f));

  const capstone = `${csDir}/capstone.js`;
  fs.writeFileSync(path.join(out, 'index.html'), sitePage({ entry, preload, css, wasm, capstone, pkg: pkgChunk.file }));
  const config = { ...(executor ? { executor } : {}), runtimes, runtimeFirst: firstBlobsOf(runtimesDir, runtimes),
                   runtimeOnDemand: onDemandBlobsOf(runtimesDir, runtimes),
                   runtimeExamples: exampleBlobsOf(runtimesDir, runtimes) };
  fs.writeFileSync(path.join(out, 'config.json'), JSON.stringify(config, null, 1));
  if (precompress) for (const f of fs.readdirSync(out, { recursive: true }))
    if (PRECOMPRESSED.test(f) && f !== 'config.json' && fs.statSync(path.join(out, f)).size >= 1024)
      compressed(path.join(out, f));
  log(`site: ${out} (entry ${entry}, wasm ${wasm}, executor ${executor ?? 'none'})`);
  return { out, entry, wasm };
}

// The blobs the manifests name (each manifest is a blob too), nothing stale.
function copyRuntimes(from, to, arches) {
  fs.mkdirSync(path.join(to, 'b'), { recursive: true });
  // A hard link where the file system allows (blobs never change: a new content is a new name).
  const copy = h => {
    const [src, dst] = [path.join(from, 'b', `${h}.gz`), path.join(to, 'b', `${h}.gz`)];
    try { fs.linkSync(src, dst); } catch { fs.copyFileSync(src, dst); }
  };
  for (const hash of Object.values(arches)) {
    copy(hash);
    const m = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(from, 'b', `${hash}.gz`))));
    for (const f of Object.values(m.files)) {
      for (const h of [f.blob, f.head?.blob, f.whole]) if (h) copy(h);
      for (let i = 0; i < (f.units ?? 0); i++) copy(unitBlob(f, i));
    }
    for (const p of m.packs) copy(p.blob);
  }
}

// web/index.html with the site's files: no import map (the bundle holds the
// package and the graph libraries), the entry and the chunks it needs
// preloaded, the wasm preloaded, the package's chunk started at once (its
// top-level await compiles the wasm), Capstone's location.
function sitePage({ entry, preload, css, wasm, capstone, pkg }) {
  let html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const replace = (pattern, by) => {
    if (!pattern.test(html)) throw new Error(`build-site: index.html no longer has ${pattern}`);
    html = html.replace(pattern, by);
  };
  replace(/<script type="importmap">[\s\S]*?<\/script>\n/, '');
  replace(/(<link rel="(module)?preload" href="\/linklab\/[^"]*"[^>]*>\n)+/,
          [...preload.map(f => `<link rel="modulepreload" href="${f}">\n`),
           `<link rel="preload" href="${wasm}" as="fetch" crossorigin>\n`].join(''));
  replace(/<!-- The wasm core compiles[^\n]*\n<script type="module" async>import\('linklab'\);<\/script>\n/,
          `<script>window.linklabAssets = { capstone: '${capstone}' };</script>\n` +
          `<!-- The wasm core compiles while the page's own modules load. -->\n` +
          `<script type="module" async src="${pkg}"></script>\n`);
  replace(/<!-- The page's modules as one file[\s\S]*?<script type="module" src="\/bundle\/app.mjs"><\/script>/,
          `<script type="module" src="${entry}"></script>`);
  replace(/href="src\/style.css"/, `href="${css}"`);
  return html;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const e = args.indexOf('--executor');
  const executor = e >= 0 ? args.splice(e, 2)[1] : null;
  if (args.length !== 1 || (e >= 0 && !executor)) {
    console.error('usage: scripts/build-site OUT [--executor wss://host/executor]');
    process.exit(2);
  }
  buildSite(args[0], { executor, log: m => console.log(m) }).catch(err => {
    console.error(`build-site: ${err.message}`);
    process.exit(1);
  });
}
