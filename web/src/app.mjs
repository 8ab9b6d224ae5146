// The playground page. All linking happens here, in the wasm core (package
// `linklab`); the server only serves files and bridges the executor's
// WebSocket. One store (store.mjs) holds the session; each panel (panels/)
// wires its own controls and re-renders from the store keys it watches.
// Panels reach each other through `app` (app.link.makeSession, …) only when
// they act, so mount order does not matter.
import { $, banner, message } from './ui.mjs';
import { createStore } from './store.mjs';
import * as objects from './panels/objects.mjs';
import * as gallery from './panels/gallery.mjs';
import * as inspect from './panels/inspect.mjs';
import * as link from './panels/link.mjs';
import * as run from './panels/run.mjs';
import * as debug from './panels/debug.mjs';
import * as graph from './panels/graph.mjs';
import * as memory from './panels/memory.mjs';
import * as disasm from './panels/disasm.mjs';
import * as callconv from './panels/callconv.mjs';
import * as passes from './panels/passes.mjs';
import * as share from './panels/share.mjs';
import * as repro from './panels/repro.mjs';
import { runtimeDelivery } from './runtime-delivery.mjs';
import { prefetchRuntime } from './panels/link.mjs';

window.addEventListener('error', e => banner(`Unexpected error: ${e.message}`));
window.addEventListener('unhandledrejection', e => banner(`Unexpected error: ${e.reason?.message ?? e.reason}`));

// Fetched while the page loads (index.html).
const galleryManifest = window.linklabGallery;

// The tab shown is store state too: panels that draw lazily (graph,
// disassembly) watch it.
function showTab({ tab }) {
  for (const b of $('tabs').children) b.classList.toggle('active', b.dataset.tab === tab);
  for (const s of document.querySelectorAll('.tab')) s.hidden = s.id !== tab;
}
const selectTab = tab => app.store.set({ tab });

// Set once a runtime blob is in the Cache API: read at once, unlike the
// cache, so that a first visit's runtime requests need not wait for the
// cache to open only to find it empty (runtime-delivery.mjs: `empty`).
const RUNTIMES_KEPT = 'linklab-runtimes-kept';
const storage = (() => { try { return window.localStorage; } catch { return null; } })();

let panelsMounted, executorStarted = false;
// The bridge's last news ({queue: N}) on the early socket, kept until the Run
// panel's transport listens (once the core is in: takeEarlyNews).
let earlyNews = null, stopKeeping = null;
const app = {
  L: null, // the wasm package, once loaded
  config: window.linklabConfig, // Promise of config.json (index.html): {executor?, runtimes: {arch: manifest}}
  store: createStore({
    tab: 'inspect', objects: [], arch: null, archError: '', gallery: null, link: null,
    live: null, running: false, stopping: false, graphPhase: -1, last: null, debugStop: null,
  }),
  selectTab,
  // The C runtime as the site prepared it (link.mjs reads it), and what
  // every link of an architecture starts with, fetched ahead: neither needs the core.
  delivery: runtimeDelivery(new URL('runtimes/', location.href).href, {
    cache: window.linklabRuntimeCache, empty: !!storage && storage.getItem(RUNTIMES_KEPT) === null,
    onKept: () => storage?.setItem(RUNTIMES_KEPT, '1'),
  }),
  prefetchRuntime: (arch, example) => prefetchRuntime(app, arch, example),
  // The executor connection index.html opened as the page loaded (a Promise
  // of a WebSocket, or of nothing without an executor): the first run takes
  // it (run.mjs), and startExecutor(), before that, has the bridge start the
  // process while the core still loads (server/bridge.mjs: START).
  earlySocket: window.earlyExecutorSocket,
  startExecutor() {
    const early = app.earlySocket;
    if (!early || executorStarted) return;
    executorStarted = true;
    early.then(ws => {
      if (!ws) return;
      const keep = e => { if (typeof e.data === 'string') earlyNews = e.data; };
      ws.addEventListener('message', keep);
      stopKeeping = () => ws.removeEventListener('message', keep);
      const send = () => ws.send('{"start":true}');
      if (ws?.readyState === WebSocket.CONNECTING) ws.addEventListener('open', send, { once: true });
      else if (ws?.readyState === WebSocket.OPEN) send();
    }).catch(() => {}); // the run reports a connection that failed
  },
  // What the bridge said on the early socket before a transport listened
  // (START can be answered with a queue position while the core loads), once.
  takeEarlyNews() {
    stopKeeping?.();
    stopKeeping = null;
    const news = earlyNews;
    earlyNews = null;
    try { return news && JSON.parse(news); } catch { return null; }
  },
  // Resolves once the core is in and every panel is mounted (never, if the core does not load).
  mounted: new Promise(resolve => { panelsMounted = resolve; }),
};

async function main() {
  // The examples are clickable before the core has loaded: a click starts
  // its downloads (its objects, the C runtime) at once, while the wasm still
  // downloads and compiles, and links once the core is in (gallery.mjs).
  app.gallery = gallery.mount(app);
  galleryManifest.then(g => {
    app.store.set({ gallery: g });
    window.__examplesReadyMs = performance.now();
    document.body.dataset.examplesReady = '1';
  });
  try {
    app.L = await import('linklab');
    performance.mark('core-loaded'); // performance marks: what scripts/bench-web.mjs reports
  } catch (e) {
    $('core-status').textContent = 'core failed to load';
    return banner(`The linklab wasm core did not load: ${message(e)}. ` +
                  'Build it with scripts/build-wasm.sh (scripts/run does).');
  }
  $('core-status').textContent = `core ready · ${app.L.targets().join(', ')}`;
  app.store.on('tab', showTab);
  $('tabs').onclick = e => e.target.dataset.tab && selectTab(e.target.dataset.tab);
  const panels = { objects, inspect, link, run, debug, graph, memory, disasm, callconv, passes, share, repro };
  for (const [name, panel] of Object.entries(panels)) app[name] = panel.mount(app);
  panelsMounted();
  await galleryManifest;
  await app.share.restoreFromUrl();
  window.__readyMs = performance.now();
  document.body.dataset.ready = '1';
}
main();
