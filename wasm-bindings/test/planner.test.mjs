// The wasm planner gives exactly what the native planner gives: plan text,
// description, and every diagnostic (compared line by line with a native
// probe built from the same core sources).
import { execFileSync } from 'node:child_process';
import { plan, validatePlan, LinklabError } from '../index.mjs';
import { config } from './helpers.mjs';

function native(cases) {
  const input = cases.map((c) => [c.triple, c.signature, c.spec ?? '', c.expect ?? ''].join('\t')).join('\n') + '\n';
  return execFileSync(config.planTool, { input, encoding: 'utf8' }).trimEnd().split('\n').map((l) => l.split('\t'));
}
function wasm(c) {
  try {
    const p = plan(c);
    return ['ok', p.text, p.describe];
  } catch (e) {
    if (!(e instanceof LinklabError)) throw e;
    return ['error', e.message];
  }
}

const T = {
  x86_64: 'x86_64-unknown-linux-gnu', aarch64: 'aarch64-unknown-linux-gnu', riscv64: 'riscv64-unknown-linux-gnu',
};
const SIGS = ['i64(ptr,i32,f64,byval(24:8))', 'void(sret(32:8),i32)', 'i128(i128,i64,f32)',
              'f64(f64,f64,f64,f64,f64,f64,f64,f64,f64,f64)', 'i32(i64,i64,i64,i64,i64,i64,i64,i64,i64)',
              'v128(v64,v128)', 'f128(f128)'];
const SPECS = { x86_64: ['gpr:rcx,rdx;ret:rax', 'args:rdi+rsi,stack', 'gpr:r8,r9;fpr:xmm3', 'gpr:rsp'],
                aarch64: ['gpr:x1,x2;ret:x0', 'args:x0+x1', 'fpr:v7,v6'],
                riscv64: ['gpr:a2,a3;ret:a0', 'args:a0+a1,stack', 'fpr:fa3'] };

const cases = [];
for (const [arch, triple] of Object.entries(T)) {
  for (const signature of SIGS) {
    cases.push({ triple, signature });
    for (const spec of SPECS[arch]) cases.push({ triple, signature, spec });
  }
  // Bad inputs: unknown register, variadic, bad signature, result that does not fit.
  cases.push({ triple, signature: 'i64(i64)', spec: 'gpr:r99' });
  cases.push({ triple, signature: 'i32(ptr,...)' });
  cases.push({ triple, signature: 'i32(i33)' });
  cases.push({ triple, signature: 'i128(i64)',
               spec: arch === 'x86_64' ? 'ret:rax' : arch === 'aarch64' ? 'ret:x0' : 'ret:a0' });
}
cases.push({ triple: 'sparc-unknown-linux', signature: 'i32()' });

describe('planner: wasm equals native', () => {
  const expected = native(cases);
  test('the native probe answered every case, with plans and errors both present', () => {
    expect(expected.length).toBe(cases.length);
    expect(expected.filter((e) => e[0] === 'ok').length).toBeGreaterThan(40);
    expect(expected.filter((e) => e[0] === 'error').length).toBeGreaterThan(10);
  });
  test.each(cases.map((c, i) => [`${c.triple} ${c.signature} '${c.spec ?? 'standard'}'`, i]))('%s', (_, i) => {
    expect(wasm(cases[i])).toEqual(expected[i]);
  });
});

describe('plan validation and the four diagnostics', () => {
  const sig = 'i64(i64,i32)';
  const x86 = plan({ spec: 'gpr:rcx,rdx;ret:rax', signature: sig, triple: T.x86_64 });

  test('structured locations agree with the text', () => {
    expect(x86.arguments.map((l) => l.registerName)).toEqual(['rcx', 'edx']);
    expect(x86.returns[0]).toMatchObject({ inRegister: true, registerName: 'rax', size: 8 });
    expect(validatePlan(x86.text, { signature: sig, triple: T.x86_64 }).text).toBe(x86.text);
  });
  const bad = [
    ['malformed plan', () => x86.text.replace('arguments=r,0,0,8,8,2,', 'arguments=r,0,0,8,8,17,')],
    ['foreign target schema', () => x86.text, T.aarch64],
    ['foreign target ID', () => x86.text.replace(/target=62:1/, 'target=183:1')],
    ['foreign convention ID', () => x86.text, T.x86_64, 'gpr:rdi'],
  ];
  test.each(bad)('%s', (what, text, triple = T.x86_64, expectSpec = '') => {
    const c = { triple, signature: sig, spec: text(), expect: expectSpec };
    const [status, message] = native([c])[0];
    expect(status).toBe('error');
    expect(message).toContain(what);
    expect(() => validatePlan(text(), { signature: sig, triple, expect: expectSpec })).toThrow(message);
  });
});
