// "Run this soon, after pending I/O": how the wrapper gives the event loop a
// turn between slices of a link. Node has setImmediate. Browsers do not, and
// setTimeout(0) is no substitute: nested timers are clamped to 4 ms and
// background tabs throttle them to a second or more, which stalled links
// for a minute. A MessageChannel message is a plain task with neither.

/**
 * A scheduler over `env` (globalThis, or a stand-in in tests): setImmediate
 * when env has it (looked up at each call), else one MessageChannel, else
 * setTimeout(0). Callbacks run in the order they were scheduled.
 */
export function makeScheduler(env = globalThis) {
  let ch, queue;
  return (f) => {
    if (env.setImmediate) return void env.setImmediate(f);
    if (!env.MessageChannel) return void env.setTimeout(f, 0);
    if (!ch) {
      ch = new env.MessageChannel();
      queue = [];
      ch.port1.onmessage = () => {
        const next = queue.shift();
        // Runtimes with ref-counted ports (Node, Deno): only pending work keeps the process alive.
        if (!queue.length) ch.port1.unref?.();
        next();
      };
    }
    queue.push(f);
    ch.port1.ref?.();
    ch.port2.postMessage(null);
  };
}
