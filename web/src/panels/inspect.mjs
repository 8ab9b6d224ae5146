// The Inspect panel: an object's sections, symbols and relocations; for an
// archive, its members and symbol index, and one member in full.
import { $, esc, hex, plural, table } from '../ui.mjs';

const MEMBER_COLUMNS = ['#', 'member', 'offset', 'size', 'arch', 'sections', 'symbols', 'relocations', 'index entries'];

// The format as inspect() reports it, in its own spelling.
export const FORMAT_NAMES = { elf: 'ELF', macho: 'MachO', coff: 'COFF', 'macho-universal': 'universal MachO' };

function elfTables(i) {
  return `<h3>Sections</h3>${table(['#', 'name', 'type', 'flags', 'size', 'align'],
      i.sections.map(s => [s.index, s.name, s.typeName || s.type, hex(s.flags), hex(s.size), s.addralign]))}
    <h3>Symbols</h3>${table(['#', 'name', 'bind', 'type', 'section', 'value', 'size'],
      i.symbols.map(s => [s.index, s.name, s.bindName || s.bind, s.typeName || s.type, s.section || s.shndx,
                          hex(s.value), s.size]))}
    <h3>Relocations</h3>${table(['section', 'offset', 'type', 'symbol', 'addend'],
      i.relocations.map(r => [r.section, hex(r.offset), r.typeName ?? r.type, r.symbolName ?? r.symbol, r.addend]))}`;
}

// MachO and COFF: the sections and symbols of the graph the format's reader
// builds, and the relocation entries of the object's own tables (MachO's
// with their pc-relative bit and width; a section-relative MachO entry
// names its section's number, not a symbol).
function graphTables(i) {
  const macho = i.format === 'macho';
  const relocColumns = ['section', 'offset', 'type', 'symbol', ...(macho ? ['pcrel', 'length'] : [])];
  return `<h3>Sections</h3>${table(['#', 'name', 'flags', 'prot', 'size', 'address', 'blocks'],
      i.sections.map(s => [s.index, s.name, s.flags === undefined ? '' : hex(s.flags), s.prot, hex(s.size),
                           hex(s.address), s.blocks]))}
    <h3>Symbols</h3>${table(['name', 'kind', 'section', 'value', 'size', 'linkage', 'scope'],
      i.symbols.map(s => [s.name, s.kind, s.section, hex(s.value), s.size, s.linkage, s.scope]))}
    <h3>Relocations</h3>${table(relocColumns,
      i.relocations.map(r => [r.section, hex(r.offset), r.typeName || r.type, r.symbolName || r.symbol,
                              ...(macho ? [r.pcrel ? 'yes' : 'no', r.length] : [])]))}`;
}

function objectDetail(i) {
  // A universal MachO file: each slice as an object of its own.
  if (i.format === 'macho-universal')
    return `<p>${esc(i.name)}: universal MachO, ${plural(i.slices.length, 'slice')}</p>` +
      i.slices.map(s => `<h3>Slice ${esc(s.name)}</h3>${objectDetail(s)}`).join('');
  // Names as core gives them (llvm-readelf's): a number only where the format has no name for it.
  const about = `${esc(i.name)}: ${FORMAT_NAMES[i.format] ?? esc(i.format)} ${esc(i.machineName)} ` +
    `(machine ${i.machine}), ${esc(i.triple || 'no linklab target')}`;
  return i.format === 'elf' ? `<p>${about}, flags ${hex(i.flags)}</p>${elfTables(i)}`
    : `<p>${about}</p>${graphTables(i)}`;
}

// An archive: its members (one picked in the select is shown in full, as an
// object) and the symbol index, which decides which members a link pulls in.
function archiveDetail(o) {
  const a = o.info, indexed = new Map();
  for (const e of a.symbolIndex) indexed.set(e.member, [...(indexed.get(e.member) ?? []), e.symbol]);
  const m = a.members[o.shownMember ?? -1];
  const options = a.members.map((x, k) =>
    `<option value="${k}" ${x === m ? 'selected' : ''}>${esc(x.member)}</option>`);
  const what = `static archive${o.arch ? ` for ${o.arch}` : ''}`;
  const about = `${esc(o.name)}: ${what}, ${plural(a.members.length, 'member')}, ` +
    `${plural(a.symbolIndex.length, 'symbol')} in its index; members are linked when a symbol needs them.`;
  return `<p>${about}</p>
    <div class="row"><label>member <select id="inspect-member"><option value="-1">(all members)</option>
      ${options.join('')}</select></label></div>
    ${!m ? '' : `${m.error ? `<div class="error">${esc(m.error)}</div>` : objectDetail(m)}
      <h3>In the symbol index</h3><p>${esc((indexed.get(o.shownMember) ?? ['(none)']).join(', '))}</p>`}
    <h3>Members</h3>${table(MEMBER_COLUMNS,
      a.members.map((x, k) => [k, x.member, hex(x.offset), x.size, x.error ? `not an object: ${x.error}` : x.arch,
        x.sections?.length ?? '', x.symbols?.length ?? '', x.relocations?.length ?? '',
        indexed.get(k)?.length ?? 0]))}`;
}

export function mount(app) {
  const { store } = app;
  const shown = () => store.state.objects[Number($('inspect-object').value)];
  function renderBody() {
    const o = shown();
    const body = $('inspect-body');
    if (!o) body.innerHTML = '<p class="hint">Add an object or click an example.</p>';
    else if (o.error && !o.info?.members) body.innerHTML = `<div class="error">${esc(o.error)}</div>`;
    // A bad archive still lists its members: they show what is wrong with it.
    else body.innerHTML = (o.error ? `<div class="error">${esc(o.error)}</div>` : '') +
      (o.archive ? archiveDetail(o) : objectDetail(o.info));
  }
  store.on('objects', ({ objects }) => {
    $('inspect-object').innerHTML = objects.map((o, i) => `<option value="${i}">${esc(o.name)}</option>`).join('');
    renderBody();
  });
  $('inspect-object').onchange = renderBody;
  $('inspect-body').onchange = e => {
    if (e.target.id !== 'inspect-member') return;
    shown().shownMember = Number(e.target.value);
    renderBody();
  };
  renderBody();
}
