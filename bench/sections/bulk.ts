/**
 * Section "bulk": bulk actions on 500 of the inbox's tickets over HTTP (docs/decisions/143-bulk-actions.md):
 * assign them all to the admin, close them all, and put a label on them all, each with the versions
 * the inbox showed and then undone, five rounds; the time of each request, and that every ticket has
 * its one result.
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
    const labelRes = await fetch(`${base}/api/admin/labels`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Bench ${Date.now()}` }),
    });
    if (labelRes.status !== 201 && labelRes.status !== 200) throw new Error(`label answered ${labelRes.status}`);
    const labelId = ((await labelRes.json()) as { label: { id: string } }).label.id;
    const actions = {
      assign: { action: 'assign', assignee: 'me' },
      close: { action: 'close' },
      label: { action: 'label', labelId },
    } as const;
    const times: Record<keyof typeof actions, { apply: number[]; undo: number[] }> = {
      assign: { apply: [], undo: [] },
      close: { apply: [], undo: [] },
      label: { apply: [], undo: [] },
    };
    let wrong = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, body] of Object.entries(actions) as Array<[keyof typeof actions, object]>) {
        const tickets = await versions();
        let started = performance.now();
        const res = await fetch(`${base}/api/admin/support/bulk`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ...body, tickets }),
        });
        if (res.status !== 200) throw new Error(`bulk ${name} answered ${res.status}: ${await res.text()}`);
        const done = (await res.json()) as BulkResult;
        times[name].apply.push(performance.now() - started);
        wrong += done.results.filter((r) => r.outcome !== 'done').length + (ids.length - done.results.length);
        started = performance.now();
        const back = await fetch(`${base}/api/admin/support/bulk/${done.bulkId}/undo`, {
          method: 'POST',
          headers: adminSession.bearer,
        });
        if (back.status !== 200) throw new Error(`undo answered ${back.status}: ${await back.text()}`);
        const undone = (await back.json()) as BulkUndoResult;
        times[name].undo.push(performance.now() - started);
        wrong += undone.results.filter((r) => r.outcome !== 'done').length;
      }
    }
    for (const [name, { apply, undo }] of Object.entries(times)) {
      row(
        `bulk ${name} of ${TICKETS} tickets (HTTP)`,
        `p50 ${ms(median(apply))}, p95 ${ms(percentile(apply, 95))}`,
        'p95 ≤ 2 s',
        percentile(apply, 95) <= 2000,
        `${ROUNDS} rounds; one transaction, one statement for the lot; results not done (all actions): ${wrong}`,
      );
      row(
        `  its undo`,
        `p50 ${ms(median(undo))}, p95 ${ms(percentile(undo, 95))}`,
        'p95 ≤ 2 s',
        percentile(undo, 95) <= 2000,
      );
    }
    results.bulk = { tickets: TICKETS, rounds: ROUNDS, times, wrong };
  },
};
