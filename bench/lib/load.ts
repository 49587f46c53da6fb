import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuSecondsOf, median } from './process-stats.ts';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  requests: number;
}

export interface LoadOptions {
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  seconds?: number;
  connections?: number;
  /** Paths to cycle through, one per request (e.g. a different ticket each time). */
  paths?: string[];
}

export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  let i = 0;
  const paths = options.paths;
  const result = await autocannon({
    url,
    connections: options.connections ?? 10,
    duration: options.seconds ?? 5,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(paths
      ? {
          requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }) }],
        }
      : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    requests: result.requests.total,
  };
}

export interface SideBySide {
  ours: LoadResult;
  yardstick: LoadResult;
  /** The median of the rounds' ratios (ours over the yardstick's requests per second in the round after). */
  ratio: number;
  rounds: number;
  /** Each pair's ratio, in order: how far apart the rounds of one run fall. */
  pairs: number[];
  /** CPU time of each process per request answered in its own rounds (µs), when their pids are given. */
  cpuPerRequest?: { ours: number; yardstick: number };
}

/**
 * Loads ours and the yardstick in alternating rounds (ours, yardstick, ours, yardstick...) after a
 * short warm-up of each, so both see the same machine. The ratio is the median of the pairs' ratios:
 * on a shared host one disturbed round moves it less than it moves a ratio of sums. Given the two
 * processes' pids, it also reads the CPU time each spent in its own rounds, per request answered:
 * what a request costs the server, whatever the load generator and the neighbours did.
 */
export async function sideBySide(
  ours: () => Promise<LoadResult>,
  yardstick: () => Promise<LoadResult>,
  warmUp: () => Promise<unknown>,
  rounds: number,
  pids?: { ours: number; yardstick: number },
): Promise<SideBySide> {
  await warmUp();
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  const cpu = { ours: 0, yardstick: 0 };
  const timed = async (run: () => Promise<LoadResult>, pid: number | undefined, side: keyof typeof cpu) => {
    const from = pid === undefined ? 0 : cpuSecondsOf(pid);
    const result = await run();
    if (pid !== undefined) cpu[side] += cpuSecondsOf(pid) - from;
    return result;
  };
  for (let r = 0; r < rounds; r++) {
    a.push(await timed(ours, pids?.ours, 'ours'));
    b.push(await timed(yardstick, pids?.yardstick, 'yardstick'));
  }
  const merge = (list: LoadResult[]): LoadResult => ({
    rps: list.reduce((s, x) => s + x.rps, 0) / list.length,
    p50: Math.max(...list.map((x) => x.p50)),
    p99: Math.max(...list.map((x) => x.p99)),
    non2xx: list.reduce((s, x) => s + x.non2xx, 0),
    requests: list.reduce((s, x) => s + x.requests, 0),
  });
  const ourMerged = merge(a);
  const theirs = merge(b);
  const pairs = a.map((x, i) => x.rps / b[i]!.rps);
  return {
    ours: ourMerged,
    yardstick: theirs,
    ratio: median(pairs),
    rounds,
    pairs,
    ...(pids
      ? {
          cpuPerRequest: {
            ours: (cpu.ours / ourMerged.requests) * 1e6,
            yardstick: (cpu.yardstick / theirs.requests) * 1e6,
          },
        }
      : {}),
  };
}

export interface ChildServer {
  url: string;
  pid: number;
  stop(): void;
}

/** Starts a yardstick script that prints `listening <url>`; returns its URL and a stop function. */
export async function startChildServer(script: string, args: string[]): Promise<ChildServer> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /listening (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { url, pid: child.pid!, stop: () => child.kill() };
}

function bodyFile(body: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bare-')), 'body');
  fs.writeFileSync(file, body);
  return file;
}

/** The bare Fastify yardstick answering `body` to any GET or POST, with `headers` too when given. */
export function startBareServer(
  body: Buffer,
  contentType: string,
  headers?: Record<string, string>,
): Promise<ChildServer> {
  const args = [bodyFile(body), contentType];
  if (headers) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bare-')), 'headers.json');
    fs.writeFileSync(file, JSON.stringify(headers));
    args.push(file);
  }
  return startChildServer('bare-server.ts', args);
}

/** The raw-insert yardstick (bare-insert-server.ts). */
export function startBareInsertServer(
  databaseUrl: string,
  body: Buffer,
  userId: string,
  ticketIds: string[],
): Promise<ChildServer> {
  return startChildServer('bare-insert-server.ts', [databaseUrl, bodyFile(body), userId, ticketIds.join(',')]);
}

/** The same-queries yardstick for the ticket list (bare-query-server.ts). */
export function startBareQueryServer(
  databaseUrl: string,
  body: Buffer,
  tokenHash: string,
  userId: string,
): Promise<ChildServer> {
  return startChildServer('bare-query-server.ts', [databaseUrl, bodyFile(body), tokenHash, userId]);
}
