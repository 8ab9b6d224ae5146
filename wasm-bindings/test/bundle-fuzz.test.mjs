// Fuzzing the share link and bundle decoders (issue 14): mutated bundles and
// fragments, then the session a page or a replay restores from them (its
// options, absolutes, run limits and arguments, its objects linked into a
// slab). Every input must end in success or an Error of ours that says
// what is wrong: never the engine's complaint from deep inside (reading a
// property of undefined, a RangeError), a wasm trap, or a hang. The inputs
// come from a seeded generator, so a failure reproduces; it prints the input.
import * as L from '../node.mjs';
import { makeSession, parseArgs } from '../lib/link-flow.mjs';
import { fromBase64 } from '../lib/bundle.mjs';
import * as codec from '../../web/src/session-codec.mjs';
import { program, read } from './helpers.mjs';

// xorshift32: the same mutations on every run.
function rng(seed) {
  let x = seed >>> 0 || 1;
  const next = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
  return { int: (n) => next() % n, pick: (a) => a[next() % a.length] };
}

function validSession() {
  const files = program('funcs', 'x86_64').files;
  return {
    format: codec.FORMAT, version: codec.VERSION, linklab: codec.LINKLAB_VERSION, arch: 'x86_64',
    objects: files.map((f, i) => ({ name: `funcs-${i}.o`, harness: false, data: codec.toBase64(read(f)) })),
    options: { entry: 'main', phonyExternals: true, absolutes: 'ext=0x1000', slabAddress: '' },
    run: { args: 'a "b c"', instructions: '1000000', wallMillis: '2000', memoryMB: '64' },
  };
}

const ODD_VALUES = [null, 0, -1, 1.5, 2 ** 64, '', 'x', '0xffffffffffffffffff', [], {}, true, ' \n', '=',
  'a=b=c', 'A'.repeat(5000), '!!!not base64!!!', 'AAAA', [1, 2], { name: 1 }];

// Every [parent, key] inside a JSON value, for structural mutation.
function slots(v, out = []) {
  if (v && typeof v === 'object')
    for (const k of Object.keys(v)) { out.push([v, k]); slots(v[k], out); }
  return out;
}

function mutateStructure(r) {
  const s = validSession();
  for (let n = 1 + r.int(3); n > 0; n--) {
    const [parent, key] = r.pick(slots(s));
    if (r.int(4) === 0) delete parent[key];
    else parent[key] = structuredClone(r.pick(ODD_VALUES));
  }
  return JSON.stringify(s);
}

function mutateText(r, text) {
  const chars = [...text];
  for (let n = 1 + r.int(8); n > 0; n--) {
    const at = r.int(chars.length + 1);
    switch (r.int(4)) {
      case 0: chars.splice(at, 1); break;
      case 1: chars.splice(at, 0, r.pick(['"', '{', '}', '[', ']', ',', ':', '0', 'A', '\\', '\u0000', 'é'])); break;
      case 2: chars[at] = String.fromCharCode(r.int(128)); break;
      default: chars.length = at; // truncated
    }
  }
  return chars.join('');
}

// What a page or a replay does with a decoded session short of running it.
async function restore(session) {
  const objects = session.objects.map((o) => ({ name: o.name, harness: !!o.harness, bytes: fromBase64(o.data) }));
  L.driver.runLimits(session.run);
  parseArgs(session.run?.args ?? '');
  if (!objects.length) return;
  const triple = L.inspect(objects[0].bytes, objects[0].name).triple; // as replayBundle picks it
  const ctx = makeSession(L, { triple, objects, options: session.options ?? {} });
  try {
    await ctx.session.link({ entry: ctx.entry });
  } finally {
    ctx.session.dispose();
  }
}

// Success, or our own error: an Error (LinklabError included) whose message
// is not a JavaScript engine complaint about our code.
async function outcomeOf(input, decode) {
  try {
    await restore((await decode(input)).session);
    return 'ok';
  } catch (e) {
    // The package's own TypeErrors name the argument ("slabAddress: expected
    // a number..."); the engine's name nothing the user gave.
    const ENGINE = /of undefined|of null|is not a (function|iterable)|is not defined|Cannot (read|convert)|call stack/;
    const engine = e instanceof RangeError || e instanceof WebAssembly.RuntimeError || ENGINE.test(e?.message ?? '');
    if (!(e instanceof Error) || engine || !e.message)
      throw new Error(`input ${JSON.stringify(input).slice(0, 300)}: ${e?.stack ?? e}`, { cause: e });
    return 'error';
  }
}

const RUNS = 250;

test.each([
  ['bundle, structure mutated', 1, (r) => mutateStructure(r), (t) => codec.decodeBundle(t)],
  ['bundle text mutated', 2, (r) => mutateText(r, codec.encodeBundle(validSession())), (t) => codec.decodeBundle(t)],
])('%s: %d', async (_, seed, make, decode) => {
  const r = rng(seed * 7919);
  const seen = { ok: 0, error: 0 };
  for (let i = 0; i < RUNS; i++) seen[await outcomeOf(make(r), decode)]++;
  expect(seen.ok + seen.error).toBe(RUNS);
  expect(seen.error).toBeGreaterThan(0); // the mutations do reach the checks
}, 120000);

test('share link fragments, mutated: decode or a share-link error', async () => {
  const r = rng(4242);
  const good = await codec.encodeFragment(validSession());
  expect((await outcomeOf(good, codec.decodeFragment))).toBe('ok');
  const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let errors = 0;
  for (let i = 0; i < RUNS; i++) {
    const chars = [...good];
    for (let n = 1 + r.int(4); n > 0 && chars.length > 3; n--) {
      const at = 3 + r.int(chars.length - 3); // keep the '#s=' prefix
      if (r.int(3) === 0) chars.length = at; else chars[at] = r.pick([...b64, '=', '%', ' ']);
    }
    errors += (await outcomeOf(chars.join(''), codec.decodeFragment)) === 'error';
  }
  expect(errors).toBeGreaterThan(0);
}, 120000);
