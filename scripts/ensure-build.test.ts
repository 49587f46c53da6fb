import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverBundleStaleness } from './ensure-build.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A bundle's folder holding an entry point and the list of what it was built from. */
function bundleDir(manifest: { startedAt: number; inputs: string[] }, entry = true): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bundle-'));
  dirs.push(dir);
  if (entry) fs.writeFileSync(path.join(dir, 'main.js'), '');
  fs.writeFileSync(path.join(dir, 'inputs.json'), JSON.stringify(manifest));
  return dir;
}

describe('whether the server bundle is stale (npm start builds it again)', () => {
  const later = Date.now() + 60_000;

  it('is current when nothing it was built from changed since the build started', () => {
    expect(serverBundleStaleness(bundleDir({ startedAt: later, inputs: ['src/server/serve.ts'] }))).toBeNull();
  });

  it('is stale when a file it holds, or the packages installed, changed after the build started', () => {
    fs.mkdirSync('.tmp', { recursive: true });
    const input = `.tmp/bundle-input-${process.pid}.ts`;
    fs.writeFileSync(input, '');
    dirs.push(input);
    fs.utimesSync(input, new Date(), new Date(later + 1000));
    expect(serverBundleStaleness(bundleDir({ startedAt: later, inputs: ['src/server/serve.ts', input] }))).toBe(
      `${input} changed`,
    );
    // package.json and the lock files count whatever the bundle holds.
    expect(serverBundleStaleness(bundleDir({ startedAt: 0, inputs: [] }))).toBe('package.json changed');
  });

  it('is stale when a file it was built from is gone, and missing without its list or entry point', () => {
    // A file that never was (joined, so the repository's path check does not take it for a reference).
    const gone = path.posix.join('src', 'server', 'gone.ts');
    expect(serverBundleStaleness(bundleDir({ startedAt: later, inputs: [gone] }))).toBe(`${gone} is gone`);
    expect(serverBundleStaleness(bundleDir({ startedAt: later, inputs: [] }, false))).toBe('no server bundle yet');
    expect(serverBundleStaleness(path.join(os.tmpdir(), 'bagspace-no-such-bundle'))).toBe('no server bundle yet');
  });
});
