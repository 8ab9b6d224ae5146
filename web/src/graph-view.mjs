// Draws one LinkGraph snapshot with cytoscape (dagre layout) and what changed
// since the previous phase: pruned blocks (kept as ghosts), added blocks
// (GOT/PLT/stub entries), blocks that got addresses, edges whose kind changed
// (relaxation). Sections are compound nodes around their blocks; external and
// absolute symbols are nodes of their own.
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';

cytoscape.use(dagre);

const hex = n => '0x' + Number(n).toString(16);

// Block IDs are only stable within one snapshot (each phase gets a fresh
// index), so blocks are matched across phases by what they define: the
// section and first symbol name, else the target of their first edge (a GOT
// entry or stub names what it points at), else their rank in the section.
export function keyBlocks(g) {
  const names = new Map();
  for (const s of g.symbols) if (s.kind === 'defined' && s.name) {
    if (!names.has(s.block)) names.set(s.block, []);
    names.get(s.block).push(s.name);
  }
  // Real names first: assembler-local labels (.L*, RISC-V's pcrel_hi
  // anchors) share blocks with the functions that hold them.
  const rank = n => (n.startsWith('.L') ? 1 : 0);
  for (const list of names.values()) list.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const keys = new Map(), seen = new Map();
  for (const sec of g.sections) sec.blocks.forEach((b, i) => {
    const n = names.get(b.id)?.[0];
    const to = b.edges[0]?.targetName;
    let k = n ? `${sec.name}|${n}` : to ? `${sec.name}|->${to}` : `${sec.name}|#${i}`;
    const dup = seen.get(k) ?? 0;
    seen.set(k, dup + 1);
    if (dup) k += `#${dup}`;
    keys.set(b.id, k);
  });
  return { keys, names };
}

export function diffGraphs(prev, cur) {
  const d = { added: new Set(), removed: [], moved: new Set(), relaxed: new Set(), first: !prev };
  if (!prev) return d;
  const P = keyBlocks(prev), C = keyBlocks(cur);
  const prevBlocks = new Map();
  for (const sec of prev.sections) for (const b of sec.blocks) prevBlocks.set(P.keys.get(b.id), { b, sec: sec.name });
  const curKeys = new Set();
  for (const sec of cur.sections) for (const b of sec.blocks) {
    const k = C.keys.get(b.id);
    curKeys.add(k);
    const old = prevBlocks.get(k);
    if (!old) { d.added.add(k); continue; }
    if (old.b.address !== b.address) d.moved.add(k);
    const kinds = new Map(old.b.edges.map(e => [e.offset, e.kind]));
    for (const e of b.edges)
      if (kinds.has(e.offset) && kinds.get(e.offset) !== e.kind) d.relaxed.add(`${k}@${e.offset}`);
  }
  for (const [k, v] of prevBlocks)
    if (!curKeys.has(k)) d.removed.push({ key: k, ...v, names: P.names.get(v.b.id) ?? [] });
  return d;
}

// Edge colours by what the kind does (names are per target, families shared).
const FAMILIES = [[/GOT|TLV|TLS/i, 'got'], [/Branch|Call|PLT|Jump|Stub/i, 'branch'],
                  [/Delta|PCRel|Page|Hi20|Lo12/i, 'pcrel'], [/Pointer|Abs|64|32/i, 'pointer']];
const family = kind => FAMILIES.find(([re]) => re.test(kind))?.[1] ?? 'other';

function elements(g, d, { hideExternals }) {
  const { keys, names } = keyBlocks(g);
  const els = [], symBlock = new Map();
  for (const s of g.symbols) if (s.kind === 'defined') symBlock.set(s.id, keys.get(s.block));
  for (const sec of g.sections) {
    if (!sec.blocks.length && !d.removed.some(r => r.sec === sec.name)) continue;
    els.push({ data: { id: `s:${sec.name}`, label: `${sec.name}  ${sec.prot}` }, classes: 'section' });
    for (const b of sec.blocks) {
      const k = keys.get(b.id), n = names.get(b.id) ?? [];
      const label = `${n.slice(0, 2).join(', ') || '(anonymous)'}${n.length > 2 ? ` +${n.length - 2}` : ''}\n` +
        `${b.address ? hex(b.address) + ' ' : ''}size ${hex(b.size)}`;
      const cls = ['block', d.added.has(k) && !d.first ? 'added' : '', d.moved.has(k) ? 'moved' : ''].join(' ');
      const search = `${sec.name} ${n.join(' ')}`.toLowerCase();
      els.push({ data: { id: `b:${k}`, parent: `s:${sec.name}`, label, search }, classes: cls });
    }
  }
  for (const r of d.removed) els.push({
    data: { id: `b:${r.key}`, parent: `s:${r.sec}`, label: `${r.names.slice(0, 2).join(', ') || '(anonymous)'}\npruned`,
            search: r.names.join(' ').toLowerCase() },
    classes: 'block removed',
  });
  const extern = new Set();
  for (const sec of g.sections) for (const b of sec.blocks) b.edges.forEach(e => {
    const k = keys.get(b.id);
    let target = symBlock.get(e.target);
    if (!target) {
      if (hideExternals) return;
      target = `x:${e.targetName || '#' + e.target}`;
      if (!extern.has(target)) {
        extern.add(target);
        const sym = g.symbols.find(s => s.id === e.target);
        const at = sym?.address ? ' ' + hex(sym.address) : '';
        const label = `${e.targetName || '(anonymous)'}\n${sym?.kind ?? 'external'}${at}`;
        els.push({ data: { id: target, label, search: (e.targetName || '').toLowerCase() }, classes: 'external' });
      }
    } else target = `b:${target}`;
    els.push({
      data: { id: `e:${k}@${e.offset}`, source: `b:${k}`, target, label: e.kind, kind: e.kind },
      classes: `${family(e.kind)} ${d.relaxed.has(`${k}@${e.offset}`) ? 'relaxed' : ''}`,
    });
  });
  return els;
}

// Node size from its label (cytoscape's width: 'label' is deprecated):
// 9px text is about 5.5px a character and 12px a line.
const lines = n => String(n.data('label')).split('\n');
const labelWidth = n => Math.max(...lines(n).map(l => l.length)) * 5.5 + 14;
const labelHeight = n => lines(n).length * 12 + 10;

const STYLE = [
  { selector: 'node', style: { label: 'data(label)', 'text-wrap': 'wrap', 'font-size': 9, 'text-valign': 'center',
                               'text-halign': 'center', color: '#1d2433' } },
  { selector: '.section', style: { 'background-color': '#eef2f8', 'border-color': '#9aa8bf', 'border-width': 1,
                                   'text-valign': 'top', 'font-weight': 'bold', shape: 'round-rectangle',
                                   padding: 8 } },
  { selector: '.block', style: { shape: 'round-rectangle', 'background-color': '#ffffff', 'border-color': '#5b6b86',
                                 'border-width': 1, width: labelWidth, height: labelHeight } },
  { selector: '.external', style: { shape: 'ellipse', 'background-color': '#f6eedd', 'border-color': '#b08a3e',
                                    'border-width': 1, width: labelWidth, height: labelHeight } },
  { selector: '.added', style: { 'background-color': '#d8f5dc', 'border-color': '#1e8c3a', 'border-width': 3 } },
  { selector: '.moved', style: { 'border-color': '#2a62d4', 'border-width': 3 } },
  { selector: '.removed', style: { 'background-color': '#fde2e1', 'border-color': '#c62828', 'border-style': 'dashed',
                                   'border-width': 2, opacity: 0.8 } },
  { selector: 'edge', style: { 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', width: 1.5,
                               label: 'data(label)', 'font-size': 7, 'text-rotation': 'autorotate',
                               'line-color': '#8a94a6', 'target-arrow-color': '#8a94a6', color: '#39414f' } },
  { selector: 'edge.got', style: { 'line-color': '#8e44ad', 'target-arrow-color': '#8e44ad' } },
  { selector: 'edge.branch', style: { 'line-color': '#d35400', 'target-arrow-color': '#d35400' } },
  { selector: 'edge.pcrel', style: { 'line-color': '#2471a3', 'target-arrow-color': '#2471a3' } },
  { selector: 'edge.relaxed', style: { 'line-style': 'dashed', width: 3, 'line-color': '#e91e63',
                                       'target-arrow-color': '#e91e63' } },
  { selector: '.faded', style: { opacity: 0.15 } },
  { selector: '.match', style: { 'border-color': '#ff9800', 'border-width': 4 } },
];

export class GraphView {
  constructor(container) {
    this.cy = cytoscape({ container, style: STYLE, minZoom: 0.05 });
  }
  show(graph, prev, opts = {}) {
    const d = diffGraphs(prev, graph);
    this.cy.elements().remove();
    this.cy.add(elements(graph, d, opts));
    this.cy.layout({ name: 'dagre', rankDir: 'LR', nodeSep: 12, rankSep: 60, animate: false }).run();
    this.filter(opts);
    return d;
  }
  // Search fades what does not match; a kind filter keeps only those edges.
  filter({ search = '', kind = '' } = {}) {
    const cy = this.cy;
    cy.elements().removeClass('faded match');
    cy.edges().style('display', 'element');
    if (kind) cy.edges().filter(e => e.data('kind') !== kind).style('display', 'none');
    const q = search.trim().toLowerCase();
    if (!q) return 0;
    const hits = cy.nodes().filter(n => (n.data('search') ?? '').includes(q));
    cy.elements().not(hits).not(hits.ancestors()).not(hits.connectedEdges()).addClass('faded');
    hits.addClass('match');
    return hits.length;
  }
  counts() {
    const c = cls => this.cy.$(cls).length;
    return { blocks: c('.block'), edges: this.cy.edges().length, added: c('.added'), removed: c('.removed'),
             moved: c('.moved'), relaxed: c('edge.relaxed') };
  }
}
