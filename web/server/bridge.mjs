// The WebSocket bridge at /executor: one connection = one session = at most
// one `linklab-executor stdio` process, started when the session's first
// message arrives and only while fewer than maxExecutors run (otherwise the
// session waits in a bounded FIFO queue and is told its position). That
// message may be the text START: the page sends it when a run is coming
// (an example clicked) but its core, which writes the frames, is not in
// yet, so the process starts meanwhile. Every
// byte from the client is hostile: messages must be whole executor frames,
// run limits are capped here, output per run is capped, and both directions
// are bounded buffers (a client that stops reading pauses its executor and
// is cut off after stallTimeout; one that writes while its executor is busy
// is paused at the socket). The executor itself truncates each run's output
// at maxOutput (its output-cap); the bridge tells the client so ({output:
// {truncatedAt}}), and ends a session whose executor sends much more.
// When an executor dies by a signal, the close reason says what the signal
// means here (the sandbox's seccomp filter, its CPU limit, ...).
import { spawn } from 'node:child_process';
import { RUN_STATUS } from './metrics.mjs';

// One executor frame is at most 64 MiB + 4 (PROTOCOL.md); the playground's
// programs are far smaller, so the bridge refuses anything past this cap
// before it reaches the executor.
export const MAX_MESSAGE = 16 << 20;
// The one text message a client may send, and only first: start the executor now.
export const START = '{"start":true}';

// WebSocket close codes (RFC 6455 §7.4.1) the page and clients see.
const CLOSE = { normal: 1000, away: 1001, data: 1003, policy: 1008, error: 1011, busy: 1013 };
// Frame kinds the bridge reads (PROTOCOL.md).
const RUN_MAIN = 0x06, CALL = 0x07, OUTPUT = 0x85, RUN_RESULT = 0x86;
const LIMITS_BYTES = 20; // u64 instructions, u32 wallMillis, u64 memoryBytes
// What the executor's output frames may carry past the cap: its note that
// it truncated (a line), with room to spare.
const OUTPUT_SLACK = 4096;

// Signals that end an executor, in words (sandbox.h: seccomp, rlimits).
const SIGNAL_WORDS = {
  SIGSYS: 'its sandbox stopped a system call it may not make (seccomp)',
  SIGXCPU: 'it used up its CPU-time limit',
  SIGXFSZ: 'it went past its file-size limit',
  SIGKILL: 'ended from outside (out of memory, or by the server or an administrator)',
  SIGSEGV: 'it crashed (segmentation fault)',
  SIGBUS: 'it crashed (bus error)',
  SIGABRT: 'it aborted (out of memory past its address-space limit, or an internal error)',
};
export const executorEnded = (code, signal) => signal
  ? `executor killed by ${signal}${SIGNAL_WORDS[signal] ? `: ${SIGNAL_WORDS[signal]}` : ''}`
  : `executor exited with status ${code}`;

// Where a frame's limits start (PROTOCOL.md): run-main has them after
// entry, startup, args and env (input files follow); call has them last.
// -1 when the frame is too short or malformed (the executor refuses it).
function limitsAt(buf, at, len) {
  const end = at + len;
  if (buf.readUInt16LE(at + 4) === CALL) return len >= 12 + LIMITS_BYTES ? end - LIMITS_BYTES : -1;
  let p = at + 12 + 8 + 1; // entry, startup
  for (let list = 0; list < 2; list++) { // args, env: list<string>
    if (p + 4 > end) return -1;
    let n = buf.readUInt32LE(p);
    p += 4;
    while (n-- > 0) {
      if (p + 4 > end) return -1;
      p += 4 + buf.readUInt32LE(p);
    }
  }
  return p + LIMITS_BYTES <= end ? p : -1;
}

// The length of the whole frames at the start of buf.
export function wholeFrames(buf) {
  let end = 0;
  while (buf.length - end >= 4 && buf.length - end - 4 >= buf.readUInt32LE(end)) end += 4 + buf.readUInt32LE(end);
  return end;
}
function* frames(buf) {
  for (let at = 0; at < buf.length; at += 4 + buf.readUInt32LE(at)) yield [at, 4 + buf.readUInt32LE(at)];
}

// Runs at most `max` executors; sessions past it wait in FIFO order, at
// most `queue` of them. acquire() resolves when the session may start one,
// or returns null when the queue is full.
export class ExecutorSlots {
  #running = 0;
  #waiting = [];
  constructor(max, queue, onChange) { this.max = max; this.queueMax = queue; this.onChange = onChange; }
  get running() { return this.#running; }
  get waiting() { return this.#waiting.length; }
  // wait: {notify(position)}; returns a promise, or null when busy.
  acquire(wait) {
    if (this.#running < this.max && !this.#waiting.length) {
      this.#running++;
      this.onChange();
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.queueMax) return null;
    return new Promise(resolve => {
      this.#waiting.push({ ...wait, resolve });
      wait.notify(this.#waiting.length);
      this.onChange();
    });
  }
  // A waiting session that went away.
  cancel(wait) {
    const i = this.#waiting.findIndex(w => w.notify === wait.notify);
    if (i < 0) return;
    this.#waiting.splice(i, 1);
    this.#renumber(i);
  }
  release() {
    this.#running--;
    const next = this.#waiting.shift();
    if (next) { this.#running++; next.resolve(); this.#renumber(0); } else this.onChange();
  }
  #renumber(from) {
    this.#waiting.slice(from).forEach((w, i) => w.notify(from + i + 1));
    this.onChange();
  }
}

// A sliding one-minute window of run starts per remote address.
export class RunRate {
  #starts = new Map(); // address -> [ms]
  constructor(perMinute) { this.perMinute = perMinute; }
  allow(address, now = Date.now()) {
    const recent = (this.#starts.get(address) ?? []).filter(t => now - t < 60_000);
    if (recent.length >= this.perMinute) { this.#starts.set(address, recent); return false; }
    recent.push(now);
    this.#starts.set(address, recent);
    return true;
  }
  forget(address) { this.#starts.delete(address); }
}

// Lowers the limits of every run-main and call frame in msg (in place) to
// the caps; a limit of 0 means the executor's default, which is above every
// cap, so it becomes the cap too. A cap of 0 leaves that limit alone.
export function capRunLimits(msg, caps, onRun) {
  for (const [at, len] of frames(msg)) {
    const kind = msg.readUInt16LE(at + 4);
    if (kind !== RUN_MAIN && kind !== CALL) continue;
    onRun(msg.readUInt32LE(at + 8));
    const lim = limitsAt(msg, at, len);
    if (lim < 0) continue;
    const cap64 = (off, c) => {
      const v = msg.readBigUInt64LE(lim + off);
      if (c && (v === 0n || v > BigInt(c))) msg.writeBigUInt64LE(BigInt(c), lim + off);
    };
    cap64(0, caps.maxInstructions);
    const wall = msg.readUInt32LE(lim + 8);
    if (caps.maxWallMillis && (wall === 0 || wall > caps.maxWallMillis)) msg.writeUInt32LE(caps.maxWallMillis, lim + 8);
    cap64(12, caps.maxMemory);
  }
}

// Serves one accepted connection. ctx: {opts, slots, rate, metrics, log,
// executors (Set of live ChildProcess), spawnArgs: [file, args]}.
export function serveSession(ws, address, ctx) {
  const { opts, slots, metrics, log } = ctx;
  let child = null, waiting = null, ended = false;
  const runs = new Map(); // seq -> start time (ms), the runs in flight
  let output = 0, truncated = false; // program output bytes of the current run; did the executor cut them
  let idle = null, lifetime = null, stall = null, flooding = null; // timers
  metrics.sessions.inc();

  const end = (code, reason, why) => {
    if (ended) return;
    ended = true;
    if (why) metrics.refused.inc({ reason: why });
    for (const t of [idle, lifetime, stall, flooding]) clearTimeout(t);
    // WebSocket close reasons are limited to 123 bytes.
    if (ws.readyState === ws.OPEN) ws.close(code, reason.slice(0, 120));
    // A client that does not answer the closing handshake is dropped.
    setTimeout(() => ws.terminate(), 1000).unref();
    stop(why ?? 'disconnect');
  };
  // Ends the executor (if any) and accounts for the runs it never answered.
  const stop = reason => {
    if (waiting) { slots.cancel(waiting); waiting = null; }
    for (const [, t0] of runs) {
      metrics.runsFailed.inc({ reason });
      metrics.runSeconds.observe((Date.now() - t0) / 1000);
    }
    runs.clear();
    child?.kill('SIGKILL');
  };

  const touch = () => {
    clearTimeout(idle);
    if (ended) return;
    idle = setTimeout(() =>
      end(CLOSE.away, `idle timeout: nothing sent for ${opts.idleTimeout} ms`, 'idle'), opts.idleTimeout);
  };
  lifetime = setTimeout(() =>
    end(CLOSE.away, `session lifetime of ${opts.sessionLifetime} ms reached`, 'lifetime'), opts.sessionLifetime);
  touch();

  // Executor → client, with back-pressure: past sendBuffer bytes queued to a
  // client, the executor's output is paused; if the client does not drain
  // it within stallTimeout, the session ends.
  const toClient = buf => {
    if (ended) return;
    touch();
    let announce = false;
    for (const [at, len] of frames(buf)) {
      const kind = buf.readUInt16LE(at + 4);
      if (kind === OUTPUT && len >= 17) {
        output += buf.readUInt32LE(at + 13); // u8 stream, bytes
        // The executor's cap is maxOutput: past it comes only its note, once.
        if (opts.maxOutput && output > opts.maxOutput + OUTPUT_SLACK)
          return end(CLOSE.policy, `output limit: the program wrote more than ${opts.maxOutput} bytes`, 'output_limit');
        if (opts.maxOutput && output > opts.maxOutput && !truncated) truncated = announce = true;
      } else if (kind === RUN_RESULT) {
        const seq = buf.readUInt32LE(at + 8), t0 = runs.get(seq);
        if (t0 !== undefined) {
          runs.delete(seq);
          metrics.runSeconds.observe((Date.now() - t0) / 1000);
          metrics.runsFinished.inc({ status: RUN_STATUS[buf[at + 12]] ?? 'unknown' });
        }
        output = 0, truncated = false;
      }
    }
    if (announce) { // ahead of these frames: the run's result may be among them
      metrics.truncated.inc();
      ws.send(JSON.stringify({ output: { truncatedAt: opts.maxOutput } }));
    }
    ws.send(buf, { binary: true }, () => {
      if (stall && ws.bufferedAmount < opts.sendBuffer / 2) {
        clearTimeout(stall);
        stall = null;
        child?.stdout.resume();
      }
    });
    if (!stall && ws.bufferedAmount >= opts.sendBuffer) {
      child.stdout.pause();
      stall = setTimeout(() => end(CLOSE.policy, 'client not reading: send buffer full', 'slow_reader'),
        opts.stallTimeout);
    }
  };

  // Client → executor: the socket is paused while the executor's stdin
  // holds more than one message's worth, and until the executor starts.
  const toExecutor = msg => {
    capRunLimits(msg, opts, seq => {
      if (!ctx.rate.allow(address)) throw new RateLimited();
      runs.set(seq, Date.now());
      metrics.runsStarted.inc();
    });
    if (!child.stdin.write(msg) && !flooding) {
      ws.pause();
      flooding = setTimeout(() => end(CLOSE.policy, 'client flooding: the executor is not taking input', 'flooding'),
        opts.stallTimeout);
      child.stdin.once('drain', () => { clearTimeout(flooding); flooding = null; ws.resume(); });
    }
  };

  const start = () => {
    const [file, args] = ctx.spawnArgs;
    child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    ctx.executors.add(child);
    metrics.executors.set(ctx.executors.size);
    let stderr = '';
    child.stderr.on('data', d => { stderr = (stderr + d).slice(-2000); });
    let buf = Buffer.alloc(0);
    child.stdout.on('data', chunk => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      const n = wholeFrames(buf);
      if (n) toClient(buf.subarray(0, n));
      buf = buf.subarray(n);
      // One frame larger than the bridge passes on: the executor is broken.
      if (buf.length > MAX_MESSAGE + 4) end(CLOSE.error, 'executor sent an oversized frame', 'executor_error');
    });
    child.stdin.on('error', () => {}); // a dead executor is reported by 'exit'
    let released = false;
    const gone = () => {
      if (released) return;
      released = true;
      ctx.executors.delete(child);
      metrics.executors.set(ctx.executors.size);
      slots.release();
    };
    child.on('error', err => { gone(); end(CLOSE.error, `cannot start executor: ${err.message}`, 'spawn_failed'); });
    child.on('exit', (code, signal) => {
      gone();
      const why = executorEnded(code, signal);
      const last = stderr.trim().split('\n').pop() || undefined;
      log('executor.exit', { pid: child.pid, address, code, signal, stderr: last });
      stop(signal ? 'executor_killed' : 'executor_exited');
      end(signal || code ? CLOSE.error : CLOSE.normal, why);
    });
    log('executor.start', { pid: child.pid, address });
  };

  const firstMessage = async msg => {
    ws.pause();
    const t0 = Date.now();
    let queued = false;
    waiting = { notify: position => { queued = true; ws.send(JSON.stringify({ queue: position })); } };
    const ready = slots.acquire(waiting);
    if (!ready) {
      waiting = null;
      return end(CLOSE.busy, 'server busy, try again later', 'busy');
    }
    clearTimeout(idle); // waiting in the queue is not idling
    await ready;
    if (ended) return slots.release(); // the client left as its turn came
    waiting = null;
    metrics.queueSeconds.observe((Date.now() - t0) / 1000);
    if (queued) ws.send(JSON.stringify({ queue: 0 }));
    touch();
    start();
    for (const m of msg ? [msg, ...early] : early) deliver(m);
    early = null;
    ws.resume();
  };

  const deliver = msg => {
    try {
      toExecutor(msg);
    } catch (e) {
      if (!(e instanceof RateLimited)) throw e;
      end(CLOSE.policy, `rate limit: at most ${ctx.rate.perMinute} runs a minute from one address`, 'rate_limited');
    }
  };

  let started = false; // the first message has come (the executor runs, or waits for a slot)
  // Messages after the first that arrive before the executor starts: a
  // paused socket still hands over what it had read (START and the frames
  // after it can come in one read). Bounded as a message is.
  let early = [], earlyBytes = 0;
  ws.on('message', (data, isBinary) => {
    if (ended) return;
    touch();
    if (!isBinary && !started && data.toString() === START) {
      started = true;
      return void firstMessage(null);
    }
    // One message is whole frames: their size fields add up to its length.
    if (!isBinary || !data.length || wholeFrames(data) !== data.length)
      return end(CLOSE.data, 'bridge: a message must be whole binary executor frames', 'bad_message');
    if (!started) {
      started = true;
      return void firstMessage(data);
    }
    if (early) {
      if ((earlyBytes += data.length) > MAX_MESSAGE)
        return end(CLOSE.policy, 'client flooding: the executor is not taking input', 'flooding');
      return void early.push(data);
    }
    deliver(data);
  });
  ws.on('close', () => { metrics.sessions.dec(); end(CLOSE.normal, ''); });
  // Oversized or malformed WebSocket frames arrive as errors (ws then closes
  // with 1009/1002); without a listener they would take the server down.
  ws.on('error', err => log('connection.error', { address, error: err.message }, 'warn'));
}
class RateLimited extends Error {}
