// Builds what the suite compares against, once per run: the native linklab
// CLI and linklab-executor (build-jsnative/), the native planner probe, and
// every test object (assembled/compiled from sources in the repo).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NATIVE = process.env.LINKLAB_NATIVE_BUILD || join(ROOT, 'build-jsnative');

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28, ...opts });
}

// "# RUN:" lines of a lit test, continuation lines joined.
export function runLines(text) {
  const lines = [...text.matchAll(/^# RUN:(.*)$/gm)].map((m) => m[1].trim());
  const out = [];
  for (const l of lines) {
    const n = out.length;
    if (n && out[n - 1].endsWith('\\')) out[n - 1] = out[n - 1].slice(0, -1) + ' ' + l;
    else out.push(l);
  }
  return out;
}

// Configures (once) and builds the native linklab and linklab-executor in
// `dir`. They are the reference: if they cannot be built, this throws, and
// the run fails (stale binaries would hold the wasm build to old behaviour).
export function buildNative(dir) {
  if (!existsSync(join(dir, 'CMakeCache.txt')))
    sh('cmake', ['-S', ROOT, '-B', dir, '-DCMAKE_BUILD_TYPE=Release']);
  try {
    sh('cmake', ['--build', dir, '-j2', '--target', 'linklab', 'linklab-executor']);
  } catch (e) {
    throw new Error(`global-setup: the native reference build in ${dir} failed:\n` +
                    String(e.stderr ?? e).slice(-2000), { cause: e });
  }
}

export default async function setup() {
  if (!existsSync(join(ROOT, 'wasm-bindings/dist/linklab_core.wasm')))
    throw new Error('wasm-bindings/dist is missing: run `npm run build` (scripts/build-wasm.sh) first');
  buildNative(NATIVE);
  const work = mkdtempSync(join(tmpdir(), 'linklab-jest-'));
  const objs = join(work, 'objs');
  mkdirSync(objs);

  // With assertions, though the library (RelWithDebInfo) has none: core's Error has one
  // layout either way, so the tool checks its own errors against an NDEBUG library.
  sh('c++', ['-std=c++20', '-O1', '-I', join(ROOT, 'core'), join(ROOT, 'wasm-bindings/test/native/plan_tool.cpp'),
             join(NATIVE, 'core/liblinklab_core.a'), '-o', join(work, 'plan_tool')]);

  // Lit tests: each one's set-up lines (what its first linklab line links:
  // objects, archives, split-file outputs, in a folder of its own for %t),
  // then that linklab line's options (minus -check).
  const SETUP_TOOLS = { 'llvm-mc': 'llvm-mc-22', 'llvm-ar': 'llvm-ar-22', 'llvm-lipo': 'llvm-lipo-22',
                        'yaml2obj': 'yaml2obj-22', 'split-file': 'split-file-22', mkdir: 'mkdir' };
  const lit = [];
  // tests/lit/riscv holds tests assembled for both RV64 and RV32: the first
  // linklab line, which links the RV64 object, is the one compared.
  // The options linklab-run refuses, as the package lists them; but -check,
  // which is dropped from the line (the comparison is of what was linked).
  const { nativeOnlyOptions } = await import('../index.mjs');
  const NATIVE_ONLY = nativeOnlyOptions().map((o) => o.name).filter((n) => n !== '-check');
  const SUBDIRS = [['x86_64', 'x86_64'], ['aarch64', 'aarch64'], ['riscv64', 'riscv64'], ['riscv', 'riscv64']];
  for (const [sub, arch] of SUBDIRS) {
    const dir = join(ROOT, 'tests/lit', sub);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.s')).sort()) {
      const t = join(objs, `${sub}-${f}.d`);
      const subst = (line) => line.replaceAll('%s', join(dir, f)).replaceAll('%S', dir).replaceAll('%t', t);
      const runs = runLines(readFileSync(join(dir, f), 'utf8'));
      // The first linklab line linklab-run could run: not one with an option
      // only the native command has (package.test.mjs checks it refuses them).
      const first = runs.findIndex((r) => r.startsWith('linklab') &&
                                   !NATIVE_ONLY.some((o) => r.split(/\s+/).some((w) => w.split('=')[0] === o)));
      if (first < 0) continue;
      mkdirSync(t, { recursive: true });
      let obj;
      for (const r of runs.slice(0, first).filter((r) => !r.includes('|'))) { // not checks of what was made
        for (const step of subst(r).split('&&')) {
          // echo "TEXT" > FILE, printf 'TEXT' > FILE: a file a test makes (a
          // non-object archive member, -sectcreate's content); only plain text.
          const echo = /^echo\s+(?:"([^"\\]*)"|([^\s"'\\]+))\s*>\s*(\S+)$/.exec(step.trim());
          if (echo) { writeFileSync(echo[3], `${echo[1] ?? echo[2]}\n`); continue; }
          const printf = /^printf\s+'([^'%\\]*)'\s*>\s*(\S+)$/.exec(step.trim());
          if (printf) { writeFileSync(printf[2], printf[1]); continue; }
          if (/^(echo|printf)\b/.test(step.trim()))
            throw new Error(`global-setup: ${sub}/${f}: cannot make the file of '${step.trim()}' (plain text only)`);
          const [tool, ...words] = step.trim().split(/\s+/);
          if (!SETUP_TOOLS[tool]) continue; // rm -rf %t: the folder is new
          sh(SETUP_TOOLS[tool], words);
          if (tool === 'llvm-mc' && !obj) obj = words[words.indexOf('-o') + 1];
        }
      }
      if (!obj) continue;
      // The linklab command, not what it pipes into.
      const opts = subst(runs[first]).split('|')[0].trim().split(/\s+/).slice(1);
      const keep = [];
      for (let i = 0; i < opts.length; i++) {
        if (opts[i] === '-check') { i++; continue; }
        if (!opts[i].startsWith('-check=')) keep.push(opts[i]);
      }
      lit.push({ name: `${sub}/${f}`, arch, obj, options: keep });
    }
  }

  // C programs, for each triple.
  const triples = {
    x86_64: ['-fno-pic'],
    aarch64: ['--target=aarch64-linux-gnu'],
    riscv64: ['--target=riscv64-linux-gnu', '-march=rv64gc'],
  };
  const programs = [];
  const sources = [
    ['sys', [join(ROOT, 'wasm-bindings/test/programs/sys.c')]],
    // Function sections: passes tests remove a function's own block.
    ['passes', [join(ROOT, 'wasm-bindings/test/programs/passes.c')], ['-ffunction-sections']],
    ['funcs', [join(ROOT, 'wasm-bindings/test/programs/funcs.c')]],
    ['cat', [join(ROOT, 'wasm-bindings/test/programs/cat.c')]],
    ['tls', ['tls_first.c', 'tls_late.c'].map((f) => join(ROOT, 'wasm-bindings/test/programs', f))],
    ['hello', [join(ROOT, 'tests/inputs/seed/hello-world.c')]],
    ['inventory', readdirSync(join(ROOT, 'tests/inputs/programs/inventory')).filter((f) => f.endsWith('.c'))
      .map((f) => join(ROOT, 'tests/inputs/programs/inventory', f))],
  ];
  for (const [arch, flags] of Object.entries(triples))
    for (const [name, srcs, extra = []] of sources) {
      const files = srcs.map((src, i) => {
        const o = join(objs, `${arch}-${name}-${i}.o`);
        sh('clang-22', [...flags, ...extra, '-O1', '-ffreestanding', '-fno-stack-protector', '-c', src, '-o', o]);
        return o;
      });
      programs.push({ name, arch, files });
    }
  const config = { root: ROOT, work, lit, programs, linklab: join(NATIVE, 'core/linklab'),
                   executor: join(NATIVE, 'emulator/linklab-executor'), planTool: join(work, 'plan_tool') };
  writeFileSync(join(work, 'config.json'), JSON.stringify(config));
  process.env.LINKLAB_TEST_CONFIG = join(work, 'config.json');
  // The native linklab's runtime image cache: the run's own, not the user's.
  process.env.LINKLAB_CACHE = join(work, 'runtime-images');
  globalThis.__linklabWork = work;
}

export async function teardown() {
  if (globalThis.__linklabWork) rmSync(globalThis.__linklabWork, { recursive: true, force: true });
}
