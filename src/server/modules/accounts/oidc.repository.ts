import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { oidcLogins, oidcSessions, sessions, staffInvitations } from '../../db/schema.ts';
import { notifySql } from '../../realtime/event-bus.ts';

/** SQL of staff sign-in with the identity provider (docs/decisions/148-staff-sign-in-oidc.md). */

/** How long an authorization request may take at the provider before its state is forgotten. */
export const LOGIN_TTL_MS = 10 * 60_000;

export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

export interface ProviderSession {
  tokenHash: string;
  userId: string;
  refreshToken: string | null;
}

export function createOidcRepository(db: AppDatabase) {
  /** Ends sessions, and tells every instance so their live streams close (sessions.ended). */
  async function endSessions(where: ReturnType<typeof eq>): Promise<number> {
    const ended = await db
      .delete(sessions)
      .where(inArray(sessions.tokenHash, db.select({ t: oidcSessions.tokenHash }).from(oidcSessions).where(where)))
      .returning({ userId: sessions.userId });
    for (const userId of new Set(ended.map((row) => row.userId)))
      await db.execute(notifySql({ type: 'sessions.ended', userId }));
    return ended.length;
  }

  return {
    async saveLogin(login: PendingLogin, now: Date): Promise<void> {
      await db.delete(oidcLogins).where(lte(oidcLogins.createdAt, new Date(now.getTime() - 86_400_000)));
      await db.insert(oidcLogins).values({ ...login, createdAt: now });
    },

    /** The request a state names, taken (used once); null when unknown, used or older than ten minutes. */
    async takeLogin(state: string, now: Date): Promise<PendingLogin | null> {
      const [row] = await db
        .delete(oidcLogins)
        .where(and(eq(oidcLogins.state, state), isNull(oidcLogins.ticketHash)))
        .returning();
      if (row && row.createdAt.getTime() <= now.getTime() - LOGIN_TTL_MS) return null;
      return row
        ? { state: row.state, nonce: row.nonce, codeVerifier: row.codeVerifier, returnTo: row.returnTo }
        : null;
    },

    /** The provider's answer, waiting for our own second factor under the code step's ticket. */
    async waitForCode(
      login: PendingLogin,
      ticketHash: string,
      provider: { subject: string; sid: string | null; refreshToken: string | null },
    ): Promise<void> {
      await db.insert(oidcLogins).values({
        ...login,
        ticketHash,
        subject: provider.subject,
        providerSid: provider.sid,
        refreshToken: provider.refreshToken,
      });
    },

    /** The code step was passed (a session) or failed once more (a new ticket): the waiting answer follows. */
    async ticketRedeemed(
      ticketHash: string,
      next: { tokenHash: string } | { ticketHash: string },
      now: Date,
    ): Promise<void> {
      if ('ticketHash' in next) {
        await db.update(oidcLogins).set({ ticketHash: next.ticketHash }).where(eq(oidcLogins.ticketHash, ticketHash));
        return;
      }
      const [row] = await db.delete(oidcLogins).where(eq(oidcLogins.ticketHash, ticketHash)).returning();
      if (row?.subject)
        await db.insert(oidcSessions).values({
          tokenHash: next.tokenHash,
          subject: row.subject,
          providerSid: row.providerSid,
          refreshToken: row.refreshToken,
          checkedAt: now,
        });
    },

    async saveSession(session: {
      tokenHash: string;
      subject: string;
      sid: string | null;
      refreshToken: string | null;
      now: Date;
    }): Promise<void> {
      await db.insert(oidcSessions).values({
        tokenHash: session.tokenHash,
        subject: session.subject,
        providerSid: session.sid,
        refreshToken: session.refreshToken,
        checkedAt: session.now,
      });
    },

    /** Sessions from the provider last checked before `before`, oldest first. */
    async dueForCheck(before: Date, limit: number): Promise<ProviderSession[]> {
      return db
        .select({ tokenHash: oidcSessions.tokenHash, userId: sessions.userId, refreshToken: oidcSessions.refreshToken })
        .from(oidcSessions)
        .innerJoin(sessions, eq(sessions.tokenHash, oidcSessions.tokenHash))
        .where(lte(oidcSessions.checkedAt, before))
        .orderBy(oidcSessions.checkedAt)
        .limit(limit);
    },

    async checked(tokenHash: string, at: Date, refreshToken: string | null): Promise<void> {
      await db
        .update(oidcSessions)
        .set({ checkedAt: at, ...(refreshToken ? { refreshToken } : {}) })
        .where(eq(oidcSessions.tokenHash, tokenHash));
    },

    endSession: (tokenHash: string) => endSessions(eq(oidcSessions.tokenHash, tokenHash)),

    /** Back-channel logout: the provider's session (sid), or every session of the subject when it names none. */
    async endProviderSessions(logout: { sid?: string; sub?: string }): Promise<number> {
      if (logout.sid) return endSessions(eq(oidcSessions.providerSid, logout.sid));
      return endSessions(eq(oidcSessions.subject, logout.sub!));
    },

    /** The open invitation of an address (not accepted, not expired), newest first. */
    async openInvitation(email: string, now: Date): Promise<{ id: string; roles: string[] } | null> {
      const [row] = await db
        .select({ id: staffInvitations.id, roles: staffInvitations.roles })
        .from(staffInvitations)
        .where(
          and(
            eq(staffInvitations.email, email),
            isNull(staffInvitations.acceptedAt),
            gt(staffInvitations.expiresAt, now),
          ),
        )
        .orderBy(sql`${staffInvitations.createdAt} desc`)
        .limit(1);
      return row ?? null;
    },

    async acceptInvitation(id: string): Promise<void> {
      await db
        .update(staffInvitations)
        .set({ acceptedAt: sql`now()` })
        .where(eq(staffInvitations.id, id));
    },

    async invite(invitation: { email: string; roles: string[]; invitedBy: string; expiresAt: Date }): Promise<string> {
      // A new invitation of the same address replaces the open one.
      await db
        .delete(staffInvitations)
        .where(and(eq(staffInvitations.email, invitation.email), isNull(staffInvitations.acceptedAt)));
      const [row] = await db.insert(staffInvitations).values(invitation).returning({ id: staffInvitations.id });
      return row!.id;
    },

    /** The open invitations and those accepted, newest first. */
    async listInvitations(now: Date) {
      return db
        .select({
          id: staffInvitations.id,
          email: staffInvitations.email,
          roles: staffInvitations.roles,
          expiresAt: staffInvitations.expiresAt,
          acceptedAt: staffInvitations.acceptedAt,
        })
        .from(staffInvitations)
        .where(or(gt(staffInvitations.expiresAt, now), isNotNull(staffInvitations.acceptedAt)))
        .orderBy(desc(staffInvitations.createdAt))
        .limit(100);
    },
  };
}

export type OidcRepository = ReturnType<typeof createOidcRepository>;
