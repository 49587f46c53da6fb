/** Section "embedded": the signed-in API on the embedded database (PGlite), servers of its own. */
import { runEmbeddedBench } from '../lib/embedded.ts';
import type { LoadResult } from '../lib/load.ts';
import { median } from '../lib/process-stats.ts';
import { ms, RAISED_LIMITS, results, rounds, row, seconds, type Section } from './common.ts';

export const embeddedSection: Section = {
  name: 'embedded',
  title: `Embedded database (PGlite): the signed-in API, autocannon, 10 connections, ${rounds} rounds of ${seconds} s`,
  async run() {
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
};
