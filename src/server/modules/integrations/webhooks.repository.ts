import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema.ts';

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: string[];
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  pending: number;
  failed: number;
}

/** A delivery claimed by the worker: what it sends, and where. */
export interface ClaimedDelivery {
  id: number;
  endpointId: string;
  url: string;
  secret: string;
  webhookId: string;
  type: string;
  payload: unknown;
  occurredAt: Date;
  attempts: number;
}

export interface DeliveryRow {
  id: number;
  webhookId: string;
  type: string;
  occurredAt: Date;
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  attempts: Array<{ at: Date; status: number | null; error: string | null; durationMs: number }>;
}

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.events,
  secret: webhookEndpoints.secret,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  failingSince: webhookEndpoints.failingSince,
  createdAt: webhookEndpoints.createdAt,
  // Qualified by hand: drizzle writes a single-table select's columns bare, which inside the subquery would be d's.
  pending: sql<number>`(select count(*) from webhook_deliveries d where d.endpoint_id = webhook_endpoints.id and d.state = 'pending')::int`,
  failed: sql<number>`(select count(*) from webhook_deliveries d where d.endpoint_id = webhook_endpoints.id and d.state = 'failed')::int`,
};

/**
 * Webhook endpoints, the deliveries the database's triggers write (migration 0032) and their
 * attempts (docs/decisions/150-webhooks.md).
 */
export function createWebhooksRepository(db: AppDatabase) {
  const one = async (id: string): Promise<EndpointRow | null> => {
    const [row] = await db.select(endpointColumns).from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row ?? null;
  };

  return {
    find: one,

    async list(): Promise<EndpointRow[]> {
      return db.select(endpointColumns).from(webhookEndpoints).orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(webhookEndpoints);
      return Number(row?.n ?? 0);
    },

    async insert(values: { url: string; description: string; events: string[]; secret: string; enabled: boolean }) {
      const [row] = await db.insert(webhookEndpoints).values(values).returning({ id: webhookEndpoints.id });
      return (await one(row!.id))!;
    },

    /** Changes an endpoint; turning it on clears its failures and the reason it was turned off. */
    async update(
      id: string,
      values: { url: string; description: string; events: string[]; enabled: boolean },
    ): Promise<EndpointRow | null> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({
          ...values,
          disabledReason: values.enabled ? null : sql`${webhookEndpoints.disabledReason}`,
          failingSince: values.enabled
            ? sql`case when ${webhookEndpoints.enabled} then ${webhookEndpoints.failingSince} end`
            : sql`${webhookEndpoints.failingSince}`,
        })
        .where(eq(webhookEndpoints.id, id))
        .returning({ id: webhookEndpoints.id });
      return row ? one(row.id) : null;
    },

    async remove(id: string): Promise<EndpointRow | null> {
      const found = await one(id);
      if (!found) return null;
      const [row] = await db
        .delete(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id))
        .returning({ id: webhookEndpoints.id });
      return row ? found : null;
    },

    /** An endpoint's deliveries, newest first, with their attempts. */
    async deliveries(endpointId: string, before: number | null, limit: number): Promise<DeliveryRow[]> {
      const rows = await db
        .select({
          id: webhookDeliveries.id,
          webhookId: webhookDeliveries.webhookId,
          type: webhookEvents.type,
          occurredAt: webhookEvents.occurredAt,
          state: webhookDeliveries.state,
          nextAttemptAt: webhookDeliveries.nextAttemptAt,
          deliveredAt: webhookDeliveries.deliveredAt,
        })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(
          and(
            eq(webhookDeliveries.endpointId, endpointId),
            before === null ? undefined : lt(webhookDeliveries.id, before),
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(limit);
      const attempts =
        rows.length === 0
          ? []
          : await db
              .select({
                deliveryId: webhookAttempts.deliveryId,
                at: webhookAttempts.at,
                status: webhookAttempts.status,
                error: webhookAttempts.error,
                durationMs: webhookAttempts.durationMs,
              })
              .from(webhookAttempts)
              .where(
                inArray(
                  webhookAttempts.deliveryId,
                  rows.map((r) => r.id),
                ),
              )
              .orderBy(webhookAttempts.id);
      return rows.map((row) => ({
        ...row,
        state: row.state as DeliveryRow['state'],
        attempts: attempts
          .filter((a) => a.deliveryId === row.id)
          .map(({ at, status, error, durationMs }) => ({ at, status, error, durationMs })),
      }));
    },

    /** A delivery to be made again now, with the same webhook-id. */
    async redeliver(deliveryId: number, now: Date): Promise<{ id: number; endpointId: string } | null> {
      const [row] = await db
        .update(webhookDeliveries)
        .set({ state: 'pending', nextAttemptAt: now, leaseUntil: null, deliveredAt: null })
        .where(eq(webhookDeliveries.id, deliveryId))
        .returning({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId });
      return row ?? null;
    },

    async delivery(endpointId: string, deliveryId: number): Promise<DeliveryRow | null> {
      const rows = await this.deliveries(endpointId, deliveryId + 1, 1);
      return rows[0]?.id === deliveryId ? rows[0] : null;
    },

    /**
     * Claims due deliveries for `leaseSeconds` (SKIP LOCKED, so several instances share the work):
     * only the oldest still-pending delivery of each endpoint and subject (a ticket, a company), so a
     * ticket's events reach an endpoint in the order they happened.
     */
    async claim(now: Date, leaseSeconds: number, limit: number): Promise<ClaimedDelivery[]> {
      // Raw SQL: FOR UPDATE SKIP LOCKED over a NOT EXISTS on the same table, which the builder does not express.
      const rows = await queryRows<{
        id: number;
        endpoint_id: string;
        url: string;
        secret: string;
        webhook_id: string;
        type: string;
        payload: unknown;
        occurred_at: string | Date;
        attempts: number;
      }>(
        db,
        sql`
        with due as (
          select d.id from webhook_deliveries d
          join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
          where d.state = 'pending'
            -- Never tried: due at once (its next_attempt_at is the database's time, not the app clock's).
            and (d.attempts = 0 or d.next_attempt_at <= ${now.toISOString()}::timestamptz)
            and (d.lease_until is null or d.lease_until < ${now.toISOString()}::timestamptz)
            and not exists (
              select 1 from webhook_deliveries p
              where p.endpoint_id = d.endpoint_id and p.subject = d.subject and p.state = 'pending' and p.id < d.id)
          order by d.id
          limit ${limit}
          for update of d skip locked
        )
        update webhook_deliveries w
          set lease_until = ${now.toISOString()}::timestamptz + make_interval(secs => ${leaseSeconds})
          from due, webhook_endpoints e, webhook_events ev
          where w.id = due.id and e.id = w.endpoint_id and ev.id = w.event_id
          returning w.id, w.endpoint_id, e.url, e.secret, w.webhook_id, ev.type, ev.payload, ev.occurred_at, w.attempts`,
      );
      return rows
        .map((r) => ({
          id: Number(r.id),
          endpointId: r.endpoint_id,
          url: r.url,
          secret: r.secret,
          webhookId: r.webhook_id,
          type: r.type,
          payload: r.payload,
          occurredAt: new Date(r.occurred_at),
          attempts: Number(r.attempts),
        }))
        .sort((a, b) => a.id - b.id);
    },

    async recordAttempt(
      deliveryId: number,
      attempt: { at: Date; status: number | null; error: string | null; durationMs: number },
    ) {
      await db.insert(webhookAttempts).values({ deliveryId, ...attempt });
    },

    /** Delivered: the endpoint's failures end with it. */
    async delivered(delivery: ClaimedDelivery, now: Date, status: number): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({
          state: 'delivered',
          deliveredAt: now,
          leaseUntil: null,
          lastStatus: status,
          lastError: null,
          attempts: sql`${webhookDeliveries.attempts} + 1`,
        })
        .where(eq(webhookDeliveries.id, delivery.id));
      await db
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, delivery.endpointId), sql`${webhookEndpoints.failingSince} is not null`));
    },

    /**
     * A failed attempt: tried again at `retryAt`, or given up (null). Returns the endpoint's first
     * failure since its last success (set now if this is it).
     */
    async failed(
      delivery: ClaimedDelivery,
      outcome: { now: Date; retryAt: Date | null; status: number | null; error: string },
    ): Promise<Date | null> {
      await db
        .update(webhookDeliveries)
        .set({
          state: outcome.retryAt ? 'pending' : 'failed',
          nextAttemptAt: outcome.retryAt ?? outcome.now,
          leaseUntil: null,
          lastStatus: outcome.status,
          lastError: outcome.error,
          attempts: sql`${webhookDeliveries.attempts} + 1`,
        })
        .where(eq(webhookDeliveries.id, delivery.id));
      const [row] = await db
        .update(webhookEndpoints)
        .set({
          failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${outcome.now.toISOString()}::timestamptz)`,
        })
        .where(eq(webhookEndpoints.id, delivery.endpointId))
        .returning({ failingSince: webhookEndpoints.failingSince });
      return row?.failingSince ?? null;
    },

    /** Turns an endpoint off for failing; true when this call did (so the admins are told once). */
    async disable(endpointId: string, reason: string): Promise<{ url: string } | null> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: reason })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
        .returning({ url: webhookEndpoints.url });
      return row ?? null;
    },

    /** Events older than `before` whose deliveries are all done (delivered or given up) are dropped. */
    async prune(before: Date): Promise<number> {
      const rows = await db
        .delete(webhookEvents)
        .where(
          and(
            lt(webhookEvents.occurredAt, before),
            sql`not exists (select 1 from webhook_deliveries d where d.event_id = ${webhookEvents.id} and d.state = 'pending')`,
          ),
        )
        .returning({ id: webhookEvents.id });
      return rows.length;
    },
  };
}
