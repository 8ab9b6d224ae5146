// How a playground session links and starts a program, shared by the page
// (web/src/link-flow.mjs re-exports it) and the bundle replayer (bundle.mjs:
// replayBundle, linklab-run --replay), so both give the same result for one session.
// `L` is the wasm package (browser build or node.mjs).

// Shell-like argument splitting: spaces separate, quotes group.
export function parseArgs(text) {
  const out = [];
  for (const m of String(text).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

// The C runtime's files a link of `objects` ([{name, bytes}]) needs, as the
// package's table names them (runtimeInfo): every file but the on-demand
// archives (libstdc++.a, libm.a) the objects reach no symbol of, decided
// from those archives' heads (their symbol index, at their start), so a C
// program never downloads libstdc++. `load(name, length)` → bytes: the whole
// file, or with `length` at least its first `length` bytes. Resolves to
// {name: Uint8Array}.
export async function runtimeFiles(L, triple, load, objects = []) {
  const files = L.runtimeInfo(triple).files;
  const always = new Map(files.filter(f => !f.onDemand).map(f => [f.name, load(f.name)]));
  const heads = await Promise.all(files.filter(f => f.onDemand)
    .map(async f => [f.name, await archiveHead(L, f.name, load)]));
  const needed = L.runtimeFilesNeeded(triple, objects.map(o => ({ name: o.name, bytes: o.bytes })),
                                      Object.fromEntries(heads));
  const bytes = await Promise.all(needed.map(n => always.get(n) ?? load(n)));
  return Object.fromEntries(needed.map((n, i) => [n, bytes[i]]));
}

// The C runtime's members a link of `objects` pulls, fetched a round at a
// time (L.RuntimeFetch): the archives' heads and the start object, then the
// members the scan reaches, one request per archive a round. `io` reads the
// server's files: head(name, length) → {bytes, size} (at least the first
// `length` bytes, or the whole file, and its size), ranges(name, [{begin,
// end}]) → [bytes] and whole(name) → bytes. Resolves to the RuntimeFetch
// for session.useRuntime (~1.6 MB of x86-64's 9.6 MB for hello world).
export async function fetchRuntime(L, triple, io, objects = []) {
  const { heads, start } = await fetchRuntimeHeads(L, triple, io);
  const fetch = new L.RuntimeFetch(triple, { objects, heads, start });
  try {
    for (let wanted = fetch.wanted(); wanted.length; wanted = fetch.wanted()) {
      const byFile = groupBy(wanted, r => r.file);
      await Promise.all([...byFile].map(async ([file, rs]) => {
        const pieces = await io.ranges(file, rs);
        rs.forEach((r, i) => fetch.addMembers(file, r.begin, pieces[i]));
      }));
    }
  } catch (e) {
    fetch.dispose();
    throw e;
  }
  return fetch;
}
// What every fetchRuntime starts with, whatever the objects: each archive's
// head ({name: {size, bytes}}) and the start object's bytes (null if none).
export async function fetchRuntimeHeads(L, triple, io) {
  const info = L.runtimeInfo(triple);
  const start = info.startObject ? io.whole(info.startObject) : null;
  const heads = await Promise.all(info.files.filter(f => f.name !== info.startObject).map(async f => {
    let size;
    const bytes = await archiveHead(L, f.name, async (name, length) => {
      const h = await io.head(name, length);
      size = h.size;
      return h.bytes;
    });
    return [f.name, { size, bytes }];
  }));
  return { heads: Object.fromEntries(heads), start: await start };
}
function groupBy(xs, key) {
  const m = new Map();
  for (const x of xs) {
    if (!m.has(key(x))) m.set(key(x), []);
    m.get(key(x)).push(x);
  }
  return m;
}

// Enough of an archive's start for its head (L.archiveHead): a first
// guess, then the size the head says. A shorter answer is the whole file.
// The guess holds libstdc++.a's head (408 KB on every Debian arch; libm.a's
// is 21-26 KB): a second request would wait for the first, and the link for
// both.
const HEAD_GUESS = 512 << 10;
async function archiveHead(L, name, load) {
  for (let want = HEAD_GUESS; ;) {
    const b = await load(name, want);
    const h = L.archiveHead(b);
    if (h.complete || b.length < want) return b;
    want = h.size;
  }
}

// Builds a link session: objects {name, bytes, harness}, options {entry,
// phonyExternals, absolutes, slabAddress, runtime}; `runtime` is the C
// runtime's files by name (runtimeFiles()) or null for none; `passes` are
// [{phase, fn, objects?}] run in order (user passes first, then snapshots),
// each for every object or only those `objects` names.
// With an executor the session is a program as the native CLI runs one
// (run() links the runtime's start code, TLS and constructors). Without
// one it links into a slab as linklab -noexec does: session.link() enters
// main through the runtime's start object, whose graphs lie after the slab.
// Returns {session, entry}.
export function makeSession(L, { triple, objects, options = {}, runtime = null, executor, passes = [] }) {
  const session = new L.LinkSession({
    triple, executor, slabAddress: options.slabAddress, // '' : core's default
    phonyExternals: !!options.phonyExternals, recordContents: true,
  });
  // The absolutes field, parsed by core (driver::parseAbsoluteLines), as the command's -abs.
  for (const a of L.driver.parseAbsoluteLines(options.absolutes)) session.defineAbsolute(a.name, a.address);
  for (const p of passes) session.addPass(p.phase, p.fn, { objects: p.objects });
  for (const o of objects) session.addObject(o.bytes, { name: o.name, harness: !!o.harness });
  if (runtime) session.useRuntime(runtime);
  return { session, entry: session.entrySymbol(options.entry) };
}

// Runs the session's entry as `linklab prog.o -args ...` does: resolves to
// the executor's run result (with the runtime makeSession gave it, if any).
export function runProgram(ctx, { args, argv0, limits, stdin = '' }) {
  return ctx.session.run({ entry: ctx.entry, argv0, args, limits, stdin });
}

// argv[0] is the first object's name without .o, as a shell would show it.
export const programName = objects => (objects[0]?.name ?? 'a.out').replace(/\.o$/, '');
