// The Calling conventions panel: plan a convention (spec + signature) with
// the package's planner, show where each value goes, and call a linked
// function through the plan in the executor.
import { $, hex, message, showError, table } from '../ui.mjs';
import { ARCHES } from '../../runtimes.mjs';

// A call's result: an integer (signed and hex) or the bytes of an aggregate.
function resultText(v) {
  if (v === undefined) return '';
  if (typeof v === 'bigint') return ` · result ${BigInt.asIntN(64, v)} (${hex(v)})`;
  return ` · result ${Array.from(v, b => b.toString(16).padStart(2, '0')).join(' ')}`;
}

export function mount(app) {
  const { store } = app;

  function plan() {
    showError('cc-error', '');
    try {
      const arch = store.state.arch ?? 'x86_64';
      const spec = $('cc-spec').value.trim(), signature = $('cc-sig').value.trim();
      const p = app.L.plan({ spec, signature, triple: ARCHES[arch].triple });
      const row = (what, l) => [what, l.value === 0 && what === 'return' ? 'result' : `arg ${l.value}`, `+${l.offset}`,
        l.inRegister ? l.registerName : `stack +${l.stackOffset}`, l.size];
      $('cc-table').innerHTML = table(['', 'value', 'part', 'register / stack slot', 'size'],
        [...p.arguments.map(l => row('argument', l)), ...p.returns.map(l => row('return', l))])
        .replace(/^<table>|<\/table>$/g, '');
      const warnings = p.warnings.length ? '\n\nwarnings:\n' + p.warnings.join('\n') : '';
      $('cc-text').textContent = `${p.describe}\n\n${p.text}${warnings}`;
      if (p.warnings.length) showError('cc-error', p.warnings.join('\n'));
      return p;
    } catch (e) {
      showError('cc-error', message(e));
      $('cc-table').innerHTML = '';
      $('cc-text').textContent = '';
      return null;
    }
  }

  async function call() {
    const p = plan();
    if (!p) return;
    const result = $('cc-result');
    result.textContent = '';
    try {
      const args = $('cc-args').value; // core parses it, as -call does
      const fn = $('cc-fn').value.trim();
      if (!fn) throw new Error('name the function to call');
      const arch = app.link.linkable();
      // Reuse the last run's executor when it is for this arch; else link anew.
      if (!store.state.live?.session || store.state.live.arch !== arch) {
        const live = await app.run.connect(arch);
        const ctx = await app.link.makeSession(arch, live.executor);
        await ctx.session.lookup([fn]);
        app.link.afterLink(ctx);
        store.set({ live: { ...live, session: ctx.session } });
      }
      const { session, executor } = store.state.live;
      const [address] = await session.lookup([fn]);
      const r = await executor.callWithPlan(address, p, args, app.run.limits());
      result.className = `status ${r.status === 'returned' ? 'ok' : 'bad'}`;
      result.textContent = `${fn} at ${hex(address)}: ${r.description}${resultText(r.returnValue)}` +
        (r.fault ? ` · fault at pc ${hex(r.pc)} [${app.run.symbolize(r.pc)}]` : '');
    } catch (e) {
      result.className = 'status bad';
      result.textContent = message(e);
    }
  }

  $('cc-plan').onclick = plan;
  $('cc-call').onclick = call;
}
