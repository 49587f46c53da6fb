import { sql } from 'drizzle-orm';
import { INTEGRATION_TEXT, WEBHOOK_LIMITS } from '../../../contracts/integrations.ts';
import { createBackgroundRounds } from '../../background-rounds.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';
import { holdsPermission } from '../../db/staff.ts';
import type { Logger } from '../../logging.ts';
import { renderMail } from '../../mail/layout.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { signedHeaders } from '../../security/standard-webhooks.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { type ClaimedDelivery, createWebhooksRepository } from './webhooks.repository.ts';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;

/**
 * When a failed delivery is tried again (after its 1st, 2nd… failed attempt): the schedule the
 * Standard Webhooks guidance suggests, then every 10 hours, until a day from its event has passed.
 */
export const RETRY_SCHEDULE_MS = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR];

export function retryDelayMs(failedAttempts: number): number {
  return RETRY_SCHEDULE_MS[Math.min(failedAttempts, RETRY_SCHEDULE_MS.length) - 1] ?? 10 * HOUR;
}

/** The body every endpoint receives: the Standard Webhooks payload shape. */
export const deliveryBody = (delivery: Pick<ClaimedDelivery, 'type' | 'payload' | 'occurredAt'>) =>
  JSON.stringify({ type: delivery.type, timestamp: delivery.occurredAt.toISOString(), data: delivery.payload });

export interface WebhooksWorkerOptions {
  db: AppDatabase;
  outbox: Outbox;
  audit: AuditService;
  clock: Clock;
  log: Logger;
  site: { companyName: string; publicBaseUrl: string };
  pollMs?: number;
  concurrency?: number;
  timeoutMs?: number;
}

/**
 * Delivers what the triggers recorded (docs/decisions/150-webhooks.md), at least once: a delivery is
 * marked done only after its endpoint answered 2xx, and a claim's lease runs out if the process dies
 * mid-send, so another round (here or on another instance) sends it again with the same webhook-id.
 */
export function createWebhooksWorker(options: WebhooksWorkerOptions) {
  const { db, clock, log } = options;
  const repository = createWebhooksRepository(db);
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_LIMITS.timeoutSeconds * SECOND;
  // A send can take the time-out: the lease covers it with room to spare.
  const leaseSeconds = Math.ceil(timeoutMs / SECOND) * 3;
  const counters = { delivered: 0, retried: 0, failed: 0, disabled: 0 };

  async function send(delivery: ClaimedDelivery): Promise<void> {
    const body = deliveryBody(delivery);
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        // The wire's timestamp is the real time: receivers compare it with their own clocks.
        headers: {
          'content-type': 'application/json',
          'user-agent': `${options.site.companyName}-Webhooks/1`,
          ...signedHeaders(delivery.secret, delivery.webhookId, new Date(), body),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
      if (status < 200 || status > 299) error = `The endpoint answered ${status}.`;
    } catch (caught) {
      const name = (caught as Error).name;
      error =
        name === 'TimeoutError' || name === 'AbortError'
          ? `No answer within ${Math.round(timeoutMs / SECOND)} s.`
          : `Could not connect: ${((caught as Error).cause as Error | undefined)?.message ?? (caught as Error).message}`;
    }
    const now = clock.now();
    const durationMs = Math.round(performance.now() - started);
    await repository.recordAttempt(delivery.id, { at: now, status, error, durationMs });
    if (error === null) {
      await repository.delivered(delivery, now, status!);
      counters.delivered++;
      return;
    }
    const retryAt = new Date(now.getTime() + retryDelayMs(delivery.attempts + 1));
    const giveUpAt = delivery.occurredAt.getTime() + WEBHOOK_LIMITS.retryHours * HOUR;
    const failingSince = await repository.failed(delivery, {
      now,
      retryAt: retryAt.getTime() <= giveUpAt ? retryAt : now.getTime() < giveUpAt ? new Date(giveUpAt) : null,
      status,
      error,
    });
    if (now.getTime() < giveUpAt) counters.retried++;
    else counters.failed++;
    if (failingSince && now.getTime() - failingSince.getTime() >= WEBHOOK_LIMITS.disableAfterDays * 24 * HOUR) {
      await disable(delivery.endpointId);
    }
  }

  /** Turns a failing endpoint off and tells everyone who manages integrations, in one transaction. */
  async function disable(endpointId: string): Promise<void> {
    const turnedOff = await inTransaction(db, async (tx) => {
      const endpoint = await createWebhooksRepository(tx).disable(endpointId, INTEGRATION_TEXT.failingDisabled);
      if (!endpoint) return null;
      // Raw SQL: the staff who hold a permission (server/db/staff.ts).
      const admins = await queryRows<{ id: string; email: string }>(
        tx,
        sql`select u.id, u.email from users u where ${holdsPermission(sql`u.id`, 'integrations.manage')}`,
      );
      for (const admin of admins) {
        await options.outbox.enqueue(tx, {
          kind: 'webhook-disabled',
          to: admin.email,
          userId: admin.id,
          subject: 'A webhook endpoint was turned off',
          ...renderMail({
            companyName: options.site.companyName,
            heading: 'A webhook endpoint was turned off',
            paragraphs: [
              `${endpoint.url} failed every delivery for ${WEBHOOK_LIMITS.disableAfterDays} days, so it no longer receives events.`,
              'Its deliveries are kept: once it works again, turn it back on and they go out.',
            ],
            action: { label: 'Open Integrations', url: `${options.site.publicBaseUrl}/admin/integrations` },
          }),
        });
      }
      return endpoint;
    });
    if (!turnedOff) return;
    options.outbox.wake();
    counters.disabled++;
    log.warn({ endpointId, url: turnedOff.url }, 'webhook endpoint turned off after failing for days');
    await options.audit.record({
      actor: { userId: null, email: 'Bagspace (automatic)' },
      action: 'webhook.disabled',
      targetType: 'webhook',
      targetId: endpointId,
      details: { url: turnedOff.url, reason: INTEGRATION_TEXT.failingDisabled },
    });
  }

  const rounds = createBackgroundRounds(options.pollMs ?? 1000, async () => {
    for (;;) {
      if (rounds.stopped) return;
      const claimed = await repository.claim(clock.now(), leaseSeconds, concurrency * 4);
      if (claimed.length === 0) break;
      // Each endpoint's and subject's deliveries are claimed one at a time (the claim's rule), so any
      // of these may go at once.
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
          while (next < claimed.length && !rounds.stopped) {
            const delivery = claimed[next++]!;
            try {
              await send(delivery);
            } catch (error) {
              log.error(
                { err: error, deliveryId: delivery.id },
                'webhook delivery could not be recorded; its lease runs out and it goes again',
              );
            }
          }
        }),
      );
    }
    // Events done with for 30 days go, at most once an hour.
    const now = clock.now().getTime();
    if (now - prunedAt < HOUR) return;
    prunedAt = now;
    try {
      await repository.prune(new Date(now - 30 * 24 * HOUR));
    } catch (error) {
      log.error({ err: error }, 'old webhook events could not be pruned; the next round tries again');
    }
  });
  let prunedAt = 0;

  return {
    start: () => rounds.start(),
    /** A round now; resolves when it has ended (tests, and a redelivery's wake-up). */
    run: () => rounds.run(),
    wake: () => rounds.wake(),
    stop: () => rounds.stop(),
    stats: () => ({ ...counters }),
  };
}

export type WebhooksWorker = ReturnType<typeof createWebhooksWorker>;
