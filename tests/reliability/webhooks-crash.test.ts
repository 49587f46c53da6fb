/**
 * kill -9 while webhooks are delivered (DATA-02, docs/decisions/150-webhooks.md): events are written
 * while the server is stopped (by the database's triggers, as any ticket write does), and a server
 * whose webhook worker polls every 50 ms is killed again and again a random moment after it starts,
 * while its receiver (on 127.0.0.1, answering after 30 ms) is mid-delivery more often than not. Once
 * it is back, every event has reached the receiver at least once, verified by the Standard Webhooks
 * library, each ticket's first in the order they happened, and none was given up. A repeat is the
 * same webhook-id (what a receiver deduplicates on). Runs on PGlite and on PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/contracts/integrations.ts';
import { recordFigure, runs } from '../helpers/figures.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import { cleanupAll, killApp, mailCrashWorld, type Query, sleep, startApp } from './crash-harness.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const RUNS = runs(4, 30);
/** Messages written before each start, over a few tickets. */
const TICKETS = 3;
const MESSAGES = 20;

afterAll(cleanupAll);

/** A customer's tickets and messages written straight into the database: the triggers record their events. */
async function writeEvents(query: Query, userId: string, run: number): Promise<void> {
  for (let i = 0; i < TICKETS; i++) {
    const [ticket] = await query<{ id: string }>(
      `insert into support_tickets (user_id, reason) values ($1, 'General') returning id`,
      [userId],
    );
    for (let m = 0; m < MESSAGES; m++) {
      await query(`insert into ticket_messages (ticket_id, message_body, user_id) values ($1, $2, $3)`, [
        ticket!.id,
        `Run ${run}, ticket ${i}, message ${m}`,
        userId,
      ]);
    }
  }
}

describe('kill -9 while webhooks are delivered (DATA-02)', () => {
  it(`delivers every event at least once over ${RUNS} SIGKILLs`, { timeout: 240_000 + RUNS * 60_000 }, async () => {
    const receiver = await startWebhookReceiver({ delayMs: 30 });
    const world = await mailCrashWorld('bagspace-webhooks-crash-', {
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_SECONDS: '2',
    });
    const { env, readStopped, readRunning } = world;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    receiver.setSecret(secret);
    const userId = await readStopped(async (query) => {
      await query(`insert into webhook_endpoints (url, events, secret) values ($1, $2, $3)`, [
        receiver.url(),
        [...WEBHOOK_EVENTS],
        secret,
      ]);
      const [user] = await query<{ id: string }>(
        `insert into users (email, password_hash, email_verified_at) values ($1, 'x', now()) returning id`,
        [`webhooks-${randomUUID().slice(0, 8)}@example.nz`],
      );
      return user!.id;
    });

    let killedMidDelivery = 0;
    try {
      for (let run = 0; run < RUNS; run++) {
        await readStopped((query) => writeEvents(query, userId, run));
        const app = await startApp(env);
        await sleep(Math.floor(Math.random() * 400)); // Time is the subject: a random moment of the deliveries.
        const pending = await readRunning(async (query) =>
          Number(
            (await query<{ n: string }>(`select count(*) as n from webhook_deliveries where state = 'pending'`))[0]!.n,
          ),
        );
        if (pending > 0) killedMidDelivery++;
        await killApp(app);
      }

      const app = await startApp(env);
      let left = -1;
      await waitUntil(
        'every delivery made',
        async () => {
          left = await readRunning(async (query) =>
            Number(
              (
                await query<{ n: string }>(`select count(*) as n from webhook_deliveries where state <> 'delivered'`)
              )[0]!.n,
            ),
          );
          return left === 0;
        },
        { timeoutMs: 120_000, intervalMs: 200, seen: () => left },
      );
      expect(await app.process.stop('SIGTERM')).toBe(0);

      const recorded = await readStopped((query) =>
        query<{ webhook_id: string; subject: string; event_id: string }>(
          `select webhook_id, subject, event_id from webhook_deliveries order by event_id`,
        ),
      );
      const expected = RUNS * TICKETS * (MESSAGES + 1);
      expect(recorded).toHaveLength(expected);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      const receivedIds = new Set(receiver.received.map((r) => r.id));
      const lost = recorded.filter((r) => !receivedIds.has(r.webhook_id)).length;
      expect(lost).toBe(0);
      // Each ticket's events arrived first in the order they happened.
      const order = new Map(recorded.map((r) => [r.webhook_id, Number(r.event_id)]));
      const firstSeen = new Map<string, number[]>();
      const seen = new Set<string>();
      for (const r of receiver.received) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        const subject = String(r.payload!.data.ticketId);
        firstSeen.set(subject, [...(firstSeen.get(subject) ?? []), order.get(r.id)!]);
      }
      for (const [subject, events] of firstSeen) expect(events, subject).toEqual([...events].sort((a, b) => a - b));
      const duplicates = receiver.received.length - recorded.length;
      const values = { runs: RUNS, events: expected, killedMidDelivery, lost, duplicates };
      console.log(`webhooks-crash-${kind}: ${JSON.stringify(values)}`);
      recordFigure('webhooks-crash', {
        checks: ['DATA-02'],
        label: `kill -9 while delivering webhooks: every event delivered at least once (${kind})`,
        values,
      });
    } finally {
      await receiver.close();
      await world.close();
    }
  });
});
