// The playground page. All linking happens here, in the wasm core (package
// `linklab`); the server only serves files and bridges the executor's
// WebSocket. State lives in `state`; every panel is re-rendered from it.
import * as codec from './session-codec.mjs';
import * as flow from './link-flow.mjs';
import { ARCHES } from '../runtimes.mjs';

const $ = id => document.getElementById(id);
const hex = n => '0x' + Number(n).toString(16);
const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const esc = s => String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

let L; // the wasm package, once loaded
// Fetched while the core loads; the graph library (the largest script) is
// imported only after the page is usable.
const galleryManifest = fetch('gallery/index.json').then(r => (r.ok ? r.json() : null)).catch(() => null);
let graphModule = null;
const loadGraphModule = () => (graphModule ??= import('./graph-view.mjs'));
const state = {
  objects: [], // {name, bytes, harness, arch, info, error}
  arch: null,
  gallery: null, runtimeFiles: new Map(), // arch → Promise of {name: bytes}
  snapshots: [], linkInfo: null, lastLinkObjects: [],
  live: null, // {executor, session, arch, transport}: the last linked-for-run session
  running: false,
  graphView: null, graphPhase: -1,
};

// ---- errors: always on the page, never only in the console ------------------
function showError(el, msg) {
  const e = $(el);
  e.textContent = msg;
  e.hidden = !msg;
}
function banner(msg) { showError('banner', msg); }
window.addEventListener('error', e => banner(`Unexpected error: ${e.message}`));
window.addEventListener('unhandledrejection', e => banner(`Unexpected error: ${e.reason?.message ?? e.reason}`));
const message = e => e?.message ?? String(e);

// ---- objects in --------------------------------------------------------------
const SYM_TYPE = ['notype', 'object', 'func', 'section', 'file', 'common', 'tls'];
// The page's architecture name from an inspected object, null when linklab
// has no backend for its machine.
const archOf = info => (a => (a in ARCHES ? a : null))(info.triple.split('-')[0]);

// An archive's architecture is its object members': one, or an error naming
// the members that disagree. Members that are not objects (the package
// reports each with `error`) are skipped here and shown in Inspect.
function archiveArch(info) {
  const objs = info.members.filter(m => !m.error);
  const foreign = objs.find(m => !archOf(m));
  if (foreign) return { error: `member ${foreign.member} is for ELF machine ${foreign.machine} (${foreign.arch}), which linklab does not support` };
  const byArch = new Map();
  for (const m of objs) byArch.set(archOf(m), [...(byArch.get(archOf(m)) ?? []), m]);
  if (byArch.size > 1) return { error: `members for different architectures: ${[...byArch].map(([a, ms]) => `${a}: ${ms.slice(0, 3).map(m => m.member).join(', ')}${ms.length > 3 ? ', …' : ''}`).join('; ')}` };
  return byArch.size ? { arch: [...byArch.keys()][0] } : { error: 'archive has no ELF object members' };
}

function describeObject(name, bytes, harness = false) {
  const o = { name, bytes, harness, arch: null, info: null, error: null };
  try {
    o.info = L.inspect(bytes, name);
    o.archive = o.info.format === 'archive';
    const r = o.archive ? archiveArch(o.info) : { arch: archOf(o.info) };
    o.arch = r.arch ?? null;
    if (r.error) o.error = `${name}: ${r.error}`;
    else if (!o.arch) o.error = `${name}: ELF machine ${o.info.machine} (${o.info.arch}) is not supported`;
  } catch (e) { o.error = message(e); }
  return o;
}

function addObjects(list) {
  for (const o of list) {
    const i = state.objects.findIndex(x => x.name === o.name);
    i >= 0 ? state.objects.splice(i, 1, o) : state.objects.push(o);
  }
  checkArch();
  renderObjects();
}

// One architecture per session: the first good object decides it, and a
// mixture is an error naming the objects on each side.
function checkArch() {
  const byArch = new Map();
  for (const o of state.objects) if (o.arch && !o.error) byArch.set(o.arch, [...(byArch.get(o.arch) ?? []), o.name]);
  state.arch = byArch.size === 1 ? [...byArch.keys()][0] : null;
  showError('arch-error', byArch.size > 1
    ? `Objects for different architectures cannot be linked together: ${[...byArch].map(([a, n]) => `${a}: ${n.join(', ')}`).join('; ')}. Remove the ones you do not want.`
    : '');
  $('arch-badge').textContent = state.arch ? `${state.arch} (${ARCHES[state.arch].triple})` : byArch.size > 1 ? 'mixed architectures' : 'no objects';
}

async function readFiles(files) {
  const list = [];
  for (const f of files) {
    if (/\.json$|\.linklab$/.test(f.name)) { await loadBundleFile(f); continue; }
    list.push(describeObject(f.name, new Uint8Array(await f.arrayBuffer())));
  }
  addObjects(list);
  selectTab('inspect');
}

function renderObjects() {
  $('objects').innerHTML = state.objects.map((o, i) => `
    <li class="${o.error ? 'bad' : ''}" data-name="${esc(o.name)}">
      <span class="name">${esc(o.name)}</span> <span class="hint">${o.arch ?? '?'} · ${o.bytes.length} B</span>
      <label class="hint"><input type="checkbox" data-harness="${i}" ${o.harness ? 'checked' : ''} ${o.archive ? 'disabled' : ''}> harness</label>
      <button data-remove="${i}" title="remove">✕</button>
      ${o.error ? `<div class="error obj-error">${esc(o.error)}</div>` : ''}
    </li>`).join('');
  const sel = $('inspect-object');
  sel.innerHTML = state.objects.map((o, i) => `<option value="${i}">${esc(o.name)}</option>`).join('');
  renderInspect();
}

function table(cols, rows) {
  return `<table><tr>${cols.map(c => `<th>${esc(c)}</th>`).join('')}</tr>${rows.map(r => `<tr>${r.map(c => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}
function objectDetail(i) {
  const secName = new Map(i.sections.map(s => [s.index, s.name]));
  return `<p>${esc(i.name)}: ELF ${esc(i.arch)} (machine ${i.machine}), flags ${hex(i.flags)}</p>
    <h3>Sections</h3>${table(['#', 'name', 'type', 'flags', 'size', 'align'], i.sections.map(s => [s.index, s.name, s.type, hex(s.flags), hex(s.size), s.addralign]))}
    <h3>Symbols</h3>${table(['#', 'name', 'bind', 'type', 'section', 'value', 'size'], i.symbols.map(s => [s.index, s.name, ['local', 'global', 'weak'][s.bind] ?? s.bind, SYM_TYPE[s.type] ?? s.type, s.section || (s.shndx === 0 ? 'UND' : s.shndx === 0xfff1 ? 'ABS' : secName.get(s.shndx) ?? s.shndx), hex(s.value), s.size]))}
    <h3>Relocations</h3>${table(['section', 'offset', 'type', 'symbol', 'addend'], i.relocations.map(r => [r.section, hex(r.offset), r.typeName ?? r.type, r.symbolName ?? r.symbol, r.addend]))}`;
}
// An archive: its members (one picked in the select is shown in full, as an
// object) and the symbol index, which decides which members a link pulls in.
function archiveDetail(o) {
  const a = o.info, indexed = new Map();
  for (const e of a.symbolIndex) indexed.set(e.member, [...(indexed.get(e.member) ?? []), e.symbol]);
  const m = a.members[o.shownMember ?? -1];
  return `<p>${esc(o.name)}: static archive${o.arch ? ` for ${o.arch}` : ''}, ${plural(a.members.length, 'member')}, ${plural(a.symbolIndex.length, 'symbol')} in its index; members are linked when a symbol needs them.</p>
    <div class="row"><label>member <select id="inspect-member"><option value="-1">(all members)</option>${a.members.map((x, k) => `<option value="${k}" ${x === m ? 'selected' : ''}>${esc(x.member)}</option>`).join('')}</select></label></div>
    ${!m ? '' : `${m.error ? `<div class="error">${esc(m.error)}</div>` : objectDetail(m)}
      <h3>In the symbol index</h3><p>${esc((indexed.get(o.shownMember) ?? ['(none)']).join(', '))}</p>`}
    <h3>Members</h3>${table(['#', 'member', 'offset', 'size', 'arch', 'sections', 'symbols', 'relocations', 'index entries'],
      a.members.map((x, k) => [k, x.member, hex(x.offset), x.size, x.error ? `not an object: ${x.error}` : x.arch,
        x.sections?.length ?? '', x.symbols?.length ?? '', x.relocations?.length ?? '', indexed.get(k)?.length ?? 0]))}`;
}
function renderInspect() {
  const o = state.objects[Number($('inspect-object').value)];
  const body = $('inspect-body');
  if (!o) body.innerHTML = '<p class="hint">Add an object or click an example.</p>';
  else if (o.error && !o.info?.members) body.innerHTML = `<div class="error">${esc(o.error)}</div>`;
  // A bad archive still lists its members: they show what is wrong with it.
  else body.innerHTML = (o.error ? `<div class="error">${esc(o.error)}</div>` : '') + (o.archive ? archiveDetail(o) : objectDetail(o.info));
}

// ---- runtime and gallery -----------------------------------------------------
async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`cannot load ${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}
// The C runtime's files for `arch`, as the package's table names them,
// fetched once from the server (which reads the same table). A failed
// download is forgotten, so the next run tries again.
function runtimeFiles(arch) {
  if (!state.runtimeFiles.has(arch)) {
    const p = flow.runtimeFiles(L, ARCHES[arch].triple, name => fetchBytes(`runtime/${arch}/${name}`));
    p.catch(() => state.runtimeFiles.delete(arch));
    state.runtimeFiles.set(arch, p);
  }
  return state.runtimeFiles.get(arch);
}

function renderGallery() {
  const g = state.gallery;
  if (!g) { $('gallery').innerHTML = '<p class="hint">No gallery: run scripts/run (it compiles the examples).</p>'; return; }
  $('gallery').innerHTML = g.examples.map(ex => `<div class="example"><strong>${esc(ex.title)}</strong>
    ${Object.keys(ex.build).map(a => `<button data-example="${ex.id}" data-arch="${a}">${a}</button>`).join('')}
    <div class="hint">${esc(ex.about)}</div></div>`).join('');
}

async function loadExample(id, arch) {
  const ex = state.gallery.examples.find(e => e.id === id);
  runtimeFiles(arch).catch(() => {}); // start the C runtime's download now; the link awaits it
  const objs = await Promise.all(ex.build[arch].map(async o => describeObject(o.name, await fetchBytes(o.url), o.harness)));
  state.objects = [];
  addObjects(objs);
  writeFields('run', { args: (ex.args ?? []).map(a => /\s/.test(a) ? `"${a}"` : a).join(' ') });
  if (ex.callconv)
    writeFields('callconv', { spec: ex.callconv.spec[arch] ?? '', signature: ex.callconv.signature, function: ex.callconv.function,
                              arguments: ex.callconv.arguments.join(', ') });
  await linkAndRun();
  selectTab('graph');
}

// ---- form fields ---------------------------------------------------------------
// Every field a session saves, by section and key: [element id, property].
const FIELDS = {
  options: { entry: ['opt-entry', 'value'], phonyExternals: ['opt-phony', 'checked'], runtime: ['opt-runtime', 'checked'],
             absolutes: ['opt-abs', 'value'], slabAddress: ['opt-slab', 'value'] },
  run: { args: ['run-args', 'value'], instructions: ['lim-insn', 'value'], wallMillis: ['lim-time', 'value'], memoryMB: ['lim-mem', 'value'] },
  callconv: { spec: ['cc-spec', 'value'], signature: ['cc-sig', 'value'], function: ['cc-fn', 'value'], arguments: ['cc-args', 'value'] },
  pass: { phase: ['pass-phase', 'value'], code: ['pass-code', 'value'], enabled: ['pass-on', 'checked'] },
};
function readFields(section) {
  return Object.fromEntries(Object.entries(FIELDS[section]).map(([key, [id, prop]]) => [key, $(id)[prop]]));
}
// Sets the fields Values names (a missing key leaves its field as it is).
function writeFields(section, values = {}) {
  for (const [key, [id, prop]] of Object.entries(FIELDS[section])) if (values[key] !== undefined) $(id)[prop] = values[key];
}

// ---- linking -----------------------------------------------------------------
function options() {
  const o = readFields('options');
  return { ...o, entry: o.entry.trim(), slabAddress: o.slabAddress.trim() };
}

function linkable() {
  if (!state.objects.length) throw new Error('Add an object first (or click an example).');
  const bad = state.objects.filter(o => o.error);
  if (bad.length) throw new Error(`Cannot link: ${bad.map(o => o.name).join(', ')} ${bad.length > 1 ? 'are' : 'is'} not usable (see the error under ${bad.length > 1 ? 'each' : 'it'}); remove ${bad.length > 1 ? 'them' : 'it'}.`);
  if (!state.arch) throw new Error($('arch-error').textContent || 'No architecture detected.');
  return state.arch;
}

// Builds a session with the page's options, the user's pass and snapshot
// passes that record each phase of the user's objects.
async function makeSession(arch, executor) {
  const o = options();
  const mine = new Set(state.objects.map(x => x.name));
  const passes = [];
  const pass = userPass();
  if (pass) passes.push(pass);
  state.snapshots = [];
  for (const phase of L.PHASES)
    passes.push({ phase, fn: g => { if (mine.has(g.object)) state.snapshots.push({ object: g.object, phase, graph: g.data() }); } });
  return flow.makeSession(L, {
    triple: ARCHES[arch].triple, objects: state.objects, options: o, executor, passes,
    runtime: o.runtime ? await runtimeFiles(arch) : null,
  });
}

// Errors name the object they come from: mark it in the list as well.
function linkFailed(e) {
  const msg = message(e);
  showError('link-error', msg);
  for (const li of $('objects').children) li.classList.toggle('culprit', msg.includes(li.dataset.name));
  setStatus(`link failed: ${msg}`, 'bad');
}

function afterLink(ctx) {
  state.linkInfo = ctx.session.linkInfo();
  state.lastLinkObjects = state.objects.map(o => o.name);
  showError('link-error', '');
  for (const li of $('objects').children) li.classList.remove('culprit');
  renderGraphControls();
  renderMemory();
}

async function linkOnly() {
  let ctx = null;
  try {
    const arch = linkable();
    ctx = await makeSession(arch);
    const [a] = await ctx.session.lookup([ctx.entry]);
    afterLink(ctx);
    setStatus(`linked ${ctx.entry} at ${hex(a)} (slab at ${options().slabAddress || '0x10000000'}, not run)`, 'ok');
    selectTab('graph');
  } catch (e) { linkFailed(e); }
  // Snapshots and link info are copies: the slab session's wasm memory can go.
  ctx?.session.dispose();
  document.body.dataset.links = String(Number(document.body.dataset.links ?? 0) + 1);
}

// ---- the executor over the server's WebSocket bridge --------------------------
// The package's transport: when the bridge closes the connection, its reason
// (`executor killed by SIGKILL`) fails the requests in flight, so the run
// status shows it; Stop and dropLive end the process by closing it.
const bridgeUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/executor`;

async function connect(arch) {
  await dropLive();
  const transport = await L.webSocketTransport(bridgeUrl());
  const executor = new L.Executor(transport);
  executor.onOutput((stream, data) => appendConsole(stream, new TextDecoder().decode(data)));
  await executor.setup(ARCHES[arch].triple);
  return { executor, transport, arch };
}
async function dropLive() {
  const live = state.live;
  state.live = null;
  if (live) { try { live.transport.close(); } catch { /* already closed */ } }
}

const limits = () => flow.runLimits(readFields('run'));
function symbolize(addr) {
  let best = null;
  for (const o of state.linkInfo ?? []) for (const [name, s] of Object.entries(o.symbols))
    // Assembler-local labels (.L*) share addresses with the functions they sit in.
    if (!name.startsWith('.L') && addr >= s.address && addr < s.address + Math.max(s.size, 1) && (!best || s.address > best.address)) best = { name, ...s, object: o.name };
  return best ? `${best.name}+${hex(addr - best.address)} (${best.object})` : 'no symbol';
}

let runTimer = null;
async function linkAndRun() {
  if (state.running) return;
  let arch;
  try { arch = linkable(); } catch (e) { return linkFailed(e); }
  state.running = true;
  $('stop').disabled = false;
  $('console').textContent = '';
  const started = performance.now();
  let ctx = null;
  setStatus('connecting to the executor…', 'busy');
  try {
    // The runtime's files download while the executor starts.
    const [live] = await Promise.all([connect(arch), options().runtime && runtimeFiles(arch)]);
    const connected = performance.now();
    state.live = live; // from here Stop can end it
    if (state.stopping) throw new Error('stopped');
    const lim = limits();
    const args = flow.parseArgs(readFields('run').args);
    ctx = await makeSession(arch, live.executor);
    live.session = ctx.session;
    // run() links every object (the runtime's start code last), then runs,
    // as the native CLI does: the last object emitted ends the link.
    let linked = connected;
    ctx.session.addPlugin({ name: 'timing', emitted: () => { linked = performance.now(); } });
    runTimer = setInterval(() => setStatus(`linking and running… ${((performance.now() - started) / 1000).toFixed(1)} s`, 'busy'), 100);
    const r = await flow.runProgram(ctx, { argv0: flow.programName(state.objects), args, limits: lim });
    clearInterval(runTimer);
    afterLink(ctx);
    const ms = performance.now() - started;
    state.timing = { connect: connected - started, link: linked - connected, run: performance.now() - linked };
    window.__timing ??= state.timing;
    let text = r.fault ? `fault: ${r.fault} at pc ${hex(r.pc)} [${symbolize(r.pc)}], address ${hex(r.address)} [${symbolize(r.address)}]`
      : `${r.description}${r.exitCode !== undefined ? ` · exit code ${r.exitCode}` : ''}`;
    text += ` · ${ms.toFixed(0)} ms`;
    if (r.instructions) text += ` · ${r.instructions} instructions`;
    setStatus(text, r.status === 'fault' || r.status === 'error' || /limit/.test(r.status) ? 'bad' : 'ok');
    // Since navigation start: what scripts/bench-web.mjs reports.
    window.__firstRunMs ??= performance.now();
  } catch (e) {
    clearInterval(runTimer);
    const msg = message(e);
    // A run that was linked and then ended still shows what was linked.
    const showLinked = () => { try { if (ctx) afterLink(ctx); } catch { /* the session did not link */ } };
    if (state.stopping) {
      showLinked();
      setStatus(`run ended: stopped (the executor process was ended) after ${((performance.now() - started) / 1000).toFixed(1)} s`, 'bad');
      await dropLive();
    } else if (/executor/i.test(msg) && !/^Cannot link/.test(msg) && state.objects.length) {
      showLinked();
      setStatus(`run ended: ${msg}. The next run starts a new executor.`, 'bad');
      await dropLive();
    } else linkFailed(e);
  } finally {
    state.running = state.stopping = false;
    $('stop').disabled = true;
    // Tests and the benchmark wait for this counter.
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1);
  }
  loadGraphModule().catch(e => banner(`The graph library did not load: ${message(e)}`));
}

function stop() {
  // Closing the connection makes the server kill the executor process.
  if (!state.running) return;
  state.stopping = true;
  setStatus('stopping…', 'busy');
  state.live?.transport.close();
}

function appendConsole(stream, text) {
  const span = document.createElement('span');
  span.className = stream;
  span.textContent = text;
  $('console').append(span);
  $('console').scrollTop = $('console').scrollHeight;
}
function setStatus(text, kind) {
  const s = $('run-status');
  s.textContent = text;
  s.className = `status ${kind}`;
}

// ---- graph ---------------------------------------------------------------------
function snapshotsOf(object) { return state.snapshots.filter(s => s.object === object); }
function renderGraphControls() {
  const names = [...new Set(state.snapshots.map(s => s.object))];
  const sel = $('graph-object');
  const keep = sel.value;
  sel.innerHTML = names.map(n => `<option>${esc(n)}</option>`).join('');
  if (names.includes(keep)) sel.value = keep;
  state.graphPhase = snapshotsOf(sel.value).length - 1;
  const kinds = new Set();
  for (const s of state.snapshots) for (const sec of s.graph.sections) for (const b of sec.blocks) for (const e of b.edges) kinds.add(e.kind);
  $('graph-kind').innerHTML = '<option value="">all kinds</option>' + [...kinds].sort().map(k => `<option>${esc(k)}</option>`).join('');
  delete $('graph').dataset.counts; // set again once this link's graph is drawn
  drawGraph();
}
async function drawGraph() {
  const snaps = snapshotsOf($('graph-object').value);
  $('phase-steps').innerHTML = snaps.map((s, i) => `<button data-phase="${i}" class="${i === state.graphPhase ? 'active' : ''}">${s.phase}</button>`).join('');
  if ($('graph').hidden || !snaps.length) return;
  const { GraphView } = await loadGraphModule();
  state.graphView ??= new GraphView($('cy'));
  const i = Math.max(0, Math.min(state.graphPhase, snaps.length - 1));
  const d = state.graphView.show(snaps[i].graph, snaps[i - 1]?.graph, graphFilter());
  const c = state.graphView.counts();
  $('graph-changes').textContent = `${snaps[i].object} after ${snaps[i].phase}: ${c.blocks} blocks, ${c.edges} edges` +
    (i ? ` · changed since ${snaps[i - 1].phase}: ${d.added.size} added, ${d.removed.length} pruned, ${d.moved.size} got addresses, ${d.relaxed.size} edges changed kind (relaxed or rewritten)` : ' · first snapshot');
  $('graph').dataset.counts = JSON.stringify({ phase: snaps[i].phase, ...c });
}
function graphFilter() { return { search: $('graph-search').value, kind: $('graph-kind').value, hideExternals: $('graph-hide-ext').checked }; }

// ---- memory map and hex view -------------------------------------------------------
function renderMemory() {
  const secs = [];
  for (const o of state.linkInfo ?? []) for (const s of o.sections) if (s.size) secs.push({ ...s, object: o.name });
  secs.sort((a, b) => a.address - b.address);
  // Segments: runs of sections with one protection that share pages (the
  // memory manager gives each protection its own page-aligned range).
  const page = 4096, segs = [];
  for (const s of secs) {
    const last = segs[segs.length - 1];
    if (last && last.prot === s.prot && Math.floor(s.address / page) <= Math.floor((last.end - 1) / page) + 1) {
      last.end = Math.max(last.end, s.address + s.size);
      last.count++;
    } else segs.push({ start: s.address, end: s.address + s.size, prot: s.prot, count: 1 });
  }
  $('segments').innerHTML = `<tr><th>start</th><th>end</th><th>size</th><th>prot</th><th>sections</th></tr>` +
    segs.map(g => `<tr class="prot-${g.prot.replace(/-/g, '')}"><td>${hex(g.start)}</td><td>${hex(g.end)}</td><td>${hex(g.end - g.start)}</td><td>${g.prot}</td><td>${g.count}</td></tr>`).join('');
  $('sections').innerHTML = `<tr><th>object</th><th>section</th><th>address</th><th>end</th><th>size</th><th>prot</th></tr>` +
    secs.map(s => `<tr class="prot-${s.prot.replace(/-/g, '')}"><td>${esc(s.object)}</td><td>${esc(s.name)}</td><td>${hex(s.address)}</td><td>${hex(s.address + s.size)}</td><td>${hex(s.size)}</td><td>${s.prot}</td></tr>`).join('');
  const mine = secs.filter(s => state.lastLinkObjects.includes(s.object));
  state.hexSections = mine.length ? mine : secs;
  $('hex-section').innerHTML = state.hexSections.map((s, i) => `<option value="${i}">${esc(s.object)} ${esc(s.name)} @ ${hex(s.address)}</option>`).join('');
  // Start with a section that has fixups to show, when there is one.
  const first = state.hexSections.findIndex(s => [...fixupSites(s.object).keys()].some(a => a >= s.address && a < s.address + s.size));
  $('hex-section').value = String(Math.max(0, first));
  renderHex();
}
// Fixup sites: every edge of the object's post-fixup graph, by address.
function fixupSites(object) {
  const sites = new Map();
  const g = snapshotsOf(object).find(s => s.phase === 'post-fixup')?.graph;
  for (const sec of g?.sections ?? []) for (const b of sec.blocks) for (const e of b.edges) sites.set(b.address + e.offset, `${e.kind} → ${e.targetName || '#' + e.target}`);
  return sites;
}
function renderHex() {
  const s = state.hexSections?.[Number($('hex-section').value)];
  if (!s) { $('hex').textContent = ''; return; }
  const sites = fixupSites(s.object);
  const marked = new Map(); // byte address → title, for the 4 bytes after each site
  for (const [a, t] of sites) for (let k = 0; k < 4; k++) if (!marked.has(a + k)) marked.set(a + k, t);
  let out = '';
  const bytes = s.content ?? new Uint8Array();
  for (let off = 0; off < Math.min(bytes.length, 4096); off += 16) {
    out += `<span class="addr">${(s.address + off).toString(16).padStart(12, '0')}</span>  `;
    for (let k = 0; k < 16 && off + k < bytes.length; k++) {
      const a = s.address + off + k, h = bytes[off + k].toString(16).padStart(2, '0');
      out += marked.has(a) ? `<span class="fixup" title="${esc(marked.get(a))}">${h}</span> ` : `${h} `;
    }
    out += '\n';
  }
  if (bytes.length > 4096) out += `… ${bytes.length - 4096} more bytes\n`;
  if (!bytes.length) out = s.name.includes('bss') ? '(zero-fill)' : '(no content recorded)';
  $('hex').innerHTML = out;
}

// ---- calling conventions -----------------------------------------------------------
function ccPlan() {
  showError('cc-error', '');
  try {
    const arch = state.arch ?? 'x86_64';
    const p = L.plan({ spec: $('cc-spec').value.trim(), signature: $('cc-sig').value.trim(), triple: ARCHES[arch].triple });
    const row = (what, l) => [what, l.value === 0 && what === 'return' ? 'result' : `arg ${l.value}`, `+${l.offset}`, l.inRegister ? l.registerName : `stack +${l.stackOffset}`, l.size];
    $('cc-table').innerHTML = table(['', 'value', 'part', 'register / stack slot', 'size'],
      [...p.arguments.map(l => row('argument', l)), ...p.returns.map(l => row('return', l))]).replace(/^<table>|<\/table>$/g, '');
    $('cc-text').textContent = `${p.describe}\n\n${p.text}${p.warnings.length ? '\n\nwarnings:\n' + p.warnings.join('\n') : ''}`;
    if (p.warnings.length) showError('cc-error', p.warnings.join('\n'));
    return p;
  } catch (e) {
    showError('cc-error', message(e));
    $('cc-table').innerHTML = '';
    $('cc-text').textContent = '';
    return null;
  }
}
async function ccCall() {
  const p = ccPlan();
  if (!p) return;
  $('cc-result').textContent = '';
  try {
    const args = $('cc-args').value; // core parses it, as -call does
    const fn = $('cc-fn').value.trim();
    if (!fn) throw new Error('name the function to call');
    const arch = linkable();
    // Reuse the last run's executor when it is for this arch; else link anew.
    if (!state.live?.session || state.live.arch !== arch) {
      const live = await connect(arch);
      const ctx = await makeSession(arch, live.executor);
      await ctx.session.lookup([fn]);
      afterLink(ctx);
      state.live = { ...live, session: ctx.session };
    }
    const [address] = await state.live.session.lookup([fn]);
    const r = await state.live.executor.callWithPlan(address, p, args, limits());
    const v = r.returnValue;
    $('cc-result').className = `status ${r.status === 'returned' ? 'ok' : 'bad'}`;
    $('cc-result').textContent = `${fn} at ${hex(address)}: ${r.description}` +
      (v !== undefined ? ` · result ${typeof v === 'bigint' ? `${BigInt.asIntN(64, v)} (${hex(v)})` : Array.from(v, b => b.toString(16).padStart(2, '0')).join(' ')}` : '') +
      (r.fault ? ` · fault at pc ${hex(r.pc)} [${symbolize(r.pc)}]` : '');
  } catch (e) {
    $('cc-result').className = 'status bad';
    $('cc-result').textContent = message(e);
  }
}

// ---- JS passes ---------------------------------------------------------------------
const EXAMPLE_PASS = `// Runs once per linked object. Example: add an edge-free marker block and
// list what the graph holds at this phase.
(graph) => {
  const d = graph.data();
  log(\`\${graph.object} at \${graph.phase}: \${d.sections.length} sections, \${d.symbols.length} symbols\`);
  if (graph.phase === 'pre-prune' && !d.sections.some(s => s.name === '.note.playground')) {
    graph.createSection('.note.playground', 'R--');
    const b = graph.addContentBlock('.note.playground', new TextEncoder().encode('linked in the browser'));
    graph.addDefinedSymbol({ block: b, name: 'playground_note', size: 21, live: true });
  }
}`;
function userPass() {
  showError('pass-error', '');
  if (!$('pass-on').checked) return null;
  $('pass-log').textContent = '';
  const log = (...a) => { $('pass-log').textContent += a.join(' ') + '\n'; };
  let fn;
  try { fn = new Function('log', `"use strict"; return (${$('pass-code').value});`)(log); } catch (e) {
    showError('pass-error', `pass does not compile: ${message(e)}`);
    throw new Error(`JS pass: ${message(e)}`);
  }
  if (typeof fn !== 'function') throw new Error('JS pass: the code must be a function expression, (graph) => { … }');
  return { phase: $('pass-phase').value, fn };
}

// ---- share ------------------------------------------------------------------------
function collectSession() {
  return {
    format: codec.FORMAT, version: codec.VERSION, arch: state.arch,
    objects: state.objects.map(o => ({ name: o.name, harness: o.harness, data: codec.toBase64(o.bytes) })),
    ...Object.fromEntries(Object.keys(FIELDS).map(section => [section, readFields(section)])),
  };
}
function applySession(s) {
  state.objects = [];
  addObjects(s.objects.map(o => describeObject(o.name, codec.fromBase64(o.data), !!o.harness)));
  for (const section of Object.keys(FIELDS)) writeFields(section, s[section]);
}
async function share() {
  const s = collectSession();
  const frag = await codec.encodeFragment(s);
  const box = $('share-box');
  box.hidden = false;
  if (frag.length > codec.MAX_FRAGMENT) {
    const url = URL.createObjectURL(new Blob([codec.encodeBundle(s)], { type: 'application/json' }));
    box.innerHTML = `This session is too large for a link (${(frag.length / 1024).toFixed(0)} KiB compressed; links hold up to ${codec.MAX_FRAGMENT / 1024} KiB).
      <a id="bundle-link" download="session.linklab.json" href="${url}">Download it as a bundle file</a>; “Load bundle” (or dropping the file here) restores it.`;
    return;
  }
  const url = `${location.origin}${location.pathname}${frag}`;
  history.replaceState(null, '', frag);
  box.innerHTML = `Share link (${frag.length} characters): <input id="share-url" readonly size="60"> <button id="copy-share">Copy</button>`;
  $('share-url').value = url;
  $('copy-share').onclick = () => navigator.clipboard?.writeText(url);
}
async function loadBundleFile(f) {
  try {
    applySession(codec.decodeBundle(await f.text(), f.name));
    setStatus(`session loaded from ${f.name}; Link & run to run it`, 'ok');
  } catch (e) { banner(message(e)); }
}

// ---- tabs and wiring --------------------------------------------------------------
function selectTab(name) {
  for (const b of $('tabs').children) b.classList.toggle('active', b.dataset.tab === name);
  for (const s of document.querySelectorAll('.tab')) s.hidden = s.id !== name;
  if (name === 'graph') drawGraph();
}

function wire() {
  $('tabs').onclick = e => e.target.dataset.tab && selectTab(e.target.dataset.tab);
  // Cleared after each pick, so choosing the same file again still loads it.
  $('file-input').onchange = e => readFiles([...e.target.files]).finally(() => { e.target.value = ''; });
  $('bundle-input').onchange = e => e.target.files[0] && loadBundleFile(e.target.files[0]);
  const drop = $('drop');
  drop.ondragover = e => { e.preventDefault(); drop.classList.add('over'); };
  drop.ondragleave = () => drop.classList.remove('over');
  drop.ondrop = e => { e.preventDefault(); drop.classList.remove('over'); readFiles(e.dataTransfer.files); };
  $('objects').onclick = e => {
    if (e.target.dataset.remove !== undefined) { state.objects.splice(Number(e.target.dataset.remove), 1); checkArch(); renderObjects(); }
  };
  $('objects').onchange = e => { if (e.target.dataset.harness !== undefined) state.objects[Number(e.target.dataset.harness)].harness = e.target.checked; };
  $('gallery').onpointerover = e => e.target.dataset.arch && runtimeFiles(e.target.dataset.arch).catch(() => {});
  $('gallery').onclick = e => e.target.dataset.example && loadExample(e.target.dataset.example, e.target.dataset.arch).catch(linkFailed);
  $('inspect-object').onchange = renderInspect;
  $('inspect-body').onchange = e => {
    if (e.target.id !== 'inspect-member') return;
    state.objects[Number($('inspect-object').value)].shownMember = Number(e.target.value);
    renderInspect();
  };
  $('link').onclick = linkOnly;
  $('run').onclick = $('run2').onclick = linkAndRun;
  $('stop').onclick = stop;
  $('graph-object').onchange = () => { state.graphPhase = snapshotsOf($('graph-object').value).length - 1; drawGraph(); };
  $('phase-steps').onclick = e => { if (e.target.dataset.phase) { state.graphPhase = Number(e.target.dataset.phase); drawGraph(); } };
  $('phase-prev').onclick = () => { state.graphPhase = Math.max(0, state.graphPhase - 1); drawGraph(); };
  $('phase-next').onclick = () => { state.graphPhase = Math.min(snapshotsOf($('graph-object').value).length - 1, state.graphPhase + 1); drawGraph(); };
  $('graph-search').oninput = $('graph-kind').onchange = () => {
    if (state.graphView) $('graph').dataset.matches = String(state.graphView.filter(graphFilter()));
  };
  $('graph-hide-ext').onchange = drawGraph;
  $('hex-section').onchange = renderHex;
  $('cc-plan').onclick = ccPlan;
  $('cc-call').onclick = ccCall;
  $('pass-phase').innerHTML = L.PHASES.map(p => `<option>${p}</option>`).join('');
  $('pass-code').value = EXAMPLE_PASS;
  $('pass-link').onclick = async () => {
    $('pass-on').checked = true;
    try { await linkOnly(); } catch (e) { showError('pass-error', message(e)); }
    if (!$('link-error').hidden) showError('pass-error', $('link-error').textContent);
  };
  $('share').onclick = () => share().catch(e => banner(message(e)));
}

async function main() {
  try {
    L = await import('linklab');
  } catch (e) {
    $('core-status').textContent = 'core failed to load';
    return banner(`The linklab wasm core did not load: ${message(e)}. Build it with scripts/build-wasm.sh (scripts/run does).`);
  }
  $('core-status').textContent = `core ready · ${L.targets().join(', ')}`;
  wire();
  state.gallery = await galleryManifest;
  renderGallery();
  renderObjects();
  if (codec.hasFragment(location.hash)) {
    try {
      applySession(await codec.decodeFragment(location.hash));
      setStatus('session restored from the link; press Link & run to run it', 'ok');
    } catch (e) { banner(message(e)); }
  }
  window.__readyMs = performance.now();
  document.body.dataset.ready = '1';
}
main();
