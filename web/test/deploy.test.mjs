// deploy/ exercised: Debian's nginx with deploy/nginx/linklab.conf (paths,
// ports and listen address replaced) in front of two server instances
// sharing a PostgreSQL link store, all started here on loopback in a
// temporary folder and stopped at the end; the container file and the
// Kubernetes manifest checked as far as this machine allows (parsed, their
// references resolved).
//   node --test test/deploy.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';
import { spawn, execFileSync } from 'node:child_process';
import YAML from 'yaml';
import {
  ROOT, L, until, serverProcess, executorsOf, alive, client, compileInput, freePort, metric,
} from './serve-helpers.mjs';
import { ARCHES } from '../runtimes.mjs';

let tmp, pg, nginx, instances = [], nginxUrl, origin, spin;
const root = process.getuid() === 0;

function pgBin(name) {
  const dir = fs.readdirSync('/usr/lib/postgresql').sort().pop();
  return `/usr/lib/postgresql/${dir}/bin/${name}`;
}
// PostgreSQL refuses to run as root: as root, its commands run as the postgres user.
const asPostgres = (cmd, args) => root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];

async function startPostgres() {
  const dir = path.join(tmp, 'pg');
  fs.mkdirSync(dir);
  if (root) execFileSync('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  const run = (cmd, args) => execFileSync(...asPostgres(cmd, args), { stdio: 'pipe' });
  run(pgBin('initdb'), ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  run(pgBin('pg_ctl'), ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-t', '60',
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`,
           stop: () => run(pgBin('pg_ctl'), ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']) };
}

async function startNginx(ports, port) {
  const dir = path.join(tmp, 'nginx');
  fs.mkdirSync(dir);
  let conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx/linklab.conf'), 'utf8');
  conf = conf.replaceAll('/srv/linklab', ROOT).replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replaceAll('127.0.0.1:8081', `127.0.0.1:${ports[0]}`).replaceAll('127.0.0.1:8082', `127.0.0.1:${ports[1]}`);
  fs.writeFileSync(path.join(dir, 'linklab.conf'), conf);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(t => `${t}_temp_path ${dir}/${t};`).join(' ');
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `${root ? 'user root;' : ''}
daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 512; }
http { access_log ${dir}/access.log; ${temp} include ${dir}/linklab.conf; }
`);
  execFileSync('nginx', ['-t', '-q', '-e', `${dir}/error.log`, '-p', dir, '-c', `${dir}/nginx.conf`],
               { stdio: 'pipe' });
  const proc = spawn('nginx', ['-e', `${dir}/error.log`, '-p', dir, '-c', `${dir}/nginx.conf`], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  await until(() => fetch(url).then(r => r.ok, () => false), 10000, 'nginx to answer');
  return { url, proc, stop: () => { proc.kill('SIGTERM'); return new Promise(r => proc.once('exit', r)); } };
}

before(async () => {
  execFileSync(path.join(ROOT, 'scripts/install-deps.sh'), { stdio: 'ignore' });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'linklab-deploy-'));
  fs.chmodSync(tmp, 0o755);
  spin = [compileInput('serve-spin.c', 'x86_64', tmp)];
  pg = await startPostgres();
  const ports = [await freePort(), await freePort()];
  const nginxPort = await freePort(); // reserved now so the instances can allow its origin
  origin = `http://127.0.0.1:${nginxPort}`;
  instances = await Promise.all(ports.map(p => serverProcess(['--port', String(p), '--store', pg.url,
    '--trust-proxy', '--origin', origin, '--max-wall-millis', '60000'])));
  nginx = await startNginx(ports, nginxPort);
  nginxUrl = nginx.url;
});
after(async () => {
  await nginx?.stop();
  for (const i of instances) await i.stop();
  pg?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// GET through nginx without decompressing: {status, headers, body}.
const rawGet = (url, headers = {}) => new Promise((resolve, reject) => {
  http.get(url, { headers }, res => {
    const parts = [];
    res.on('data', d => parts.push(d));
    res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
  }).on('error', reject);
});

test('nginx serves the static files itself, precompressed where a .gz sits beside them', async () => {
  const index = await rawGet(`${nginxUrl}index.html`);
  assert.equal(index.status, 200);
  assert.match(index.headers.server, /^nginx/);
  assert.ok(index.body.equals(fs.readFileSync(path.join(ROOT, 'web/index.html'))));
  const mod = await rawGet(`${nginxUrl}src/app.mjs`);
  assert.equal(mod.headers['content-type'], 'text/javascript');
  // A precompressed file: sent as its .gz, which decompresses to the file.
  const gallery = path.join(ROOT, 'build/web-gallery');
  const plain = path.join(gallery, 'deploy-test.json');
  const text = JSON.stringify({ filler: 'x'.repeat(4000) });
  fs.writeFileSync(plain, text);
  fs.writeFileSync(`${plain}.gz`, zlib.gzipSync(text));
  try {
    const gz = await rawGet(`${nginxUrl}gallery/deploy-test.json`, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(gz.body).toString(), text);
  } finally {
    fs.rmSync(plain);
    fs.rmSync(`${plain}.gz`);
  }
  // What is not the page's is not served; a Range bomb is refused.
  assert.equal((await rawGet(`${nginxUrl}server/bridge.mjs`)).status, 404);
  assert.equal((await rawGet(`${nginxUrl}test/serve.test.mjs`)).status, 404);
  const ranges = Array.from({ length: 2100 }, (_, i) => `${i}-${i}`).join(',');
  const bomb = await rawGet(`${nginxUrl}index.html`, { range: `bytes=${ranges}` });
  // 2100 ranges need a header past nginx's 8 KB header buffers: refused before any file is read.
  assert.equal(bomb.status, 400);
  const overlap = await rawGet(`${nginxUrl}index.html`, { range: `bytes=${Array(60).fill('0-').join(',')}` });
  assert.ok(overlap.body.length <= fs.statSync(path.join(ROOT, 'web/index.html')).size * 1.1);
  // The server-made files come from an instance.
  assert.equal((await fetch(`${nginxUrl}bundle/app.mjs`)).status, 200);
  const config = await (await fetch(`${nginxUrl}config.json`)).json();
  assert.equal(config.executor, 'executor');
  // A prepared runtime blob, from disk through nginx, cached for good.
  const manifest = await rawGet(`${nginxUrl}runtimes/b/${config.runtimes.x86_64}.gz`);
  assert.equal(manifest.status, 200);
  assert.match(manifest.headers['cache-control'], /immutable/);
  const onDisk = path.join(ROOT, `build/web-runtimes/b/${config.runtimes.x86_64}.gz`);
  assert.ok(manifest.body.equals(fs.readFileSync(onDisk)));
  assert.equal((await fetch(`${nginxUrl}healthz`)).status, 200);
});

test('a program runs through nginx\'s /executor (the C runtime from /runtime/ through nginx too)', async () => {
  const hello = { name: 'hello.o', bytes: fs.readFileSync(path.join(ROOT, 'build/web-gallery/x86_64/hello/hello.o')) };
  const { triple } = ARCHES.x86_64;
  const info = L.runtimeInfo(triple);
  const runtime = await L.readRuntimeFiles(triple); // the same bytes nginx's /runtime/ proxies, checked next
  const libc = info.files.find(f => f.name === 'libc.a');
  const viaNginx = Buffer.from(await (await fetch(`${nginxUrl}runtime/x86_64/libc.a`)).arrayBuffer());
  assert.ok(viaNginx.equals(fs.readFileSync(libc.path)));
  const c = await client(nginxUrl, origin);
  const r = await c.run([hello], { runtime });
  assert.equal(r.exitCode, 0, JSON.stringify(r));
  assert.match(c.output, /hello, world/);
  c.close();
  // A foreign origin is refused through nginx as well.
  await assert.rejects(client(nginxUrl, 'http://evil.example'), /cannot connect to executor/);
});

test('a short link made through one instance opens through the other and through nginx (PostgreSQL)', async () => {
  const session = { format: 'linklab-session', version: 1, arch: 'riscv64', objects: [], run: { args: 'shared' } };
  const made = await (await fetch(`${instances[0].url}s`, { method: 'POST', body: JSON.stringify(session) })).json();
  assert.match(made.id, /^[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(await (await fetch(`${instances[1].url}s/${made.id}.json`)).json(), session);
  assert.deepEqual(await (await fetch(`${nginxUrl}s/${made.id}.json`)).json(), session);
  const viaNginx = await (await fetch(`${nginxUrl}s`, { method: 'POST', body: JSON.stringify(session) })).json();
  assert.equal(viaNginx.id, made.id);
  assert.equal((await fetch(`${nginxUrl}s/${'B'.repeat(22)}`)).status, 404);
});

test('an instance killed mid-run: its client gets an error, no executor is left, the other serves', async () => {
  const c = await client(nginxUrl, origin);
  const running = c.run(spin, { limits: { wallMillis: 60000 } }).catch(e => e);
  const holder = await until(() => instances.find(i => executorsOf(i.proc.pid).length), 10000, 'the run\'s executor');
  const pids = executorsOf(holder.proc.pid);
  holder.proc.kill('SIGKILL');
  assert.match(String((await running)?.message), /executor/);
  await until(() => pids.every(p => !alive(p)), 5000, 'the killed instance\'s executors to end');
  // nginx moves the client's next session to the other instance.
  const other = instances.find(i => i !== holder);
  const d = await client(nginxUrl, origin);
  const r = await d.run(spin, { limits: { instructions: 100000 } });
  assert.equal(r.status, 'instruction limit');
  d.close();
  assert.ok(await metric(other.url, 'linklab_runs_started_total') >= 1);
  // Short links still open through nginx.
  assert.equal((await fetch(`${nginxUrl}healthz`)).status, 200);
});

test('the container file and the Kubernetes manifest hold together', () => {
  const docs = YAML.parseAllDocuments(fs.readFileSync(path.join(ROOT, 'deploy/kubernetes/linklab.yaml'), 'utf8'));
  for (const d of docs) assert.deepEqual(d.errors, []);
  const objs = docs.map(d => d.toJS());
  const kind = k => { const o = objs.find(x => x.kind === k); assert.ok(o, `no ${k}`); return o; };
  const dep = kind('Deployment'), svc = kind('Service'), hpa = kind('HorizontalPodAutoscaler');
  const pod = dep.spec.template;
  assert.deepEqual(dep.spec.selector.matchLabels, pod.metadata.labels);
  for (const [k, v] of Object.entries(svc.spec.selector)) assert.equal(pod.metadata.labels[k], v);
  const [container] = pod.spec.containers;
  const port = container.ports.find(p => p.name === 'http');
  assert.equal(container.readinessProbe.httpGet.path, '/healthz');
  assert.ok([port.name, port.containerPort].includes(container.readinessProbe.httpGet.port));
  assert.ok(container.resources.requests.cpu, 'the HPA scales on CPU: requests must be set');
  assert.equal(hpa.apiVersion, 'autoscaling/v2');
  assert.deepEqual([hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name], ['Deployment', dep.metadata.name]);
  assert.equal(hpa.spec.metrics[0].resource.name, 'cpu');
  assert.ok(svc.spec.ports.some(p => p.targetPort === 'http' || p.targetPort === port.containerPort));
  // The container's command is the server's, with options it accepts.
  const args = container.args ?? [];
  const help = execFileSync(process.execPath, [path.join(ROOT, 'web/server.mjs'), '--help'], { encoding: 'utf8' });
  for (const a of args.filter(x => x.startsWith('--'))) assert.ok(help.includes(`${a} `) || help.includes(`${a}\n`), a);
  // Every file the container file copies exists, and it starts the server on the probe's port.
  const file = fs.readFileSync(path.join(ROOT, 'deploy/Containerfile'), 'utf8');
  for (const [, src] of file.matchAll(/^COPY (?!--from)(\S+) /gm)) assert.ok(fs.existsSync(path.join(ROOT, src)), src);
  assert.match(file, /web\/server\.mjs/);
  assert.match(file, new RegExp(`EXPOSE ${port.containerPort}\\b`));
});
