// Share: the session as a URL fragment, or as a bundle file when it is too
// large for a link; and restoring either (session-codec.mjs has the format).
import { $, banner, message, setStatus } from '../ui.mjs';
import { FIELDS, readFields, writeFields } from '../fields.mjs';
import * as codec from '../session-codec.mjs';

export function mount(app) {
  const { store } = app;

  function collect() {
    return {
      format: codec.FORMAT, version: codec.VERSION, linklab: codec.LINKLAB_VERSION, arch: store.state.arch,
      objects: store.state.objects.map(o => ({ name: o.name, harness: o.harness, data: codec.toBase64(o.bytes) })),
      ...Object.fromEntries(Object.keys(FIELDS).map(section => [section, readFields(section)])),
      // The last run's, for replays to compare with (linklab/jest).
      ...(store.state.outcome ? { outcome: store.state.outcome } : {}),
    };
  }
  function apply(s) {
    app.objects.replace(s.objects.map(o => app.objects.describe(o.name, codec.fromBase64(o.data), !!o.harness)));
    for (const section of Object.keys(FIELDS)) writeFields(section, s[section]);
  }

  async function share() {
    const s = collect();
    const frag = await codec.encodeFragment(s);
    const box = $('share-box');
    box.hidden = false;
    if (frag.length > codec.MAX_FRAGMENT) {
      const url = URL.createObjectURL(new Blob([codec.encodeBundle(s)], { type: 'application/json' }));
      box.innerHTML = `This session is too large for a link (${(frag.length / 1024).toFixed(0)} KiB compressed; links
        hold up to ${codec.MAX_FRAGMENT / 1024} KiB).
        <a id="bundle-link" download="session.linklab.json" href="${url}">Download it as a bundle file</a>;
        “Load bundle” (or dropping the file here) restores it.`;
      return;
    }
    const url = `${location.origin}${location.pathname}${frag}`;
    history.replaceState(null, '', frag);
    box.innerHTML = `Share link (${frag.length} characters): <input id="share-url" readonly size="60">
      <button id="copy-share">Copy</button>`;
    $('share-url').value = url;
    $('copy-share').onclick = () => navigator.clipboard?.writeText(url);
  }

  async function loadBundleFile(f) {
    try {
      const { session, notes } = codec.decodeBundle(await f.text(), f.name);
      apply(session);
      setStatus(`session loaded from ${f.name}; Link & run to run it`, 'ok');
      if (notes.length) banner(notes.join('; '));
    } catch (e) { banner(message(e)); }
  }

  // A session in the page's URL (a share link) is restored on load.
  async function restoreFromUrl() {
    if (!codec.hasFragment(location.hash)) return;
    try {
      const { session, notes } = await codec.decodeFragment(location.hash);
      apply(session);
      setStatus('session restored from the link; press Link & run to run it', 'ok');
      if (notes.length) banner(notes.join('; '));
    } catch (e) { banner(message(e)); }
  }

  $('share').onclick = () => share().catch(e => banner(message(e)));
  $('bundle-input').onchange = e => e.target.files[0] && loadBundleFile(e.target.files[0]);
  return { collect, loadBundleFile, restoreFromUrl };
}
