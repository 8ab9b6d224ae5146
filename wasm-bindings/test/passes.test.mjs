// Passes and plugins written in JS, and graph snapshots at each phase.
import { LinkSession, LinklabError, PHASES } from '../index.mjs';
import { spawnExecutor } from '../node.mjs';
import { program, read } from './helpers.mjs';

const ARCHES = ['x86_64', 'aarch64', 'riscv64'];
const slab = { slabAddress: 0x100000, slabPageSize: 4096, slabAllocate: '1Mb' };

function session(arch, name, opts = {}) {
  const s = new LinkSession({ ...slab, phonyExternals: true, ...opts });
  for (const f of program(name, arch).files) s.addObject(read(f), { name: f });
  return s;
}
// The call edge from main to `from`, as [block, index, edge].
function callEdge(g, from) {
  const d = g.data();
  const main = d.symbols.find((s) => s.name === 'main');
  for (const sec of d.sections)
    for (const b of sec.blocks)
      if (b.id === main.block) {
        const i = b.edges.findIndex((e) => e.targetName === from);
        if (i >= 0) return [b.id, i, b.edges[i]];
      }
  throw new Error(`no edge from main to ${from}`);
}

describe.each(ARCHES)('%s', (arch) => {
  test('snapshots at every phase show how passes change the graph', async () => {
    const s = session(arch, 'funcs', { snapshot: PHASES });
    await s.link();
    expect(s.snapshots.map((x) => x.phase)).toEqual(PHASES);
    const by = Object.fromEntries(s.snapshots.map((x) => [x.phase, x]));
    // Before allocation blocks have no addresses; after it, they are in the slab.
    const text = (ph) => by[ph].graph.sections.find((x) => x.name.startsWith('.text')).blocks[0];
    expect(text('post-prune').address).toBe(0);
    expect(text('post-allocation').address).toBeGreaterThanOrEqual(0x100000);
    // Fixups change content between pre-fixup and post-fixup, never the graph shape.
    expect(by['post-fixup'].graph.symbols.length).toBe(by['pre-fixup'].graph.symbols.length);
    expect(by['post-fixup'].dump).toMatch(/^LinkGraph "/);
    for (const e of text('post-fixup').edges) expect(typeof e.kind).toBe('string');
  });

  test('a JS pass retargets a call edge, and the program returns the new callee value', async () => {
    const x = await spawnExecutor(arch);
    try {
      const s = new LinkSession({ executor: x });
      for (const f of program('passes', arch).files) s.addObject(read(f), { name: f });
      s.addPass('pre-prune', (g) => {
        const [block, index] = callEdge(g, 'pick_a');
        g.setEdgeTarget(block, index, g.findSymbol('pick_b').id);
      });
      const r = await s.run();
      expect(r.exitCode).toBe(22);
    } finally {
      await x.close();
    }
  });

  test('a JS pass adds a symbol and an edge, changes a kind, and removes a dead block', async () => {
    const s = session(arch, 'passes');
    const seen = {};
    s.addPass('pre-prune', (g) => {
      const id = g.addAbsoluteSymbol('answer_abs', 0x4242);
      const [block, index, edge] = callEdge(g, 'pick_a');
      g.setEdgeTarget(block, index, id);
      g.setEdgeKind(block, index, edge.kind); // same kind, by name: accepted
      expect(() => g.setEdgeKind(block, index, 'NoSuchKind')).toThrow(/'NoSuchKind' is not an edge kind/);
      // The name edge-kind lookup gives unnumbered kinds is not a kind either.
      expect(() => g.setEdgeKind(block, index, '<Unrecognized edge kind>')).toThrow(/is not an edge kind/);
      const ext = g.addExternalSymbol('extra_ext');
      g.addEdge({ block, kind: g.edgeKinds()[0], offset: 0, target: ext });
      seen.kinds = g.edgeKinds();
    });
    s.addPass('post-prune', (g) => {
      const d = g.data();
      const ext = d.symbols.find((x) => x.name === 'extra_ext');
      expect(ext.kind).toBe('external');
      seen.abs = d.symbols.find((x) => x.name === 'answer_abs');
    });
    await s.link();
    expect(seen.kinds).toContain('Keep-Alive');
    expect(seen.abs.address).toBe(0x4242);
  });

  test('a JS pass creates a section with a block of its own, which the link places and keeps', async () => {
    const s = session(arch, 'passes', { recordContents: true });
    let late;
    s.addPass('pre-prune', (g) => {
      expect(() => g.createSection('.js_bad', 'RXW')).toThrow(/protection 'RXW' is not like "R-X"/);
      expect(() => g.createSection('.js_bad', 'rw-')).toThrow(/is not like "R-X"/);
      g.createSection('.js_data', 'RW-');
      expect(() => g.createSection('.js_data', 'RW-')).toThrow(/already exists/);
      expect(() => g.addContentBlock('.js_data', [1, 2])).toThrow(/addContentBlock: expected a Uint8Array/);
      const block = g.addContentBlock('.js_data', Uint8Array.of(1, 2, 3, 4), { alignment: 8 });
      g.setBlockContent(block, Uint8Array.of(0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef));
      g.addDefinedSymbol({ block, name: 'js_data', size: 8, live: true });
    });
    s.addPass('post-allocation', (g) => {
      late = () => g.createSection('.js_late', 'R--');
      expect(late).toThrow(/createSection: not allowed at post-allocation/);
      const d = g.data();
      const sec = d.sections.find((x) => x.name === '.js_data');
      expect(sec.prot).toBe('RW-');
      expect(sec.blocks[0].size).toBe(8);
      expect(sec.blocks[0].address % 8).toBe(0);
    });
    await s.link();
    const info = s.linkInfo()[0];
    expect(info.symbols.js_data).toBeDefined();
    // The linked bytes come back as written (every nibble value: the hex decoder's table).
    const content = (i) => Array.from(i.sections.find((x) => x.name === '.js_data').content ?? []);
    expect(content(info)).toEqual([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
    // contentOf: contents only for the objects it names; the rest of the info is the same.
    expect(content(s.linkInfo({ contentOf: [info.name] })[0])).toEqual(content(info));
    const bare = s.linkInfo({ contentOf: [] })[0];
    expect(bare.sections.every((x) => x.content === undefined)).toBe(true);
    const layout = (x) => [x.name, x.address, x.size];
    expect(bare.sections.map(layout)).toEqual(info.sections.map(layout));
    expect(() => s.linkInfo({ contentOf: 'a.o' })).toThrow(/contentOf must be an array/);
  });

  test('removeBlock refuses a block that still defines symbols, and works after removing them', async () => {
    const s = session(arch, 'passes');
    let removed = false;
    s.addPass('pre-prune', (g) => {
      const d = g.data();
      const b = d.symbols.find((x) => x.name === 'pick_b');
      expect(() => g.removeBlock(b.block)).toThrow(/still defines symbol/);
      // Built with function sections, pick_b's block holds only pick_b and
      // local labels ($x mapping symbols, .Lpcrel_hi anchors).
      const defs = d.symbols.filter((x) => x.block === b.block);
      const named = defs.filter((x) => x.name === 'pick_b' || !x.name.startsWith('$') && !x.name.startsWith('.L'));
      expect(named.map((x) => x.name)).toEqual(['pick_b']);
      // The block's own edges may point at its labels: drop them first.
      const blk = d.sections.flatMap((x) => x.blocks).find((x) => x.id === b.block);
      for (let i = blk.edges.length - 1; i >= 0; --i) g.removeEdge(b.block, i);
      for (const x of defs) g.removeSymbol(x.id);
      g.removeBlock(b.block);
      removed = true;
    });
    await s.link();
    expect(removed).toBe(true);
    expect(s.linkInfo()[0].symbols.pick_b).toBeUndefined();
  });

  test('an error thrown in a JS pass fails the link cleanly, and the module stays usable', async () => {
    const failed = [];
    const s = session(arch, 'passes');
    s.addPlugin({ name: 'watch', failed: (o) => failed.push(o),
                  passes: { 'post-allocation': () => { throw new Error('boom'); } } });
    await expect(s.link()).rejects.toThrow(/JS pass at post-allocation for .*passes-0\.o: boom/);
    expect(failed.length).toBe(1);
    const again = session(arch, 'passes');
    await expect(again.link()).resolves.toBeGreaterThan(0);
  });

  test('plugin hooks: loaded and emitted, once per object', async () => {
    const ev = [];
    const s = session(arch, 'inventory');
    s.addPlugin({ name: 'log', loaded: (o) => ev.push(['loaded', o]), emitted: (o) => ev.push(['emitted', o]) });
    await s.link();
    const files = program('inventory', arch).files;
    expect(ev.filter((e) => e[0] === 'emitted').map((e) => e[1]).sort()).toEqual([...files].sort());
    expect(ev.filter((e) => e[0] === 'loaded').length).toBe(files.length);
  });

  test('a pass for some objects runs for those only; lastLinkedAt is when the last object finished linking',
       async () => {
    const files = program('inventory', arch).files;
    const s = session(arch, 'inventory');
    const seen = [];
    s.addPass('post-prune', (g) => seen.push(g.object), { objects: [files[1]] });
    expect(s.lastLinkedAt).toBeUndefined();
    const before = performance.now();
    let emitted = 0;
    s.addPlugin({ name: 'clock', emitted: () => { emitted = performance.now(); } });
    await s.link();
    expect(seen).toEqual([files[1]]);
    expect(s.lastLinkedAt).toBeGreaterThanOrEqual(before);
    expect(s.lastLinkedAt).toBeLessThanOrEqual(performance.now());
    expect(Math.abs(s.lastLinkedAt - emitted)).toBeLessThan(50);
  });

  test('a graph handle kept past its pass is refused, not a crash', async () => {
    let kept;
    const s = session(arch, 'passes');
    s.addPass('pre-prune', (g) => { kept = g; });
    await s.link();
    expect(() => kept.data()).toThrow(LinklabError);
  });
});
