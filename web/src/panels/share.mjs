// Share: the session as a URL fragment, as a short link the server stores
// (on request, and for a session too large for a fragment), or as a bundle
// file; and restoring each (session-codec.mjs has the format). config.json
// names the server's link endpoint (`links`); a static site, or a server
// started with --store none, has none.
import { $, banner, esc, message, setStatus } from '../ui.mjs';
import { FIELDS, readFields, writeFields } from '../fields.mjs';
import * as codec from '../session-codec.mjs';

export const NO_LINKS = 'short links need a server with a link store, and this site has none';

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
  // Restores session s (from `where`); says what the user must know: notes
  // about its version, and a JS pass it carries. A pass is code that would
  // run in this page's origin, so it comes back disabled and shown, and runs
  // only once the user has read it and ticked "enabled".
  function apply(s, where, notes) {
    app.objects.replace(s.objects.map(o => app.objects.describe(o.name, codec.fromBase64(o.data), !!o.harness)));
    for (const section of Object.keys(FIELDS))
      writeFields(section, section === 'pass' && s.pass ? { ...s.pass, enabled: false } : s[section]);
    const told = [...notes];
    if (s.pass?.enabled) {
      app.store.set({ tab: 'passes' });
      told.push(`${where} carries a JS pass (${s.pass.phase ?? 'no phase'}): it is restored disabled; ` +
                'read it in the JS passes tab and tick "enabled" to run it with the next link');
    }
    if (told.length) banner(told.join('; '));
  }

  // The link endpoint (a URL), or null when this site keeps no links.
  const linksEndpoint = async () => {
    const { links } = await app.config;
    return links ? new URL(links.replace(/\/?$/, '/'), location.href) : null;
  };
  const showUrl = (input, button, url) => {
    $(input).value = url;
    $(button).onclick = () => navigator.clipboard?.writeText(url);
  };

  // Stores the session on the server; resolves to its short URL.
  async function storeShort(s) {
    const endpoint = await linksEndpoint();
    if (!endpoint) throw new Error(NO_LINKS);
    let r;
    try {
      r = await fetch(new URL('../s', endpoint), { method: 'POST', body: JSON.stringify(s),
                                                    headers: { 'content-type': 'application/json' } });
    } catch (e) { throw new Error(`short link: the server did not answer (${message(e)})`, { cause: e }); }
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(`short link: the server refused the session (HTTP ${r.status}: ${answer.error ?? '?'})`);
    history.replaceState(null, '', `${location.pathname}?s=${answer.id}`);
    return new URL(answer.id, endpoint).href; // what the server's {url} says, wherever the endpoint is mounted
  }
  async function shortLink(s, into) {
    $(into).textContent = 'storing the session on the server…';
    try {
      const url = await storeShort(s);
      $(into).innerHTML = `Short link: <input id="short-url" readonly size="48"> <button id="copy-short">Copy</button>`;
      showUrl('short-url', 'copy-short', url);
    } catch (e) {
      $(into).innerHTML = `<span id="short-error" class="error">${esc(message(e))}</span>`;
    }
  }

  async function share() {
    const s = collect();
    const frag = await codec.encodeFragment(s);
    const box = $('share-box');
    box.hidden = false;
    const links = !!(await linksEndpoint());
    // Every session has a bundle file; a link too when it fits in one.
    const file = URL.createObjectURL(new Blob([codec.encodeBundle(s)], { type: 'application/json' }));
    const bundleLink = text => `<a id="bundle-link" download="session.linklab.json" href="${file}">${text}</a>`;
    if (frag.length > codec.MAX_FRAGMENT) {
      box.innerHTML = `This session is too large for a link (${(frag.length / 1024).toFixed(0)} KiB compressed; links
        hold up to ${codec.MAX_FRAGMENT / 1024} KiB). <span id="short-box">${links ? '' : esc(NO_LINKS) + '.'}</span>
        ${bundleLink('Download it as a bundle file')};
        “Load bundle” (or dropping the file here) restores it.`;
      if (links) await shortLink(s, 'short-box');
      return;
    }
    const url = `${location.origin}${location.pathname}${frag}`;
    history.replaceState(null, '', `${location.pathname}${frag}`);
    box.innerHTML = `Share link (${frag.length} characters): <input id="share-url" readonly size="60">
      <button id="copy-share">Copy</button> · ${bundleLink('bundle file')}
      (both replay with <code>linklab-run --replay</code>)
      <span id="short-box">${links ? '<button id="make-short">Short link</button>' : ''}</span>`;
    showUrl('share-url', 'copy-share', url);
    if (links) $('make-short').onclick = () => shortLink(s, 'short-box');
  }

  async function loadBundleFile(f) {
    try {
      const { session, notes } = codec.decodeBundle(await f.text(), f.name);
      apply(session, f.name, notes);
      setStatus(`session loaded from ${f.name}; Link & run to run it`, 'ok');
    } catch (e) { banner(message(e)); }
  }

  // A short link's session, fetched from the server that stored it.
  async function fetchShort(id) {
    const endpoint = await linksEndpoint();
    if (!endpoint) throw new Error(`short link ${id}: ${NO_LINKS}, so it cannot open one`);
    if (!/^[A-Za-z0-9_-]{22}$/.test(id))
      throw new Error(`short link: '${id.slice(0, 40)}' is not a short link id (22 letters, digits, - or _)`);
    let r;
    try { r = await fetch(new URL(`${id}.json`, endpoint)); } catch (e) {
      throw new Error(`short link ${id}: the server did not answer (${message(e)})`, { cause: e });
    }
    const text = await r.text();
    if (!r.ok) {
      let why;
      try { why = JSON.parse(text).error; } catch { why = `HTTP ${r.status}`; }
      throw new Error(`short link ${id}: ${why}`);
    }
    return codec.decodeBundle(text, `short link ${id}`);
  }

  // A session in the page's URL (a share link or a short link) is restored on load.
  async function restoreFromUrl() {
    const frag = codec.hasFragment(location.hash), id = new URLSearchParams(location.search).get('s');
    if (!frag && id === null) return;
    try {
      const { session, notes } = frag ? await codec.decodeFragment(location.hash) : await fetchShort(id);
      apply(session, frag ? 'the share link' : `short link ${id}`, notes);
      setStatus('session restored from the link; press Link & run to run it', 'ok');
    } catch (e) { banner(message(e)); }
  }

  $('share').onclick = () => share().catch(e => banner(message(e)));
  $('bundle-input').onchange = e => e.target.files[0] && loadBundleFile(e.target.files[0]);
  return { collect, loadBundleFile, restoreFromUrl };
}
