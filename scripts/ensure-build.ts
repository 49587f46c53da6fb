import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Builds the web app when the build is missing or older than any of its sources. */
const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'build', 'server', 'index.js');
const sources = ['src/web', 'src/contracts', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json'];

function newestMtime(target: string): number {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((name) => newestMtime(path.join(target, name))));
}

export function ensureBuild(): void {
  const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (builtAt >= Math.max(...sources.map(newestMtime))) return;
  console.log(
    builtAt ? 'Sources changed since the last build: rebuilding the web app…' : 'Building the web app (first start)…',
  );
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.cjs'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (result.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
}
