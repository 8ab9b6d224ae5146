// linklab: the JIT linker core and the calling-convention planner, compiled
// to WebAssembly. This wrapper is thin: it turns the Embind layer's
// {ok, value | error} results into values and LinklabError exceptions,
// core callbacks into Promises, and JSON graph data into plain objects.
import createLinklabCore from './dist/linklab_core.mjs';
import { makeScheduler } from './lib/schedule.mjs';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

// Emscripten 3.1.6's loader would fetch() a file path under Node, so there
// the bytes are read here and handed over as wasmBinary. A browser compiles
// the module while it downloads (instantiateStreaming), unless the server
// does not say application/wasm.
const wasmUrl = new URL('./dist/linklab_core.wasm', import.meta.url);
async function instantiate(imports) {
  const r = await fetch(wasmUrl);
  if (!r.ok) throw new Error(`linklab: cannot load ${wasmUrl}: HTTP ${r.status}`);
  if (/^application\/wasm\b/.test(r.headers.get('content-type') ?? ''))
    return WebAssembly.instantiateStreaming(r, imports);
  return WebAssembly.instantiate(await r.arrayBuffer(), imports);
}
async function loadCore() {
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return createLinklabCore({ wasmBinary: await readFile(wasmUrl) });
  }
  // The loader waits for instantiateWasm's callback; a failure rejects here instead.
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  return Promise.race([failure, createLinklabCore({
    instantiateWasm(imports, done) {
      instantiate(imports).then(r => done(r.instance, r.module), failed);
      return {};
    },
  })]);
}
const core = await loadCore();

// Core continuations queued by the wasm side (after each allocation and
// finalization) run on later turns of the event loop, in slices of about
// SLICE_MS, so linking many objects never holds the loop for the whole link
// (setImmediate in Node, a MessageChannel task in browsers: lib/schedule.mjs).
const SLICE_MS = 10;
const later = makeScheduler();
let wakePending = false;
function wake() {
  if (wakePending) return;
  wakePending = true;
  later(() => {
    wakePending = false;
    if (core.runTasks(SLICE_MS) > 0) wake();
  });
}
core.setWake(wake);

export class LinklabError extends Error {
  constructor(message) {
    super(message);
    this.name = 'LinklabError';
  }
}

function unwrap(r) {
  if (!r.ok) throw new LinklabError(r.error);
  return r.value;
}
// Whether an addPass entry runs for `object`.
const forObject = (pass, object) => !pass.objects || pass.objects.has(object);
// Calls fn(callback) and resolves with the unwrapped result it reports.
function promised(fn) {
  return new Promise((resolve, reject) => {
    fn((r) => (r.ok ? resolve(r.value) : reject(new LinklabError(r.error))));
  });
}
function bytes(b, what) {
  if (b instanceof Uint8Array) return b;
  if (b instanceof ArrayBuffer) return new Uint8Array(b);
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  throw new TypeError(`${what}: expected a Uint8Array, got ${b === null ? 'null' : typeof b}`);
}
// 64-bit values go to the core as strings: exact for BigInt and hex text.
function u64(v, what) {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new LinklabError(`${what}: ${v} is not an unsigned integer`);
    return String(v);
  }
  if (typeof v === 'string') return v;
  throw new TypeError(`${what}: expected a number, bigint or string`);
}
// Section and block contents come as hex: a table per character code, not
// parseInt per byte (a glibc program's link info holds ~1 MB of contents).
const HEX_VALUE = new Uint8Array(128);
for (const [i, c] of [...'0123456789abcdef'].entries())
  HEX_VALUE[c.charCodeAt(0)] = HEX_VALUE[c.toUpperCase().charCodeAt(0)] = i;
function hexToBytes(h) {
  const out = new Uint8Array(h.length >> 1);
  for (let i = 0, j = 0; i < out.length; i++, j += 2)
    out[i] = (HEX_VALUE[h.charCodeAt(j)] << 4) | HEX_VALUE[h.charCodeAt(j + 1)];
  return out;
}

/** Parses linklab CLI options with the native CLI's parser (plus `usage`). */
export function parseOptions(args) {
  return unwrap(core.parseOptions(args));
}

/**
 * The `linklab` options linklab-run refuses (parseOptions throws naming one):
 * [{name, what}], `what` saying what the option does that only the native
 * command can.
 */
export function nativeOnlyOptions() {
  return core.nativeOnlyOptions();
}

/**
 * The `linklab` command's decisions, bound from core (core/driver/command.h),
 * which the native command makes with the same code: linklab-run asks here.
 * Each takes the name its errors give the value (the command's option).
 */
export const driver = {
  /** The path of -l`name`: lib`name`.a in the first of `paths` where exists(path) is true. */
  findLibrary: (name, paths, exists) => unwrap(core.findLibrary(String(name), paths.map(String), exists)),
  /** `text` as NAME=ADDRESS: {name, address} (address a decimal string, exact to 64 bits). */
  parseAbsolute: (text, field = '-abs') => unwrap(core.parseAbsolute(String(text), field)),
  /** The page's absolute symbols, one NAME=ADDRESS a line: [{name, address}]; errors name the line. */
  parseAbsoluteLines: (text) => unwrap(core.parseAbsoluteLines(String(text ?? ''))),
  /**
   * The page's (and a bundle's) run limits {instructions, wallMillis, memoryMB}, each a number or text,
   * empty for none, as run() takes them: {instructions, wallMillis, memoryBytes}; errors name the field.
   */
  runLimits: ({ instructions, wallMillis, memoryMB } = {}) =>
    unwrap(core.parseRunFields(String(instructions ?? ''), String(wallMillis ?? ''), String(memoryMB ?? ''))),
  /** Whether a link for `triple` takes a C runtime as `runtime` selects it ('default', 'none', a name). */
  selectRuntime: (runtime, triple, { field = '-runtime', required = false } = {}) =>
    unwrap(core.selectRuntime(String(runtime), field, String(triple), required)),
  /**
   * `given`, else the triple of the first input ([{name, bytes}]) that is
   * not an archive, as linklab's session takes it.
   */
  inputTriple: (given, inputs) =>
    unwrap(core.inputTriple(String(given), inputs.map((i) => ({ name: i.name, bytes: bytes(i.bytes, i.name) })))),
  /** The -show-times line, newline included. */
  formatTimings: (loadMs, linkMs, totalMs) => core.formatTimings(loadMs, linkMs, totalMs),
  /** The file a -sectcreate argument (SECTION,FILE[@SYMBOL=OFFSET,...]) names; its errors are llvm-jitlink's. */
  sectCreateFile: (arg) => unwrap(core.sectCreateFile(String(arg))),
};

/** Supported architectures of this build, e.g. ['x86_64', 'aarch64', 'riscv64']. */
export function targets() {
  return core.targets();
}

/**
 * The C runtime linked for `triple` with runtime 'default' (the native CLI's
 * table, core/program/runtime.cpp): {description, files: [{name, path,
 * onDemand}], startObject?}. useRuntime()/run() want the bytes of every
 * file by name; the onDemand ones only when the program needs them
 * (runtimeFilesNeeded).
 */
export function runtimeInfo(triple) {
  return unwrap(core.runtimeInfo(triple));
}

/**
 * How much of an ar archive's start holds its head (magic and symbol
 * index), from any prefix of it: {size, complete}; complete once `bytes`
 * hold all of it.
 */
export function archiveHead(bytes_) {
  return unwrap(core.archiveHead(bytes(bytes_, 'archiveHead')));
}

/**
 * The names of the files of runtimeInfo(triple) a link of `objects`
 * ([{name, bytes}]) needs: every file but the on-demand archives whose
 * symbol index lists no name the objects (or an archive needed before
 * them) reference. `heads` is {name: bytes} with the head (archiveHead) of
 * each on-demand archive; one missing counts as needed.
 */
export function runtimeFilesNeeded(triple, objects, heads = {}) {
  const objs = objects.map((o, i) => ({
    name: String(o.name ?? `object ${i + 1}`),
    bytes: bytes(o.bytes, `runtimeFilesNeeded: ${o.name}`),
  }));
  return unwrap(core.runtimeFilesNeeded(triple, objs, runtimeFileMap(heads)));
}

/**
 * The C runtime of `triple` fetched a member at a time, for a caller that
 * reads the archives by range (a browser): `heads` is {name: {size, bytes}}
 * for each archive of runtimeInfo(triple) (its size and its head,
 * archiveHead's complete bytes), `start` the start object's bytes. Then,
 * while wanted() names byte ranges ([{file, begin, end}], end exclusive),
 * fetch them and hand each over with addMembers(file, begin, bytes); once
 * wanted() is empty, session.useRuntime(fetch) links from the members
 * fetched. A link that needs a member the scan did not reach fails with
 * "... was not fetched".
 */
export class RuntimeFetch {
  #f = new core.RuntimeFetch();
  constructor(triple, { objects = [], heads = {}, start = null } = {}) {
    try {
      const objs = objects.map((o, i) => ({
        name: String(o.name ?? `object ${i + 1}`),
        bytes: bytes(o.bytes, `RuntimeFetch: ${o.name}`),
      }));
      const hs = {};
      for (const [name, h] of Object.entries(heads)) {
        if (!Number.isSafeInteger(h?.size) || h.size < 0)
          throw new LinklabError(`RuntimeFetch: the head of ${name} needs its archive's size`);
        hs[name] = { size: h.size, bytes: bytes(h.bytes, `RuntimeFetch: the head of ${name}`) };
      }
      unwrap(this.#f.init(String(triple), objs, hs, start === null ? null : bytes(start, 'RuntimeFetch: start')));
    } catch (e) {
      this.dispose(); // the core object is freed here, as no session will take it
      throw e;
    }
  }
  wanted() { return unwrap(this.#core().wanted()); }
  addMembers(file, begin, bytes_) {
    unwrap(this.#core().addMembers(String(file), begin, bytes(bytes_, `RuntimeFetch.addMembers: ${file}`)));
  }
  /** How many members the scan has reached so far. */
  get membersPulled() { return unwrap(this.#core().membersPulled()); }
  #core() {
    if (!this.#f) throw new LinklabError('RuntimeFetch: taken by a session already, or disposed of');
    return this.#f;
  }
  /** Frees it, for a fetch no session takes. */
  dispose() {
    if (this.#f) this.#f.delete();
    this.#f = null;
  }
  /** For LinkSession.useRuntime, which takes what was fetched (then disposes of this). */
  _take(useFetch) {
    if (!this.#f)
      throw new LinklabError('useRuntime: this RuntimeFetch was taken by a session already, or disposed of');
    try { return useFetch(this.#f); } finally { this.dispose(); }
  }
}

/**
 * The C runtime's files ({name: Uint8Array} or a Map, as useRuntime takes
 * them) copied into the core once, with their archives' symbol indexes
 * read: every session given it (useRuntime, or runtimeFiles) shares them,
 * so its link copies and parses none of the runtime again. dispose() frees
 * this handle; sessions that took it keep what they share.
 */
export class PreparedRuntime {
  #r = new core.PreparedRuntime();
  constructor(triple, files) {
    try {
      unwrap(this.#r.init(String(triple), runtimeFileMap(files)));
    } catch (e) {
      this.dispose();
      throw e;
    }
  }
  dispose() {
    if (this.#r) this.#r.delete();
    this.#r = null;
  }
  _native() {
    if (!this.#r) throw new LinklabError('PreparedRuntime: disposed of');
    return this.#r;
  }
}

// {name: bytes} from an object or a Map, bytes checked.
function runtimeFileMap(files) {
  if (!files || typeof files !== 'object')
    throw new LinklabError(
      "runtime 'default' needs runtimeFiles: {name: Uint8Array} for every file of runtimeInfo(triple)");
  const out = {};
  for (const [name, b] of files instanceof Map ? files : Object.entries(files))
    out[name] = bytes(b, `runtime file ${name}`);
  return out;
}

/**
 * Headers, sections, symbols and relocations of an ELF relocatable object;
 * for a static archive, {format: 'archive', members: [each member's
 * inspection (or `error`) with `member`, `offset`, `size`], symbolIndex:
 * [{symbol, member}]}.
 */
export function inspect(object, name = 'object') {
  return JSON.parse(unwrap(core.inspectObject(name, bytes(object, 'inspect'))));
}

/**
 * Plans a call: input is a spec ("gpr:rcx,rdx;ret:rax"), a plan text
 * ("v1;..."), validated and never regenerated, or omitted for the target's
 * standard convention. `expect` declares the convention the function has (a
 * spec, or 'standard'): a plan for another one is refused.
 */
export function plan({ spec = '', signature, triple, expect = '' }) {
  return unwrap(core.plan(spec, signature, triple, expect));
}

/** Validates a plan text against a signature and target; returns the plan or throws. */
export function validatePlan(text, { signature, triple, expect = '' }) {
  if (!String(text).startsWith('v1;'))
    throw new LinklabError(`malformed plan: '${String(text).slice(0, 40)}' does not start with v1;`);
  return unwrap(core.plan(text, signature, triple, expect));
}

// ---- graphs handed to JS passes --------------------------------------------

/** The LinkGraph during one pass; its methods edit the graph in place. */
export class Graph {
  #view;
  constructor(view, phase, object) {
    this.#view = view;
    this.phase = phase;
    this.object = object;
  }
  #v() {
    if (!this.#view) throw new LinklabError(`graph ${this.object} (${this.phase}): used after its pass returned`);
    return this.#view;
  }
  _detach() {
    this.#view.delete();
    this.#view = null;
  }
  /** Sections, blocks (with edges, kinds by name) and symbols as plain data. */
  data({ content = false } = {}) {
    const g = JSON.parse(unwrap(this.#v().data(content)));
    if (content)
      for (const s of g.sections)
        for (const b of s.blocks) if (b.content !== undefined) b.content = hexToBytes(b.content);
    return g;
  }
  /** The llvm-jitlink -show-graphs text of the graph as it is now. */
  dump() { return unwrap(this.#v().dump()); }
  /** Every edge kind name of the graph's target (what addEdge/setEdgeKind accept). */
  edgeKinds() { return unwrap(this.#v().edgeKindNames()); }
  /** The symbol named `name` in data(), or undefined. */
  findSymbol(name) { return this.data().symbols.find((s) => s.name === name); }
  addExternalSymbol(name, { weak = false } = {}) { return unwrap(this.#v().addExternalSymbol(name, weak)); }
  addAbsoluteSymbol(name, address, { scope = 'default' } = {}) {
    return unwrap(this.#v().addAbsoluteSymbol(name, u64(address, 'address'), scope));
  }
  addDefinedSymbol({ block, offset = 0, name = '', size = 0, linkage = 'strong', scope = 'default',
                     callable = false, live = false }) {
    return unwrap(this.#v().addDefinedSymbol(block, offset, name, size, linkage, scope, callable, live));
  }
  removeSymbol(id) { unwrap(this.#v().removeSymbol(id)); }
  makeExternal(id) { unwrap(this.#v().makeExternal(id)); }
  setLive(id, live = true) { unwrap(this.#v().setLive(id, live)); }
  addEdge({ block, kind, offset, target, addend = 0 }) {
    return unwrap(this.#v().addEdge(block, kind, offset, target, addend));
  }
  setEdgeKind(block, index, kind) { unwrap(this.#v().setEdgeKind(block, index, kind)); }
  setEdgeTarget(block, index, target) { unwrap(this.#v().setEdgeTarget(block, index, target)); }
  setEdgeAddend(block, index, addend) { unwrap(this.#v().setEdgeAddend(block, index, addend)); }
  removeEdge(block, index) { unwrap(this.#v().removeEdge(block, index)); }
  createSection(name, prot = 'R--') { unwrap(this.#v().createSection(name, prot)); }
  addContentBlock(section, content, { alignment = 1 } = {}) {
    return unwrap(this.#v().addContentBlock(section, bytes(content, 'addContentBlock'), alignment));
  }
  setBlockContent(block, content) { unwrap(this.#v().setBlockContent(block, bytes(content, 'setBlockContent'))); }
  removeBlock(block) { unwrap(this.#v().removeBlock(block)); }
}

/** Points in the link where passes and snapshots run, in order (core's api::phaseNames). */
export const PHASES = Object.freeze(core.phases());

function describeThrow(e) {
  return e instanceof Error ? e.message : String(e);
}

// ---- link sessions -------------------------------------------------------------

function checkRuntime(r) {
  if (r !== 'default' && r !== 'none') throw new LinklabError(`runtime '${r}' is not 'default' or 'none'`);
}

/**
 * A link session (one symbol table, objects linked on demand) over a slab at
 * a fixed address (-noexec, deterministic layouts) or in an executor.
 */
export class LinkSession {
  #s = new core.Session();
  #passes = new Map(PHASES.map((p) => [p, []]));
  #plugins = [];
  #snapshots = new Set();
  #hookErrors = [];
  #executor;
  /** Graph snapshots taken so far: {object, phase, graph, dump}. */
  snapshots = [];
  /** Calling-convention planner warnings so far (also passed to onWarning). */
  warnings = [];

  constructor({ triple = '', slabAddress = '', slabPageSize = '', slabAllocate = '', placeAsRun = false, executor,
                phonyExternals = false, recordContents = false, snapshot = [], runtime = 'none', runtimeFiles,
                conventions = [], onWarning, linkInfo = true, command } = {}) {
    if (executor) {
      this.#executor = executor;
      unwrap(this.#s.initRemote(triple, executor._native()));
    } else if (command) {
      unwrap(this.#s.initCommandSlab(command.map(String), triple));
    } else {
      unwrap(this.#s.initSlab(triple, u64(slabAddress, 'slabAddress'), u64(slabPageSize, 'slabPageSize'),
                              String(slabAllocate), !!placeAsRun, !!linkInfo));
    }
    checkRuntime(runtime);
    if (runtime === 'default') this.useRuntime(runtimeFiles);
    unwrap(this.#s.setWarningHandler((message) => {
      this.warnings.push(message);
      // Called from inside the link: a throw must not cross the wasm frames.
      try { onWarning?.(message); } catch (e) { this.#hookErrors.push(`onWarning handler: ${describeThrow(e)}`); }
    }));
    for (const c of conventions) this.addConvention(c);
    unwrap(this.#s.setPhonyExternals(phonyExternals));
    if (!command || executor) unwrap(this.#s.setRecordContents(recordContents)); // else the command's options say
    unwrap(this.#s.setHooks(this.#hooks()));
    for (const p of snapshot) this.snapshot(p);
  }

  get triple() { return unwrap(this.#s.triple()); }
  /** `entry`, or (empty) the C main as the objects' format spells it: main, or _main for MachO. */
  entrySymbol(entry = '') { return unwrap(this.#s.entrySymbol(String(entry))); }

  /** Adds an object (parsed now: errors surface at once) or a static archive. */
  addObject(object, { name = 'object', harness = false } = {}) {
    unwrap(this.#s.addObject(name, bytes(object, name), harness));
    return this.#checkHooks();
  }
  addArchive(archive, { name = 'archive.a' } = {}) { return this.addObject(archive, { name }); }
  /** Adds every object member of an archive now (llvm-jitlink's -all_load), named "lib.a[0](a.o)". */
  addArchiveMembers(archive, { name = 'archive.a' } = {}) {
    unwrap(this.#s.addArchiveMembers(name, bytes(archive, name)));
    return this.#checkHooks();
  }
  /**
   * A read-only section of `content`'s bytes with symbols at offsets, as
   * -sectcreate=SECTION,FILE@SYMBOL=OFFSET,... makes it (`spec`, whose FILE
   * `content` is).
   */
  addSection(spec, content) {
    unwrap(this.#s.addSectCreate(String(spec), bytes(content, 'sectcreate')));
    return this;
  }
  /**
   * -show-init-es / -show-entry-es: recordProcessLookups() before adding
   * objects; symbolTables({process}) then prints the symbol tables as
   * llvm-jitlink does (process: the link has a C runtime).
   */
  recordProcessLookups() { unwrap(this.#s.recordProcessLookups()); return this; }
  symbolTables({ process = false } = {}) { return unwrap(this.#s.symbolTables(process)); }
  /**
   * Gives SYMBOL a calling convention, as linklab's -cc does:
   * 'SYMBOL=SIGNATURE;SPEC-OR-PLAN'. Standard-convention calls to it then go
   * through a bridge thunk (section $__CCTHUNKS). Objects' .linklab.callconv
   * sections are read the same way by addObject. `origin` names the entry in errors.
   */
  addConvention(entry, { origin = 'conventions' } = {}) {
    unwrap(this.#s.addConvention(String(entry), origin));
    return this.#checkHooks();
  }
  /**
   * What the `linklab` command line `argv` adds to the link, as the native
   * command adds it (driver::Link::addInputs): -cc's entries, the inputs
   * (archives whole under -all_load), -abs, -sectcreate and
   * -phony-externals. `inputs`: [{name, bytes, harness, library}], the
   * objects, harnesses and -l archives (library: found by -l); `readFile(path)`
   * gives the bytes of a file -sectcreate names (null or a throw: it cannot).
   */
  addCommandInputs(argv, inputs, readFile = () => null) {
    const list = inputs.map((i) => ({
      name: String(i.name), bytes: bytes(i.bytes, String(i.name)), harness: !!i.harness, library: !!i.library,
    }));
    const read = (path) => {
      try {
        const b = readFile(path);
        return b == null ? null : bytes(b, path);
      } catch {
        return null;
      }
    };
    unwrap(this.#s.addCommandInputs(argv.map(String), list, read));
    return this.#checkHooks();
  }
  defineAbsolute(name, address) { unwrap(this.#s.defineAbsolute(name, u64(address, `abs ${name}`))); return this; }
  setPhonyExternals(on = true) { unwrap(this.#s.setPhonyExternals(on)); return this; }

  /**
   * Runs fn(graph) at `phase` for every object linked from now on, or only
   * for those `objects` names (the others' links never call into JS: a C
   * runtime's ~450 archive members make that worth it).
   */
  addPass(phase, fn, { objects } = {}) {
    if (!this.#passes.has(phase)) throw new LinklabError(`unknown phase '${phase}' (phases: ${PHASES.join(', ')})`);
    if (objects !== undefined && !Array.isArray(objects))
      throw new LinklabError('addPass: objects must be an array of object names');
    this.#passes.get(phase).push({ fn, objects: objects && new Set(objects.map(String)) });
    return this.#interest();
  }
  /**
   * A plugin: {name, passes: {phase: fn}, loaded(obj), emitted(obj),
   * failed(obj)}; the hooks it has when added are the ones called.
   */
  addPlugin(plugin) {
    this.#plugins.push(plugin);
    for (const [phase, fn] of Object.entries(plugin.passes ?? {})) this.addPass(phase, fn);
    return this.#interest();
  }
  /** Records the graph (data and dump) at `phase` for every object linked from now on. */
  snapshot(phase) {
    if (!this.#passes.has(phase)) throw new LinklabError(`unknown phase '${phase}' (phases: ${PHASES.join(', ')})`);
    this.#snapshots.add(phase);
    return this.#interest();
  }
  /**
   * performance.now() when an object last finished linking (its memory
   * finalized), or undefined before any did: in run(), where the link ends.
   */
  get lastLinkedAt() { return this.#s.lastEmittedAt() || undefined; }

  /** Links what `names` need; resolves to their addresses. */
  async lookup(names) {
    this.#hookErrors = [];
    const result = await promised((done) => this.#s.lookup(names, done));
    if (this.#hookErrors.length) throw new LinklabError(this.#hookErrors.join('; '));
    return result;
  }
  /** Links the entry point's dependencies (like `linklab -noexec`); resolves to its address. */
  async link({ entry = '' } = {}) {
    this.#hookErrors = [];
    // With a C runtime, main is entered through its start object (crt1.o), as natively;
    // an empty entry is core's default for the objects' format (MachO: _main).
    const [address] = await promised((done) => this.#s.linkEntry(String(entry), done));
    if (this.#hookErrors.length) throw new LinklabError(this.#hookErrors.join('; '));
    return address;
  }
  /**
   * Per linked object: sections (address, size, prot, relocated content when
   * recordContents; with contentOf, only for the objects it names), symbols,
   * GOT entries and stubs, in link order.
   */
  linkInfo({ contentOf } = {}) {
    if (contentOf !== undefined && !Array.isArray(contentOf))
      throw new LinklabError('linkInfo: contentOf must be an array of object names');
    const objs = JSON.parse(unwrap(this.#s.linkInfo(contentOf?.map(String))));
    for (const o of objs) for (const s of o.sections) if (s.content !== undefined) s.content = hexToBytes(s.content);
    return objs;
  }
  /** The text of -show-addrs and/or -show-relocated-section-contents for every linked object, as the CLI prints it. */
  linkReport({ addresses = false, relocated = false } = {}) { return unwrap(this.#s.linkReport(addresses, relocated)); }
  /**
   * Links the C runtime (runtimeInfo(triple)) into this session: files is
   * {name: Uint8Array} or a Map, a PreparedRuntime (shared by sessions: no
   * copy), or a RuntimeFetch that fetched its members. Before the first link, so libc calls
   * resolve against it. In a slab (-noexec) its graphs lie after the slab
   * and link() enters main through its start object, as linklab -noexec.
   */
  useRuntime(files) {
    if (files instanceof RuntimeFetch) unwrap(files._take((f) => this.#s.useRuntimeFetch(f)));
    else if (files instanceof PreparedRuntime) unwrap(this.#s.usePreparedRuntime(files._native()));
    else unwrap(this.#s.useRuntime(runtimeFileMap(files)));
    return this;
  }
  get hasRuntime() { return this.#s.hasRuntime(); }
  /**
   * Runs the entry (default main) as the native linklab CLI does: every
   * object linked, TLS and constructors set up, main entered through the C
   * runtime's start code (or called, then exit()), with argv [argv0, ...args].
   * runtime 'default' links the C runtime first (runtimeFiles as for
   * useRuntime) unless the session has it. Output streams to onOutput (or the
   * executor's handler). stdin (a string, UTF-8, or bytes) is what the
   * program reads from fd 0, then end of file (default: nothing).
   * beforeMain() is called once the program is linked, before main runs.
   * Resolves to {exitCode?, status, description, error?, fault?, pc?,
   * address?, instructions}.
   */
  async run({ entry = '', args = [], argv0 = 'a.out', limits = {}, runtime, runtimeFiles, onOutput,
              stdin = '', beforeMain, env = [], files = [] } = {}) {
    if (!this.#executor)
      throw new LinklabError('run: this session links into a slab (-noexec); create it with an executor');
    if (runtime !== undefined) checkRuntime(runtime);
    if (runtime === 'default' && !this.hasRuntime) this.useRuntime(runtimeFiles);
    if (runtime === 'none' && this.hasRuntime)
      throw new LinklabError("run: runtime 'none', but this session already links a C runtime");
    const { instructions = 0, wallMillis = 0, memoryBytes = 0 } = limits;
    this.#hookErrors = [];
    const restore = onOutput ? this.#executor._swapOutput(onOutput) : null;
    this.#executor._setStdin(stdin);
    if (!Array.isArray(env) || !Array.isArray(files)) throw new LinklabError('run: env and files must be arrays');
    const given = files.map((f, i) => ({ path: String(f?.path), bytes: bytes(f?.bytes, `run: files[${i}]`) }));
    unwrap(this.#s.setRunInputs(env.map(String), given));
    if (beforeMain) unwrap(this.#s.setBeforeMainRun(beforeMain));
    try {
      const r = await this.#executor._request((done) =>
        this.#s.run(entry, [argv0, ...args], u64(instructions, 'instructions'), String(wallMillis),
                    String(memoryBytes), done));
      if (this.#hookErrors.length) throw new LinklabError(this.#hookErrors.join('; '));
      return r;
    } finally {
      if (restore) this.#executor._swapOutput(restore);
    }
  }
  /**
   * Runs the program as run() does, stopped at its first instruction under
   * a Debugger: breakpoints, stepping, registers, memory and a backtrace
   * (see Debugger). Takes run()'s options, plus `graphs` (post-fixup graph
   * data, [{object, graph}], for each stop's fixups: by default the
   * session's own post-fixup snapshots) and `idleMillis`, how long the
   * executor waits at a stop for the next command before it ends the run
   * (default 10 minutes).
   */
  debug({ graphs, idleMillis = 0, ...options } = {}) {
    if (!this.#executor)
      throw new LinklabError('debug: this session links into a slab (-noexec); create it with an executor');
    const x = this.#executor._native();
    const own = () => this.snapshots.filter((s) => s.phase === 'post-fixup');
    const d = new Debugger(this, this.#executor, graphs ?? own);
    x.setDebugHandler((seq, stop) => d._stopped(seq, stop));
    unwrap(x.debugNextRun(u64(idleMillis, 'idleMillis')));
    // Closing the executor ends a program left stopped (its hangup waits for the run).
    this.#executor._beforeClose(() => (d.stop && d.stop.reason !== 'exited' ? d.kill() : undefined));
    d._running(this.run(options).finally(() => {
      x.setDebugHandler(null);
      this.#executor._beforeClose(null);
    }));
    return d;
  }
  /** Frees the session's wasm memory; the object is unusable afterwards. */
  dispose() { this.#s.delete(); }

  // Throws what a JS hook (onWarning) threw during a synchronous call.
  #checkHooks() {
    const errors = this.#hookErrors.splice(0);
    if (errors.length) throw new LinklabError(errors.join('; '));
    return this;
  }

  // Tells the core which hooks have something to run, so objects no pass,
  // snapshot or plugin hook wants (a C runtime's members) never call into JS.
  #interest() {
    const bit = (p) => 1 << PHASES.indexOf(p);
    let all = 0;
    const perObject = new Map();
    for (const [p, passes] of this.#passes) {
      if (this.#snapshots.has(p) || passes.some((x) => !x.objects)) all |= bit(p);
      for (const x of passes) for (const o of x.objects ?? []) perObject.set(o, (perObject.get(o) ?? 0) | bit(p));
    }
    const has = (what) => this.#plugins.some((x) => typeof x[what] === 'function');
    unwrap(this.#s.setHookInterest(all, [...perObject], has('loaded'), has('emitted'), has('failed')));
    return this;
  }

  #hooks() {
    const call = (what, obj) => {
      for (const p of this.#plugins) {
        if (!p[what]) continue;
        try {
          p[what](obj);
        } catch (e) {
          return `plugin ${p.name ?? '(unnamed)'} ${what} hook for ${obj}: ${describeThrow(e)}`;
        }
      }
      return undefined;
    };
    return {
      phase: (phase, object, view) => {
        const g = new Graph(view, phase, object);
        try {
          for (const x of this.#passes.get(phase)) {
            if (!forObject(x, object)) continue;
            const r = x.fn(g);
            if (r && typeof r.then === 'function')
              return `JS pass at ${phase} for ${object}: ` +
                'passes run synchronously inside the link; it returned a Promise';
          }
          if (this.#snapshots.has(phase))
            this.snapshots.push({ object, phase, graph: g.data({ content: true }), dump: g.dump() });
          return undefined;
        } catch (e) {
          return `JS pass at ${phase} for ${object}: ${describeThrow(e)}`;
        } finally {
          g._detach();
        }
      },
      loaded: (obj) => { const e = call('loaded', obj); if (e) this.#hookErrors.push(e); },
      emitted: (obj) => call('emitted', obj),
      failed: (obj) => { const e = call('failed', obj); if (e) this.#hookErrors.push(e); },
    };
  }
}

// ---- reproducers ----------------------------------------------------------------

// A reproducer case, checked: the session's objects (ELF objects and
// archives) and the options that decide its outcome, as linklab's
// -export-test and -reduce take them from a command line. args is the
// program's whole argv; absolutes are 'NAME=ADDRESS'; stdin is what the
// program reads (a string, UTF-8, or bytes).
function reproCase({ objects, triple = '', entry = '', args = [], absolutes = [], noExec = false,
                     phonyExternals = false, runtime = 'default', stdin = '' } = {}) {
  if (!Array.isArray(objects) || !objects.length)
    throw new LinklabError('reproducer: objects: expected a non-empty array of {name, bytes}');
  checkRuntime(runtime);
  const strings = (v, what) => {
    if (!Array.isArray(v)) throw new LinklabError(`reproducer: ${what}: expected an array of strings`);
    return v.map(String);
  };
  return {
    objects: objects.map((o, i) => ({
      name: String(o?.name ?? `object${i}.o`),
      bytes: bytes(o?.bytes, `reproducer: objects[${i}]`),
      harness: !!o.harness,
    })),
    triple: String(triple), entry: String(entry),
    args: strings(args, 'args'), absolutes: strings(absolutes, 'absolutes'),
    noExec: !!noExec, phonyExternals: !!phonyExternals, runtime,
    // The bytes as they are (a string is UTF-8): core takes them as a std::string.
    stdin: typeof stdin === 'string' ? new TextEncoder().encode(stdin) : bytes(stdin, 'reproducer: stdin'),
  };
}

/**
 * Why an exported test skips llvm-jitlink-22 unless the caller says it
 * agrees (the CLI asks it; the package cannot).
 */
export const UNASKED_LLVM_JITLINK =
  'exported by the linklab package, which did not ask llvm-jitlink-22 whether it agrees';

/**
 * The session `c` (see reduce()) as an LLVM-style test for tests/lit/run-lit.py,
 * as linklab -export-test writes it. `outcome` is what it did: {error} (the
 * link failed), {exitCode, output} for a run ({} for a -noexec link), or
 * {signal, error, output} for a run a signal ended (a fault; error is its
 * report; the test expects status 128+signal and the report's kind).
 * Objects are written as yaml2obj YAML unless acceptAssembly(name, text,
 * mcFlags) says their assembly re-assembles to the same object (the CLI asks
 * llvm-mc-22). linklabOnly: the REQUIRES-LINKLAB-ONLY reason ('' when
 * llvm-jitlink-22 agrees). compareOutput false: a run's test checks its exit
 * status only (a case reduced for its exit status prints whatever its data
 * left). Returns {files: [{path, text}], testFile, checks, notes}.
 */
export function exportTest(c, outcome = {}, { name = 'repro', marks = [], linklabOnly = UNASKED_LLVM_JITLINK,
                                              compareOutput = true, acceptAssembly } = {}) {
  const rc = reproCase(c);
  const signal = Number(outcome.signal ?? 0);
  if (!Number.isInteger(signal) || signal < 0 || signal > 64)
    throw new LinklabError(`exportTest: outcome.signal: '${outcome.signal}' is not a signal number`);
  if (signal && (typeof outcome.error !== 'string' || !outcome.error))
    throw new LinklabError('exportTest: the outcome of a run a signal ended needs its error (the fault report)');
  const linkError = !signal && outcome.error !== undefined && outcome.error !== null;
  if (!linkError && !signal && !rc.noExec && !Number.isInteger(outcome.exitCode))
    throw new LinklabError('exportTest: the outcome of a run needs its exitCode (or error, for a link that failed)');
  const errors = [];
  const accept = acceptAssembly && ((obj, text, flags) => {
    try {
      return !!acceptAssembly(obj, text, flags);
    } catch (e) {
      errors.push(`acceptAssembly for ${obj}: ${describeThrow(e)}`);
      return false;
    }
  });
  const r = unwrap(core.exportTest(rc, {
    linkError,
    error: linkError ? String(outcome.error) : '',
    exitCode: linkError ? 0 : Number(outcome.exitCode ?? 0),
    output: linkError ? '' : String(outcome.output ?? ''),
    signal,
    report: signal ? outcome.error : '',
  }, {
    name: String(name), marks: marks.map(String), linklabOnly: String(linklabOnly), compareOutput: !!compareOutput,
    acceptAssembly: accept || undefined,
  }));
  if (errors.length) throw new LinklabError(errors.join('; '));
  return r;
}

/**
 * Shrinks the case `c` ({objects: [{name, bytes, harness}], triple, entry,
 * args, absolutes, noExec, phonyExternals, runtime}) while `fails(candidate)`
 * (async; the candidate is `c` with fewer objects, members, sections,
 * symbols or relocations) keeps holding, as linklab -reduce does: core's
 * deterministic stages, bounded by `seconds`; onProgress(line) reports each
 * stage and removal. Resolves to {objects, removed, tests, timedOut}.
 */
export async function reduce(c, fails, { seconds = 60, onProgress } = {}) {
  const rc = reproCase(c);
  if (typeof fails !== 'function') throw new TypeError('reduce: fails must be a function (candidate) => boolean');
  const r = new core.Reducer();
  try {
    const progress = [];
    unwrap(r.init(rc, Number(seconds), (line) => progress.push(line)));
    const say = () => { for (const line of progress.splice(0)) onProgress?.(line); };
    for (;;) {
      const objects = unwrap(r.next());
      say();
      if (objects === null) break;
      const holds = !!(await fails({ ...c, objects }));
      unwrap(r.report(holds));
      say();
    }
    return unwrap(r.result());
  } finally {
    r.delete();
  }
}

// ---- executors ---------------------------------------------------------------

/**
 * The client side of the executor protocol over a byte transport supplied by
 * JS: {send(Uint8Array), onData(cb), onClose(cb), close()}. See node.mjs for
 * a spawned linklab-executor and webSocketTransport() for browsers.
 */
export class Executor {
  #x;
  #transport;
  #output = null;
  #closed = null;
  #pending = new Set(); // rejecters of requests in flight, failed when the transport closes
  #beforeClose = null; // a debugged run's: kills a program left stopped
  constructor(transport) {
    this.#transport = transport;
    // The core queues frames and says when the first of a batch is queued:
    // all of the task's frames go to the transport together, in a microtask.
    this.#x = new core.Executor(() => void queueMicrotask(() => this.#flush()));
    this.#x.setOutput((stream, data) => this.#output?.(stream === 1 ? 'stdout' : 'stderr', data));
    transport.onData((data) => {
      const r = this.#x.feed(bytes(data, 'executor data'));
      if (!r.ok) this.#end(r.error);
    });
    transport.onClose?.((why) => this.#end(why ?? 'executor connection closed'));
  }
  #flush() {
    try {
      for (let b; (b = this.#x.takeOutgoing(WS_BATCH)) !== null;) this.#transport.send(b);
    } catch (e) {
      this.#end(`executor transport: ${describeThrow(e)}`);
    }
  }
  #end(why) {
    this.#closed ??= why;
    for (const reject of this.#pending) reject(new LinklabError(`executor: ${this.#closed}`));
    this.#pending.clear();
  }
  // promised() that also fails if the transport closes first.
  #request(fn) {
    if (this.#closed) return Promise.reject(new LinklabError(`executor: ${this.#closed}`));
    return new Promise((resolve, reject) => {
      this.#pending.add(reject);
      fn((r) => {
        this.#pending.delete(reject);
        r.ok ? resolve(r.value) : reject(new LinklabError(r.error));
      });
    });
  }
  _native() { return this.#x; }
  // For LinkSession.run: a core request that also fails if the transport closes.
  _request(fn) { return this.#request(fn); }
  // What the next run reads from fd 0.
  _setStdin(stdin) {
    if (typeof stdin !== 'string' && !(stdin instanceof Uint8Array))
      throw new LinklabError('run: stdin must be a string or a Uint8Array');
    this.#x.setStdin(typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin);
  }
  // Installs an output handler; returns the previous one (a no-op if none).
  _swapOutput(fn) { const prev = this.#output ?? (() => {}); this.#output = fn; return prev; }
  /** Streams program output: fn('stdout' | 'stderr', Uint8Array). */
  onOutput(fn) { this.#output = fn; return this; }
  /**
   * Starts the session for `triple`: {triple, pageSize, symbols}. With
   * `wait: false` it resolves at once with the answer an executor of this
   * build gives, so a link can start while the executor starts (over a
   * network, its start-up and a round trip); a failed setup or a different
   * answer then fails the next run.
   */
  setup(triple, { wait = true } = {}) {
    if (wait) return this.#request((done) => this.#x.setup(triple, done));
    if (this.#closed) return Promise.reject(new LinklabError(`executor: ${this.#closed}`));
    return Promise.resolve(this.#x.setupUnchecked(String(triple)));
  }
  /** Runs main(argc, argv) at `entry`: {exitCode?, status, description, error?, fault?, pc?, instructions}. */
  runMain(entry, args = [], { instructions = 0, wallMillis = 0, memoryBytes = 0, processEntry = false } = {}) {
    return this.#request((done) =>
      this.#x.runMain(u64(entry, 'entry'), args, u64(instructions, 'instructions'), String(wallMillis),
                      u64(memoryBytes, 'memoryBytes'), processEntry, done));
  }
  /**
   * Calls `entry` through a plan (from plan()) with one argument per
   * signature parameter except sret ones (the call makes their buffers):
   * integers as number/bigint, floats as {f32: x} or {f64: x}, aggregates,
   * vectors and byval values as a Uint8Array of their bytes; or all of them
   * as one string in the CLI's -call form ("1, -2, 2.5, bytes:0a0b"). Core places
   * them (registers, stack, by-reference copies) and reads the results back.
   * Resolves to the run result plus, when it returned, `returnValue` (BigInt
   * up to 8 bytes, else Uint8Array) and `lines` (one per result, as -call
   * prints them).
   */
  async callWithPlan(entry, p, args = [], { instructions = 0, wallMillis = 0 } = {}) {
    const text = typeof args === 'string' ? args : args.map(argumentText).join(', ');
    const r = await this.#request((done) =>
      this.#x.callWithPlan(u64(entry, 'entry'), p.text, p.signature, p.target, text, u64(instructions, 'instructions'),
                           String(wallMillis), done));
    if (r.returnBytes) r.returnValue = r.returnBytes.length <= 8 ? littleEndian(r.returnBytes) : r.returnBytes;
    delete r.returnBytes;
    return r;
  }
  readMemory(address, size) { return this.#request((done) => this.#x.readMemory(u64(address, 'address'), size, done)); }
  _beforeClose(fn) { this.#beforeClose = fn; }
  /** Ends the session and closes the transport. */
  async close() {
    try {
      await this.#beforeClose?.()?.catch(() => {});
      // The executor may exit before its reply to hangup arrives: that is the goodbye.
      if (!this.#closed)
        await this.#request((done) => this.#x.hangup(done)).catch((e) => { if (!this.#closed) throw e; });
    } finally {
      this.#transport.close?.();
    }
  }
}

// ---- debugging -----------------------------------------------------------------

// The executor protocol's debug-resume actions and debug-stop reasons (PROTOCOL.md).
const DEBUG_ACTION = { continue: 0, step: 1, stepOver: 2, read: 3, kill: 4 };
const STOP_REASONS = ['entry', 'breakpoint', 'step', 'fault', 'memory', 'refused'];
const MAX_BREAKPOINTS = 256; // as many as the executor takes (PROTOCOL.md)

/**
 * A program run stopped under the executor's debugger (LinkSession.debug).
 * `started` resolves with the first stop, at the program's first
 * instruction; then each of continue(), stepInstruction(), stepOver() and
 * runToFault() resolves with the next stop, or with {reason: 'exited',
 * result} once the run has ended (`result` is run()'s). A stop is {reason
 * ('entry', 'breakpoint', 'step', 'fault'), pc, symbol, location,
 * registers (name → BigInt), stack ({address, bytes} at the stack
 * pointer), backtrace ([{address, symbol}], pc first, then each caller's
 * return address, unwound through the link's .eh_frame), fixups (the edges
 * that wrote the instruction at pc), breakpoint?, fault?}. One command at
 * a time: a second before the first answered throws.
 */
export class Debugger {
  #session;
  #executor;
  #graphs;
  #info = null;
  #seq = 0;
  #waiter = null; // {resolve, reject} of the command in flight
  #breakpoints = [];
  #result = null;
  #first;
  /** The last stop (or end). */
  stop = null;
  constructor(session, executor, graphs) {
    this.#session = session;
    this.#executor = executor;
    this.#graphs = graphs;
    this.#first = new Promise((resolve, reject) => { this.#waiter = { resolve, reject }; });
    this.#first.catch(() => {}); // run()'s promise reports it too
  }
  /** The first stop: the program's first instruction. */
  get started() { return this.#first; }
  /** run()'s promise: the run result once the program ended. */
  get result() { return this.#result; }

  _running(run) {
    this.#result = run;
    run.then((result) => this.#answer({ reason: 'exited', result }), (e) => { this.stop = null; this.#fail(e); });
  }
  _stopped(seq, raw) {
    this.#seq = seq;
    if (STOP_REASONS[raw.reason] === 'memory') return this.#answer(raw.memory);
    if (STOP_REASONS[raw.reason] === 'refused') return this.#fail(new LinklabError(raw.message));
    this.#answer(this.#describe(raw));
  }
  #answer(v) {
    if (v && v.reason) this.stop = v;
    const w = this.#waiter;
    this.#waiter = null;
    w?.resolve(v);
  }
  #fail(e) {
    const w = this.#waiter;
    this.#waiter = null;
    w?.reject(e);
  }

  /**
   * Where the next commands stop: symbols ('main', 'add', 'add@plt' for
   * the stub that leads to add) or addresses. Each resolves against the
   * link; returns [{spec, address, where}] (where: 'add+0x0 in .text of
   * lib.o', 'stub for add', 'GOT entry for counter: data, never executed').
   */
  setBreakpoints(specs) {
    if (!Array.isArray(specs)) throw new LinklabError('setBreakpoints: expected an array of symbols or addresses');
    if (specs.length > MAX_BREAKPOINTS)
      throw new LinklabError(`setBreakpoints: ${specs.length} breakpoints, at most ${MAX_BREAKPOINTS}`);
    this.#breakpoints = specs.map((spec) => {
      const address = this.#resolve(spec);
      return { spec: String(spec), address, where: this.#where(address) };
    });
    return this.#breakpoints.map((b) => ({ ...b }));
  }
  get breakpoints() { return this.#breakpoints.map((b) => ({ ...b })); }
  continue() { return this.#command(DEBUG_ACTION.continue, this.#breakpoints); }
  stepInstruction() { return this.#command(DEBUG_ACTION.step, this.#breakpoints); }
  /** One instruction; a call runs until it returns (to the instruction after it, in this frame). */
  stepOver() { return this.#command(DEBUG_ACTION.stepOver, this.#breakpoints); }
  /** Continues without breakpoints: to a fault, or the end. */
  runToFault() { return this.#command(DEBUG_ACTION.continue, []); }
  /** Ends the program (SIGKILL); resolves with the end. */
  kill() { return this.#command(DEBUG_ACTION.kill, []); }
  /** `size` bytes (at most 64 KiB) of the stopped program's memory at `address`. */
  readMemory(address, size) {
    if (!Number.isSafeInteger(size) || size <= 0)
      throw new LinklabError(`readMemory: size ${size} is not a positive integer`);
    return this.#command(DEBUG_ACTION.read, this.#breakpoints, u64(address, 'readMemory address'), size);
  }

  #command(action, breakpoints, address = '0', size = 0) {
    if (this.#waiter)
      return Promise.reject(new LinklabError('debugger: a command is still running (wait for its stop)'));
    if (!this.stop || this.stop.reason === 'exited')
      return Promise.reject(new LinklabError('debugger: the program is not stopped'));
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
      const addresses = breakpoints.map((b) => String(b.address));
      const r = this.#executor._native().debugResume(this.#seq, action, addresses, address, size);
      if (!r.ok) this.#fail(new LinklabError(r.error));
    });
  }

  #linkInfo() {
    this.#info ??= this.#session.linkInfo({ contentOf: [] });
    return this.#info;
  }
  #resolve(spec) {
    if (typeof spec === 'bigint' || typeof spec === 'number') return Number(spec);
    const s = String(spec).trim();
    if (/^(0x[0-9a-f]+|\d+)$/i.test(s)) return Number(BigInt(s));
    const plt = /^(.+)@plt$/.exec(s);
    for (const o of this.#linkInfo()) {
      if (plt && o.stubs?.[plt[1]] !== undefined) return o.stubs[plt[1]];
      const sym = !plt && o.symbols[s];
      if (sym && sym.section) return sym.address;
    }
    throw new LinklabError(`breakpoint '${s}': no ${plt ? `stub for ${plt[1]}` : 'symbol of that name'} in the link`);
  }
  // 'stub for f' / 'GOT entry for x: data, never executed' / 'f+0x4 in .text of a.o'.
  #where(address) {
    const loc = this.#locate(address);
    if (loc.table?.startsWith('GOT')) return `${loc.table}: data, never executed`;
    const name = loc.table?.slice('stub for '.length);
    if (name && this.#unreached(address))
      return `${loc.table}: no call goes through it (the link calls ${name} directly)`;
    return loc.table ?? loc.symbol ?? 'outside the linked objects';
  }
  // Whether no edge of the graphs (the stub's own object's among them)
  // reaches the entry at `address`: its calls were relaxed to the callee.
  #unreached(address) {
    const graphs = this.#graphData();
    if (!graphs.length) return false;
    for (const { graph } of graphs) {
      const ids = new Set(graph.symbols.filter((s) => s.address === address).map((s) => s.id));
      if (graph.sections.some((sec) => sec.blocks.some((b) => b.edges.some((e) => ids.has(e.target))))) return false;
    }
    return true;
  }
  #graphData() { return (typeof this.#graphs === 'function' ? this.#graphs() : this.#graphs) ?? []; }
  // The object, section, symbol and GOT/stub entry holding `address`.
  #locate(address) {
    for (const o of this.#linkInfo()) {
      // Linker-made entries are named as gdb reads them from a debug image: NAME@plt, NAME.got.
      for (const [table, what, suffix] of [[o.gotEntries, 'GOT entry', '.got'], [o.stubs, 'stub', '@plt']])
        for (const [name, at] of Object.entries(table ?? {}))
          if (address >= at && address < at + Math.max(o.entrySizes?.[at] ?? 1, 1)) {
            const sec = this.#sectionOf(o, address);
            return { object: o.name, table: `${what} for ${name}`, ...sec,
                     symbol: `${name}${suffix}+0x${(address - at).toString(16)} in ${sec.section} of ${o.name}` };
          }
      const sec = this.#sectionOf(o, address);
      if (!sec.section) continue;
      let best = null;
      // The local functions the link pruned name their code too (as in a native executable's symbol table).
      for (const [name, s] of [...Object.entries(o.symbols), ...Object.entries(o.prunedFunctions ?? {})])
        if (s.section === sec.section && s.address <= address && (!best || s.address > best.address) &&
            !name.startsWith('.L'))
          best = { name, address: s.address };
      const off = (from) => `+0x${(address - from).toString(16)}`;
      const at = best ? `${best.name}${off(best.address)}` : `${sec.section}${off(sec.sectionAddress)}`;
      return { object: o.name, symbol: `${at} in ${sec.section} of ${o.name}`, ...sec };
    }
    return {};
  }
  #sectionOf(o, address) {
    const s = o.sections.find((x) => address >= x.address && address < x.address + Math.max(x.size, 1));
    return s ? { section: s.name, sectionAddress: s.address } : {};
  }
  // The block holding `address` and the edges whose bytes overlap [address, address+size).
  #fixups(address, size) {
    for (const { object, graph } of this.#graphData())
      for (const sec of graph.sections) for (const b of sec.blocks) {
        if (address < b.address || address >= b.address + Math.max(b.size, 1)) continue;
        const symbols = new Map(graph.symbols.map((s) => [s.id, s]));
        const start = address - b.address, end = start + Math.max(size, 1);
        const fixups = b.edges.filter((e) => e.offset < end && e.offset + Math.max(e.width, 1) > start).map((e) => {
          const t = symbols.get(e.target);
          // A GOT entry or stub by what it stands for, as the Disassembly view names it.
          const target = (t && this.#locate(t.address).table) || e.targetName || `symbol #${e.target}`;
          return {
            kind: e.kind, target, targetAddress: t?.address, addend: e.addend,
            value: t ? Number(BigInt(t.address) + BigInt(e.addend)) : undefined, offset: e.offset, width: e.width,
          };
        });
        return { block: { object, section: sec.name, address: b.address, size: b.size }, fixups };
      }
    return { block: null, fixups: [] };
  }
  #describe(raw) {
    const pc = Number(BigInt(raw.pc));
    const registers = {};
    for (const r of raw.registers) registers[r.name] = littleEndian(r.value);
    const loc = this.#locate(pc);
    const { block, fixups } = this.#fixups(pc, raw.instructionSize);
    const stop = {
      reason: STOP_REASONS[raw.reason], pc, thread: raw.thread, symbol: loc.symbol ?? '', location: { ...loc, block },
      instructionSize: raw.instructionSize, fixups, registers,
      stack: { address: Number(BigInt(raw.address)), bytes: raw.memory },
      backtrace: backtrace(pc, raw.returns.map((a) => Number(BigInt(a))), raw.unwound, (a) => this.#locate(a)),
    };
    const bp = this.#breakpoints.find((b) => b.address === pc);
    if (stop.reason === 'breakpoint' && bp) stop.breakpoint = { ...bp };
    if (stop.reason === 'fault') stop.fault = { kind: raw.faultKind, address: Number(BigInt(raw.faultAddress)) };
    return stop;
  }
}

// pc, then the return addresses the executor found, each symbolized. Unwound
// through the link's call-frame information, they are the frames gdb shows
// (`bt` with `set backtrace past-main on`), the outermost the process's
// entry. Otherwise (code without any: Arm's) they come from a scan: the link
// register, then the stack's words that follow a call; a link register
// pointing back into pc's own function is stale (it has called since), and
// is dropped, as is a repeat of the frame before, and words past the
// process's entry (_start).
function backtrace(pc, returns, unwound, locate) {
  const fn = (l) => l.symbol?.replace(/\+0x[0-9a-f]+ in /, ' in ');
  const frames = [{ address: pc, symbol: locate(pc).symbol ?? '' }];
  if (unwound) return frames.concat(returns.map((a) => ({ address: a, symbol: locate(a).symbol ?? '' })));
  for (const [i, a] of returns.entries()) {
    const l = locate(a);
    if (!l.symbol) continue;
    if (i === 0 && fn(l) === fn(locate(pc))) continue;
    if (frames.at(-1).address === a) continue;
    frames.push({ address: a, symbol: l.symbol });
    if (l.symbol.startsWith('_start+')) break;
  }
  return frames;
}

// An argument in core's call-argument text (parseCallArguments).
function argumentText(v) {
  if (v instanceof Uint8Array) return `bytes:${Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  if (v && typeof v === 'object' && ('f64' in v || 'f32' in v)) return String('f64' in v ? v.f64 : v.f32);
  if (typeof v === 'number' && !Number.isInteger(v))
    throw new LinklabError(`call: ${v} is not an integer; pass floats as {f64: x} or {f32: x}`);
  if (typeof v !== 'number' && typeof v !== 'bigint') throw new LinklabError(`call: ${v} is not a call argument`);
  return String(v);
}
function littleEndian(b) {
  let x = 0n;
  for (let i = b.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[i]);
  return x;
}

/**
 * A browser transport: the executor's WebSocket bridge at `url`, or a
 * WebSocket to it the caller opened already (a page opens one while it
 * loads, so the executor process starts meanwhile). The
 * bridge's close reason ("executor killed by SIGKILL") becomes the reason
 * requests in flight fail with. `WebSocket` may be given (Node before 22:
 * the `ws` package's class).
 */
const WS_BATCH = 1 << 20;
export function webSocketTransport(url, { WebSocket: WS = globalThis.WebSocket } = {}) {
  const given = url !== null && typeof url === 'object';
  if (!given && typeof WS !== 'function')
    return Promise.reject(new LinklabError('webSocketTransport: no WebSocket class here; pass {WebSocket}'));
  return new Promise((resolve, reject) => {
    const ws = given ? url : new WS(url);
    if (given) url = ws.url;
    // CLOSING or CLOSED: its close event, and reason, are gone.
    if (ws.readyState >= 2)
      return reject(new LinklabError(`cannot connect to executor at ${url}: the WebSocket is closed`));
    ws.binaryType = 'arraybuffer';
    let opened = false, closedWhy, onClose = null, onStatus = null;
    // Frames sent in one task go out as one message: a link writes each
    // graph's segments (~450 frames for hello world against glibc), and a
    // message each costs far more than its bytes. The bridge takes a
    // message of whole frames, up to WS_BATCH bytes (bigger frames alone).
    let queued = [], size = 0;
    const flush = () => {
      if (!queued.length) return;
      const one = queued.length === 1 ? queued[0] : new Uint8Array(size);
      if (queued.length > 1) { let at = 0; for (const b of queued) { one.set(b, at); at += b.length; } }
      queued = [];
      size = 0;
      ws.send(one);
    };
    const t = {
      send: (b) => {
        if (size && size + b.length > WS_BATCH) flush();
        if (!queued.length) queueMicrotask(flush);
        queued.push(b);
        size += b.length;
      },
      // Text messages are the bridge's own news, not executor frames: {queue: N}
      // while the session waits for an executor (N ahead of it, 0 when it starts).
      onData: (cb) => ws.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return cb(new Uint8Array(e.data));
        let news = null;
        try { news = JSON.parse(e.data); } catch { /* not the bridge's: ignored */ }
        if (news && typeof news === 'object') onStatus?.(news);
      }),
      onStatus: (cb) => { onStatus = cb; },
      // A close before the callback is registered is reported at registration.
      onClose: (cb) => { onClose = cb; if (closedWhy !== undefined) cb(closedWhy); },
      close: () => ws.close(),
    };
    if (ws.readyState === 1) { opened = true; resolve(t); } // OPEN
    else ws.addEventListener('open', () => { opened = true; resolve(t); }, { once: true });
    ws.addEventListener('close', (e) => {
      closedWhy = e.reason ? `executor WebSocket closed: ${e.reason}` : `executor WebSocket closed (code ${e.code})`;
      // A refused or failed connection closes without opening: say why (the 'error' event carries nothing).
      if (!opened) reject(new LinklabError(`cannot connect to executor at ${url}: ${e.reason || `code ${e.code}`}`));
      else onClose?.(closedWhy);
    }, { once: true });
  });
}
