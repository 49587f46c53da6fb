/**
 * Scale-out figures (docs/performance.md "10. Scale-out"): a second app instance on the same PostgreSQL.
 *
 * 1. Throughput from one instance to two, for the signed-in ticket list and user message posts:
 *    the same 10 connections either all on instance A, or 5 on A and 5 on B at the same time,
 *    alternating rounds; the sum of both instances' requests is compared with A alone.
 * 2. Live delivery across instances: 5,000 streams (100 users × 50 tickets), alternately on A and
 *    B; one admin answer per ticket, posted alternately through A and B, so half of the answers
 *    reach their subscriber through the other instance (PostgreSQL NOTIFY). Memory per idle stream
 *    on each instance.
 * 3. Presence across instances (bench/lib/presence.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import { startServer } from '../../tests/helpers/server-process.ts';
import { createAccounts, createTickets, signIn } from './fixtures.ts';
import type { LiveConfig } from './live-clients.ts';
import { runLiveClients } from './live-runner.ts';
import { load, type LoadOptions } from './load.ts';
import { measurePresence } from './presence.ts';
import { MB, median, rssOf, sleep } from './process-stats.ts';

export type RowFn = (figure: string, value: string, goal?: string, met?: boolean, note?: string) => void;

export interface ScaleOutInput {
  /** Environment the first instance was started with (DATABASE_URL, raised limits…). */
  env: Record<string, string>;
  first: { base: string; pid: number };
  db: DatabaseHandle;
  adminToken: string;
  lister: { cookie: string };
  poster: { cookie: string };
  postTickets: string[];
  seconds: number;
  rounds: number;
  /** Streams in the live part (default 5,000: 100 users × 50 tickets). */
  streams?: number;
}

const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;

/** req/s of one instance with 10 connections, and of two with 5 each at the same time. */
async function oneVersusTwo(
  bases: [string, string],
  pathOf: string,
  options: LoadOptions,
  seconds: number,
  rounds: number,
) {
  const one: number[] = [];
  const two: number[] = [];
  const errors = { one: 0, two: 0 };
  await load(bases[0] + pathOf, { ...options, seconds: 1 });
  await load(bases[1] + pathOf, { ...options, seconds: 1 });
  for (let r = 0; r < rounds; r++) {
    const a = await load(bases[0] + pathOf, { ...options, seconds, connections: 10 });
    one.push(a.requests / seconds);
    errors.one += a.non2xx;
    const [b, c] = await Promise.all(bases.map((base) => load(base + pathOf, { ...options, seconds, connections: 5 })));
    two.push((b!.requests + c!.requests) / seconds);
    errors.two += b!.non2xx + c!.non2xx;
  }
  return { one: median(one), two: median(two), errors };
}

export async function scaleOut(input: ScaleOutInput, row: RowFn): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bench-b-'));
  const second = startServer({ ...input.env, DATA_DIR: dataDir }, { script: 'scripts/start.js' });
  try {
    const baseB = (await second.ready).replace('localhost', '127.0.0.1');
    const bases: [string, string] = [input.first.base, baseB];
    const figures: Record<string, unknown> = {};

    // 1. Throughput, one instance → two.
    const list = await oneVersusTwo(
      bases,
      '/api/support/tickets?open=true',
      { headers: { cookie: input.lister.cookie } },
      input.seconds,
      input.rounds,
    );
    row(
      'ticket list: two instances vs one',
      `${(list.two / list.one).toFixed(2)}×`,
      '',
      undefined,
      `${Math.round(list.one)} → ${Math.round(list.two)} req/s (10 connections; 5 + 5 on two); errors ${list.errors.one + list.errors.two}`,
    );
    const postPaths = input.postTickets.map((id) => `/api/support/tickets/${id}/messages`);
    const posts = await oneVersusTwo(
      bases,
      postPaths[0]!,
      {
        method: 'POST',
        headers: { cookie: input.poster.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ messageBody: 'Scale-out benchmark: is my parcel on its way?' }),
        paths: postPaths,
      },
      input.seconds,
      input.rounds,
    );
    row(
      'message posts: two instances vs one',
      `${(posts.two / posts.one).toFixed(2)}×`,
      '',
      undefined,
      `${Math.round(posts.one)} → ${Math.round(posts.two)} req/s over ${postPaths.length} tickets; errors ${posts.errors.one + posts.errors.two}`,
    );
    figures.throughput = { list, posts };

    // 2. Live delivery over both instances.
    const wantedStreams = input.streams ?? 5000;
    const users = Math.ceil(wantedStreams / 50);
    const t0 = performance.now();
    const owners = await createAccounts(input.db, 'scale', users);
    const separate: LiveConfig['separate'] = [];
    let n = 0;
    for (const owner of owners) {
      const { token } = await signIn(bases[n % 2]!, owner.email);
      const tickets = await createTickets(bases[n % 2]!, token, Math.min(50, wantedStreams - separate.length));
      for (const ticketId of tickets) separate.push({ ticketId, token, base: bases[separate.length % 2] });
      n++;
    }
    const setupSeconds = (performance.now() - t0) / 1000;
    const pids = [input.first.pid, second.child.pid!];
    await sleep(1000);
    const before = pids.map(rssOf);
    let idle: number[] = [];
    const config: LiveConfig = {
      base: bases[0],
      adminToken: input.adminToken,
      separate,
      postBases: bases,
      crowd: { ticketId: separate[0]!.ticketId, tokens: [], streams: 0 },
      concurrency: 4,
      crowdPosts: 0,
      crowdGapMs: 0,
      waitMs: 20_000,
    };
    const run = await runLiveClients(config, async () => {
      await sleep(3000);
      idle = pids.map(rssOf);
    });
    const s = run.result.separate;
    row(
      `${run.streams.toLocaleString('en-NZ')} streams over 2 instances, one answer each`,
      `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`,
      'p99 ≤ 100 ms',
      s.p99 <= 100,
      `answers posted alternately through both, so half cross instances by NOTIFY; 4 POSTs in flight; admin POST p50 ${ms(s.postP50)}; streams opened in ${(run.result.openMs / 1000).toFixed(1)} s (${run.failedStreams} failed); set-up ${setupSeconds.toFixed(0)} s`,
    );
    row('  missing', String(s.missing), '0', s.missing === 0, `${s.received} of ${s.expected} delivered`);
    const perStream = pids.map((_, i) => (idle[i]! - before[i]!) / (run.streams / 2));
    row(
      '  memory per idle stream',
      perStream.map((b) => `${(b / 1024).toFixed(1)} kB`).join(' / '),
      '',
      undefined,
      `instance A ${MB(before[0]!)} → ${MB(idle[0]!)}, B ${MB(before[1]!)} → ${MB(idle[1]!)} with ${run.streams / 2} streams each`,
    );
    figures.live = { ...run, before, idle, perStream, setupSeconds };

    // 3. Presence: a colleague on B opens, types on and leaves a ticket; an inbox on A is told.
    const presence = await measurePresence(input.db, bases, input.postTickets);
    for (const [what, key] of [
      ['opened on B, shown in an inbox on A', 'viewing'],
      ['typing on B, shown on A', 'typing'],
      ['tab closed on B, gone on A', 'gone'],
    ] as const)
      row(
        `presence: ${what}`,
        `p50 ${ms(presence[key].p50)}, p95 ${ms(presence[key].p95)}, max ${ms(presence[key].max)}`,
        'p95 ≤ 1 s',
        presence[key].p95 <= 1000,
        `${presence.count} tickets, one at a time; a connection lost without a close ends 12 s after its last beat`,
      );
    figures.presence = presence;
    return figures;
  } finally {
    await second.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
