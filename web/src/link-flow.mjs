// How the playground links and starts a program, shared by the page and the
// Node bundle runner (run-bundle.mjs) so both give the same result for one
// session. `L` is the wasm package (browser build or node.mjs).

// Shell-like argument splitting: spaces separate, quotes group.
export function parseArgs(text) {
  const out = [];
  for (const m of String(text).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

// "NAME=ADDR" lines → [[name, addr]]; a malformed line is an error naming it.
export function parseAbsolutes(text) {
  return String(text ?? '').split('\n').map(l => l.trim()).filter(Boolean).map((l, i) => {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(l);
    if (!m) throw new Error(`absolute symbols, line ${i + 1}: '${l}' is not NAME=ADDRESS`);
    return [m[1], m[2]];
  });
}

// Builds a link session: objects {name, bytes, harness}, options {entry,
// phonyExternals, absolutes, slabAddress, runtime}, the arch's runtime row
// from runtime.json and its files [{name, bytes}]; `passes` are
// [{phase, fn}] run in order (user passes first, then snapshots).
// Returns {session, entry, preload, processEntry}.
export function makeSession(L, { objects, options = {}, runtime, runtimeFiles = [], executor, passes = [] }) {
  const useRuntime = options.runtime !== false;
  const session = new L.LinkSession({
    triple: runtime.triple, executor, slabAddress: options.slabAddress || '0x10000000',
    phonyExternals: !!options.phonyExternals, recordContents: true,
  });
  for (const [n, a] of parseAbsolutes(options.absolutes)) session.defineAbsolute(n, a);
  for (const p of passes) session.addPass(p.phase, p.fn);
  for (const o of objects) session.addObject(o.bytes, { name: o.name, harness: !!o.harness });
  if (useRuntime) for (const r of runtimeFiles) session.addObject(r.bytes, { name: r.name });
  return {
    session,
    entry: options.entry || (useRuntime ? runtime.entry : 'main'),
    preload: useRuntime ? runtime.preload : [],
    processEntry: useRuntime && runtime.startup === 'process',
  };
}

// Links what the entry needs (after the runtime's preload names); resolves
// to the entry's address.
export async function linkEntry(ctx) {
  const addrs = await ctx.session.lookup([...ctx.preload, ctx.entry]);
  return addrs[addrs.length - 1];
}

// argv[0] is the first object's name without .o, as a shell would show it.
export const programName = objects => (objects[0]?.name ?? 'a.out').replace(/\.o$/, '');
