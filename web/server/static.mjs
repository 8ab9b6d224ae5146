// Files from disk through `send` (npm: conditional GET, one byte range,
// HEAD), which the page's whole-file and archive-head
// fetches use. Several ranges in one request (the page's member fetches, a
// batch a round) are a multipart/byteranges answer written here, parsed by
// range-parser (send's own parser); ranges adding up to more than the file
// (overlapping ones: a few hundred bytes of header asking for the file many
// times over) or more than MAX_RANGES of them are refused with 416. (Node
// itself refuses headers past 16 KiB.)
import fs from 'node:fs';
import send from 'send';
import parseRange from 'range-parser';

// A round of the page's member fetch asks for hundreds of members.
export const MAX_RANGES = 2048;

export async function serveFile(req, res, file, type, cacheControl = 'no-cache') {
  const range = req.headers.range;
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
    r.setHeader('etag', `"${stat.size.toString(16)}-${Math.round(stat.mtimeMs).toString(16)}"`);
  });
  s.on('error', err => {
    if (res.headersSent) return res.destroy();
    if (err.status === 404 || err.status === 403) return notFound(req, res);
    res.writeHead(err.status ?? 500, { 'content-type': 'text/plain' });
    res.end(`${err.message}\n`);
  });
  s.pipe(res);
}

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
