/**
 * Section "reports": /admin/reports over 100,000 tickets and 1,000,000 messages (PostgreSQL), for a
 * 28-day and a one-year range; and the inbox on the same corpus, in its usual order and sorted by
 * due time, side by side (docs/performance.md, reports).
 */
import { median, percentile } from '../lib/process-stats.ts';
import { createReportsCorpus, MESSAGES_PER_TICKET, REPORT_TICKETS } from '../lib/reports.ts';
import { ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

const nzDay = (date: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Pacific/Auckland',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);

export const reportsSection: Section<ServerBench> = {
  name: 'reports',
  title: `Reports: ${REPORT_TICKETS.toLocaleString('en-NZ')} tickets, ${(REPORT_TICKETS * MESSAGES_PER_TICKET).toLocaleString('en-NZ')} messages`,
  async run({ base, db, owners, admin, adminSession }) {
    const t0 = performance.now();
    await createReportsCorpus(
      db,
      owners.map((o) => o.id),
      [admin.id],
    );
    console.log(`  (corpus written in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);

    const time = async (path: string) => {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, { headers: adminSession.bearer });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return performance.now() - started;
    };
    const measure = async (path: string, times: number) => {
      for (let i = 0; i < 2; i++) await time(path); // warm-up: plans and caches
      const timings: number[] = [];
      for (let i = 0; i < times; i++) timings.push(await time(path));
      return { p50: median(timings), p95: percentile(timings, 95) };
    };

    const today = new Date();
    const daysAgo = (n: number) => nzDay(new Date(today.getTime() - n * 86_400_000));
    const month = await measure(`/api/admin/reports?from=${daysAgo(27)}&to=${daysAgo(0)}`, 20);
    const year = await measure(`/api/admin/reports?from=${daysAgo(364)}&to=${daysAgo(0)}`, 10);
    row('/admin/reports, 28 days, p95 (HTTP)', ms(month.p95), '≤ 300 ms', month.p95 <= 300, `p50 ${ms(month.p50)}`);
    row('/admin/reports, one year, p95 (HTTP)', ms(year.p95), '', undefined, `p50 ${ms(year.p50)}`);

    const inbox = await measure('/api/admin/support/tickets?open=true', 20);
    const byDue = await measure('/api/admin/support/tickets?open=true&sort=due', 20);
    row(
      'inbox sorted by due time, p50 / usual order p50',
      `${(byDue.p50 / inbox.p50).toFixed(2)}×`,
      '≤ 1.2×',
      byDue.p50 <= inbox.p50 * 1.2,
      `by due p50 ${ms(byDue.p50)} p95 ${ms(byDue.p95)}; usual p50 ${ms(inbox.p50)} p95 ${ms(inbox.p95)}`,
    );
    results.reports = { month, year, inbox, byDue };
  },
};
