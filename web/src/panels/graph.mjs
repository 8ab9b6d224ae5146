// The Graph panel: the LinkGraph of one of the user's objects at each phase
// of the last link (cytoscape, loaded only once the page is usable), with a
// phase stepper, the changes since the previous phase, search and filters.
import { $, esc } from '../ui.mjs';

let graphModule = null;
const preload = () => (graphModule ??= import('../graph-view.mjs'));

export function mount(app) {
  const { store } = app;
  let view = null;
  const snapshotsOf = object => store.state.link?.snapshots.filter(s => s.object === object) ?? [];
  const shown = () => snapshotsOf($('graph-object').value);
  const filter = () => ({
    search: $('graph-search').value, kind: $('graph-kind').value, hideExternals: $('graph-hide-ext').checked,
  });

  function describe(snaps, i, d, c) {
    const s = snaps[i];
    const since = !i ? ' · first snapshot'
      : ` · changed since ${snaps[i - 1].phase}: ${d.added.size} added, ${d.removed.length} pruned, ` +
        `${d.moved.size} got addresses, ${d.relaxed.size} edges changed kind (relaxed or rewritten)`;
    return `${s.object} after ${s.phase}: ${c.blocks} blocks, ${c.edges} edges${since}`;
  }

  async function draw() {
    const snaps = shown(), phase = store.state.graphPhase;
    $('phase-steps').innerHTML = snaps.map((s, i) =>
      `<button data-phase="${i}" class="${i === phase ? 'active' : ''}">${s.phase}</button>`).join('');
    if ($('graph').hidden || !snaps.length) return;
    const { GraphView } = await preload();
    view ??= new GraphView($('cy'));
    const i = Math.max(0, Math.min(phase, snaps.length - 1));
    const d = view.show(snaps[i].graph, snaps[i - 1]?.graph, filter());
    const c = view.counts();
    $('graph-changes').textContent = describe(snaps, i, d, c);
    $('graph').dataset.counts = JSON.stringify({ phase: snaps[i].phase, ...c });
  }
  store.on('graphPhase', draw);
  store.on('tab', ({ tab }) => tab === 'graph' && draw());

  // A new link: its objects in the select, its edge kinds in the filter, the
  // last phase shown.
  store.on('link', ({ link }) => {
    const names = [...new Set(link.snapshots.map(s => s.object))];
    const sel = $('graph-object');
    const keep = sel.value;
    sel.innerHTML = names.map(n => `<option>${esc(n)}</option>`).join('');
    if (names.includes(keep)) sel.value = keep;
    const kinds = new Set();
    for (const s of link.snapshots) for (const sec of s.graph.sections) for (const b of sec.blocks)
      for (const e of b.edges) kinds.add(e.kind);
    $('graph-kind').innerHTML = '<option value="">all kinds</option>' +
      [...kinds].sort().map(k => `<option>${esc(k)}</option>`).join('');
    delete $('graph').dataset.counts; // set again once this link's graph is drawn
    store.set({ graphPhase: shown().length - 1 });
  });

  const step = to => store.set({ graphPhase: Math.max(0, Math.min(shown().length - 1, to)) });
  $('graph-object').onchange = () => store.set({ graphPhase: shown().length - 1 });
  $('phase-steps').onclick = e => {
    if (e.target.dataset.phase) store.set({ graphPhase: Number(e.target.dataset.phase) });
  };
  $('phase-prev').onclick = () => step(store.state.graphPhase - 1);
  $('phase-next').onclick = () => step(store.state.graphPhase + 1);
  $('graph-search').oninput = $('graph-kind').onchange = () => {
    if (view) $('graph').dataset.matches = String(view.filter(filter()));
  };
  $('graph-hide-ext').onchange = draw;
  return { draw, preload, snapshotsOf };
}
