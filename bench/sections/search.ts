/** Section "search": the admin inbox search over 10,000 tickets with 10 messages each, over HTTP. */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/server/db/sql.ts';
import { median, percentile } from '../lib/process-stats.ts';
import { createSearchCorpus, searchQueries } from '../lib/search.ts';
import { ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const searchSection: Section<ServerBench> = {
  name: 'search',
  title: 'Search: the inbox over 10,000 tickets with 10 messages each',
  async run({ base, db, owners, admin, adminSession }) {
    const t0 = performance.now();
    await createSearchCorpus(
      db,
      owners.map((o) => o.id),
      admin.id,
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
    const p95 = percentile(timings, 95);
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
  },
};
