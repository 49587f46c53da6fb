import { sql } from 'drizzle-orm';
import type { AppDatabase, DatabaseHandle } from '../db/connection.ts';

/**
 * Domain events that cross app instances through PostgreSQL LISTEN/NOTIFY (docs/design.md §1, §6).
 * Writers notify inside the statement or transaction that makes the change, so an event is
 * delivered exactly when the change commits and never for a rolled-back one. Payloads carry ids
 * only; listeners read the data itself from the database, so a lost or merged notification can
 * never lose data, only delay it until the next event or heartbeat.
 */
export const EVENTS_CHANNEL = 'bagspace_events';

export type DomainEvent =
  | { type: 'ticket.created'; ticketId: string; userId: string }
  | { type: 'ticket.updated'; ticketId: string; userId: string }
  | { type: 'message.created'; ticketId: string; userId: string; messageId: number }
  /**
   * Messages moved into or out of the ticket (a merge, a split, an undo): its streams are sent its
   * whole thread again, or, when it now lives on in another ticket (`movedTo`), sent there.
   */
  | { type: 'ticket.reshaped'; ticketId: string; userId: string; movedTo?: string }
  /**
   * An admin has a ticket open (until `until`, epoch ms; 0: left it), typing until `typingUntil` (0:
   * not typing): other admins on it and every admin inbox are told.
   */
  | {
      type: 'ticket.viewing';
      ticketId: string;
      userId: '';
      viewerId: string;
      email: string;
      until: number;
      typingUntil: number;
    }
  /** A ticket's side conversations changed (started, written, answered, closed): the team's pages read them again. */
  | { type: 'side.changed'; ticketId: string; userId: '' }
  /** Sessions ended (sign-out, password change, disabled account): live streams re-check at once. */
  | { type: 'sessions.ended'; userId: string };

export type EventHandler = (event: DomainEvent) => void;

export interface EventBus {
  start(): Promise<void>;
  subscribe(handler: EventHandler): () => void;
  /** Notifies outside any transaction (for changes already committed). */
  publish(event: DomainEvent): Promise<void>;
  stop(): Promise<void>;
}

export function notifySql(event: DomainEvent) {
  return sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`;
}

/**
 * NOTIFY in a statement of its own, after the change it announces has committed; never inside a
 * transaction. Its transaction commits without waiting for the disk (nothing in it needs to last):
 * PostgreSQL holds one database-wide lock from a notifying transaction's commit until its WAL is
 * flushed, so a NOTIFY inside a durable write lets only one such commit reach the disk at a time,
 * about 5× fewer message posts per second on this machine (change 4 in bench/results/changes.json).
 */
export function notifyAfterCommitSql(event: DomainEvent) {
  return sql`select set_config('synchronous_commit', 'off', true), pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`;
}

/**
 * Sends `notifyAfterCommitSql(event)` on `db` once the change has committed. A failed announcement
 * loses nothing: subscribers read the database on the next event, or when they reconnect.
 */
export async function announceAfterCommit(db: AppDatabase, event: DomainEvent): Promise<void> {
  await db.execute(notifyAfterCommitSql(event)).catch(() => {});
}

export function createEventBus(database: DatabaseHandle, log: { error(obj: object, msg: string): void }): EventBus {
  const handlers = new Set<EventHandler>();
  let unlisten: (() => Promise<void>) | undefined;
  const db: AppDatabase = database.db;

  return {
    async start() {
      if (unlisten) return;
      unlisten = await database.listen(EVENTS_CHANNEL, (payload) => {
        let event: DomainEvent;
        try {
          event = JSON.parse(payload) as DomainEvent;
        } catch (error) {
          log.error({ err: error }, 'ignored a malformed event');
          return;
        }
        for (const handler of handlers) {
          try {
            handler(event);
          } catch (error) {
            log.error({ err: error, event }, 'event handler failed');
          }
        }
      });
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async publish(event) {
      await db.execute(notifyAfterCommitSql(event));
    },
    async stop() {
      handlers.clear();
      await unlisten?.();
      unlisten = undefined;
    },
  };
}
