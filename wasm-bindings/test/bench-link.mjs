// In-process timing for scripts/bench-wasm.sh: links the given objects
// through the wasm build RUNS times in one Node process and prints the first
// (cold: V8 still compiling the module's hot code) and best (warm) link
// times in ms, as "cold best".
import { readFileSync } from 'node:fs';
import { LinkSession } from '../index.mjs';

const [entry, ...paths] = process.argv.slice(2);
const files = paths.map((p) => [p, readFileSync(p)]);
const times = [];
for (let i = 0; i < Number(process.env.RUNS || 5); i++) {
  const t0 = performance.now();
  const s = new LinkSession({ slabAddress: 0x10000000, slabAllocate: '64Mb', phonyExternals: true });
  for (const [name, bytes] of files) s.addObject(bytes, { name });
  await s.link({ entry });
  times.push(performance.now() - t0);
  s.dispose();
}
console.log(times[0].toFixed(2), Math.min(...times).toFixed(2));
