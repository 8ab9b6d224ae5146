// The Objects panel: files in (drop or pick; bundles go to Share), the list
// with each object's problem under it, and the session's one architecture.
import { $, esc, message, showError } from '../ui.mjs';
import { ARCHES } from '../../runtimes.mjs';
import { FORMAT_NAMES } from './inspect.mjs';

// The page's architecture name from an inspected object (core's arch name, as
// targets() spells it), null when the page has no runtime for its machine.
const archOf = info => (info.arch in ARCHES ? info.arch : null);

// "MachO machine 16777228 (CPU_TYPE_ARM64)": an object's format and machine, as inspect() reports them.
const machineOf = info => info.format === 'macho-universal' ? 'a universal MachO file'
  : `${FORMAT_NAMES[info.format] ?? info.format} machine ${info.machine} (${info.machineName})`;

const groupBy = (list, key) => {
  const m = new Map();
  for (const x of list) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
};

// An archive's architecture is its object members': one, or an error naming
// the members that disagree. Members that are not objects (the package
// reports each with `error`) are skipped here and shown in Inspect.
function archiveArch(info) {
  const objs = info.members.filter(m => !m.error);
  const foreign = objs.find(m => !archOf(m));
  if (foreign)
    return { error: `member ${foreign.member} is for ${machineOf(foreign)}, ` +
                    'which linklab does not support' };
  const byArch = groupBy(objs, archOf);
  const few = ms => ms.slice(0, 3).map(m => m.member).join(', ') + (ms.length > 3 ? ', …' : '');
  if (byArch.size > 1) {
    const sides = [...byArch].map(([a, ms]) => `${a}: ${few(ms)}`).join('; ');
    return { error: `members for different architectures: ${sides}` };
  }
  return byArch.size ? { arch: [...byArch.keys()][0] } : { error: 'archive has no object members' };
}

// {name, bytes, harness, arch, info, error, archive}: what the package's
// inspector says about one uploaded file.
export function describeObject(L, name, bytes, harness = false) {
  const o = { name, bytes, harness, arch: null, info: null, error: null };
  try {
    o.info = L.inspect(bytes, name);
    o.archive = o.info.format === 'archive';
    const r = o.archive ? archiveArch(o.info) : { arch: archOf(o.info) };
    o.arch = r.arch ?? null;
    if (r.error) o.error = `${name}: ${r.error}`;
    else if (!o.arch) o.error = `${name}: ${machineOf(o.info)} is not supported`;
  } catch (e) { o.error = message(e); }
  return o;
}

// One architecture per session: the first good object decides it, and a
// mixture is an error naming the objects on each side.
function sessionArch(objects) {
  const byArch = groupBy(objects.filter(o => o.arch && !o.error), o => o.arch);
  const sides = [...byArch].map(([a, os]) => `${a}: ${os.map(o => o.name).join(', ')}`).join('; ');
  return {
    arch: byArch.size === 1 ? [...byArch.keys()][0] : null,
    archError: byArch.size > 1
      ? `Objects for different architectures cannot be linked together: ${sides}. Remove the ones you do not want.`
      : '',
  };
}

export function mount(app) {
  const { store } = app;
  const setObjects = objects => store.set({ objects, ...sessionArch(objects) });

  function render({ objects, arch, archError }) {
    $('objects').innerHTML = objects.map((o, i) => `
      <li class="${o.error ? 'bad' : ''}" data-name="${esc(o.name)}">
        <span class="name">${esc(o.name)}</span> <span class="hint">${o.arch ?? '?'} · ${o.bytes.length} B</span>
        <label class="hint"><input type="checkbox" data-harness="${i}" ${o.harness ? 'checked' : ''}
          ${o.archive ? 'disabled' : ''}> harness</label>
        <button data-remove="${i}" title="remove">✕</button>
        ${o.error ? `<div class="error obj-error">${esc(o.error)}</div>` : ''}
      </li>`).join('');
    showError('arch-error', archError);
    $('arch-badge').textContent =
      arch ? `${arch} (${ARCHES[arch].triple})` : archError ? 'mixed architectures' : 'no objects';
  }
  store.on(['objects', 'arch', 'archError'], render);
  // Objects of an architecture: what every link of it reads, fetched now (the link awaits it).
  store.on('arch', ({ arch }) => arch && $('opt-runtime').checked && app.prefetchRuntime(arch).catch(() => {}));

  async function readFiles(files) {
    const list = [];
    for (const f of files) {
      if (/\.json$|\.linklab$/.test(f.name)) { await app.share.loadBundleFile(f); continue; }
      list.push(describeObject(app.L, f.name, new Uint8Array(await f.arrayBuffer())));
    }
    api.add(list);
    app.selectTab('inspect');
  }

  // Cleared after each pick, so choosing the same file again still loads it.
  $('file-input').onchange = e => readFiles([...e.target.files]).finally(() => { e.target.value = ''; });
  const drop = $('drop');
  drop.ondragover = e => { e.preventDefault(); drop.classList.add('over'); };
  drop.ondragleave = () => drop.classList.remove('over');
  drop.ondrop = e => { e.preventDefault(); drop.classList.remove('over'); readFiles(e.dataTransfer.files); };
  $('objects').onclick = e => {
    if (e.target.dataset.remove === undefined) return;
    setObjects(store.state.objects.filter((_, i) => i !== Number(e.target.dataset.remove)));
  };
  $('objects').onchange = e => {
    const i = e.target.dataset.harness;
    if (i !== undefined) store.state.objects[Number(i)].harness = e.target.checked;
  };

  const api = {
    describe: (name, bytes, harness) => describeObject(app.L, name, bytes, harness),
    // Adds objects, replacing any of the same name.
    add(list) {
      const objects = [...store.state.objects];
      for (const o of list) {
        const i = objects.findIndex(x => x.name === o.name);
        if (i >= 0) objects.splice(i, 1, o);
        else objects.push(o);
      }
      setObjects(objects);
    },
    replace: setObjects,
    // Errors name the object they come from: mark it in the list as well.
    markCulprits(msg) {
      for (const li of $('objects').children) li.classList.toggle('culprit', !!msg && msg.includes(li.dataset.name));
    },
  };
  render(store.state);
  return api;
}
