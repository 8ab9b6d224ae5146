// Link options and the Link button: how the page builds a session from its
// objects and fields (through link-flow.mjs, shared with the bundle replayer), and
// what it keeps of a link: a graph snapshot of each of the user's objects at
// every phase, and the linked sections. Used by Run and Calling conventions.
import { $, hex, message, showError, setStatus, bump } from '../ui.mjs';
import { readFields } from '../fields.mjs';
import * as flow from '../link-flow.mjs';
import { referencedNames } from '../runtime-delivery.mjs';
import { ARCHES } from '../../runtimes.mjs';

// The C runtime as the site prepared it (runtime-delivery.mjs, app.delivery):
// the architecture's manifest, then the members a link of `objects` pulls
// (flow.fetchRuntime, a round at a time; most arrive in one pack fetched
// ahead), every blob once. If a link asks for a member the scan did not
// reach (fellShort), this page links whole archives from then on.
// `objects` given: the core is loaded (it reads their references).
// What every link of arch reads first, config.json names: asked for beside
// the manifest (after it: a host's six connections take the first six),
// and a gallery example's packs (config.json names them too). So are an
// on-demand archive's blobs when the program's names make it
// likely to be needed (C++'s names: libstdc++.a); the manifest's filter
// decides, and a wrong guess costs only bytes.
const LIKELY = { 'libstdc++.a': n => /^(_Z|__cxa_|__gxx_)/.test(n) };
async function io(app, arch, objects, example = null) {
  const config = await app.config;
  const hash = config.runtimes?.[arch];
  if (!hash) throw new Error(`this site has no C runtime prepared for ${arch} (see Hosting)`);
  app.delivery.manifest(hash).catch(() => {}); // delivery.io reports a failure
  const names = objects && referencedNames(app.L, objects);
  const likely = Object.entries(config.runtimeOnDemand?.[arch] ?? {})
    .filter(([archive]) => names && LIKELY[archive] && [...names].some(LIKELY[archive])).flatMap(([, blobs]) => blobs);
  const packs = (example && config.runtimeExamples?.[arch]?.[example]) ?? [];
  app.delivery.warm([...(config.runtimeFirst?.[arch] ?? []), ...packs, ...likely]).catch(() => {}); // a read reports it
  return app.delivery.io(hash, names);
}
// Before the objects are known (and before the core is): what every link
// of arch starts with, and with `example` what that gallery example pulls.
export const prefetchRuntime = async (app, arch, example = null) =>
  (await io(app, arch, null, example)).prefetch(example);

export function mount(app) {
  const { store } = app;
  // The runtime's whole files a link of `objects` needs (libstdc++ and libm
  // only when they reach them), for useRuntime.
  async function runtimeFiles(arch, objects = []) {
    const files = await io(app, arch, objects);
    return flow.runtimeFiles(app.L, ARCHES[arch].triple, name => files.whole(name), objects);
  }
  let wholeFiles = false;
  async function runtime(arch, objects) {
    if (wholeFiles) return runtimeFiles(arch, objects);
    return flow.fetchRuntime(app.L, ARCHES[arch].triple, await io(app, arch, objects), objects);
  }
  // Whether a link failed for want of a member the scan did not fetch: then
  // it is tried again with the whole files (true), which a page does once.
  function fellShort(e) {
    if (wholeFiles || !/, was not fetched$/.test(message(e))) return false;
    wholeFiles = true;
    return true;
  }

  function options() {
    const o = readFields('options');
    return { ...o, entry: o.entry.trim(), slabAddress: o.slabAddress.trim() };
  }

  function linkable() {
    const { objects, arch } = store.state;
    if (!objects.length) throw new Error('Add an object first (or click an example).');
    const bad = objects.filter(o => o.error);
    const many = bad.length > 1;
    if (bad.length)
      throw new Error(`Cannot link: ${bad.map(o => o.name).join(', ')} ${many ? 'are' : 'is'} not usable ` +
                      `(see the error under ${many ? 'each' : 'it'}); remove ${many ? 'them' : 'it'}.`);
    if (!arch) throw new Error(store.state.archError || 'No architecture detected.');
    return arch;
  }

  // A session with the page's options, the user's pass and snapshot passes
  // that record each phase of the user's objects (in ctx.snapshots, kept
  // once the link is done: afterLink). `fetched`: its runtime, when the
  // caller fetched it already (runtime()).
  async function makeSession(arch, executor, fetched) {
    const o = options();
    const mine = new Set(store.state.objects.map(x => x.name));
    const snapshots = [];
    const passes = [];
    const pass = app.passes.userPass();
    if (pass) passes.push(pass);
    // Content only where the Disassembly view compares it: before and after fixups.
    const content = phase => phase === 'pre-fixup' || phase === 'post-fixup';
    const record = phase => g =>
      snapshots.push({ object: g.object, phase, graph: g.data({ content: content(phase) }) });
    for (const phase of app.L.PHASES) passes.push({ phase, fn: record(phase), objects: [...mine] });
    const ctx = flow.makeSession(app.L, {
      triple: ARCHES[arch].triple, objects: store.state.objects, options: o, executor, passes,
      runtime: o.runtime ? await (fetched ?? runtime(arch, store.state.objects)) : null,
    });
    return { ...ctx, snapshots, arch };
  }

  function failed(e) {
    const msg = message(e);
    showError('link-error', msg);
    app.objects.markCulprits(msg);
    setStatus(`link failed: ${msg}`, 'bad');
  }

  // Snapshots and link info are copies: the session can go afterwards.
  let links = 0;
  function afterLink(ctx) {
    showError('link-error', '');
    app.objects.markCulprits('');
    // Contents of the user's objects only (the hex view's): the C runtime's members hold ~1 MB.
    const objects = store.state.objects.map(o => o.name);
    store.set({ link: { id: ++links, arch: ctx.arch, snapshots: ctx.snapshots, objects,
                        info: ctx.session.linkInfo({ contentOf: objects }) } });
  }

  async function linkOnly() {
    let ctx = null, arch = null;
    try {
      arch = linkable();
      ctx = await makeSession(arch);
      const a = await ctx.session.link({ entry: ctx.entry }); // main through the runtime's crt1.o, as -noexec
      afterLink(ctx);
      app.repro.record(true, { exitCode: 0, output: '' });
      setStatus(`linked ${ctx.entry} at ${hex(a)} (slab at ${options().slabAddress || '0x10000000'}, not run)`, 'ok');
      app.selectTab('graph');
    } catch (e) {
      if (fellShort(e)) {
        ctx?.session.dispose();
        return linkOnly();
      }
      failed(e);
      if (arch) app.repro.record(true, { error: message(e) }); // a link that failed, not a page that cannot link
    }
    // The slab session's wasm memory can go.
    ctx?.session.dispose();
    bump('links');
  }

  $('link').onclick = linkOnly;
  return { runtimeFiles, runtime, fellShort, options, linkable, makeSession, afterLink, failed, linkOnly };
}
