/**
 * Section "coldstart": `npm start` (scripts/start.ts) spawned afresh until the first 200 of /, on
 * PGlite (empty and existing data dir) and on the migrated PostgreSQL database; memory at rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../tests/helpers/server-process.ts';
import { MB, median, rssOf, sleep } from '../lib/process-stats.ts';
import { ms, results, row, type Section } from './common.ts';

async function coldStart(env: Record<string, string>): Promise<{ ms: number; rss: number }> {
  const started = performance.now();
  const s = startServer({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env }, { script: 'scripts/start.ts' });
  try {
    const url = (await s.ready).replace('localhost', '127.0.0.1');
    for (;;) {
      const res = await fetch(`${url}/`).catch(() => null);
      await res?.arrayBuffer();
      if (res?.status === 200) break;
      await sleep(5);
    }
    const elapsed = performance.now() - started;
    for (const p of ['/faqs', '/api/faqs?type=general', '/about', '/support'])
      await (await fetch(url + p)).arrayBuffer();
    await sleep(1000);
    return { ms: elapsed, rss: rssOf(s.child.pid!) };
  } finally {
    await s.stop();
  }
}

/** Run after the shared server has stopped; `databaseUrl` is the bench database it migrated. */
export const coldStartSection: Section<{ databaseUrl: string }> = {
  name: 'coldstart',
  title: 'Cold start: spawn `npm start` (scripts/start.ts) → first 200 of /',
  async run({ databaseUrl }) {
    const newDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-cold-'));
    const empty = [];
    const dirs: string[] = [];
    for (let i = 0; i < 3; i++) {
      dirs.push(newDir());
      empty.push(await coldStart({ DATA_DIR: dirs[i]! }));
    }
    const existing = [];
    for (let i = 0; i < 3; i++) existing.push(await coldStart({ DATA_DIR: dirs[0]! }));
    const pgStarts = [];
    for (let i = 0; i < 3; i++) pgStarts.push(await coldStart({ DATA_DIR: newDir(), DATABASE_URL: databaseUrl }));
    const med = (list: Array<{ ms: number }>) => median(list.map((x) => x.ms));
    row(
      'cold start, existing data dir (PGlite)',
      ms(med(existing)),
      '≤ 1500 ms',
      med(existing) <= 1500,
      `median of 3: ${existing.map((x) => ms(x.ms)).join(', ')}`,
    );
    row(
      'cold start, empty data dir (PGlite)',
      ms(med(empty)),
      '',
      undefined,
      `median of 3; creates the database, migrates and seeds`,
    );
    row('cold start, PostgreSQL (migrated database)', ms(med(pgStarts)), '', undefined, `median of 3`);
    row(
      'memory at rest, PGlite',
      MB(median(existing.map((x) => x.rss))),
      '',
      undefined,
      'RSS after start and 5 requests; the database engine runs inside the process',
    );
    if (results.memoryAtRestPostgres)
      row(
        'memory at rest, PostgreSQL',
        MB(results.memoryAtRestPostgres as number),
        '',
        undefined,
        'RSS after start and 5 requests',
      );
    results.coldStart = { existing, empty, postgres: pgStarts };
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  },
};
