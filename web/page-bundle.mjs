// The page's own modules (src/app.mjs and everything it imports) as one
// file, built by esbuild (npm) in memory when the server starts: ~25 small
// modules fetched over HTTP/1.1's six connections per host arrived in waves
// and, on a loaded machine, made half of the page's load time. The source
// modules stay the source of truth: the bundle is rebuilt on the first
// request after any of its inputs changes (fs.watch), and its source map
// points at them. Dynamic imports (the graph view) stay source modules
// loaded when first used; the package's main module (`linklab`) and the
// graph libraries stay modules of their own, as index.html's import map
// names them. The package's other modules (`linklab/bundle`, ...) are
// resolved through its package.json's exports (node_modules/linklab links
// the package) and bundled.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

export const BUNDLE_PREFIX = '/bundle/';
const EXTERNAL = ['cytoscape', 'cytoscape-dagre'];

// `linklab` alone stays external (esbuild's `external` would take its
// subpaths too).
const packageMain = {
  name: 'package-main',
  setup(b) {
    b.onResolve({ filter: /^linklab$/ }, () => ({ external: true, path: 'linklab' }));
  },
};

// What the page imports dynamically stays out of the bundle, imported by
// its URL: one file with no chunk the entry would wait for.
const lazyModules = root => ({
  name: 'lazy-modules',
  setup(b) {
    b.onResolve({ filter: /^\./ }, a => a.kind !== 'dynamic-import' ? undefined : {
      external: true, path: '/' + path.relative(root, path.resolve(a.resolveDir, a.path)).split(path.sep).join('/'),
    });
  },
});

// The bundle of `entry` (a path under `root`, the page's folder):
// bundler.file(name) → Promise of {data, etag} for /bundle/<name>, or null
// if the bundle has no such file; bundler.close() stops watching.
export function pageBundler({ root, entry = 'src/app.mjs', log = () => {} }) {
  const outdir = path.join(root, 'bundle'); // never written: names and source map paths only
  let built = null; // Promise of Map(name → {data, etag})
  let watchers = [];
  const unwatch = () => { for (const w of watchers) w.close(); watchers = []; };
  const invalidate = () => { built = null; unwatch(); };

  async function build() {
    const { build: esbuild } = await import('esbuild');
    const r = await esbuild({
      absWorkingDir: root, entryPoints: [entry], bundle: true, format: 'esm', target: 'es2022', outdir,
      outExtension: { '.js': '.mjs' }, external: EXTERNAL, plugins: [packageMain, lazyModules(root)],
      sourcemap: 'linked', metafile: true, write: false, logLevel: 'silent',
    });
    // Watched before the files are served: a change from now on rebuilds.
    for (const input of Object.keys(r.metafile.inputs)) {
      const w = fs.watch(path.resolve(root, input), { persistent: false }, invalidate);
      w.on('error', invalidate);
      watchers.push(w);
    }
    return new Map(r.outputFiles.map(f => [path.relative(outdir, f.path), {
      data: Buffer.from(f.contents),
      etag: `"${createHash('sha1').update(f.contents).digest('base64url')}"`,
    }]));
  }
  function current() {
    if (!built) {
      const p = build();
      built = p;
      p.catch(e => {
        log(`page bundle: ${e.message.split('\n')[0]}; serving the source modules instead`);
        if (built === p) invalidate();
      });
    }
    return built;
  }
  current().catch(() => {}); // at start, so the first page load finds it built

  return {
    async file(name) {
      try {
        return (await current()).get(name) ?? null;
      } catch {
        // No esbuild, or a source that does not parse: the page loads its
        // modules one by one, and the browser reports any error where it is.
        if (name !== path.basename(entry)) return null;
        return { data: Buffer.from(`import '/${entry}';\n`) };
      }
    },
    close: unwatch,
  };
}
