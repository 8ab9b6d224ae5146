// Files from disk through `send` (npm: conditional GET, one byte range,
// HEAD), which the page's whole-file and archive-head
// fetches use. Several ranges in one request (the page's member fetches, a
// batch a round) are a multipart/byteranges answer written here, parsed by
// range-parser (send's own parser); ranges adding up to more than the file
// (overlapping ones: a few hundred bytes of header asking for the file many
// times over) or more than MAX_RANGES of them are refused with 416. (Node
// itself refuses headers past 16 KiB.)
//
// A whole text or wasm file goes out compressed when the browser takes it
// (brotli, else gzip), compressed once per version of the file and kept
// (COMPRESSED_CACHE bytes at most): over a network the wasm core is a third
// of its size. A `.br`/`.gz` sibling no older than the file is sent as that
// encoding instead (as nginx's gzip_static does): scripts/build-wasm.sh
// writes the wasm's at brotli's best quality, 13% smaller than the quality
// this server can afford per request.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import send from 'send';
import parseRange from 'range-parser';

// A round of the page's member fetch asks for hundreds of members.
export const MAX_RANGES = 2048;

const COMPRESSIBLE = /^(text\/|application\/(json|wasm)$)/;
const MIN_COMPRESS = 1024, MAX_COMPRESS = 32 << 20, COMPRESSED_CACHE = 64 << 20;
// Brotli's quality 5: most of its gain over gzip for a fraction of the best quality's time.
const ENCODERS = {
  br: b => promisify(zlib.brotliCompress)(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
                                                         [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
  gzip: b => promisify(zlib.gzip)(b, { level: 6 }),
};

// The encoding to send, from Accept-Encoding (a q of 0 refuses one), or null.
export function encodingFor(req, type) {
  if (!COMPRESSIBLE.test(type)) return null;
  const accepted = new Set();
  for (const part of String(req.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map(p => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (!q || Number(q[1]) > 0) accepted.add(name);
  }
  return Object.keys(ENCODERS).find(e => accepted.has(e)) ?? null;
}

// `${encoding} ${key}` → {tag, body: Promise of the compressed bytes}, oldest first.
const compressedCache = new Map();
let cachedBytes = 0;
export function compressedBody(key, tag, encoding, read, sibling = async () => null) {
  const id = `${encoding} ${key}`, hit = compressedCache.get(id);
  if (hit?.tag === tag) return hit.body;
  if (hit) compressedCache.delete(id);
  const entry = { tag, size: 0 };
  entry.body = sibling(encoding).then(b => b ?? read().then(ENCODERS[encoding])).then(body => {
    entry.size = body.length;
    cachedBytes += body.length;
    for (const [k, e] of compressedCache) {
      if (cachedBytes <= COMPRESSED_CACHE || e === entry) break;
      compressedCache.delete(k);
      cachedBytes -= e.size;
    }
    return body;
  }, e => { compressedCache.delete(id); throw e; });
  compressedCache.set(id, entry);
  return entry.body;
}

// Sends body (or 304 for the tag the browser has), compressed when it takes that.
export async function sendCompressible(req, res, { type, tag, cacheControl, key, read, size, sibling }) {
  // Untagged bytes are not kept: nothing would tell a changed version apart.
  const encoding = tag && size >= MIN_COMPRESS && size <= MAX_COMPRESS ? encodingFor(req, type) : null;
  const etag = tag && (encoding ? `"${tag}-${encoding}"` : `"${tag}"`);
  const headers = { 'content-type': type, 'cache-control': cacheControl, vary: 'accept-encoding',
                    ...(etag ? { etag } : {}) };
  if (etag && req.headers['if-none-match'] === etag) return res.writeHead(304, headers).end();
  const body = encoding ? await compressedBody(key, tag, encoding, read, sibling) : await read();
  if (encoding) headers['content-encoding'] = encoding;
  res.writeHead(200, { ...headers, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export async function serveFile(req, res, file, type, cacheControl = 'no-cache') {
  const range = req.headers.range;
  if (range === undefined && encodingFor(req, type)) {
    let stat;
    try { stat = await fs.promises.stat(file); } catch { return notFound(req, res); }
    if (!stat.isFile()) return notFound(req, res);
    if (stat.size >= MIN_COMPRESS && stat.size <= MAX_COMPRESS)
      return sendCompressible(req, res, { type, cacheControl, key: file, size: stat.size, tag: strongTag(stat),
                                          read: () => fs.promises.readFile(file),
                                          sibling: encoding => precompressed(file, encoding, stat) });
  }
  if (range !== undefined) {
    let stat;
    try { stat = await fs.promises.stat(file); } catch { return notFound(req, res); }
    if (!stat.isFile()) return notFound(req, res);
    // Parts in the order asked, as the page reads them; together no larger than the file.
    const ranges = parseRange(stat.size, range);
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length > MAX_RANGES)
      return refuseRange(res, stat.size, `more than ${MAX_RANGES} ranges`);
    if (Array.isArray(ranges) && ranges.reduce((n, r) => n + r.end - r.start + 1, 0) > stat.size)
      return refuseRange(res, stat.size, 'the ranges add up to more than the file');
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length > 1 && !req.headers['if-range'])
      return multipart(res, file, type, stat.size, ranges);
  }
  // A strong tag (size and mtime, as send's weak one): a cached whole file
  // can then serve later Range requests of the same file (If-Range).
  const s = send(req, file, { dotfiles: 'allow', cacheControl: false, etag: false, lastModified: false });
  s.on('headers', (r, _, stat) => {
    r.setHeader('content-type', type);
    r.setHeader('cache-control', cacheControl);
    r.setHeader('etag', `"${strongTag(stat)}"`);
    if (COMPRESSIBLE.test(type)) r.setHeader('vary', 'accept-encoding');
  });
  s.on('error', err => {
    if (res.headersSent) return res.destroy();
    if (err.status === 404 || err.status === 403) return notFound(req, res);
    res.writeHead(err.status ?? 500, { 'content-type': 'text/plain' });
    res.end(`${err.message}\n`);
  });
  s.pipe(res);
}

// The bytes of file's sibling for `encoding` (file.br, file.gz) if there is
// one no older than the file, else null.
const SIBLING = { br: '.br', gzip: '.gz' };
async function precompressed(file, encoding, stat) {
  try {
    const s = await fs.promises.stat(file + SIBLING[encoding]);
    return s.isFile() && s.mtimeMs >= stat.mtimeMs ? await fs.promises.readFile(file + SIBLING[encoding]) : null;
  } catch {
    return null;
  }
}

const strongTag = stat => `${stat.size.toString(16)}-${Math.round(stat.mtimeMs).toString(16)}`;

function notFound(req, res) {
  res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-cache' });
  res.end(`not found: ${req.url}\n`);
}
function refuseRange(res, size, why) {
  res.writeHead(416, { 'content-range': `bytes */${size}`, 'content-type': 'text/plain' });
  res.end(`range not served: ${why}\n`);
}

// RFC 9110 §14.6: each part with its own Content-Range, read from the file
// part by part as the client takes them.
async function multipart(res, file, type, size, ranges) {
  const boundary = `linklab-${Math.random().toString(36).slice(2)}`;
  const head = r =>
    Buffer.from(`--${boundary}\r\ncontent-type: ${type}\r\ncontent-range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`);
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = ranges.reduce((n, r) => n + head(r).length + (r.end - r.start + 1) + 2, tail.length);
  res.writeHead(206, { 'content-type': `multipart/byteranges; boundary=${boundary}`, 'content-length': length,
                       'cache-control': 'no-cache', 'accept-ranges': 'bytes' });
  const fd = await fs.promises.open(file);
  try {
    for (const r of ranges) {
      const body = Buffer.alloc(r.end - r.start + 1);
      const { bytesRead } = await fd.read(body, 0, body.length, r.start);
      if (bytesRead !== body.length) return res.destroy(); // the file shrank under us
      if (!res.write(Buffer.concat([head(r), body, Buffer.from('\r\n')]))) await drained(res);
      if (res.destroyed) return;
    }
    res.end(tail);
  } catch {
    res.destroy();
  } finally {
    await fd.close();
  }
}
// A client that goes away never drains.
const drained = res => new Promise(resolve => { res.once('drain', resolve); res.once('close', resolve); });
