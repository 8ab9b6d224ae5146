// The Run panel and the console dock: arguments and limits, Link & run, Stop,
// program output, and the run's status (exit code, fault with symbolized pc,
// limits hit, the executor going away).
import { $, hex, message, setStatus, bump, banner } from '../ui.mjs';
import { readFields } from '../fields.mjs';
import * as flow from '../link-flow.mjs';
import { runOutcome, symbolizeIn } from 'linklab/bundle';
import { ARCHES } from '../../runtimes.mjs';

// The executor over a WebSocket bridge, through the package's transport:
// when the bridge closes the connection, its reason (`executor killed by
// SIGKILL`) fails the requests in flight, so the run status shows it; Stop
// and dropLive end the process by closing it. The bridge is the one the
// site's config.json names (relative to the page, or wss://…); a site with
// none links but cannot run.
export const NO_EXECUTOR = 'running needs an executor: see Hosting';
async function bridgeUrl() {
  const { executor } = await window.linklabConfig;
  if (!executor) throw new Error(NO_EXECUTOR);
  return new URL(executor, location.href.replace(/^http/, 'ws')).href;
}

function appendConsole(stream, text) {
  const span = document.createElement('span');
  span.className = stream;
  span.textContent = text;
  $('console').append(span);
  $('console').scrollTop = $('console').scrollHeight;
}

const fmtSeconds = ms => `${(ms / 1000).toFixed(1)} s`;
const fmtBytes = n => (n % 1024 ? `${n} bytes` : n % (1 << 20) ? `${n / 1024} KiB` : `${n / (1 << 20)} MiB`);

// Resolves once the browser could paint: a frame's callback runs before its
// paint, so a task queued from it runs after; a page in the background gets
// no frames, hence the timeout.
const afterPaint = () => new Promise(resolve => {
  requestAnimationFrame(() => setTimeout(resolve));
  setTimeout(resolve, 100);
});

export function mount(app) {
  const { store } = app;

  async function dropLive() {
    const live = store.state.live;
    store.set({ live: null });
    if (live) { try { live.transport.close(); } catch { /* already closed */ } }
  }
  // An executor process of its own, set up for arch (the reducer's runs).
  async function openExecutor(arch) {
    const transport = await app.L.webSocketTransport(await bridgeUrl());
    const executor = new app.L.Executor(transport);
    try {
      await executor.setup(ARCHES[arch].triple);
    } catch (e) { transport.close(); throw e; }
    return { executor, transport };
  }
  // The first run takes the connection index.html opened while the page
  // loaded, unless it closed meanwhile (an idle timeout on a page left open).
  async function connect(arch) {
    const early = app.earlySocket;
    app.earlySocket = null;
    await dropLive();
    const socket = await early;
    if (socket) {
      try { return await setUp(arch, socket); } catch { /* closed: a new connection */ }
    }
    return setUp(arch, await bridgeUrl());
  }
  async function setUp(arch, socketOrUrl) {
    const transport = await app.L.webSocketTransport(socketOrUrl);
    // A busy server queues the session until an executor is free: say where it stands.
    // It also says when the executor cut a run's output at the server's limit.
    const status = ({ queue, output }) => {
      if (queue > 0) setStatus(`server busy: waiting for an executor, position ${queue} in the queue…`, 'busy');
      else if (queue === 0) setStatus('executor started; linking and running…', 'busy');
      if (output?.truncatedAt) truncatedAt = output.truncatedAt;
    };
    transport.onStatus?.(status);
    const executor = new app.L.Executor(transport);
    // The early socket's news from before this transport listened (its latest: a repeat is harmless).
    const early = typeof socketOrUrl === 'object' && app.takeEarlyNews();
    if (early && typeof early === 'object') status(early);
    executor.onOutput((stream, data) => {
      const text = new TextDecoder().decode(data);
      appendConsole(stream, text);
      printed[stream] += text;
    });
    try {
      await executor.setup(ARCHES[arch].triple);
    } catch (e) { transport.close(); throw e; }
    return { executor, transport, arch };
  }

  const limits = () => app.L.driver.runLimits(readFields('run'));
  // The current run's output, for the outcome a shared bundle records.
  let printed = { stdout: '', stderr: '' };
  let truncatedAt = 0; // the current run's output was cut at this many bytes (the server's limit)

  // `sym+off (object)` for an address in the last link (as replays name it).
  const symbolize = addr => symbolizeIn(store.state.link?.info, addr) || 'no symbol';

  // Page zero is never mapped: an address there is a null pointer (plus a
  // field's offset), as the native CLI says it.
  const NULL_PAGE = 4096;
  function describe(r) {
    if (r.fault) {
      const a = Number(r.address);
      const where = a >= NULL_PAGE ? `address ${hex(r.address)} [${symbolize(r.address)}]`
        : `null pointer${a ? `+${hex(a)}` : ''} (address ${hex(a)})`;
      return `fault: ${r.fault} at pc ${hex(r.pc)} [${symbolize(r.pc)}], ${where}`;
    }
    return `${r.description}${r.exitCode !== undefined ? ` · exit code ${r.exitCode}` : ''}`;
  }

  async function linkAndRun() {
    if (store.state.running) return;
    let arch;
    try { arch = app.link.linkable(); } catch (e) { return app.link.failed(e); }
    if (!(await window.linklabConfig).executor) {
      setStatus(`${NO_EXECUTOR}. Link, Graph, Memory and Disassembly work without one.`, 'bad');
      return bump('runs');
    }
    store.set({ running: true, stopping: false });
    $('stop').disabled = false;
    $('console').textContent = '';
    printed = { stdout: '', stderr: '' };
    truncatedAt = 0;
    store.set({ outcome: null });
    const started = performance.now();
    let ctx = null, ticker = null, retry = false;
    setStatus('connecting to the executor…', 'busy');
    try {
      // The runtime's files download while the executor starts.
      const runtime = app.link.options().runtime && app.link.runtime(arch, store.state.objects);
      const marked = (p, name) => p && p.then(x => { performance.mark(name); return x; });
      const [live] = await Promise.all([marked(connect(arch), 'connected'), marked(runtime, 'runtime-fetched')]);
      store.set({ live }); // from here Stop can end it
      if (store.state.stopping) throw new Error('stopped');
      const lim = limits();
      const { args: argText, stdin } = readFields('run');
      const args = flow.parseArgs(argText);
      ctx = await app.link.makeSession(arch, live.executor, runtime || null);
      live.session = ctx.session;
      performance.mark('session-made');
      // run() links every object (the runtime's start code last), then runs,
      // as the native CLI does: the last object linked ends the link.
      const tick = () => setStatus(`linking and running… ${fmtSeconds(performance.now() - started)}`, 'busy');
      ticker = setInterval(tick, 100);
      const r = await flow.runProgram(ctx, { argv0: flow.programName(store.state.objects), args, limits: lim, stdin });
      clearInterval(ticker);
      performance.mark('linked', { startTime: ctx.session.lastLinkedAt ?? performance.now() });
      performance.mark('ran');
      // The outcome is painted before the link's panels fill in (the link
      // info of ~450 graphs takes tens of ms), except a fault's, whose
      // addresses are named from this link.
      if (r.fault) app.link.afterLink(ctx);
      let text = `${describe(r)} · ${(performance.now() - started).toFixed(0)} ms`;
      if (r.instructions) text += ` · ${r.instructions} instructions`;
      if (truncatedAt) text += ` · output cut at ${fmtBytes(truncatedAt)}: the server's output limit`;
      setStatus(text, r.status === 'fault' || r.status === 'error' || /limit/.test(r.status) ? 'bad' : 'ok');
      // Since navigation start: what scripts/bench-web.mjs reports.
      window.__firstRunMs ??= performance.now();
      if (!r.fault) {
        await afterPaint();
        app.link.afterLink(ctx);
      }
      store.set({ outcome: runOutcome(r, { ...printed, truncatedAt }, a => symbolizeIn(store.state.link?.info, a)) });
      const cut = truncatedAt ? { outputTruncated: true } : {};
      // A fault is a run's outcome (status 128+signal, its report), not a link error.
      const error = r.error ?? r.description;
      app.repro.record(false, r.exitCode !== undefined ? { exitCode: r.exitCode, output: printed.stdout, ...cut }
        : r.signal ? { error, signal: r.signal, fault: r.fault, output: printed.stdout, ...cut } : { error });
    } catch (e) {
      clearInterval(ticker);
      const msg = message(e);
      // A run that was linked and then ended still shows what was linked.
      const showLinked = () => { try { if (ctx) app.link.afterLink(ctx); } catch { /* the session did not link */ } };
      if (store.state.stopping) {
        showLinked();
        const after = fmtSeconds(performance.now() - started);
        setStatus(`run ended: stopped (the executor process was ended) after ${after}`, 'bad');
        await dropLive();
      } else if (app.link.fellShort(e)) {
        retry = true; // with the whole runtime, in a new executor process
        await dropLive();
      } else if (/executor/i.test(msg) && !/^Cannot link/.test(msg) && store.state.objects.length) {
        showLinked();
        setStatus(`run ended: ${msg}. The next run starts a new executor.`, 'bad');
        await dropLive();
      } else {
        store.set({ outcome: { error: e.message } });
        app.link.failed(e);
        app.repro.record(false, { error: e.message });
      }
    } finally {
      store.set({ running: false, stopping: false });
      $('stop').disabled = true;
      if (!retry) bump('runs');
    }
    if (retry) return linkAndRun();
    app.graph.preload().catch(e => banner(`The graph library did not load: ${message(e)}`));
  }

  // Closing the connection makes the server kill the executor process.
  function stop() {
    if (!store.state.running) return;
    store.set({ stopping: true });
    setStatus('stopping…', 'busy');
    store.state.live?.transport.close();
  }

  $('run').onclick = $('run2').onclick = linkAndRun;
  app.config.then(c => { if (!c.executor) $('run').title = $('run2').title = NO_EXECUTOR; });
  $('stop').onclick = stop;
  return { linkAndRun, connect, openExecutor, limits, symbolize };
}
