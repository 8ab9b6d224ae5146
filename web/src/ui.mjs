// Small DOM helpers every panel uses. Errors always go on the page, never only
// to the console.
export const $ = id => document.getElementById(id);
export const hex = n => '0x' + Number(n).toString(16);
export const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const esc = s => String(s).replace(/[&<>"]/g, c => ENTITIES[c]);
export const message = e => e?.message ?? String(e);

export function showError(id, msg) {
  const e = $(id);
  e.textContent = msg;
  e.hidden = !msg;
}
export const banner = msg => showError('banner', msg);

// The status line under the console: what the last link or run did.
export function setStatus(text, kind) {
  const s = $('run-status');
  s.textContent = text;
  s.className = `status ${kind}`;
}

// Counters on <body> that tests and the benchmark wait for (links, runs).
export function bump(counter) {
  document.body.dataset[counter] = String(Number(document.body.dataset[counter] ?? 0) + 1);
}

export const row = cells => `<tr>${cells.map(c => `<td>${esc(c)}</td>`).join('')}</tr>`;
export function table(cols, rows) {
  return `<table><tr>${cols.map(c => `<th>${esc(c)}</th>`).join('')}</tr>${rows.map(row).join('')}</table>`;
}

export async function fetchBytes(url, init) {
  const r = await fetch(url, init);
  if (!r.ok) throw new Error(`cannot load ${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

// Ranges [{begin, end}] (end exclusive) of url in one request: {pieces, size}
// (pieces in the order asked, size the file's). The server answers several
// ranges as multipart/byteranges; anything but 206 is an error.
export async function fetchRanges(url, ranges) {
  const r = await fetch(url, { headers: { range: `bytes=${ranges.map(x => `${x.begin}-${x.end - 1}`).join(',')}` } });
  if (r.status !== 206) throw new Error(`cannot load ${url} by range: HTTP ${r.status}`);
  const body = new Uint8Array(await r.arrayBuffer());
  const boundary = /^multipart\/byteranges;\s*boundary=(\S+)$/.exec(r.headers.get('content-type') ?? '')?.[1];
  const parts = boundary ? byteRangeParts(body, boundary, url)
                         : [{ ...contentRange(r.headers.get('content-range'), url), bytes: body }];
  const byBegin = new Map(parts.map(p => [p.begin, p.bytes]));
  const pieces = ranges.map(x => {
    const b = byBegin.get(x.begin);
    if (!b) throw new Error(`cannot load ${url} by range: bytes ${x.begin}-${x.end - 1} missing from the answer`);
    return b;
  });
  return { pieces, size: parts[0].size };
}
function contentRange(header, url) {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header ?? '');
  if (!m) throw new Error(`cannot load ${url} by range: bad Content-Range '${header}'`);
  return { begin: Number(m[1]), end: Number(m[2]) + 1, size: Number(m[3]) };
}
// The parts of a multipart/byteranges body: [{begin, end, size, bytes}].
function byteRangeParts(body, boundary, url) {
  const text = new TextDecoder('latin1'); // headers are ASCII; offsets stay byte offsets
  const parts = [];
  const delimiter = `--${boundary}`;
  for (let at = 0; ;) {
    const head = text.decode(body.subarray(at, at + 512));
    if (!head.startsWith(delimiter)) throw new Error(`cannot load ${url} by range: malformed multipart answer`);
    if (head.startsWith(`${delimiter}--`)) return parts;
    const headersEnd = head.indexOf('\r\n\r\n');
    const cr = /\r\ncontent-range: *([^\r]*)/i.exec(head.slice(0, headersEnd));
    if (headersEnd < 0 || !cr) throw new Error(`cannot load ${url} by range: malformed multipart part`);
    const part = contentRange(cr[1], url), start = at + headersEnd + 4;
    parts.push({ ...part, bytes: body.subarray(start, start + part.end - part.begin) });
    at = start + part.end - part.begin + 2; // the CRLF before the next delimiter
  }
}
