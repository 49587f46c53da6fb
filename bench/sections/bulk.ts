/**
 * Section "bulk": a bulk action on 500 of the inbox's tickets over HTTP (docs/decisions/143-bulk-actions.md):
 * assign them all to the admin with the versions the inbox showed, then Undo, five times; the time
 * of each request, and that every ticket has its one result.
 */
import type { BulkResult, BulkUndoResult } from '../../src/contracts/bulk.schemas.ts';
import { median, percentile } from '../lib/process-stats.ts';
import { ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

const TICKETS = 500;
const ROUNDS = 5;

export const bulkSection: Section<ServerBench> = {
  name: 'bulk',
  title: 'Bulk actions: 500 tickets at once, and their undo',
  async run({ base, adminSession, ownerTickets }) {
    const ids = ownerTickets.flat().slice(0, TICKETS);
    const headers = { 'content-type': 'application/json', ...adminSession.bearer };
    /** Each ticket's version as the inbox would show it, read eight at a time. */
    const versions = async () => {
      const seen: Array<{ id: string; version: number }> = new Array(ids.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < ids.length) {
            const i = next++;
            const res = await fetch(`${base}/api/admin/support/tickets/${ids[i]}`, { headers });
            seen[i] = { id: ids[i]!, version: ((await res.json()) as { ticket: { version: number } }).ticket.version };
          }
        }),
      );
      return seen;
    };
    const apply: number[] = [];
    const undo: number[] = [];
    let wrong = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const tickets = await versions();
      let started = performance.now();
      const res = await fetch(`${base}/api/admin/support/bulk`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ action: 'assign', assignee: 'me', tickets }),
      });
      if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
      const done = (await res.json()) as BulkResult;
      apply.push(performance.now() - started);
      wrong += done.results.filter((r) => r.outcome !== 'done').length + (ids.length - done.results.length);
      started = performance.now();
      const back = await fetch(`${base}/api/admin/support/bulk/${done.bulkId}/undo`, {
        method: 'POST',
        headers: adminSession.bearer,
      });
      if (back.status !== 200) throw new Error(`undo answered ${back.status}: ${await back.text()}`);
      const undone = (await back.json()) as BulkUndoResult;
      undo.push(performance.now() - started);
      wrong += undone.results.filter((r) => r.outcome !== 'done').length;
    }
    row(
      `bulk assign of ${TICKETS} tickets (HTTP)`,
      `p50 ${ms(median(apply))}, p95 ${ms(percentile(apply, 95))}`,
      'p95 ≤ 2 s',
      percentile(apply, 95) <= 2000,
      `${ROUNDS} rounds; each ticket through the same service call as its page, 4 side by side; results not done: ${wrong}`,
    );
    row(
      `  its undo`,
      `p50 ${ms(median(undo))}, p95 ${ms(percentile(undo, 95))}`,
      'p95 ≤ 2 s',
      percentile(undo, 95) <= 2000,
    );
    results.bulk = { tickets: TICKETS, rounds: ROUNDS, apply, undo, wrong };
  },
};
