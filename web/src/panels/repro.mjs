// Reproducers: the last Link or Link & run exported as an LLVM-style test
// (a zip that tests/lit/run-lit.py runs once unzipped), or reduced while it
// fails the same way (the package's exportTest and reduce, core's exporter
// and reducer; candidates link in a slab or run in a fresh executor each).
import { $, esc, message, plural, showError, bump } from '../ui.mjs';
import { readFields } from '../fields.mjs';
import * as repro from 'linklab/repro';
import { runSession } from 'linklab/bundle';
import * as codec from '../session-codec.mjs';
import { ARCHES } from '../../runtimes.mjs';

const TEST_NAME = 'repro';

function download(id, name, bytes, type, text) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  return `<a id="${id}" download="${esc(name)}" href="${url}">${esc(text)}</a>`;
}

export function mount(app) {
  const { store } = app;

  // What the last Link (noExec) or Link & run did, with the case it did it
  // on, captured then: later edits to the fields do not change it.
  function record(noExec, outcome) {
    const { objects, arch } = store.state;
    try {
      const { args, stdin } = readFields('run');
      const c = repro.sessionCase(app.L, { objects, options: app.link.options(), args, stdin, noExec });
      store.set({ last: { case: c, arch, outcome } });
    } catch { store.set({ last: null }); } // the fields did not parse: the link said so already
  }

  // The failure field, filled from the last outcome (its error, else its exit status).
  function suggest({ last }) {
    const f = last && repro.failureOf(last.outcome);
    $('reduce-kind').value = f?.error !== undefined ? 'error' : f ? 'exitCode' : 'output';
    $('reduce-value').value = f?.error ?? (f ? String(f.exitCode) : last?.outcome.output ?? '');
    const names = last?.case.objects.map(o => o.name).join(', ');
    $('repro-what').textContent = !last ? 'Link or Link & run first: the reproducer is what that did.'
      : `the last ${last.case.noExec ? 'link (not run)' : 'run'} of ${names}: ` +
        (last.outcome.error !== undefined ? `error: ${last.outcome.error}` : `exit code ${last.outcome.exitCode}`);
  }

  function failure() {
    const kind = $('reduce-kind').value, value = $('reduce-value').value;
    if (kind === 'error') {
      if (!value.trim()) throw new Error('Say which error to keep: a part of its message.');
      return { error: value.trim() };
    }
    if (kind === 'exitCode') {
      if (!/^\d+$/.test(value.trim())) throw new Error(`exit status: '${value}' is not a number`);
      return { exitCode: Number(value.trim()) };
    }
    return { output: value };
  }

  function lastOrThrow() {
    if (!store.state.last) throw new Error('Link or Link & run first: the reproducer is what that did.');
    return store.state.last;
  }

  // The test as a zip download, with what the exporter could not express.
  function exportFiles(c, outcome, id, compareOutput = true) {
    const t = app.L.exportTest(c, outcome, { name: TEST_NAME, compareOutput });
    const zip = repro.zipFiles(t.files, TEST_NAME);
    return `${download(id, `${TEST_NAME}.zip`, zip, 'application/zip', `Download ${TEST_NAME}.zip`)}
      <span class="hint">(${t.files.map(f => esc(`${TEST_NAME}/${f.path}`)).join(', ')};
      ${plural(t.checks, 'jitlink-check rule')}; run it with
      <code>tests/lit/run-lit.py --linklab build/core/linklab --out /tmp/o
      ${esc(`${TEST_NAME}/${t.testFile}`)}</code>)</span>
      ${t.notes.length ? `<ul class="hint">${t.notes.map(n => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}`;
  }

  function exportTest() {
    showError('repro-error', '');
    try {
      const last = lastOrThrow();
      // Output the server cut is not the program's: the test then checks the exit status only.
      $('export-files').innerHTML = exportFiles(last.case, last.outcome, 'export-download',
                                                !last.outcome.outputTruncated);
    } catch (e) { showError('repro-error', message(e)); }
    bump('exports');
  }

  // A candidate's outcome: linked in a slab, or run in an executor of its own.
  async function outcomeOf(c, arch, runtime, limits) {
    const triple = ARCHES[arch].triple;
    if (c.noExec) return repro.caseOutcome(app.L, c, { triple, runtime });
    const { executor, transport } = await app.run.openExecutor(arch);
    try {
      return await repro.caseOutcome(app.L, c, { triple, executor, runtime, limits });
    } finally { transport.close(); }
  }

  // As linklab -reduce (repro.reduceCase): the session run first and timed,
  // the failure kept whole, each candidate bounded by the session's time,
  // the reduced case run once more; every line in the log.
  let reducing = false;
  async function reduce() {
    if (reducing) return;
    showError('repro-error', '');
    $('reduce-result').innerHTML = '';
    const log = $('reduce-log');
    log.textContent = '';
    reducing = true;
    $('reduce').disabled = true;
    try {
      const last = lastOrThrow();
      const want = failure();
      const seconds = Number($('reduce-time').value) || 60;
      const runtime = last.case.runtime === 'default' ? await app.link.runtimeFiles(last.arch, last.case.objects)
                                                      : null;
      let tests = 0;
      const r = await repro.reduceCase(app.L, last.case, want, {
        outcomeOf: async (cand, limits) => {
          const o = await outcomeOf(cand, last.arch, runtime, limits);
          $('reduce-status').textContent = `reducing… ${plural(++tests, 'test')}`;
          return o;
        },
        limits: app.run.limits(), seconds, onProgress: line => { log.textContent += `${line}\n`; },
      });
      $('reduce-status').textContent = `${plural(r.removed.length, 'removal')} in ${plural(r.tests, 'test')}` +
        (r.timedOut ? ' (time limit reached)' : '');
      await showReduced(last, r);
    } catch (e) {
      showError('repro-error', message(e));
      $('reduce-status').textContent = '';
    } finally {
      reducing = false;
      $('reduce').disabled = false;
      bump('reductions');
    }
  }

  // What went, what is left, and the reduced session three ways: loaded into
  // the page, as a bundle file, as an exported test. The bundle records the
  // reduced case's own outcome, run as a replay runs it, so it replays.
  async function showReduced(last, r) {
    const c = { ...last.case, objects: r.objects };
    const objects = r.objects.map(o => ({ name: o.name, harness: o.harness, data: codec.toBase64(o.bytes) }));
    const session = { ...app.share.collect(), objects };
    delete session.outcome; // the unreduced run's
    if (!c.noExec) {
      const runtime = c.runtime === 'default' ? await app.link.runtimeFiles(last.arch, r.objects) : null;
      const { executor, transport } = await app.run.openExecutor(last.arch);
      try {
        session.outcome = await runSession(app.L, session, { executor, runtime, triple: ARCHES[last.arch].triple });
      } finally { transport.close(); }
    }
    const bundle = codec.encodeBundle(session);
    $('reduce-result').innerHTML = `
      <h3>Removed</h3><ul id="reduce-removed">${r.removed.map(w => `<li>${esc(w)}</li>`).join('')}</ul>
      <h3>Kept</h3><p id="reduce-kept">${r.objects.map(o => `${esc(o.name)} (${o.bytes.length} bytes)`).join(', ')}</p>
      <div class="row"><button id="reduce-load">Load into the page</button>
        ${download('reduce-bundle', 'reduced.linklab.json', bundle, 'application/json', 'Download as a bundle')}</div>
      <div class="row">Reduced test:
        ${exportFiles(c, r.outcome, 'reduce-test', r.failure.exitCode === undefined)}</div>`;
    $('reduce-load').onclick = () =>
      app.objects.replace(r.objects.map(o => app.objects.describe(o.name, o.bytes, o.harness)));
  }

  store.on('last', suggest);
  suggest(store.state);
  $('export-test').onclick = exportTest;
  $('reduce').onclick = reduce;
  return { record };
}
