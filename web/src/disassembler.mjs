// Machine code to text with Capstone 5 (npm @alexaltea/capstone-js, BSD-3: a
// wasm build of Capstone for browsers). Its script is a classic one that
// defines the global MCapstone; it is loaded on first use only (3 MB of
// wasm), never on the way to the first run.
// The static site (build-site.mjs) names its own copy.
const SCRIPT = globalThis.linklabAssets?.capstone ?? '/node_modules/@alexaltea/capstone-js/dist/capstone.js';

// Capstone's arch and mode per playground architecture. RISC-V objects use
// the C extension (rv64gc), so compressed instructions decode too.
const MODES = {
  x86_64: cs => [cs.ARCH_X86, cs.MODE_64],
  aarch64: cs => [cs.ARCH_ARM64, cs.MODE_ARM],
  riscv64: cs => [cs.ARCH_RISCV, cs.MODE_RISCV64 | cs.MODE_RISCVC],
};

let capstone = null;
function load() {
  capstone ??= new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = SCRIPT;
    s.onload = () => globalThis.MCapstone().then(resolve, reject);
    s.onerror = () => reject(new Error(`cannot load the disassembler (${SCRIPT})`));
    document.head.append(s);
  });
  capstone.catch(() => { capstone = null; }); // a failed load is tried again next time
  return capstone;
}

// The length of the undecodable unit at `bytes[0]`: x86 has no unit (one
// byte), AArch64 instructions are 4 bytes, RISC-V 4 or 2 (low bits 11 = 4).
const unitOf = (arch, bytes) =>
  arch === 'x86_64' ? 1 : arch === 'aarch64' ? 4 : (bytes[0] & 3) === 3 ? 4 : 2;

// A decoder for `arch`: decode(bytes, address) → [{address, size, bytes,
// text}], every byte covered; bytes that are no instruction become
// `.byte`/`.inst` lines rather than ending the listing.
export async function disassembler(arch) {
  if (!MODES[arch]) throw new Error(`no disassembler for ${arch}`);
  const cs = await load();
  const d = new cs.Capstone(...MODES[arch](cs));
  return (bytes, address) => {
    const out = [];
    for (let off = 0; off < bytes.length;) {
      let insns = [];
      try { insns = d.disasm(Array.from(bytes.subarray(off)), address + off); } catch { /* none decoded here */ }
      for (const i of insns) {
        out.push({ address: Number(i.address), size: i.size, bytes: bytes.subarray(off, off + i.size),
                   text: `${i.mnemonic} ${i.op_str}`.trim() });
        off += i.size;
      }
      if (off >= bytes.length) break;
      const n = Math.min(unitOf(arch, bytes.subarray(off)), bytes.length - off);
      const raw = bytes.subarray(off, off + n);
      out.push({ address: address + off, size: n, bytes: raw, invalid: true,
                 text: `.byte ${Array.from(raw, b => '0x' + b.toString(16).padStart(2, '0')).join(', ')}` });
      off += n;
    }
    return out;
  };
}
