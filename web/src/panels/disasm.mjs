// The Disassembly panel: the linked code of each block of one of the user's
// objects, before fixups (the pre-fixup snapshot) and after (post-fixup),
// side by side. Each instruction a fixup wrote into is marked with its edge:
// kind, target, addend and the target address plus addend; GOT entries and
// stubs are labelled with the symbol they stand for. Under the debugger the
// instruction at pc is highlighted (the Debug panel's stop).
import { $, esc, hex, message } from '../ui.mjs';
import { disassembler } from '../disassembler.mjs';

const MAX_ROWS = 4000; // per render; a larger object is cut with a note
const bytesText = b => Array.from(b, x => x.toString(16).padStart(2, '0')).join(' ');

// name → address maps of the link's GOT entries and stubs, inverted: the
// label of the entry at an address ("GOT entry for x", "stub for f").
function tableLabels(info) {
  const labels = new Map();
  for (const o of info)
    for (const [table, what] of [[o.gotEntries, 'GOT entry'], [o.stubs, 'stub']])
      for (const [name, address] of Object.entries(table ?? {})) labels.set(address, `${what} for ${name}`);
  return labels;
}

// What a block is: its section, the symbols it defines, its table label.
function blockTitle(sec, b, names, labels) {
  const own = names.get(b.id) ?? [];
  const label = labels.get(b.address);
  return `${sec.name} @ ${hex(b.address)}${own.length ? ': ' + own.join(', ') : ''}${label ? ` [${label}]` : ''}`;
}

export function mount(app) {
  const { store } = app;
  let renderCount = 0;

  function render() {
    const link = store.state.link;
    if (store.state.tab !== 'disasm' || !link) return;
    const sel = $('disasm-object');
    const names = [...new Set(link.snapshots.filter(s => s.phase === 'post-fixup').map(s => s.object))];
    if (sel.dataset.link !== String(link.id)) {
      const keep = sel.value;
      sel.innerHTML = names.map(n => `<option>${esc(n)}</option>`).join('');
      if (names.includes(keep)) sel.value = keep;
      sel.dataset.link = String(link.id);
    }
    // Stopped under the debugger: the object whose code holds pc.
    const pc = store.state.debugStop?.pc;
    const within = b => pc >= b.address && pc < b.address + Math.max(b.size, 1);
    const holds = g => g.sections.some(sec => sec.blocks.some(within));
    const holder = pc === undefined ? null
      : names.find(n => link.snapshots.some(s => s.object === n && s.phase === 'post-fixup' && holds(s.graph)));
    if (holder) sel.value = holder;
    const object = sel.value;
    const snap = phase => link.snapshots.find(s => s.object === object && s.phase === phase)?.graph;
    const [before, after] = [snap('pre-fixup'), snap('post-fixup')];
    const body = $('disasm-body');
    if (!after) { body.innerHTML = '<p class="hint">Link first: the view shows the last link.</p>'; return; }
    const token = ++renderCount;
    $('disasm-status').textContent = 'loading the disassembler…';
    disassembler(link.arch).then(decode => {
      if (token !== renderCount) return; // a newer render started
      body.innerHTML = listing(decode, before, after, tableLabels(link.info), pc);
      body.querySelector('tr.current')?.scrollIntoView({ block: 'center' });
      $('disasm-status').textContent = '';
      $('disasm').dataset.rendered = `${object} ${link.id}${pc === undefined ? '' : ` ${hex(pc)}`}`;
    }, e => { $('disasm-status').textContent = message(e); });
  }

  function listing(decode, before, after, labels, pc) {
    const symbols = new Map(after.symbols.map(s => [s.id, s]));
    const names = new Map(), starts = new Map();
    for (const s of after.symbols) if (s.kind === 'defined' && s.name) {
      names.set(s.block, [...(names.get(s.block) ?? []), s.name]);
      if (!s.name.startsWith('.L')) starts.set(s.address, [...(starts.get(s.address) ?? []), s.name]);
    }
    // Pre-fixup blocks by address: both snapshots are after allocation.
    const old = new Map();
    for (const sec of before?.sections ?? []) for (const b of sec.blocks) old.set(b.address, b);
    let rows = 0, html = '';
    for (const sec of after.sections) for (const b of sec.blocks) {
      const label = labels.get(b.address);
      // GOT entries are data wherever their section sits (AArch64's is executable).
      const got = label?.startsWith('GOT'), code = sec.prot.includes('X') && !got;
      if ((!code && !got) || b.zeroFill || !b.content) continue;
      if (rows > MAX_ROWS) { html += `<p class="hint">… cut at ${MAX_ROWS} instructions</p>`; return html; }
      const title = esc(blockTitle(sec, b, names, labels));
      html += `<h3 class="disasm-block" data-label="${esc(label ?? '')}">${title}</h3>`;
      html += blockRows(b, old.get(b.address), code, decode, symbols, labels, starts, pc);
      rows += b.size / 2;
    }
    return html || '<p class="hint">This object has no code.</p>';
  }

  // The edge's target: a GOT entry or stub by what it stands for, else its name.
  const targetText = (e, symbols, labels) => {
    const t = symbols.get(e.target);
    return labels.get(t?.address) ?? (e.targetName || `symbol #${e.target}`);
  };
  function fixupText(e, symbols, labels) {
    const t = symbols.get(e.target);
    const sum = t ? ` = ${hex(BigInt(t.address) + BigInt(e.addend))}` : '';
    const addend = e.addend ? ` ${e.addend < 0 ? '-' : '+'} ${hex(Math.abs(e.addend))}` : '';
    return `${e.kind} → ${targetText(e, symbols, labels)}${addend}${sum} (${e.width} bytes at +${hex(e.offset)})`;
  }

  // pc: the instruction the debugger stopped at (class current).
  function blockRows(b, prev, code, decode, symbols, labels, starts, pc) {
    const after = code ? decode(b.content, b.address) : dataWords(b);
    const before = new Map((prev?.content ? (code ? decode(prev.content, b.address) : dataWords(prev)) : [])
      .map(i => [i.address, i]));
    let html = '<table class="disasm"><tr><th>address</th><th>before fixup</th><th></th><th>after fixup</th><th></th>' +
      '<th>fixup</th></tr>';
    for (const i of after) {
      const start = i.address - b.address, end = start + i.size;
      const edges = b.edges.filter(e => e.offset < end && e.offset + Math.max(e.width, 1) > start);
      const was = before.get(i.address);
      for (const n of starts.get(i.address) ?? []) html += `<tr class="label"><td colspan="6">${esc(n)}:</td></tr>`;
      const kinds = edges.map(e => e.kind).join(' ');
      const targets = edges.map(e => targetText(e, symbols, labels)).join('\n');
      html += `<tr class="${edges.length ? 'fixup' : ''}${was && was.text !== i.text ? ' changed' : ''}` +
        `${i.address === pc ? ' current' : ''}" data-address="${hex(i.address)}"` +
        ` data-kinds="${esc(kinds)}" data-targets="${esc(targets)}">` +
        `<td>${hex(i.address)}</td><td class="bytes">${was ? bytesText(was.bytes) : ''}</td>` +
        `<td>${esc(was?.text ?? '')}</td><td class="bytes">${bytesText(i.bytes)}</td><td>${esc(i.text)}</td>` +
        `<td>${edges.map(e => esc(fixupText(e, symbols, labels))).join('<br>')}</td></tr>`;
    }
    return html + '</table>';
  }

  // A GOT entry (data): its pointer-sized words.
  function dataWords(b) {
    const out = [];
    for (let off = 0; off < b.content.length; off += 8) {
      const w = b.content.subarray(off, off + 8);
      let v = 0n;
      for (let k = w.length - 1; k >= 0; k--) v = (v << 8n) | BigInt(w[k]);
      out.push({ address: b.address + off, size: w.length, bytes: w, text: `.quad ${hex(v)}` });
    }
    return out;
  }

  store.on(['link', 'tab', 'debugStop'], render);
  $('disasm-object').onchange = render;
  return { render };
}
