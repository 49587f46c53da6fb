/**
 * What `npm start` runs, built when it is missing or older than what it is made from: the web app
 * (`react-router build`), then the server's bundle (scripts/build-server.ts), which holds the web
 * app's server build and so is stale after it. JavaScript, not TypeScript, like start.js: this runs
 * at every start, and Node's type stripper takes 0.1 s to load (docs/decisions/158-server-bundle.md).
 * Types: ensure-build.d.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'build', 'server', 'index.js');
const sources = ['src/web', 'src/contracts', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json'];

export const SERVER_BUNDLE_DIR = path.join(root, 'build', 'server-bundle');
/** The bundle's entry point: what `npm start` runs. */
export const SERVER_BUNDLE = path.join(SERVER_BUNDLE_DIR, 'main.js');
/**
 * What decides which package files the bundle holds, and the script that makes it: inputs of every
 * bundle besides the files of its own list (build/server-bundle/inputs.json).
 */
export const SERVER_BUNDLE_ALWAYS = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'scripts/build-server.ts',
];

/** @param {string} target */
function newestMtime(target) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((name) => newestMtime(path.join(target, name))));
}

/** @param {string} script @param {string[]} args @param {string} failure */
function run(script, args, failure) {
  const result = spawnSync(process.execPath, [path.join(root, script), ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error(failure);
    process.exit(result.status ?? 1);
  }
}

/**
 * Why the server bundle in `dir` must be built again, or null when it is current: its list is
 * missing, or a file it lists (relative to the project's root; packages' own files are not listed,
 * the lock files stand for them) is gone or changed after the build started.
 * @param {string} [dir]
 * @returns {string | null}
 */
export function serverBundleStaleness(dir = SERVER_BUNDLE_DIR) {
  /** @type {{ startedAt: number, inputs: string[] }} */
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json'), 'utf8'));
  } catch {
    return 'no server bundle yet';
  }
  if (!fs.existsSync(path.join(dir, 'main.js'))) return 'no server bundle yet';
  for (const input of [...SERVER_BUNDLE_ALWAYS, ...manifest.inputs]) {
    let changed;
    try {
      changed = fs.statSync(path.join(root, input)).mtimeMs;
    } catch {
      // An install without a lock file of its own has no node_modules/.package-lock.json.
      if (SERVER_BUNDLE_ALWAYS.includes(input)) continue;
      return `${input} is gone`;
    }
    if (changed >= manifest.startedAt) return `${input} changed`;
  }
  return null;
}

export function ensureBuild() {
  const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (builtAt < Math.max(...sources.map(newestMtime))) {
    console.log(
      builtAt ? 'Sources changed since the last build: rebuilding the web app…' : 'Building the web app (first start)…',
    );
    run(
      path.join('node_modules', '@react-router', 'dev', 'bin.cjs'),
      ['build'],
      'The build failed; see the messages above.',
    );
  }
  const stale = serverBundleStaleness();
  if (stale) {
    console.log(`Bundling the server (${stale})…`);
    run(path.join('scripts', 'build-server.ts'), [], 'The server bundle could not be built; see the messages above.');
  }
}
