/**
 * Section "coldstart": the server started afresh as `npm start` starts it (the command of
 * package.json's "start", run by this Node; npm itself is timed apart) until the first 200 of `/`,
 * polled from the moment of the spawn on a port chosen beforehand. Restarts on an existing data directory
 * (PGlite) and on a migrated PostgreSQL database, BENCH_RESTARTS each (default 5; the median is the
 * figure), each with where its time went: the steps the server marks as it starts (serve.ts logs
 * them, in ms since the process started, at LOG_LEVEL=info) and the first page after it listens.
 * Also a first start on an empty data dir, `npm start` itself, and memory at rest.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../tests/helpers/ports.ts';
import { MB, median, rssOf, sleep } from '../lib/process-stats.ts';
import { ms, results, ROOT, row, type Section } from './common.ts';

const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 5);
const GOAL_MS = 1500;

interface Start {
  /** Spawn → the first 200 of `/`. */
  ms: number;
  rss: number;
  /** The server's own marks (serve.ts): step → ms since its process started. */
  steps: Record<string, number>;
}

/** Asks for `/` until it answers 200 (a refused connection or a 503 is asked again 5 ms later). */
async function firstOk(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    const res = await fetch(url).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200) return;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited:\n${output()}`);
    await sleep(5);
  }
}

/** The steps of the server's "started" log line. */
function stepsIn(output: string): Record<string, number> {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; startUpMs?: Record<string, number> };
      if (entry.msg === 'started' && entry.startUpMs) return entry.startUpMs;
    } catch {
      // not a log line
    }
  }
  return {};
}

/**
 * What `npm start` runs (package.json's "start" script, read, so that this follows it): Node's
 * flags and the entry script, given to this Node.
 */
function startCommand(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [node, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (node !== 'node') throw new Error(`npm start does not start node: ${pkg.scripts.start}`);
  return args;
}

/** One start of the server's process as `npm start` runs it, until the first 200 of `/`. */
async function coldStart(env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, startCommand(), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const url = `http://127.0.0.1:${port}`;
    await firstOk(`${url}/`, child, () => out);
    const elapsed = performance.now() - started;
    for (const p of ['/faqs', '/api/faqs?type=general', '/about', '/support'])
      await (await fetch(url + p)).arrayBuffer();
    await sleep(1000);
    return { ms: elapsed, rss: rssOf(child.pid!), steps: stepsIn(out) };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

/** One `npm start` (npm, then the server it starts) until the first 200 of `/`. */
async function npmStart(env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm, its shell and the server stop together.
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    await firstOk(`http://127.0.0.1:${port}/`, child, () => out);
    return performance.now() - started;
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

/** Each step's share: the time from the step before it to its mark, then the first page. */
const STEP_NAMES: Array<[string, string]> = [
  ['node started', 'Node and its entry script'],
  ['build checked', 'build staleness check'],
  ['server entry loaded', 'the entry point, serve.ts and the database modules'],
  ['configuration read', 'configuration and data dir lock'],
  // The database opens while the app's modules and the web build load (serve.ts): one main thread.
  ['database connected', 'PostgreSQL connection, with the modules loading alongside'],
  ['embedded database open', 'PGlite open (engine, its files, the data dir), with the modules loading alongside'],
  ['migrations checked', 'migrations check'],
  ['database ready', 'durability and seed checks'],
  ['modules and web build loaded', 'app modules and web build, what was left of them'],
  ['app built', 'app built (plugins, modules, routes)'],
  ['listening', 'storage sweep, workers started, listening'],
];

/** The median of each step's share over `starts`, and the first page (first 200 − listening). */
function breakdown(starts: Start[]): { parts: Array<[string, number]>; text: string } {
  const parts: Array<[string, number]> = [];
  for (const [i, [mark, label]] of STEP_NAMES.entries()) {
    const shares = starts
      .map((s) => {
        if (s.steps[mark] === undefined) return Number.NaN;
        const before = STEP_NAMES.slice(0, i)
          .map(([m]) => s.steps[m])
          .filter((v): v is number => v !== undefined);
        return s.steps[mark]! - (before.length ? Math.max(...before) : 0);
      })
      .filter((v) => !Number.isNaN(v));
    if (shares.length) parts.push([label, median(shares)]);
  }
  const firstPage = starts.filter((s) => s.steps.listening !== undefined).map((s) => s.ms - s.steps.listening!);
  if (firstPage.length) parts.push(['first page (/ rendered and sent)', median(firstPage)]);
  return { parts, text: parts.map(([label, v]) => `${label} ${Math.round(v)}`).join(' · ') };
}

async function restarts(env: Record<string, string>): Promise<Start[]> {
  const starts: Start[] = [];
  for (let i = 0; i < RESTARTS; i++) starts.push(await coldStart(env));
  return starts;
}

/** Run after the shared server has stopped; `databaseUrl` is the bench database it migrated. */
export const coldStartSection: Section<{ databaseUrl: string }> = {
  name: 'coldstart',
  title: 'Cold start: spawn the server as npm start runs it → first 200 of /',
  async run({ databaseUrl }) {
    const newDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-cold-'));
    const dirs: string[] = [];
    const empty: Start[] = [];
    for (let i = 0; i < 3; i++) {
      dirs.push(newDir());
      empty.push(await coldStart({ DATA_DIR: dirs[i]! }));
    }
    const existing = await restarts({ DATA_DIR: dirs[0]! });
    const pgDir = newDir();
    dirs.push(pgDir);
    // Once first, not counted: it migrates the database if the shared server has not.
    await coldStart({ DATA_DIR: pgDir, DATABASE_URL: databaseUrl });
    const pgStarts = await restarts({ DATA_DIR: pgDir, DATABASE_URL: databaseUrl });
    const npmStarts: number[] = [];
    for (let i = 0; i < 3; i++) npmStarts.push(await npmStart({ DATA_DIR: dirs[0]! }));

    const med = (list: Array<{ ms: number }>) => median(list.map((x) => x.ms));
    const each = (list: Array<{ ms: number }>) => list.map((x) => ms(x.ms)).join(', ');
    const pglite = breakdown(existing);
    const postgres = breakdown(pgStarts);
    row(
      'restart on an existing data directory (PGlite), process start → first 200 on /',
      ms(med(existing)),
      `≤ ${GOAL_MS} ms`,
      med(existing) <= GOAL_MS,
      `median of ${existing.length}: ${each(existing)}`,
    );
    row('  where its time went (PGlite), median ms', '', '', undefined, pglite.text);
    row(
      'restart on PostgreSQL (migrated database), process start → first 200 on /',
      ms(med(pgStarts)),
      `≤ ${GOAL_MS} ms`,
      med(pgStarts) <= GOAL_MS,
      `median of ${pgStarts.length}: ${each(pgStarts)}`,
    );
    row('  where its time went (PostgreSQL), median ms', '', '', undefined, postgres.text);
    row(
      'restart via `npm start` (PGlite), spawn of npm → first 200 on /',
      ms(median(npmStarts)),
      '',
      undefined,
      `median of ${npmStarts.length}: ${npmStarts.map(ms).join(', ')}; npm's own start-up is the difference`,
    );
    row(
      'first start on an empty data dir (PGlite)',
      ms(med(empty)),
      '',
      undefined,
      `median of ${empty.length}; creates the database, migrates and seeds`,
    );
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
    results.coldStart = {
      existing,
      empty,
      postgres: pgStarts,
      npmStart: npmStarts,
      breakdown: { pglite: pglite.parts, postgres: postgres.parts },
    };
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  },
};
