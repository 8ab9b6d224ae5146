// Bundles as tests: a playground bundle file replayed in Node — linked and
// run as the page did, in a spawned linklab-executor — and compared with
// the outcome the page recorded. In a Jest test:
//   import { replayBundle } from 'linklab/jest';
//   test('my reproducer', () => replayBundle('session.linklab.json'));
// A mismatch rejects with what differs, so the test fails saying so.
import { readFileSync } from 'node:fs';
import * as L from './node.mjs';
import {
  compareOutcomes, decodeBundleText, decodeFragment, fetchShortLink, fromBase64, hasFragment, openBundle,
  outcomeNote, runSession,
} from './lib/bundle.mjs';

/**
 * Replays `bundle`: a bundle file's path, a share link (a URL with the
 * page's "#s=" fragment), a short link the playground server stores
 * (http(s)://HOST/s/<id>, fetched from it), or a session object as the page
 * makes it, with its recorded stdin, arguments, options and limits.
 * Resolves to {outcome, recorded, notes}; notes say when the bundle was made
 * by another linklab version, and what of the outcome could not be compared
 * (output a server cut). Options: executor (path of linklab-executor;
 * default $LINKLAB_EXECUTOR or PATH).
 */
export async function replayBundle(bundle, { executor: executorPath } = {}) {
  const link = typeof bundle === 'string' && hasFragment(bundle);
  // Any other http(s) URL is taken for a short link: fetchShortLink says when it is none.
  const short = typeof bundle === 'string' && !link && /^https?:\/\//i.test(bundle);
  const where = link ? 'share link' : short ? `short link ${bundle}` : typeof bundle === 'string' ? bundle : 'bundle';
  const { session, notes } = link ? await decodeFragment(bundle)
    : short ? await fetchShortLink(bundle)
      : typeof bundle === 'string' ? decodeBundleText(readFileSync(bundle, 'utf8'), where)
        : openBundle(bundle, where);
  if (!session.outcome) throw new Error(`${where}: it records no outcome to compare with (run it in the page first)`);
  if (!session.objects.length) throw new Error(`${where}: it has no objects`);
  const first = session.objects[0];
  const triple = L.inspect(fromBase64(first.data), first.name).triple;
  const runtime = session.options?.runtime === false ? null : L.readRuntimeFiles(triple);
  const executor = await L.spawnExecutor(triple, executorPath);
  let outcome;
  try {
    outcome = await runSession(L, session, { executor, runtime, triple });
  } finally {
    await executor.close().catch(() => {});
  }
  const note = outcomeNote(session.outcome);
  if (note) notes.push(note);
  const diffs = compareOutcomes(session.outcome, outcome, session.version);
  if (diffs.length)
    throw new Error(`${where}: the replay differs from the recorded outcome:\n  ${diffs.join('\n  ')}` +
                    (notes.length ? `\n(${notes.join('; ')})` : ''));
  return { outcome, recorded: session.outcome, notes };
}
