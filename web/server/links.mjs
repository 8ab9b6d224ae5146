// Short links for sessions: POST /s with a session JSON stores it and
// answers {id, url}; GET /s/<id> opens the page on it (/?s=<id>) and
// GET /s/<id>.json returns it (errors as {error}, for the page to show). The id is derived from the content (SHA-256
// of the canonical JSON, 22 base64url characters), so the same session gets
// the same link on every instance. Two stores: files under a folder (the
// default, nothing to set up) and PostgreSQL (for several instances); or
// none (`--store none`: /s answers that this server keeps no links, and
// config.json does not offer them to the page).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export const ID = /^[A-Za-z0-9_-]{22}$/;

export class LinkError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// The session's JSON with object keys sorted: the same session, however its
// keys were ordered, is the same bytes and so the same id.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

// Checks a posted body and returns {id, bytes} to store.
export function prepare(body, maxBytes) {
  if (body.length > maxBytes)
    throw new LinkError(413, `session too large: ${body.length} bytes, the limit is ${maxBytes}`);
  let session;
  try { session = JSON.parse(body.toString('utf8')); } catch (e) {
    throw new LinkError(400, `session is not JSON: ${e.message}`);
  }
  if (session?.format !== 'linklab-session' || !Number.isInteger(session.version))
    throw new LinkError(400, 'not a linklab session: {format: "linklab-session", version} expected');
  const bytes = Buffer.from(canonical(session));
  const id = crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
  return { id, bytes };
}

// Files <dir>/<id[0..2]>/<id>.json, written to a temporary name, fsynced,
// renamed into place and the folder fsynced: a crash leaves the old state
// or the new, never a torn file. The total size is counted at start and
// kept up to date; past maxTotal new links are refused (507).
export async function fileStore(dir, { maxTotal }) {
  await fs.promises.mkdir(dir, { recursive: true });
  let total = 0;
  for (const sub of await fs.promises.readdir(dir)) {
    const d = path.join(dir, sub);
    if (!(await fs.promises.stat(d)).isDirectory()) continue;
    for (const f of await fs.promises.readdir(d)) {
      if (f.endsWith('.tmp')) await fs.promises.rm(path.join(d, f), { force: true }); // a crash's leftovers
      else total += (await fs.promises.stat(path.join(d, f))).size;
    }
  }
  const where = id => path.join(dir, id.slice(0, 2), `${id}.json`);
  return {
    kind: 'files',
    async put(id, bytes) {
      const file = where(id);
      if (fs.existsSync(file)) return;
      if (total + bytes.length > maxTotal) throw new LinkError(507, 'link store full, try again later');
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      const fh = await fs.promises.open(tmp, 'wx');
      try {
        await fh.writeFile(bytes);
        await fh.sync();
      } finally { await fh.close(); }
      await fs.promises.rename(tmp, file);
      const d = await fs.promises.open(path.dirname(file));
      try { await d.sync(); } finally { await d.close(); }
      total += bytes.length;
    },
    async get(id) {
      try { return await fs.promises.readFile(where(id)); } catch (e) {
        if (e.code === 'ENOENT') return null;
        throw e;
      }
    },
    get total() { return total; },
    close: async () => {},
  };
}

// A table links(id, body, created) in PostgreSQL (npm `pg`); several
// instances share it. The same id is the same content, so a second insert
// of it does nothing.
export async function postgresStore(url, { maxTotal }) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000 });
  // Instances starting together would race in CREATE TABLE IF NOT EXISTS
  // (a unique-key error in pg_type): one at a time, under an advisory lock.
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('SELECT pg_advisory_xact_lock(7413025)');
    await c.query(`CREATE TABLE IF NOT EXISTS linklab_links (
      id text PRIMARY KEY, body bytea NOT NULL, created timestamptz NOT NULL DEFAULT now())`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
  return {
    kind: 'postgres',
    async put(id, bytes) {
      const { rows } = await pool.query('SELECT coalesce(sum(length(body)), 0)::bigint AS total FROM linklab_links');
      if (Number(rows[0].total) + bytes.length > maxTotal) throw new LinkError(507, 'link store full, try again later');
      await pool.query('INSERT INTO linklab_links (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [id, bytes]);
    },
    async get(id) {
      const { rows } = await pool.query('SELECT body FROM linklab_links WHERE id = $1', [id]);
      return rows[0]?.body ?? null;
    },
    close: () => pool.end(),
  };
}

export const NO_STORE = 'none';
export const openStore = (where, opts) => where === NO_STORE ? null
  : /^postgres(ql)?:\/\//.test(where) ? postgresStore(where, opts) : fileStore(where, opts);

// Reads at most max bytes of a request body; a larger one is refused
// without reading the rest.
export function readBody(req, max) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) return reject(new LinkError(413, `session too large: ${declared} bytes, the limit is ${max}`));
    const parts = [];
    let size = 0;
    req.on('data', d => {
      size += d.length;
      if (size > max) { req.pause(); reject(new LinkError(413, `session too large: more than ${max} bytes`)); }
      else parts.push(d);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

// Handles /s and /s/... ; returns false for other paths.
export async function handleLinks(req, res, urlPath, { store, maxBytes, metrics, log }) {
  if (urlPath !== '/s' && !urlPath.startsWith('/s/')) return false;
  const page = (status, text) => {
    metrics.links.inc({ outcome: String(status) });
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    const esc = text.replace(/[&<>"]/g, c => `&#${c.charCodeAt(0)};`);
    res.end(`<!doctype html><title>linklab: ${status}</title><p>${esc}</p>` +
            '<p><a href="/">Open the playground</a></p>\n');
  };
  const json = (status, value) => {
    metrics.links.inc({ outcome: String(status) });
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
    res.end(JSON.stringify(value));
  };
  const asJson = req.method === 'POST' || urlPath.endsWith('.json');
  try {
    if (!store) throw new LinkError(404, 'this server keeps no short links (it was started with --store none)');
    if (urlPath === '/s') {
      if (req.method !== 'POST') return page(405, 'POST a session to /s to make a short link.'), true;
      const { id, bytes } = prepare(await readBody(req, maxBytes), maxBytes);
      await store.put(id, bytes);
      log('link.stored', { id, bytes: bytes.length });
      return json(200, { id, url: `/s/${id}` }), true;
    }
    const m = /^\/s\/([^/]*?)(\.json)?$/.exec(urlPath);
    if (!m || !ID.test(m[1]))
      throw new LinkError(400, `'${urlPath.slice(3, 60)}' is not a short link id (22 letters, digits, - or _).`);
    const body = await store.get(m[1]);
    if (!body) throw new LinkError(404, `No session is stored under ${m[1]}.`);
    if (m[2]) {
      metrics.links.inc({ outcome: '200' });
      // The id is the content's hash: what it names never changes.
      res.writeHead(200, { 'content-type': 'application/json',
                           'cache-control': 'public, max-age=31536000, immutable' });
      return res.end(body), true;
    }
    metrics.links.inc({ outcome: '302' });
    res.writeHead(302, { location: `/?s=${m[1]}` });
    res.end();
  } catch (e) {
    if (!(e instanceof LinkError)) log('link.error', { error: e.message }, 'error');
    const status = e instanceof LinkError ? e.status : 500;
    const text = e instanceof LinkError ? e.message : 'the link store failed; try again later';
    if (asJson) json(status, { error: text }); else page(status, text);
    if (!req.complete) req.socket.end(); // the rest of an oversized body is not read
  }
  return true;
}
