// The page's one state store. Panels read `store.state`, change it only
// through set(), and re-render from it when a key they subscribed to is set.
//
// Keys: tab (the panel shown), objects [{name, bytes, harness, arch, info, error, archive, shownMember}],
// arch (one per session, or null), archError, gallery, link (the last link:
// {id, arch, snapshots, info, objects}), live ({executor, transport, arch, session}:
// the last session linked for a run), running, stopping, graphPhase, outcome
// (the last run's {status, exitCode, stdout}, which a shared bundle records), last (the last Link or
// Link & run as a reproducer: {case, arch, outcome}, panels/repro.mjs), debugStop (the Debugger's
// stop the program is at, panels/debug.mjs, or null).
export function createStore(initial) {
  const state = { ...initial };
  const listeners = new Map();
  return {
    state,
    set(patch) {
      Object.assign(state, patch);
      const called = new Set();
      for (const key of Object.keys(patch)) for (const fn of listeners.get(key) ?? []) {
        if (called.has(fn)) continue; // one call per set(), however many of its keys it watches
        called.add(fn);
        fn(state);
      }
    },
    on(keys, fn) {
      for (const key of [keys].flat()) listeners.set(key, [...(listeners.get(key) ?? []), fn]);
    },
  };
}
