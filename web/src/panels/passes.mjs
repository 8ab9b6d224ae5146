// The JS passes panel: a function of the graph (the package's Graph) that
// runs at a chosen phase for every object linked, with its log and errors.
import { $, message, showError } from '../ui.mjs';

const EXAMPLE_PASS = `// Runs once per linked object. Example: add an edge-free marker block and
// list what the graph holds at this phase.
(graph) => {
  const d = graph.data();
  log(\`\${graph.object} at \${graph.phase}: \${d.sections.length} sections, \${d.symbols.length} symbols\`);
  if (graph.phase === 'pre-prune' && !d.sections.some(s => s.name === '.note.playground')) {
    graph.createSection('.note.playground', 'R--');
    const b = graph.addContentBlock('.note.playground', new TextEncoder().encode('linked in the browser'));
    graph.addDefinedSymbol({ block: b, name: 'playground_note', size: 21, live: true });
  }
}`;

export function mount(app) {
  // The enabled pass as {phase, fn}, or null; code that does not compile is
  // reported here and fails the link.
  function userPass() {
    showError('pass-error', '');
    if (!$('pass-on').checked) return null;
    $('pass-log').textContent = '';
    const log = (...a) => { $('pass-log').textContent += a.join(' ') + '\n'; };
    let fn;
    try {
      fn = new Function('log', `"use strict"; return (${$('pass-code').value});`)(log);
    } catch (e) {
      showError('pass-error', `pass does not compile: ${message(e)}`);
      throw new Error(`JS pass: ${message(e)}`, { cause: e });
    }
    if (typeof fn !== 'function') throw new Error('JS pass: the code must be a function expression, (graph) => { … }');
    return { phase: $('pass-phase').value, fn };
  }

  $('pass-phase').innerHTML = app.L.PHASES.map(p => `<option>${p}</option>`).join('');
  $('pass-code').value = EXAMPLE_PASS;
  $('pass-link').onclick = async () => {
    $('pass-on').checked = true;
    try { await app.link.linkOnly(); } catch (e) { showError('pass-error', message(e)); }
    if (!$('link-error').hidden) showError('pass-error', $('link-error').textContent);
  };
  return { userPass };
}
