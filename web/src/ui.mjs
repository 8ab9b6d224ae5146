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
