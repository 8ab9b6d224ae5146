// The suite's global setup: a native reference that cannot be built fails
// the run, even when binaries from an earlier build are lying there.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNative } from './global-setup.mjs';

test('a failed native build throws instead of using stale binaries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'linklab-stale-'));
  try {
    // A build dir cmake cannot build (its cache names no generator), with "old" binaries in place.
    writeFileSync(join(dir, 'CMakeCache.txt'), 'CMAKE_HOME_DIRECTORY:INTERNAL=/nonexistent\n');
    for (const f of ['core/linklab', 'emulator/linklab-executor']) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), '#!/bin/sh\n', { mode: 0o755 });
    }
    expect(() => buildNative(dir)).toThrow(`global-setup: the native reference build in ${dir} failed`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
