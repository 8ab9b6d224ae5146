// The Memory panel: the last link's segments and sections, and the relocated
// contents of one section in hex with each fixup site marked.
import { $, esc, hex } from '../ui.mjs';

const protClass = p => `prot-${p.replace(/-/g, '')}`;

const HEX_LIMIT = 4096;

export function mount(app) {
  const { store } = app;
  let hexSections = [];

  // Fixup sites: every edge of the object's post-fixup graph, by address,
  // with the bytes its fixup writes (core's edge-kind table; a kind that
  // writes none still marks its first byte).
  function fixupSites(object) {
    const sites = new Map();
    const g = app.graph.snapshotsOf(object).find(s => s.phase === 'post-fixup')?.graph;
    for (const sec of g?.sections ?? []) for (const b of sec.blocks) for (const e of b.edges)
      sites.set(b.address + e.offset, { width: e.width, title: `${e.kind} → ${e.targetName || '#' + e.target}` +
                                                           ` (${e.width} bytes)` });
    return sites;
  }

  function renderHex() {
    const s = hexSections[Number($('hex-section').value)];
    if (!s) { $('hex').textContent = ''; return; }
    const marked = new Map(); // byte address → title, for the bytes each fixup writes
    for (const [a, site] of fixupSites(s.object))
      for (let k = 0; k < Math.max(site.width, 1); k++) if (!marked.has(a + k)) marked.set(a + k, site.title);
    const bytes = s.content ?? new Uint8Array();
    let out = '';
    for (let off = 0; off < Math.min(bytes.length, HEX_LIMIT); off += 16) {
      out += `<span class="addr">${(s.address + off).toString(16).padStart(12, '0')}</span>  `;
      for (let k = 0; k < 16 && off + k < bytes.length; k++) {
        const a = s.address + off + k, h = bytes[off + k].toString(16).padStart(2, '0');
        out += marked.has(a) ? `<span class="fixup" title="${esc(marked.get(a))}">${h}</span> ` : `${h} `;
      }
      out += '\n';
    }
    if (bytes.length > HEX_LIMIT) out += `… ${bytes.length - HEX_LIMIT} more bytes\n`;
    if (!bytes.length) out = s.name.includes('bss') ? '(zero-fill)' : '(no content recorded)';
    $('hex').innerHTML = out;
  }

  // Drawn when the tab is shown (a glibc program is ~1000 segments and
  // sections: not worth building while another tab is up).
  let drawn = null;
  function render({ link, tab }) {
    if (tab !== 'memory' || !link || drawn === link.id) return;
    drawn = link.id;
    const secs = [];
    for (const o of link.info) for (const s of o.sections) if (s.size) secs.push({ ...s, object: o.name });
    secs.sort((a, b) => a.address - b.address);
    const row = (cls, cells) => `<tr class="${cls}">${cells.map(c => `<td>${c}</td>`).join('')}</tr>`;
    const head = cols => `<tr>${cols.map(c => `<th>${c}</th>`).join('')}</tr>`;
    // Segments as core's memory manager laid them out: one per protection and object.
    const segs = link.info.flatMap(o => o.segments.map(g => ({ ...g, object: o.name })))
      .sort((a, b) => a.address - b.address);
    const secsOf = Map.groupBy(secs, s => s.object);
    const inside = g => (secsOf.get(g.object) ?? []).filter(s => s.address >= g.address &&
                                                              s.address < g.address + g.size).length;
    $('segments').innerHTML = head(['object', 'start', 'end', 'size', 'prot', 'sections']) +
      segs.map(g => row(protClass(g.prot), [esc(g.object), hex(g.address), hex(g.address + g.size), hex(g.size), g.prot,
                                            inside(g)])).join('');
    $('sections').innerHTML = head(['object', 'section', 'address', 'end', 'size', 'prot']) +
      secs.map(s => row(protClass(s.prot), [esc(s.object), esc(s.name), hex(s.address), hex(s.address + s.size),
                                            hex(s.size), s.prot])).join('');
    const mine = secs.filter(s => link.objects.includes(s.object));
    hexSections = mine.length ? mine : secs;
    $('hex-section').innerHTML = hexSections.map((s, i) =>
      `<option value="${i}">${esc(s.object)} ${esc(s.name)} @ ${hex(s.address)}</option>`).join('');
    // Start with a section that has fixups to show, when there is one.
    const first = hexSections.findIndex(s =>
      [...fixupSites(s.object).keys()].some(a => a >= s.address && a < s.address + s.size));
    $('hex-section').value = String(Math.max(0, first));
    renderHex();
  }
  store.on(['link', 'tab'], render);
  $('hex-section').onchange = renderHex;
}
