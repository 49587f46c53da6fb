import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { auditLog, sessions, users } from '../../db/schema.ts';
import { notifySql } from '../../realtime/event-bus.ts';

/** An account's deletion state, as the admin's 'Erase now' needs it. */
export interface DeletionState {
  id: string;
  email: string;
  role: string;
  deletionRequestedAt: Date | null;
  eraseAfter: Date | null;
  erasedAt: Date | null;
}

/**
 * The account-deletion request's writes (docs/decisions/098-account-deletion-and-erasure.md). It
 * writes the accounts module's `users` and `sessions` rows and an audit entry in the caller's
 * transaction on purpose: the request is one transaction (disabled, signed out, ticket, mail, audit
 * all or nothing), and the accounts and audit services have no transaction-scoped form.
 */
export function createDeletionRepository(db: AppDatabase) {
  return {
    async findState(userId: string): Promise<DeletionState | null> {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          role: users.role,
          deletionRequestedAt: users.deletionRequestedAt,
          eraseAfter: users.eraseAfter,
          erasedAt: users.erasedAt,
        })
        .from(users)
        .where(eq(users.id, userId));
      return row ?? null;
    },

    /**
     * Disables the account and sets its erasure date, once: null when it already asked (a second
     * request racing the first) or is gone.
     */
    async markRequested(
      userId: string,
      eraseAfterDays: number,
    ): Promise<{ email: string; requestedAt: Date; eraseAfter: Date } | null> {
      const [row] = await db
        .update(users)
        .set({
          disabledAt: sql`coalesce(${users.disabledAt}, now())`,
          deletionRequestedAt: sql`now()`,
          eraseAfter: sql`now() + make_interval(days => ${eraseAfterDays})`,
        })
        .where(and(eq(users.id, userId), isNull(users.deletionRequestedAt)))
        .returning({ email: users.email, requestedAt: users.deletionRequestedAt, eraseAfter: users.eraseAfter });
      return row && row.requestedAt && row.eraseAfter
        ? { email: row.email, requestedAt: row.requestedAt, eraseAfter: row.eraseAfter }
        : null;
    },

    /** Ends every session; live streams end when the transaction commits (NOTIFY is sent on commit). */
    async endSessions(userId: string): Promise<number> {
      const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ t: sessions.tokenHash });
      await db.execute(notifySql({ type: 'sessions.ended', userId }));
      return ended.length;
    },

    /** Brings erasure forward to now (an admin's 'Erase now'); null unless deletion was asked and not yet done. */
    async eraseNow(userId: string): Promise<Date | null> {
      const [row] = await db
        .update(users)
        .set({ eraseAfter: sql`least(${users.eraseAfter}, now())` })
        .where(and(eq(users.id, userId), isNotNull(users.deletionRequestedAt), isNull(users.erasedAt)))
        .returning({ eraseAfter: users.eraseAfter });
      return row?.eraseAfter ?? null;
    },

    async audit(entry: {
      actorId: string | null;
      actorEmail: string | null;
      action: string;
      targetId: string;
      details: Record<string, unknown>;
    }): Promise<void> {
      await db.insert(auditLog).values({ ...entry, targetType: 'user' });
    },
  };
}
