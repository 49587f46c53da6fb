import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { emailTokens, sessions, users } from '../../db/schema.ts';
import { notifySql } from '../../realtime/event-bus.ts';

/**
 * SQL of the account page: the profile, the user's own sessions, and email-change links
 * (email_tokens with purpose 'change-email' and the address they change to).
 */
export interface ProfileRow {
  email: string;
  name: string | null;
  emailVerifiedAt: Date | null;
  role: 'user' | 'admin';
  createdAt: Date;
}

export interface SessionRow {
  tokenHash: string;
  userAgent: string | null;
  ipPrefix: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

export interface EmailChangeLink {
  userId: string;
  oldEmail: string;
  newEmail: string;
  disabled: boolean;
}

const CHANGE_EMAIL = 'change-email';
const ago = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;
const usable = and(
  eq(emailTokens.purpose, CHANGE_EMAIL),
  isNull(emailTokens.usedAt),
  gt(emailTokens.expiresAt, sql`now()`),
);

export function createAccountSessionsRepository(db: AppDatabase) {
  /** Tells every app instance that this user's sessions changed, so the ended ones' live streams close at once. */
  const sessionsEnded = (userId: string) =>
    // Raw SQL: NOTIFY is the function call pg_notify(), a statement the builder has no form for.
    db.execute(notifySql({ type: 'sessions.ended', userId }));

  return {
    async findProfile(userId: string): Promise<(ProfileRow & { pendingEmail: string | null }) | null> {
      const [row] = await db
        .select({
          email: users.email,
          name: users.name,
          emailVerifiedAt: users.emailVerifiedAt,
          role: users.role,
          createdAt: users.createdAt,
        })
        .from(users)
        .where(eq(users.id, userId));
      if (!row) return null;
      const [pending] = await db
        .select({ newEmail: emailTokens.newEmail })
        .from(emailTokens)
        .where(and(eq(emailTokens.userId, userId), usable))
        .orderBy(desc(emailTokens.createdAt))
        .limit(1);
      return { ...(row as ProfileRow), pendingEmail: pending?.newEmail ?? null };
    },

    /** The sessions that can still be used (not expired, not idle too long), most recently used first. */
    async listSessions(userId: string, idleMs: number): Promise<SessionRow[]> {
      return db
        .select({
          tokenHash: sessions.tokenHash,
          userAgent: sessions.userAgent,
          ipPrefix: sessions.ipPrefix,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
        })
        .from(sessions)
        .where(
          and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`), gt(sessions.lastSeenAt, ago(idleMs))),
        )
        .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
    },

    /** Ends one of the user's sessions; false when it had already ended (or is someone else's). */
    async deleteSession(userId: string, tokenHash: string): Promise<boolean> {
      const rows = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), eq(sessions.tokenHash, tokenHash)))
        .returning({ tokenHash: sessions.tokenHash });
      if (rows.length > 0) await sessionsEnded(userId);
      return rows.length > 0;
    },

    /** Sets (or with null clears) the name; false when the account is gone. */
    async setName(userId: string, name: string | null): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ name })
        .where(and(eq(users.id, userId), isNull(users.erasedAt)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Whether the console's single-key shortcuts are on for this person; null when the account is gone. */
    async keyboardShortcuts(userId: string): Promise<boolean | null> {
      const [row] = await db
        .select({ on: users.keyboardShortcuts })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.erasedAt)));
      return row ? row.on : null;
    },

    /** Turns the console's single-key shortcuts on or off for this person; false when the account is gone. */
    async setKeyboardShortcuts(userId: string, on: boolean): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ keyboardShortcuts: on })
        .where(and(eq(users.id, userId), isNull(users.erasedAt)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Ends every session of the user but `keepTokenHash`; how many ended. */
    async deleteOtherSessions(userId: string, keepTokenHash: string): Promise<number> {
      const rows = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)))
        .returning({ tokenHash: sessions.tokenHash });
      if (rows.length > 0) await sessionsEnded(userId);
      return rows.length;
    },

    /** A new email-change link withdraws the user's earlier unused ones (only the latest address counts). */
    async replaceChangeEmailToken(values: {
      userId: string;
      tokenHash: string;
      newEmail: string;
      ttlMs: number;
    }): Promise<void> {
      await db
        .delete(emailTokens)
        .where(
          and(eq(emailTokens.userId, values.userId), eq(emailTokens.purpose, CHANGE_EMAIL), isNull(emailTokens.usedAt)),
        );
      await db.insert(emailTokens).values({
        tokenHash: values.tokenHash,
        userId: values.userId,
        purpose: CHANGE_EMAIL,
        newEmail: values.newEmail,
        expiresAt: sql`now() + make_interval(secs => ${values.ttlMs / 1000})`,
      });
    },

    /** Spends a usable email-change link (one statement: two clicks cannot both succeed); whose it was and the addresses. */
    async consumeChangeEmailToken(tokenHash: string): Promise<EmailChangeLink | null> {
      const [spent] = await db
        .update(emailTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailTokens.tokenHash, tokenHash), usable))
        .returning({ userId: emailTokens.userId, newEmail: emailTokens.newEmail });
      if (!spent?.newEmail) return null;
      const [user] = await db
        .select({ email: users.email, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.id, spent.userId));
      if (!user) return null;
      return {
        userId: spent.userId,
        oldEmail: user.email,
        newEmail: spent.newEmail,
        disabled: user.disabledAt !== null,
      };
    },

    async emailTaken(email: string, exceptUserId?: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), exceptUserId ? ne(users.id, exceptUserId) : undefined));
      return row !== undefined;
    },

    /**
     * Moves the account to its new address; following the link proved the mailbox, so it counts as
     * verified. Throws a unique violation when another account took the address meanwhile.
     */
    async setEmail(userId: string, email: string): Promise<void> {
      await db
        .update(users)
        .set({ email, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(eq(users.id, userId));
    },

    /** Links mailed to the old address (verification, reset, earlier changes) stop working once it is no longer the account's. */
    async withdrawUnusedEmailTokens(userId: string): Promise<void> {
      await db.delete(emailTokens).where(and(eq(emailTokens.userId, userId), isNull(emailTokens.usedAt)));
    },
  };
}

export type AccountSessionsRepository = ReturnType<typeof createAccountSessionsRepository>;
