// The Examples list: the gallery the server built (gallery/index.json), one
// button per example and architecture. A click loads its objects and fields,
// then links and runs it.
import { $, esc, fetchBytes } from '../ui.mjs';
import { writeFields } from '../fields.mjs';

// Quotes arguments with spaces, as the run panel's field reads them back.
const argsText = args => (args ?? []).map(a => (/\s/.test(a) ? `"${a}"` : a)).join(' ');

export function mount(app) {
  const { store } = app;
  function render({ gallery: g }) {
    if (!g) {
      $('gallery').innerHTML = '<p class="hint">No gallery: run scripts/run (it compiles the examples).</p>';
      return;
    }
    $('gallery').innerHTML = g.examples.map(ex => `<div class="example"><strong>${esc(ex.title)}</strong>
      ${Object.keys(ex.build).map(a => `<button data-example="${ex.id}" data-arch="${a}">${a}</button>`).join('')}
      <div class="hint">${esc(ex.about)}</div></div>`).join('');
  }
  store.on('gallery', render);

  // An example's object files, fetched once each; before the C runtime's
  // megabytes, which would take the browser's connections first.
  const fetches = new Map();
  function fetchObjects(id, arch) {
    const ex = store.state.gallery.examples.find(e => e.id === id);
    return ex.build[arch].map(o => {
      if (!fetches.has(o.url)) fetches.set(o.url, fetchBytes(o.url).catch(e => { fetches.delete(o.url); throw e; }));
      return fetches.get(o.url);
    });
  }
  // Hovering an example starts its downloads: its objects, then the C runtime's.
  function prefetch(id, arch) {
    for (const p of fetchObjects(id, arch)) p.catch(() => {}); // load() reports a failure
    app.prefetchRuntime(arch, id).catch(() => {}); // the link awaits it
  }

  // Mounted before the core loads: a click's downloads start at once, the
  // rest waits for the core and the other panels.
  async function load(id, arch) {
    performance.mark('example-click');
    app.startExecutor();
    const ex = store.state.gallery.examples.find(e => e.id === id);
    const fetched = fetchObjects(id, arch);
    app.prefetchRuntime(arch, id).catch(() => {}); // the link awaits it
    await app.mounted;
    const objs = await Promise.all(ex.build[arch].map(async (o, i) =>
      app.objects.describe(o.name, await fetched[i], o.harness)));
    app.objects.replace(objs);
    performance.mark('example-loaded');
    writeFields('run', { args: argsText(ex.args) });
    const cc = ex.callconv;
    if (cc) writeFields('callconv', { spec: cc.spec[arch] ?? '', signature: cc.signature, function: cc.function,
                                      arguments: cc.arguments.join(', ') });
    await app.run.linkAndRun();
    app.selectTab('graph');
  }
  $('gallery').onpointerover = e =>
    e.target.dataset.example && prefetch(e.target.dataset.example, e.target.dataset.arch);
  $('gallery').onclick = e => e.target.dataset.example &&
    load(e.target.dataset.example, e.target.dataset.arch).catch(e => app.link.failed(e));
  render(store.state);
}
