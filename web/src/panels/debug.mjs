// The Debug panel: links the objects as Link & run does, then runs the
// program under the executor's debugger (the package's Debugger, over the
// executor protocol's debug-stop / debug-resume messages through the
// bridge). Breakpoints on symbols (`add@plt`: the stub that leads to add)
// or addresses; Continue, Step instruction, Step over, Run to fault, Kill;
// at each stop the registers, a symbolized backtrace, memory at an address,
// and the instruction at pc highlighted in the Disassembly view with its
// fixup, block and section (store key `debugStop`).
import { $, esc, hex, message, setStatus, bump } from '../ui.mjs';
import { readFields } from '../fields.mjs';
import * as flow from '../link-flow.mjs';

const BUTTONS = ['dbg-continue', 'dbg-stepi', 'dbg-next', 'dbg-fault', 'dbg-kill', 'dbg-read'];
const MEMORY_BYTES = 128;
const bytesText = b => Array.from(b, x => x.toString(16).padStart(2, '0')).join(' ');
const regText = v => '0x' + v.toString(16).padStart(16, '0');

// One line per 16 bytes: address, hex, ASCII.
function dump(address, bytes) {
  let out = '';
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.subarray(off, off + 16);
    const ascii = Array.from(row, c => (c >= 32 && c < 127 ? String.fromCharCode(c) : '.')).join('');
    out += `${hex(address + off).padStart(12)}  ${bytesText(row).padEnd(48)}  ${ascii}\n`;
  }
  return out;
}

export function fixupText(f) {
  const addend = f.addend ? ` ${f.addend < 0 ? '-' : '+'} ${hex(Math.abs(f.addend))}` : '';
  return `${f.kind} → ${f.target}${addend}${f.value !== undefined ? ` = ${hex(f.value)}` : ''}`;
}

export function mount(app) {
  const { store } = app;
  let dbg = null;
  const enable = on => { for (const b of BUTTONS) $(b).disabled = !on; };

  function show(stop) {
    const where = stop.location.table ? ` [${stop.location.table}]` : '';
    const why = stop.reason === 'fault' ? `fault: ${stop.fault.kind} at address ${hex(stop.fault.address)}`
      : stop.reason === 'breakpoint' ? `breakpoint ${stop.breakpoint?.spec ?? ''}` : stop.reason;
    setStatus(`stopped (${why}) at ${hex(stop.pc)} ${stop.symbol}${where}`, stop.reason === 'fault' ? 'bad' : 'ok');
    const b = stop.location.block;
    $('dbg-where').innerHTML =
      `<div><strong>pc</strong> ${hex(stop.pc)} · ${esc(stop.symbol || 'outside the linked objects')}` +
      `${esc(where)}</div>` +
      `<div><strong>section</strong> ${esc(stop.location.section ?? '?')} of ${esc(stop.location.object ?? '?')}` +
      (b ? ` · <strong>block</strong> ${hex(b.address)} (${b.size} bytes)` : '') + '</div>' +
      `<div id="dbg-fixups"><strong>fixup</strong> ${stop.fixups.length
        ? stop.fixups.map(f => esc(fixupText(f))).join('<br>')
        : '<span class="hint">none at this instruction</span>'}</div>`;
    $('dbg-regs').innerHTML = '<tr><th>register</th><th>value</th></tr>' + Object.entries(stop.registers)
      .map(([n, v]) => `<tr><td>${esc(n)}</td><td>${regText(v)}</td></tr>`).join('');
    $('dbg-bt').innerHTML = stop.backtrace.map((f, i) => `<li>#${i} ${hex(f.address)} ${esc(f.symbol)}</li>`).join('');
    $('dbg-mem-addr').value = hex(stop.stack.address);
    $('dbg-mem').textContent = dump(stop.stack.address, stop.stack.bytes.subarray(0, MEMORY_BYTES));
    store.set({ debugStop: stop });
    enable(true);
    bump('debugStops');
  }

  function ended(end) {
    dbg = null;
    enable(false);
    store.set({ debugStop: null, running: false });
    const r = end.result;
    setStatus(`program ended: ${r.description}${r.exitCode !== undefined ? ` · exit code ${r.exitCode}` : ''}`,
              r.exitCode !== undefined ? 'ok' : 'bad');
    bump('debugEnds');
  }

  function failed(e) {
    dbg = null;
    enable(false);
    store.set({ debugStop: null, running: false });
    setStatus(`debugging ended: ${message(e)}`, 'bad');
    bump('debugEnds');
  }

  // What the breakpoint field names, resolved against the link.
  function breakpoints() {
    const specs = $('dbg-breaks').value.split(/[\s,]+/).filter(Boolean);
    const set = dbg.setBreakpoints(specs);
    $('dbg-break-list').innerHTML =
      set.map(b => `<li>${esc(b.spec)} at ${hex(b.address)}: ${esc(b.where)}</li>`).join('');
  }

  async function start() {
    if (dbg) await command('kill'); // a new run replaces the one stopped
    if (store.state.running) return;
    let arch;
    try { arch = app.link.linkable(); } catch (e) { return app.link.failed(e); }
    store.set({ running: true, debugStop: null });
    $('console').textContent = '';
    setStatus('connecting to the executor…', 'busy');
    try {
      const runtime = app.link.options().runtime ? app.link.runtime(arch, store.state.objects) : null;
      const [live] = await Promise.all([app.run.connect(arch), runtime]);
      store.set({ live });
      const ctx = await app.link.makeSession(arch, live.executor, runtime);
      live.session = ctx.session;
      const { args, stdin } = readFields('run');
      setStatus('linking…', 'busy');
      dbg = ctx.session.debug({
        entry: ctx.entry, argv0: flow.programName(store.state.objects), args: flow.parseArgs(args), stdin,
        limits: app.run.limits(), graphs: () => ctx.snapshots.filter(s => s.phase === 'post-fixup'),
      });
      const first = await dbg.started;
      app.link.afterLink(ctx);
      breakpoints();
      show(first);
    } catch (e) {
      failed(e);
    }
  }

  // One command at a time; the buttons wait for its stop.
  async function command(what) {
    if (!dbg) return;
    enable(false);
    setStatus(`${what}…`, 'busy');
    try {
      if (what !== 'kill' && what !== 'runToFault') breakpoints();
      const next = await dbg[what]();
      next.reason === 'exited' ? ended(next) : show(next);
    } catch (e) {
      if (dbg?.stop && dbg.stop.reason !== 'exited') { // refused (a bad breakpoint): still stopped
        setStatus(message(e), 'bad');
        enable(true);
      } else failed(e);
    }
  }

  async function readMemory() {
    if (!dbg) return;
    const text = $('dbg-mem-addr').value.trim();
    try {
      if (!/^(0x[0-9a-f]+|\d+)$/i.test(text)) throw new Error(`memory: '${text}' is not an address`);
      const address = Number(BigInt(text));
      enable(false);
      $('dbg-mem').textContent = dump(address, await dbg.readMemory(address, MEMORY_BYTES));
    } catch (e) {
      $('dbg-mem').textContent = message(e);
    } finally {
      if (dbg) enable(true);
    }
  }

  $('dbg-start').onclick = start;
  $('dbg-continue').onclick = () => command('continue');
  $('dbg-stepi').onclick = () => command('stepInstruction');
  $('dbg-next').onclick = () => command('stepOver');
  $('dbg-fault').onclick = () => command('runToFault');
  $('dbg-kill').onclick = () => command('kill');
  $('dbg-read').onclick = readMemory;
  enable(false);
  return { start };
}
