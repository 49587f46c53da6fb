/**
 * The byte floor, built in the same run: an empty React Router app in framework mode (bench/floor:
 * one route, a heading and a link) with the same React, React Router, Vite and chunking as ours.
 * What it ships is what any hydrated page of ours must ship before our own code.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manifestRouteBytes } from './bytes.ts';
import type { Sizes } from './sizes.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export function buildFloor(): Sizes {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-floor-'));
  try {
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', '@react-router', 'dev', 'bin.cjs'), 'build', path.join(ROOT, 'bench', 'floor')],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'production', BENCH_FLOOR_OUT: out },
        encoding: 'utf8',
      },
    );
    if (result.status !== 0) throw new Error(`the floor build failed:\n${result.stdout}\n${result.stderr}`);
    return manifestRouteBytes(path.join(out, 'client'), 'routes/home');
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
