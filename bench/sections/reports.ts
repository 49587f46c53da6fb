/**
 * Section "reports": /admin/reports over 100,000 tickets and 1,000,000 messages, on PostgreSQL (the
 * shared bench server) and on the embedded database (a server of its own), for 28 days and a year,
 * with no filter and with each filter; the time the rollups took to count the corpus; the
 * histograms' largest error against the exact percentiles; and the inbox on the same corpus, in its
 * usual order and sorted by due time (docs/performance.md, reports).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { startServer } from '../../tests/helpers/server-process.ts';
import { createAccounts, openBenchDatabase, signIn } from '../lib/fixtures.ts';
import { median, percentile } from '../lib/process-stats.ts';
import {
  createReportsCorpus,
  labelCorpus,
  MESSAGES_PER_TICKET,
  REPORT_TICKETS,
  sketchError,
  waitForRollups,
} from '../lib/reports.ts';
import { ms, RAISED_LIMITS, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

const nzDay = (date: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Pacific/Auckland',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);

const MONTH_GOAL_MS = 150;
const YEAR_GOAL_MS = 400;

async function measureReports(
  name: string,
  base: string,
  headers: Record<string, string>,
  cookie: string,
  db: DatabaseHandle,
  ownerIds: string[],
  admin: { id: string },
) {
  const t0 = performance.now();
  await createReportsCorpus(db, ownerIds, [admin.id]);
  const courier = await labelCorpus(db);
  console.log(`  (${name}: corpus written in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  const backfill = await waitForRollups(db);
  row(
    `${name}: rollups counting the corpus (the server's worker)`,
    `${backfill.toFixed(1)} s`,
    '',
    undefined,
    `${REPORT_TICKETS.toLocaleString('en-NZ')} tickets queued by the writes`,
  );

  const time = async (p: string, how: Record<string, string>) => {
    const started = performance.now();
    const res = await fetch(`${base}${p}`, { headers: how });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    return performance.now() - started;
  };
  const measure = async (p: string, times: number, how = headers) => {
    for (let i = 0; i < 2; i++) await time(p, how); // warm-up: plans and caches
    const timings: number[] = [];
    for (let i = 0; i < times; i++) timings.push(await time(p, how));
    return { p50: median(timings), p95: percentile(timings, 95) };
  };
  const today = new Date();
  const daysAgo = (n: number) => nzDay(new Date(today.getTime() - n * 86_400_000));
  const month = `from=${daysAgo(27)}&to=${daysAgo(0)}`;
  const year = `from=${daysAgo(364)}&to=${daysAgo(0)}`;
  const figures: Record<string, { p50: number; p95: number }> = {};
  for (const [label, query, goal, times] of [
    ['28 days', month, MONTH_GOAL_MS, 20],
    ['one year', year, YEAR_GOAL_MS, 10],
    ['one year, a label', `${year}&label=${courier}`, YEAR_GOAL_MS, 10],
    ['one year, a reason', `${year}&reason=Incident`, YEAR_GOAL_MS, 10],
    ['one year, an assignee', `${year}&agent=${admin.id}`, YEAR_GOAL_MS, 10],
    ['28 days, a label', `${month}&label=${courier}`, MONTH_GOAL_MS, 20],
  ] as const) {
    const m = await measure(`/api/admin/reports?${query}`, times);
    figures[label] = m;
    row(`${name}: /admin/reports, ${label}, p95 (HTTP)`, ms(m.p95), `≤ ${goal} ms`, m.p95 <= goal, `p50 ${ms(m.p50)}`);
  }
  // The page a lead opens: the same figures rendered with their charts, as a browser asks for it.
  const page = await measure(`/admin/reports?${year}`, 10, { cookie, accept: 'text/html' });
  figures['one year, the page'] = page;
  row(
    `${name}: the /admin/reports page, one year, p95 (HTML)`,
    ms(page.p95),
    `≤ ${YEAR_GOAL_MS} ms`,
    page.p95 <= YEAR_GOAL_MS,
    `p50 ${ms(page.p50)}; the figures and their charts rendered on the server`,
  );
  const error = await sketchError(base, headers, db, daysAgo(364), daysAgo(0));
  row(
    `${name}: a year's percentiles from histograms, largest error against exact`,
    `${(error * 100).toFixed(2)} %`,
    '≤ 1 %',
    error <= 0.01,
    'first response and resolution, p50 and p90, business and clock time',
  );
  return { backfill, figures, error };
}

export const reportsSection: Section<ServerBench> = {
  name: 'reports',
  title: `Reports: ${REPORT_TICKETS.toLocaleString('en-NZ')} tickets, ${(REPORT_TICKETS * MESSAGES_PER_TICKET).toLocaleString('en-NZ')} messages, PostgreSQL and PGlite`,
  async run({ base, db, owners, admin, adminSession }) {
    const postgres = await measureReports(
      'PostgreSQL',
      base,
      adminSession.bearer,
      adminSession.cookie,
      db,
      owners.map((o) => o.id),
      admin,
    );

    const time = async (p: string) => {
      const started = performance.now();
      const res = await fetch(`${base}${p}`, { headers: adminSession.bearer });
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const measure = async (p: string, times: number) => {
      for (let i = 0; i < 2; i++) await time(p);
      const timings: number[] = [];
      for (let i = 0; i < times; i++) timings.push(await time(p));
      return { p50: median(timings), p95: percentile(timings, 95) };
    };
    const inbox = await measure('/api/admin/support/tickets?open=true', 20);
    const byDue = await measure('/api/admin/support/tickets?open=true&sort=due', 20);
    row(
      'inbox sorted by due time, p50 / usual order p50',
      `${(byDue.p50 / inbox.p50).toFixed(2)}×`,
      '≤ 1.2×',
      byDue.p50 <= inbox.p50 * 1.2,
      `by due p50 ${ms(byDue.p50)} p95 ${ms(byDue.p95)}; usual p50 ${ms(inbox.p50)} p95 ${ms(inbox.p95)}`,
    );

    // The embedded database: a server of its own on a fresh data directory, written through its socket.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-reports-'));
    const server = startServer({
      ...RAISED_LIMITS,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
    });
    let pglite;
    try {
      const pgliteBase = (await server.ready).replace('localhost', '127.0.0.1');
      const embedded = await openBenchDatabase(socketUrl(dataDir));
      try {
        const [pgliteAdmin] = await createAccounts(embedded, 'reports-admin', 1, 'admin');
        const pgliteOwners = await createAccounts(embedded, 'reports-owner', 5);
        const session = await signIn(pgliteBase, pgliteAdmin!.email);
        pglite = await measureReports(
          'PGlite',
          pgliteBase,
          session.bearer,
          session.cookie,
          embedded,
          pgliteOwners.map((o) => o.id),
          pgliteAdmin!,
        );
      } finally {
        await embedded.close();
      }
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    results.reports = {
      postgres,
      pglite,
      inbox,
      byDue,
      month: postgres.figures['28 days'],
      year: postgres.figures['one year'],
    };
  },
};
