/**
 * `npm run bench`: performance figures of the production build, started as `npm start` would
 * (scripts/start.ts), on a fresh PostgreSQL database that is dropped afterwards. Prints one table
 * and writes bench/results/latest.json. Every comparison is a ratio to a yardstick measured side by
 * side in this run; nothing here passes or fails on a timing (docs/performance.md).
 *
 * Environment: BENCH_SECONDS (per load round, default 5), BENCH_ROUNDS (default 2),
 * BENCH_LIGHTHOUSE_RUNS (default 3), BENCH_ONLY (comma-separated sections: bytes, lighthouse,
 * throughput, live, scaleout, search, attachments, upload, coldstart, embedded, mail, inbound), BENCH_SCALE_STREAMS (live streams over
 * two instances, default 5000), BENCH_MAIL_COUNT (mails recorded, and delivered to
 * .eml files, default 2000), BENCH_MAIL_SMTP_COUNT (mails delivered over SMTP, default 300),
 * TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../scripts/ensure-build.ts';
import { startServer } from '../tests/support/server-process.ts';
import { manifestRouteBytes, measureRouteBytes, type RouteBytes, supportOnlyFiles } from './lib/bytes.ts';
import {
  type Account,
  createAccounts,
  createBenchDatabase,
  createTickets,
  isPostgresReachable,
  openBenchDatabase,
  POSTGRES_ADMIN_URL,
  signIn,
} from './lib/fixtures.ts';
import { buildFloor } from './lib/floor.ts';
import { LIGHTHOUSE_VERSION, runLighthouse } from './lib/lighthouse.ts';
import { runMailBench } from './lib/mail.ts';
import { runInboundBench } from './lib/inbound.ts';
import type { LiveConfig } from './lib/live-clients.ts';
import { runLiveClients } from './lib/live-runner.ts';
import { hashToken } from '../src/server/security/tokens.ts';
import {
  load,
  type LoadResult,
  type SideBySide,
  sideBySide,
  startBareInsertServer,
  startBareQueryServer,
  startBareServer,
} from './lib/load.ts';
import { MB, median, rssOf, sleep } from './lib/process-stats.ts';
import { kB } from './lib/sizes.ts';
import { uploadOnce } from './lib/upload.ts';
import { createSearchCorpus, searchQueries } from './lib/search.ts';
import { scaleOut } from './lib/scale-out.ts';
import { runEmbeddedBench } from './lib/embedded.ts';
import { measureNotifyLimits } from './lib/notify-limits.ts';
import { phonePhoto, sendPhotoOnce } from './lib/attachments.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/server/db/sql.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT_DIR = path.join(ROOT, 'build', 'client');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const mailCount = Number(process.env.BENCH_MAIL_COUNT ?? 2000);
const mailSmtpCount = Number(process.env.BENCH_MAIL_SMTP_COUNT ?? 300);
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const wanted = (section: string) => !only || only.has(section);

const startedAt = Date.now();
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
const results: Record<string, unknown> = {
  startedAt: new Date(startedAt).toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memory: os.totalmem(),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
  },
  settings: { seconds, rounds, lighthouseRuns, mailCount, mailSmtpCount },
};

type Status = 'met' | 'missed' | '';
interface Row {
  section: string;
  figure: string;
  value: string;
  goal: string;
  status: Status;
  note: string;
}
const rows: Row[] = [];
let section = '';
function row(figure: string, value: string, goal = '', met?: boolean, note = '') {
  const status: Status = met === undefined ? '' : met ? 'met' : 'missed';
  rows.push({ section, figure, value, goal, status, note });
  console.log(
    `  ${figure}: ${value}${goal ? `  [goal ${goal}${status ? `: ${status}` : ''}]` : ''}${note ? `  (${note})` : ''}`,
  );
}
async function part(name: string, title: string, work: () => Promise<void>) {
  if (!wanted(name)) return;
  section = name;
  const t0 = performance.now();
  console.log(`\n== ${title} (load average ${loadAverage()})`);
  try {
    await work();
  } catch (error) {
    row('error', 'section did not finish', '', undefined, (error as Error).message.split('\n')[0]!);
    console.error(error);
  }
  const took = (performance.now() - t0) / 1000;
  console.log(`  (${name} took ${took.toFixed(0)} s)`);
  results.durations ??= {} as Record<string, number>;
  (results.durations as Record<string, number>)[name] = took;
}
const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
const fixed = (n: number, d = 2) => n.toFixed(d);

// --- Set-up: build, database, server --------------------------------------------------------------

ensureBuild();
if (!(await isPostgresReachable())) {
  console.error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL). The bench needs it.`);
  process.exit(1);
}
const database = await createBenchDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bench-'));
console.log(
  `Bench database ${database.name}; data dir ${dataDir}; Node ${process.version}; ${os.cpus().length} CPUs; load average ${loadAverage()}`,
);

/** Limits raised so the load is not refused; everything else as `npm start` would run. */
const RAISED_LIMITS = {
  TICKETS_PER_USER_PER_HOUR: '1000000',
  REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
  LOGIN_FAILURES_PER_ACCOUNT: '1000000',
  LOGIN_FAILURES_PER_IP: '1000000',
  ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
  ACCOUNT_EMAILS_PER_HOUR: '1000000',
};
const serverEnv = {
  DATABASE_URL: database.url,
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  ...RAISED_LIMITS,
};
const server = startServer(serverEnv, { script: 'scripts/start.ts' });
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let exitCode = 0;

try {
  const base = (await server.ready).replace('localhost', '127.0.0.1');
  const pid = server.child.pid!;
  const db = await openBenchDatabase(database.url);
  cleanups.push(() => db.close());

  // Memory at rest on PostgreSQL: after start and a few page and API requests.
  for (const p of ['/', '/faqs', '/api/faqs?type=general', '/about', '/support'])
    await (await fetch(base + p)).arrayBuffer();
  await sleep(1000);
  results.memoryAtRestPostgres = rssOf(pid);

  // Accounts and tickets (the app's own code writes them).
  console.log('Creating accounts and tickets…');
  const [admin] = await createAccounts(db, 'admin', 1, 'admin');
  const owners = await createAccounts(db, 'owner', 20);
  const [crowdOwner, lister, poster] = await createAccounts(db, 'user', 3);
  const session = async (a: Account) => signIn(base, a.email);
  const adminSession = await session(admin!);
  const listerSession = await session(lister!);
  const posterSession = await session(poster!);
  const ownerSessions = await Promise.all(owners.map((o) => session(o)));
  const ownerTickets: string[][] = [];
  for (const s of ownerSessions) ownerTickets.push(await createTickets(base, s.token, 50));
  const [crowdTicket] = await createTickets(base, (await session(crowdOwner!)).token, 1);
  const listTickets = await createTickets(base, listerSession.token, 10);
  const postTickets = await createTickets(base, posterSession.token, 100);

  // --- 1. Bytes ----------------------------------------------------------------------------------
  await part(
    'bytes',
    'Bytes: JavaScript and CSS each page loads in Chromium (brotli is what the budget counts)',
    async () => {
      const publicPages = ['/', '/about', '/faqs', '/legal', '/register'];
      const supportPages = ['/support', '/support/ticket/' + listTickets[0], '/support/create-ticket'];
      const adminPages = ['/admin', '/admin/support', '/admin/support/' + listTickets[0]];
      const measured: Array<RouteBytes & { area: string }> = [
        ...(await measureRouteBytes(base, publicPages)).map((r) => ({ ...r, area: 'public' })),
        ...(await measureRouteBytes(base, ['/support'])).map((r) => ({ ...r, area: 'support login screen' })),
        ...(await measureRouteBytes(base, supportPages, listerSession.bearer)).map((r) => ({
          ...r,
          area: 'support (signed in)',
        })),
        ...(await measureRouteBytes(base, adminPages, adminSession.bearer)).map((r) => ({ ...r, area: 'admin' })),
      ];
      const privateOnly = supportOnlyFiles(CLIENT_DIR, (id) => /^routes\/(support|admin)/.test(id));
      for (const r of measured) {
        const isPublic = r.area === 'public';
        const leaked = r.files.filter((f) => privateOnly.has(f));
        row(
          `JS ${r.area} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`,
          `${kB(r.js.brotli)} br`,
          isPublic ? '≤ 85 kB br' : '',
          isPublic ? r.js.brotli <= 85_000 : undefined,
          `${kB(r.js.raw)} raw, ${kB(r.js.gzip)} gz, ${kB(r.servedJs)} as served; CSS ${kB(r.css.raw)} raw, ${kB(r.css.gzip)} gz, ${kB(r.css.brotli)} br; ${r.files.length} files, ${r.requests} requests` +
            (isPublic ? `; support/admin-only files loaded: ${leaked.length}` : ''),
        );
      }
      const publicLeaks = measured
        .filter((r) => r.area === 'public')
        .flatMap((r) => r.files.filter((f) => privateOnly.has(f)));
      const privateLoaded = new Set(
        measured.filter((r) => r.area !== 'public').flatMap((r) => r.files.filter((f) => privateOnly.has(f))),
      );
      row(
        'support/admin-only files loaded by public pages',
        String(publicLeaks.length),
        '0',
        publicLeaks.length === 0,
        `${privateOnly.size} files in the build belong only to support/admin routes; their pages loaded ${privateLoaded.size} of them`,
      );
      const thirdParty = measured.flatMap((r) => r.thirdParty);
      row(
        'third-party requests (all pages above)',
        String(thirdParty.length),
        '0',
        thirdParty.length === 0,
        thirdParty.slice(0, 3).join(', '),
      );
      const floor = buildFloor();
      const home = manifestRouteBytes(CLIENT_DIR, 'routes/home');
      row(
        'floor: empty React Router 8 app, same versions and chunking',
        `${kB(floor.brotli)} br`,
        '',
        undefined,
        `${kB(floor.raw)} raw, ${kB(floor.gzip)} gz; built in this run from bench/floor`,
      );
      row(
        'our / by the same manifest count',
        `${kB(home.brotli)} br`,
        '',
        undefined,
        `${fixed(home.brotli / floor.brotli)}× the floor, +${kB(home.brotli - floor.brotli)} br of our own code`,
      );
      results.bytes = { pages: measured, privateOnly: [...privateOnly], floor, homeByManifest: home };
    },
  );

  // --- 2. Lighthouse -----------------------------------------------------------------------------
  await part(
    'lighthouse',
    `Lighthouse ${LIGHTHOUSE_VERSION} (median of ${lighthouseRuns}; Performance / Accessibility / Best Practices / SEO)`,
    async () => {
      const t0 = performance.now();
      const figures = await runLighthouse(base, ['/', '/about', '/faqs', '/legal', '/register', '/support'], {
        runs: lighthouseRuns,
        onProgress: (line) => console.log(`    ${line}`),
      });
      for (const f of figures) {
        const s = f.scores;
        const all100 = s.performance === 100 && s.accessibility === 100 && s['best-practices'] === 100 && s.seo === 100;
        row(
          `Lighthouse ${f.preset} ${f.path}`,
          `${s.performance} / ${s.accessibility} / ${s['best-practices']} / ${s.seo}`,
          '100 on all four',
          all100,
          `LCP ${ms(f.metrics.lcp)}, TBT ${ms(f.metrics.tbt)}, CLS ${fixed(f.metrics.cls, 3)}, FCP ${ms(f.metrics.fcp)}; third-party ${f.thirdPartyRequests}` +
            (f.failing.length ? `; below 1: ${f.failing.join(', ')}` : ''),
        );
      }
      const took = (performance.now() - t0) / 1000;
      row(
        'Lighthouse time',
        `${took.toFixed(0)} s`,
        '',
        undefined,
        `${figures.length * lighthouseRuns} runs, one at a time; CPU benchmark index median ${Math.round(median(figures.map((f) => f.benchmarkIndex ?? Number.NaN)))}`,
      );
      results.lighthouse = { version: LIGHTHOUSE_VERSION, seconds: took, figures };
    },
  );

  // --- 3. Throughput -----------------------------------------------------------------------------
  await part(
    'throughput',
    `Throughput: autocannon, 10 connections, ${rounds} alternating rounds of ${seconds} s, loopback`,
    async () => {
      const throughput: Record<string, SideBySide & { bytes: number }> = {};
      const cases: Array<{
        label: string;
        path: string;
        headers?: Record<string, string>;
        type: string;
        goal: number;
      }> = [
        { label: 'SSR /faqs page', path: '/faqs', type: 'text/html; charset=utf-8', goal: 0.5 },
        { label: 'GET /api/faqs', path: '/api/faqs?type=general', type: 'application/json; charset=utf-8', goal: 0.5 },
        {
          label: 'signed-in ticket list (10 tickets)',
          path: '/api/support/tickets?open=true',
          headers: { cookie: listerSession.cookie },
          type: 'application/json; charset=utf-8',
          goal: 0.2,
        },
      ];
      for (const c of cases) {
        const res = await fetch(base + c.path, { headers: c.headers });
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}`);
        const bare = await startBareServer(body, c.type);
        try {
          const r = await sideBySide(
            () => load(base + c.path, { headers: c.headers, seconds }),
            () => load(bare.url + c.path, { seconds }),
            async () => {
              await load(base + c.path, { headers: c.headers, seconds: 1 });
              await load(bare.url + c.path, { seconds: 1 });
            },
            rounds,
          );
          throughput[c.label] = { ...r, bytes: body.length };
          row(
            c.label,
            `${fixed(r.ratio)}× bare Fastify`,
            `≥ ${c.goal}`,
            r.ratio >= c.goal,
            `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s, ${body.length} B; p99 ${r.ours.p99} vs ${r.yardstick.p99} ms; errors ${r.ours.non2xx + r.yardstick.non2xx}`,
          );
        } finally {
          bare.stop();
        }
        if (c.headers) {
          // Where the gap is: the same two queries (session, list) from a bare route, same driver and pool.
          const same = await startBareQueryServer(database.url, body, hashToken(listerSession.token), lister!.id);
          try {
            const r = await sideBySide(
              () => load(base + c.path, { headers: c.headers, seconds }),
              () => load(same.url + c.path, { seconds }),
              async () => load(same.url + c.path, { seconds: 1 }),
              rounds,
            );
            throughput[`${c.label} vs same queries`] = { ...r, bytes: body.length };
            row(
              `  the same against a bare route running its 2 queries`,
              `${fixed(r.ratio)}×`,
              '',
              undefined,
              `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s: what Fastify, hooks, validation and serialisation cost on top of the database; errors ${r.yardstick.non2xx}`,
            );
          } finally {
            same.stop();
          }
        }
      }

      // The message post against a raw insert of the same row through the same driver.
      const postPaths = postTickets.map((id) => `/api/support/tickets/${id}/messages`);
      const headers = { cookie: posterSession.cookie, 'content-type': 'application/json' };
      const body = JSON.stringify({ messageBody: 'Benchmark message: is my parcel on its way?' });
      const sample = await fetch(base + postPaths[0], { method: 'POST', headers, body });
      const sampleBody = Buffer.from(await sample.arrayBuffer());
      if (sample.status !== 200) throw new Error(`message post answered ${sample.status}: ${sampleBody}`);
      const insert = await startBareInsertServer(database.url, sampleBody, poster!.id, postTickets);
      try {
        const options = { method: 'POST', headers, body, paths: postPaths };
        const r = await sideBySide(
          () => load(base, { ...options, seconds }),
          () => load(insert.url, { ...options, seconds }),
          async () => {
            await load(base, { ...options, seconds: 1 });
            await load(insert.url, { ...options, seconds: 1 });
          },
          rounds,
        );
        throughput['message post (PostgreSQL)'] = { ...r, bytes: sampleBody.length };
        row(
          'message post on PostgreSQL',
          `${fixed(r.ratio)}× raw insert`,
          '≥ 0.5',
          r.ratio >= 0.5,
          `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s over 100 tickets; p99 ${r.ours.p99} vs ${r.yardstick.p99} ms; errors ${r.ours.non2xx + r.yardstick.non2xx}`,
        );
      } finally {
        insert.stop();
      }
      results.throughput = throughput;
    },
  );

  // --- 4. Live delivery --------------------------------------------------------------------------
  await part(
    'live',
    'Live delivery: 1,000 streams on separate tickets + 100 on one ticket, clients in a child process',
    async () => {
      const separate: LiveConfig['separate'] = [];
      for (const [i, { token }] of ownerSessions.entries()) {
        for (const ticketId of ownerTickets[i]!) separate.push({ ticketId, token });
      }
      // Each session stays within STREAMS_PER_SESSION (default 100): 50 per owner, 50 per crowd session.
      const crowdTokens = [(await session(crowdOwner!)).token, (await session(crowdOwner!)).token];
      const config: LiveConfig = {
        base,
        adminToken: adminSession.token,
        separate,
        crowd: { ticketId: crowdTicket!, tokens: crowdTokens, streams: 100 },
        concurrency: 4,
        crowdPosts: 20,
        crowdGapMs: 100,
        waitMs: 10_000,
      };
      await sleep(1000);
      const rssBefore = rssOf(pid);
      let rssIdle = 0;
      const { streams, failedStreams, result } = await runLiveClients(config, async () => {
        await sleep(3000);
        rssIdle = rssOf(pid);
      });
      const s = result.separate;
      const c = result.crowd;
      row(
        '1,000 streams, one admin answer each',
        `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`,
        'p99 ≤ 50 ms',
        s.p99 <= 50,
        `POST → event parsed by the subscriber; 4 POSTs in flight; admin POST p50 ${ms(s.postP50)}`,
      );
      row('  missing', String(s.missing), '0', s.missing === 0, `${s.received} of ${s.expected} delivered`);
      row(
        '100 streams on one ticket, 20 answers',
        `p50 ${ms(c.p50)}, p99 ${ms(c.p99)}, max ${ms(c.max)}`,
        'p99 ≤ 50 ms',
        c.p99 <= 50,
        `to every subscriber (${c.expected} deliveries); answers 100 ms apart; admin POST p50 ${ms(c.postP50)}`,
      );
      row('  missing', String(c.missing), '0', c.missing === 0, `${c.received} of ${c.expected} delivered`);
      const perStream = (rssIdle - rssBefore) / streams;
      row(
        'memory per idle stream',
        `${(perStream / 1024).toFixed(1)} kB`,
        '',
        undefined,
        `server RSS ${MB(rssBefore)} → ${MB(rssIdle)} with ${streams} streams open (${failedStreams} failed to open; opened in ${(result.openMs / 1000).toFixed(1)} s)`,
      );
      results.live = { ...result, streams, rssBefore, rssIdle, perStream };
    },
  );

  // --- 4a. Scale-out ------------------------------------------------------------------------------
  await part('scaleout', 'Scale-out: a second instance on the same PostgreSQL', async () => {
    results.scaleOut = await scaleOut(
      {
        env: serverEnv,
        first: { base, pid },
        db,
        adminToken: adminSession.token,
        lister: listerSession,
        poster: posterSession,
        postTickets,
        seconds,
        rounds,
        streams: Number(process.env.BENCH_SCALE_STREAMS ?? 5000),
      },
      row,
    );
    const limits = await measureNotifyLimits(database.url);
    row('NOTIFY payload limit', `${limits.payloadLimitBytes} B`, '', undefined, 'our events are ids only, about 130 B');
    for (const c of limits.commits) {
      row(
        `durable inserts, ${c.clients} client${c.clients > 1 ? 's' : ''}`,
        `${Math.round(c.plain)} tx/s`,
        '',
        undefined,
        `with NOTIFY inside: ${Math.round(c.notifyInside)} (${(c.notifyInside / c.plain).toFixed(2)}×); NOTIFY after, async commit (ours): ${Math.round(c.notifyAfter)} (${(c.notifyAfter / c.plain).toFixed(2)}×)`,
      );
    }
    row(
      'NOTIFY queue behind a stuck listener',
      `${(limits.queue.usage * 100).toFixed(3)} % after ${limits.queue.events.toLocaleString('en-NZ')} events`,
      '',
      undefined,
      `full (NOTIFY fails) after about ${limits.queue.eventsToFill.toLocaleString('en-NZ')} events of ${limits.queue.payloadBytes} B`,
    );
    (results.scaleOut as Record<string, unknown>).notify = limits;
  });

  // --- 4b. Search --------------------------------------------------------------------------------
  await part('search', 'Search: the inbox over 10,000 tickets with 10 messages each', async () => {
    const t0 = performance.now();
    await createSearchCorpus(
      db,
      owners.map((o) => o.id),
      admin!.id,
    );
    const [{ ticket_no: sampleNo } = { ticket_no: 1000 }] = await queryRows<{ ticket_no: number }>(
      db.db,
      sql`select ticket_no from support_tickets order by ticket_no desc limit 1`,
    );
    console.log(`  (corpus written in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    const queries = searchQueries(owners[3]!.email, Number(sampleNo));
    const timings: number[] = [];
    const perQuery = new Map<string, number[]>();
    const hits = new Map<string, number>();
    const search = async (q: string) => {
      const started = performance.now();
      const res = await fetch(`${base}/api/admin/support/search?${new URLSearchParams({ q })}`, {
        headers: adminSession.bearer,
      });
      const body = (await res.json()) as { results: unknown[] };
      const took = performance.now() - started;
      if (res.status !== 200) throw new Error(`search for ${q} answered ${res.status}`);
      hits.set(q, body.results.length);
      return took;
    };
    for (const q of queries) await search(q); // warm-up: plans and caches
    for (let round = 0; round < 20; round++) {
      for (const q of queries) {
        const took = await search(q);
        timings.push(took);
        perQuery.set(q, [...(perQuery.get(q) ?? []), took]);
      }
    }
    const sorted = [...timings].sort((a, b) => a - b);
    const p95 = sorted[Math.floor(sorted.length * 0.95)]!;
    row(
      `search p95 (HTTP, ${queries.length} queries × 20)`,
      ms(p95),
      '≤ 50 ms',
      p95 <= 50,
      `median ${ms(median(timings))}; per query median: ${[...perQuery]
        .map(([q, list]) => `${q} ${ms(median(list))} (${hits.get(q)} hits)`)
        .join('; ')}`,
    );
    results.search = {
      p95,
      median: median(timings),
      perQuery: Object.fromEntries(perQuery),
      hits: Object.fromEntries(hits),
    };
  });

  // --- 4c. Photos in the chat ----------------------------------------------------------------------
  await part('attachments', 'Photos in the chat: a 12 MP phone photo re-encoded without its metadata', async () => {
    const sender = await session(owners[5]!);
    const created = await fetch(`${base}/api/support/tickets`, {
      method: 'POST',
      headers: { ...sender.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Incident', message: 'Photos of the damaged suitcase follow.' }),
    });
    const { ticketId } = (await created.json()) as { ticketId: string };
    const photo = await phonePhoto(4000, 3000);
    await sendPhotoOnce(base, pid, sender.bearer, ticketId, await phonePhoto(800, 600)); // loads sharp once
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await sendPhotoOnce(base, pid, sender.bearer, ticketId, photo));
    const bad = runs.filter((r) => r.status !== 200);
    if (bad.length) throw new Error(`photo send answered ${bad.map((r) => r.status).join(', ')}`);
    row(
      'send a 4000×3000 photo (median of 5)',
      ms(median(runs.map((r) => r.ms))),
      '',
      undefined,
      `${MB(photo.length)} sent, ${MB(runs[0]!.storedBytes)} kept (4096 px a side at most, no EXIF); HTTP round trip incl. thumbnail and storage`,
    );
    row(
      '  server memory growth (median)',
      MB(median(runs.map((r) => r.growth))),
      '',
      undefined,
      `peak RSS minus RSS before, per send (max ${MB(Math.max(...runs.map((r) => r.growth)))})`,
    );
    results.attachments = { photoBytes: photo.length, runs };
  });

  // --- 5. Upload ---------------------------------------------------------------------------------
  await part('upload', 'Upload: a 10 MB licence, peak server memory growth while it streams', async () => {
    // Peak RSS of the server (the kernel's VmHWM, reset just before) minus RSS just before each upload.
    await uploadOnce(base, pid, 64 * 1024); // loads the multipart path once
    const first = await uploadOnce(base, pid, 10 * 1024 * 1024);
    const rssStart = first.rssBefore;
    const large = [first];
    for (let i = 0; i < 7; i++) large.push(await uploadOnce(base, pid, 10 * 1024 * 1024));
    const small = await uploadOnce(base, pid, 100 * 1024);
    const oversize = await uploadOnce(base, pid, 50 * 1024 * 1024);
    const stored = [...large, small];
    const bad = stored.filter((u) => u.status !== 201);
    if (bad.length) throw new Error(`registration answered ${bad.map((u) => u.status).join(', ')}`);
    const growths = large.map((u) => u.growth);
    const med = median(growths);
    row(
      '10 MB licence: peak RSS growth',
      `median ${MB(med)}, max ${MB(Math.max(...growths))}`,
      '≤ 5 MB',
      med <= 5 * 1024 * 1024,
      `8 uploads in a row: ${growths.map((g) => MB(g).replace(' MB', '')).join(', ')} MB (${first.method}); upload ${ms(median(large.map((u) => u.ms)))}; a 100 kB licence: ${MB(small.growth)}`,
    );
    row(
      '50 MB file (over the limit, read to its end)',
      MB(oversize.growth),
      '',
      undefined,
      `answered ${oversize.status}; a server that buffered bodies would grow by ≥ 50 MB`,
    );
    row(
      'RSS kept after all 10 uploads (130 MB received)',
      `${MB(rssOf(pid) - rssStart)}`,
      '',
      undefined,
      `${MB(rssStart)} → ${MB(rssOf(pid))}: the peaks are read buffers already consumed, freed at V8's next GC (docs/performance.md)`,
    );
    results.upload = { large, small, oversize };
  });
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  await server.stop();
}

// --- 6. Cold start -----------------------------------------------------------------------------------
await part('coldstart', 'Cold start: spawn `npm start` (scripts/start.ts) → first 200 of /', async () => {
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
  for (let i = 0; i < 3; i++) pgStarts.push(await coldStart({ DATA_DIR: newDir(), DATABASE_URL: database.url }));
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
});

// --- 6b. The embedded database -----------------------------------------------------------------------
await part(
  'embedded',
  `Embedded database (PGlite): the signed-in API, autocannon, 10 connections, ${rounds} rounds of ${seconds} s`,
  async () => {
    const figures = await runEmbeddedBench(RAISED_LIMITS, { seconds, rounds });
    const cases: Array<[string, LoadResult[]]> = [
      ['a user’s ticket list', figures.list],
      ['a ticket’s messages', figures.ticket],
      ['a message post', figures.post],
    ];
    for (const [label, runs] of cases) {
      row(
        `PGlite: ${label}`,
        `${Math.round(median(runs.map((r) => r.rps)))} req/s`,
        '',
        undefined,
        `median of ${runs.length}; p50 ${ms(median(runs.map((r) => r.p50)))}, p99 ${ms(median(runs.map((r) => r.p99)))}; non-2xx ${runs.reduce((n, r) => n + r.non2xx, 0)}`,
      );
    }
    const { sequential } = figures;
    row(
      'PGlite: message posts one at a time',
      `p99 ${ms(sequential.p99)}`,
      '',
      undefined,
      `${sequential.count} posts; p50 ${ms(sequential.p50)}, slowest ${ms(sequential.max)} (a mail-worker round runs beside them)`,
    );
    results.embedded = figures;
  },
);

// --- 7. Mail ----------------------------------------------------------------------------------------
// On a database of its own (created and dropped in bench/lib/mail.ts) and in-memory PGlite, after the
// servers above have stopped: figures only.
await part(
  'mail',
  `Mail outbox: ${mailCount} mails recorded; delivered by the worker (claims of 4, 4 at a time) over SMTP (${mailSmtpCount}) and to .eml files (${mailCount})`,
  async () => {
    const mail = await runMailBench({
      count: mailCount,
      smtpCount: mailSmtpCount,
      onProgress: (line) => console.log(`    ${line}`),
    });
    for (const r of mail.record) {
      row(
        `record rate, ${r.database}`,
        `${Math.round(r.perSecond)} mails/s`,
        '',
        undefined,
        `${r.mails} outbox.enqueue one after the other in ${r.seconds.toFixed(2)} s; each: median ${ms(r.medianMs)}, p99 ${ms(r.p99Ms)}`,
      );
    }
    for (const d of mail.delivery) {
      const states = Object.entries(d.states)
        .map(([state, n]) => `${n} ${state}`)
        .join(', ');
      row(
        `delivery rate, ${d.database} → ${d.target}`,
        `${Math.round(d.perSecond)} mails/s`,
        '',
        undefined,
        `${d.timedOut ? `TIMED OUT: ${d.received} of ${d.mails}` : d.mails} mails, worker start → last arrived ${d.seconds.toFixed(2)} s; first after ${ms(d.firstMs)}; ` +
          `one send: median ${ms(d.deliverMedianMs)}, p99 ${ms(d.deliverP99Ms)}`,
      );
      row(
        `  arrived (${d.target === '.eml directory' ? 'files' : 'SMTP messages'})`,
        `${d.received} of ${d.mails}`,
        '',
        undefined,
        `duplicates ${d.duplicates}, lost ${d.lost}` +
          (d.target === '.eml directory' ? '' : `, unknown Message-IDs ${d.unknown}`) +
          `; ${d.sends} sends; rows ${states}; worker delivered ${d.worker.delivered}, retried ${d.worker.retried}, failed ${d.worker.failed}` +
          (d.warnings + d.errors ? `; ${d.warnings} warnings, ${d.errors} errors, last: ${d.lastProblem}` : ''),
      );
    }
    results.mail = mail;
  },
);

// --- 8. Reply by email ------------------------------------------------------------------------------
// Servers of its own (bench/lib/inbound.ts): PGlite, then a PostgreSQL database created and dropped there.
await part(
  'inbound',
  'Reply by email: received mail → posted → on the owner’s open stream (SMTP receiver, IMAP IDLE on Dovecot)',
  async () => {
    const figures = await runInboundBench({ onProgress: (line) => console.log(`    ${line}`) });
    const spread = (l: { p50: number; p95: number; max: number }) =>
      `p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, max ${ms(l.max)}`;
    for (const f of figures) {
      row(
        `${f.database}: SMTP 250 → message on the open stream`,
        spread(f.smtp),
        '',
        undefined,
        `${f.smtp.arrived} of ${f.smtp.mails} mails one at a time over one connection; SMTP transaction median ${ms(f.smtp.sendMedian)}`,
      );
      if (f.imap)
        row(
          `${f.database}: IMAP delivery → message on the open stream`,
          spread(f.imap),
          '',
          undefined,
          `${f.imap.arrived} of ${f.imap.mails} mails delivered one at a time by dovecot-lda, read in IDLE; dovecot-lda median ${ms(f.imap.sendMedian)}`,
        );
      else
        row(
          `${f.database}: IMAP delivery → message on the open stream`,
          'skipped',
          '',
          undefined,
          'Dovecot is not installed (apt-get install dovecot-imapd)',
        );
      const r = f.rate;
      row(
        `${f.database}: mails accepted (${r.senders} SMTP senders)`,
        `${Math.round(r.ackPerSecond)} mails/s`,
        '',
        undefined,
        `${r.acked} of ${r.mails} answered 250 in ${r.ackSeconds.toFixed(2)} s; refused or failed ${r.refused}`,
      );
      row(
        `${f.database}: mails posted`,
        `${Math.round(r.postPerSecond)} mails/s`,
        '',
        undefined,
        `${r.posted} on their streams ${r.postSeconds.toFixed(2)} s after the first send${r.posted < r.acked ? ' (TIMED OUT)' : ''}; inbound_mail after all three runs: ${Object.entries(
          r.states,
        )
          .map(([state, n]) => `${n} ${state}`)
          .join(', ')}; server RSS ${MB(r.rssBefore)} → ${MB(r.rssAfter)}`,
      );
    }
    results.inbound = figures;
  },
);

await database.drop().catch((error: unknown) => console.error(`could not drop ${database.name}:`, error));
fs.rmSync(dataDir, { recursive: true, force: true });

// --- Report ----------------------------------------------------------------------------------------
const totalSeconds = (Date.now() - startedAt) / 1000;
(results.machine as Record<string, unknown>).loadAverageAtEnd = os.loadavg();
results.totalSeconds = totalSeconds;
results.table = rows;
fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);

const cpu = os.cpus();
console.log(
  `\nBagspace bench, ${new Date(startedAt).toISOString()}: ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, Node ${process.version}, load average now ${loadAverage()}; took ${Math.round(totalSeconds)} s\n`,
);
console.log('| Figure | Value | Goal | | Note |\n|---|---|---|---|---|');
let current = '';
for (const r of rows) {
  if (r.section !== current) {
    current = r.section;
    console.log(`| **${current}** | | | | |`);
  }
  console.log(`| ${r.figure} | ${r.value} | ${r.goal} | ${r.status} | ${r.note.replaceAll('|', '/')} |`);
}
console.log('\nWritten to bench/results/latest.json');
process.exit(exitCode);
