// inspect() on static archives: every member inspected as inspect() sees it
// on its own, with its place in the archive, and the archive's symbol index.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect, LinklabError, LinkSession, targets } from '../index.mjs';
import { config, program, read } from './helpers.mjs';

const dir = join(config.work, 'inspect');
mkdirSync(dir, { recursive: true });

// One spelling: inspect's arch is a targets() name, its triple the full one a
// session for that triple reports back; the ELF header's name is machineName.
test.each([['x86_64', 'x86-64'], ['aarch64', 'AArch64'], ['riscv64', 'RISC-V']])('%s: one arch spelling, full triple',
  (arch, machineName) => {
    const info = inspect(read(program('funcs', arch).files[0]));
    expect(targets()).toContain(info.arch);
    expect(info.arch).toBe(arch);
    expect(info.triple).toBe(`${arch}-unknown-linux-gnu`);
    expect(info.machineName).toBe(machineName);
    expect(new LinkSession({ triple: info.triple }).triple).toBe(info.triple);
    // A session that takes its target from the object reports the same triple.
    const s = new LinkSession({ phonyExternals: true });
    s.addObject(read(program('funcs', arch).files[0]), { name: 'funcs.o' });
    expect(s.triple).toBe(info.triple);
  });

describe.each(['x86_64', 'aarch64', 'riscv64'])('%s', (arch) => {
  // Three objects and a text file (ar keeps it; no symbols come from it).
  const members = ['passes.o', 'sys.o', 'funcs.o', 'notes.txt'];
  copyFileSync(program('passes', arch).files[0], join(dir, `${arch}-passes.o`));
  copyFileSync(program('sys', arch).files[0], join(dir, `${arch}-sys.o`));
  copyFileSync(program('funcs', arch).files[0], join(dir, `${arch}-funcs.o`));
  writeFileSync(join(dir, `${arch}-notes.txt`), 'not an object\n');
  const lib = join(dir, `${arch}-lib.a`);
  execFileSync('sh', ['-c', `cd ${dir} && rm -f ${lib} && ` +
                            `for m in ${members.join(' ')}; do cp ${arch}-$m $m; done && ` +
                            `llvm-ar-22 rcs ${lib} ${members.join(' ')}`]);
  const bytes = read(lib);
  const info = inspect(bytes, 'lib.a');

  test('members: each as inspect() of its own bytes, with its place in the archive', () => {
    expect(info.format).toBe('archive');
    expect(info.members.map((m) => m.member)).toEqual(members);
    for (const m of info.members.slice(0, 3)) {
      const own = read(join(dir, `${arch}-${m.member}`));
      expect(bytes.subarray(m.offset, m.offset + m.size)).toEqual(own);
      const { member, offset, size, ...fields } = m;
      expect(fields).toEqual(inspect(own, `lib.a(${m.member})`));
      expect(fields.arch).toBe(inspect(own).arch);
    }
    expect(info.members[0].relocations.length).toBeGreaterThan(0);
    expect(info.members[3].error).toMatch(/^lib\.a\(notes\.txt\): not a relocatable object: unknown file format/);
  });

  // A symbol in two members (main) maps to the first, the one a link pulls in.
  test('symbol index: llvm-nm\'s armap, sorted, each symbol with its first member', () => {
    const armap = execFileSync('llvm-nm-22', ['--print-armap', lib], { encoding: 'utf8' });
    const want = [];
    for (const [, symbol, m] of armap.matchAll(/^(\S+) in (\S+)$/gm))
      if (!want.some((w) => w.symbol === symbol)) want.push({ symbol, member: members.indexOf(m) });
    expect(want.find((w) => w.symbol === 'main')).toEqual({ symbol: 'main', member: 0 });
    expect(want.some((w) => w.member === 2)).toBe(true);
    expect(info.symbolIndex).toEqual(want.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)));
  });

  test('a truncated archive is an error naming it', () => {
    expect(() => inspect(bytes.subarray(0, 70), 'cut.a')).toThrow(LinklabError);
    expect(() => inspect(bytes.subarray(0, 70), 'cut.a')).toThrow(/^cut\.a: /);
  });
});

// MachO and COFF objects: identified by the registry's format rows and
// listed from the graph their builder makes, relocations from the format's
// tables by type name; sections sized as llvm-objdump-22 sizes them.
describe.each([
  ['x86_64-apple-macosx', 'macho', 'x86_64', '_', 'X86_64_RELOC_BRANCH'],
  ['arm64-apple-macosx', 'macho', 'aarch64', '_', 'ARM64_RELOC_BRANCH26'],
  ['x86_64-pc-windows-msvc', 'coff', 'x86_64', '', 'IMAGE_REL_AMD64_REL32'],
])('%s', (triple, format, arch, prefix, kind) => {
  const src = join(dir, `${triple}.s`);
  const obj = join(dir, `${triple}.o`);
  const call = arch === 'aarch64' ? 'bl' : 'call';
  writeFileSync(src, `  .text\n  .globl ${prefix}f\n${prefix}f: ${call} ${prefix}g\n  ret\n` +
                     `  .data\n  .globl ${prefix}d\n${prefix}d: .quad 7\n`);
  execFileSync('llvm-mc-22', [`-triple=${triple}`, '-filetype=obj', '-o', obj, src]);
  const bytes = read(obj);

  test('format, arch, triple, sections, symbols, relocations', () => {
    const info = inspect(bytes, 'm.o');
    expect(info.name).toBe('m.o');
    expect(info.format).toBe(format);
    expect(info.arch).toBe(arch);
    expect(targets()).toContain(info.arch);
    expect(new LinkSession({ triple: info.triple }).triple).toBe(info.triple);
    // Every allocated section llvm-objdump lists with content, by size.
    const headers = execFileSync('llvm-objdump-22', ['-h', obj], { encoding: 'utf8' });
    const text = info.sections.find((s) => /text/.test(s.name));
    expect(text.prot).toBe('R-X');
    // MachO: the section_64 flags (S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS).
    // COFF: IMAGE_SCN_CNT_CODE | ALIGN_4BYTES | MEM_EXECUTE | MEM_READ, as llvm-readobj-22 shows them.
    expect(text.flags).toBe(format === 'macho' ? 0x80000400 : 0x60300020);
    const row = headers.split('\n').find((l) => /text/.test(l)).trim().split(/\s+/);
    expect(text.size).toBe(parseInt(row[2], 16));
    const names = info.symbols.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining([`${prefix}f`, `${prefix}g`, `${prefix}d`]));
    expect(info.symbols.find((s) => s.name === `${prefix}g`).kind).toBe('external');
    expect(info.symbols.find((s) => s.name === `${prefix}f`).section).toBe(text.name);
    const call = info.relocations.filter((r) => r.symbolName === `${prefix}g`);
    expect(call).toHaveLength(1);
    expect(call[0].section).toBe(text.name);
    expect(call[0].offset).toBe(arch === 'aarch64' ? 0 : 1);
    expect(call[0].typeName).toBe(kind);
  });

  test('a truncated object is an error naming it', () => {
    expect(() => inspect(bytes.subarray(0, 48), 'cut.o')).toThrow(LinklabError);
    expect(() => inspect(bytes.subarray(0, 48), 'cut.o')).toThrow(/^cut\.o: /);
  });
});

// A universal MachO file: each slice inspected as an object of its own.
test('universal MachO: one entry per slice', () => {
  const fat = join(dir, 'fat.o');
  execFileSync('llvm-lipo-22', ['-create', '-output', fat,
    join(dir, 'x86_64-apple-macosx.o'), join(dir, 'arm64-apple-macosx.o')]);
  const info = inspect(read(fat), 'fat.o');
  expect(info.format).toBe('macho-universal');
  expect(info.slices.map((s) => [s.name, s.format, s.arch]).sort()).toEqual(
    [['fat.o(aarch64)', 'macho', 'aarch64'], ['fat.o(x86_64)', 'macho', 'x86_64']]);
  expect(() => inspect(read(fat).subarray(0, 40), 'fat.o')).toThrow(/^fat\.o/);
});
