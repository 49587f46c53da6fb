import { and, eq, gt, isNotNull, isNull, lte, ne, or, sql, TransactionRollbackError } from 'drizzle-orm';
import type { RoleOptions } from '../../../contracts/roles.ts';
import { pgArray } from '../../db/sql.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { notifySql } from '../../realtime/event-bus.ts';
import { emailTokens, sessions, settings, staffRoles, users } from '../../db/schema.ts';

/** SQL for users, sessions and one-time email tokens. Rows stay here; services map them to DTOs. */
export type Role = 'user' | 'admin';
export type EmailTokenPurpose = 'verify-email' | 'reset-password';

export interface UserRow {
  id: string;
  email: string;
  passwordHash: string;
  emailVerifiedAt: Date | null;
  role: Role;
  disabledAt: Date | null;
}

export interface ActiveSession {
  tokenHash: string;
  userId: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  expiresAt: Date;
  /** This session passed an admin's second factor (sessions.second_factor_at is set). */
  secondFactorPassed: boolean;
  /** The staff roles the account holds now (staff_roles), and the team's role options. */
  roles: string[];
  auditorReadsHeldMail: boolean;
}

/** The settings row of the team's role options (RoleOptions in src/contracts/roles.ts). */
export const STAFF_ROLE_OPTIONS_KEY = 'staff/role-options';

/** last_seen_at is written at most once a minute per session, not on every request. */
const TOUCH_AFTER_MS = 60_000;

const userColumns = {
  id: users.id,
  email: users.email,
  passwordHash: users.passwordHash,
  emailVerifiedAt: users.emailVerifiedAt,
  role: users.role,
  disabledAt: users.disabledAt,
};

const ago = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;
const agoPlaceholder = (name: string) => sql`now() - make_interval(secs => ${sql.placeholder(name)})`;

/**
 * The session behind a token: every signed-in request asks it, so it is built once and sent as a
 * named prepared statement. PostgreSQL then parses and plans it once per connection instead of on
 * every request, and the query builder's work is done once (decision 102). Parameters: tokenHash,
 * idleSeconds, touchSeconds.
 */
function prepareActiveSessionQuery(db: AppDatabase) {
  return db
    .select({
      tokenHash: sessions.tokenHash,
      userId: users.id,
      email: users.email,
      role: users.role,
      emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
      expiresAt: sessions.expiresAt,
      secondFactorPassed: sql<boolean>`${sessions.secondFactorAt} is not null`,
      roles: sql<string[]>`array(select r.role from staff_roles r where r.user_id = ${users.id} order by r.role)`,
      auditorReadsHeldMail: sql<boolean>`coalesce((select (s.value->>'auditorReadsHeldMail')::boolean from settings s where s.key = ${STAFF_ROLE_OPTIONS_KEY}), false)`,
      stale: sql<boolean>`${sessions.lastSeenAt} < ${agoPlaceholder('touchSeconds')}`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, agoPlaceholder('idleSeconds')),
        isNull(users.disabledAt),
      ),
    )
    .prepare('find_active_session');
}

export function createAccountsRepository(db: AppDatabase) {
  let activeSessionQuery: ReturnType<typeof prepareActiveSessionQuery> | undefined;
  /** Tells every app instance that this user's sessions changed, so their live streams re-check at once. */
  const sessionsEnded = (userId: string) =>
    // Raw SQL: NOTIFY is the function call pg_notify(), a statement the builder has no form for.
    db.execute(notifySql({ type: 'sessions.ended', userId }));

  return {
    async findUserByEmail(email: string): Promise<UserRow | null> {
      const [row] = await db.select(userColumns).from(users).where(eq(users.email, email));
      return (row as UserRow | undefined) ?? null;
    },

    async findUserById(id: string): Promise<UserRow | null> {
      const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
      return (row as UserRow | undefined) ?? null;
    },

    /** Null when the email is taken: the unique index decides, so two sign-ups cannot race. */
    async insertUser(values: {
      email: string;
      passwordHash: string;
      role: Role;
      verified: boolean;
      name?: string | null;
    }): Promise<UserRow | null> {
      const [row] = await db
        .insert(users)
        .values({
          email: values.email,
          name: values.name ?? null,
          passwordHash: values.passwordHash,
          role: values.role,
          emailVerifiedAt: values.verified ? sql`now()` : null,
        })
        .onConflictDoNothing({ target: users.email })
        .returning(userColumns);
      return (row as UserRow | undefined) ?? null;
    },

    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    },

    async markEmailVerified(userId: string): Promise<void> {
      await db
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(eq(users.id, userId));
    },

    /**
     * Sets exactly the staff roles an account holds (none: a customer's account again), and tells
     * its live streams to re-check at once. One change at a time across instances (an advisory
     * lock), so two admins giving up theirs together cannot leave the team without one: false, and
     * nothing changed, when taking this account's admin role would leave no enabled admin.
     */
    async setRoles(userId: string, roles: readonly string[]): Promise<boolean> {
      const kept = await db
        .transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext('staff_roles'))`);
          const [held] = await tx
            .select({ one: sql`1` })
            .from(staffRoles)
            .where(and(eq(staffRoles.userId, userId), eq(staffRoles.role, 'admin')));
          await tx
            .delete(staffRoles)
            .where(
              roles.length === 0
                ? eq(staffRoles.userId, userId)
                : and(eq(staffRoles.userId, userId), sql`${staffRoles.role} <> all(${pgArray(roles)}::text[])`),
            );
          if (roles.length > 0)
            await tx
              .insert(staffRoles)
              .values(roles.map((role) => ({ userId, role })))
              .onConflictDoNothing();
          await tx
            .update(users)
            .set({ role: roles.length > 0 ? 'admin' : 'user' })
            .where(eq(users.id, userId));
          const [{ admins } = { admins: 0 }] = await tx
            .select({ admins: sql<number>`count(*)::int` })
            .from(staffRoles)
            .innerJoin(users, eq(users.id, staffRoles.userId))
            .where(and(eq(staffRoles.role, 'admin'), isNull(users.disabledAt)));
          // Only giving up an admin role can leave the team without one (a new team has none yet).
          if (held && !roles.includes('admin') && admins === 0) tx.rollback();
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof TransactionRollbackError) return false;
          throw error;
        });
      if (kept) await sessionsEnded(userId);
      return kept;
    },

    async roleOptions(): Promise<RoleOptions> {
      const [row] = await db
        .select({ value: settings.value })
        .from(settings)
        .where(eq(settings.key, STAFF_ROLE_OPTIONS_KEY));
      const value = (row?.value ?? {}) as Partial<RoleOptions>;
      return { auditorReadsHeldMail: value.auditorReadsHeldMail === true };
    },

    async saveRoleOptions(options: RoleOptions): Promise<void> {
      await db
        .insert(settings)
        .values({ key: STAFF_ROLE_OPTIONS_KEY, value: options })
        .onConflictDoUpdate({ target: settings.key, set: { value: options, updatedAt: sql`now()` } });
    },

    async setRole(userId: string, role: Role): Promise<void> {
      await db.update(users).set({ role }).where(eq(users.id, userId));
      // Open admin streams of a demoted user must stop now, not at their next check.
      await sessionsEnded(userId);
    },

    /** False when nothing changed: an account whose owner asked to delete it is never enabled again. */
    async setDisabled(userId: string, disabled: boolean): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, now())` : null })
        .where(disabled ? eq(users.id, userId) : and(eq(users.id, userId), isNull(users.deletionRequestedAt)))
        .returning({ id: users.id });
      if (disabled) await sessionsEnded(userId);
      return rows.length > 0;
    },

    async insertSession(values: {
      tokenHash: string;
      userId: string;
      absoluteMs: number;
      /** The sign-in also passed the second factor. */
      secondFactor?: boolean;
      /** Where it was started: User-Agent (cut short) and network prefix (accounts.device.ts). */
      device?: { userAgent: string | null; ipPrefix: string | null };
    }): Promise<Date> {
      const [row] = await db
        .insert(sessions)
        .values({
          tokenHash: values.tokenHash,
          userId: values.userId,
          expiresAt: sql`now() + make_interval(secs => ${values.absoluteMs / 1000})`,
          secondFactorAt: values.secondFactor ? sql`now()` : null,
          userAgent: values.device?.userAgent ?? null,
          ipPrefix: values.device?.ipPrefix ?? null,
        })
        .returning({ expiresAt: sessions.expiresAt });
      // Signing in shows the address works again: mail paused after a bounce resumes (modules/inbound).
      await db
        .update(users)
        .set({ mailPausedAt: null })
        .where(and(eq(users.id, values.userId), isNotNull(users.mailPausedAt)));
      return row!.expiresAt;
    },

    /**
     * The session and its user as they are now: role, verified flag and disabled state come from
     * the users table on every request (AUTH-08), never from the session row or the token.
     */
    async findActiveSession(tokenHash: string, idleMs: number): Promise<ActiveSession | null> {
      activeSessionQuery ??= prepareActiveSessionQuery(db);
      const [row] = await activeSessionQuery.execute({
        tokenHash,
        idleSeconds: idleMs / 1000,
        touchSeconds: TOUCH_AFTER_MS / 1000,
      });
      if (!row) {
        // An expired session is deleted when it is next presented (SES-06), not merely ignored.
        await db
          .delete(sessions)
          .where(
            and(
              eq(sessions.tokenHash, tokenHash),
              or(lte(sessions.expiresAt, sql`now()`), lte(sessions.lastSeenAt, ago(idleMs))),
            ),
          );
        return null;
      }
      if (row.stale) {
        await db
          .update(sessions)
          .set({ lastSeenAt: sql`now()` })
          .where(eq(sessions.tokenHash, tokenHash));
      }
      return {
        tokenHash: row.tokenHash,
        userId: row.userId,
        email: row.email,
        role: row.role as Role,
        emailVerified: Boolean(row.emailVerified),
        expiresAt: row.expiresAt,
        secondFactorPassed: Boolean(row.secondFactorPassed),
        roles: row.roles ?? [],
        auditorReadsHeldMail: Boolean(row.auditorReadsHeldMail),
      };
    },

    async deleteSession(tokenHash: string): Promise<void> {
      const [ended] = await db
        .delete(sessions)
        .where(eq(sessions.tokenHash, tokenHash))
        .returning({ userId: sessions.userId });
      if (ended) await sessionsEnded(ended.userId);
    },

    /** Ends every session of a user, or every one but `keepTokenHash`. */
    async deleteSessionsOfUser(userId: string, keepTokenHash?: string): Promise<number> {
      const rows = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), keepTokenHash ? ne(sessions.tokenHash, keepTokenHash) : undefined))
        .returning({ tokenHash: sessions.tokenHash });
      if (rows.length > 0) await sessionsEnded(userId);
      return rows.length;
    },

    /** Housekeeping at sign-in: a user's sessions that can no longer be used. */
    async deleteExpiredSessionsOfUser(userId: string, idleMs: number): Promise<void> {
      await db
        .delete(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            or(lte(sessions.expiresAt, sql`now()`), lte(sessions.lastSeenAt, ago(idleMs))),
          ),
        );
    },

    /** Issues a token and withdraws the user's earlier unused ones of the same purpose (AUTH-07). */
    async replaceEmailToken(values: {
      userId: string;
      purpose: EmailTokenPurpose;
      tokenHash: string;
      ttlMs: number;
    }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .delete(emailTokens)
          .where(
            and(
              eq(emailTokens.userId, values.userId),
              eq(emailTokens.purpose, values.purpose),
              isNull(emailTokens.usedAt),
            ),
          );
        await tx.insert(emailTokens).values({
          tokenHash: values.tokenHash,
          userId: values.userId,
          purpose: values.purpose,
          expiresAt: sql`now() + make_interval(secs => ${values.ttlMs / 1000})`,
        });
      });
    },

    /** Whose a still-valid token is, without using it up (to check a new password before spending the link). */
    async findEmailTokenUser(tokenHash: string, purpose: EmailTokenPurpose): Promise<UserRow | null> {
      const [row] = await db
        .select(userColumns)
        .from(emailTokens)
        .innerJoin(users, eq(users.id, emailTokens.userId))
        .where(
          and(
            eq(emailTokens.tokenHash, tokenHash),
            eq(emailTokens.purpose, purpose),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, sql`now()`),
          ),
        );
      return (row as UserRow | undefined) ?? null;
    },

    /** Single use, in one statement: two clicks on one link cannot both succeed. */
    async consumeEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<string | null> {
      const [row] = await db
        .update(emailTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(emailTokens.tokenHash, tokenHash),
            eq(emailTokens.purpose, purpose),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: emailTokens.userId });
      return row?.userId ?? null;
    },

    /** After a reset, any other reset link still in a mailbox stops working. */
    async withdrawEmailTokens(userId: string, purpose: EmailTokenPurpose): Promise<void> {
      await db
        .delete(emailTokens)
        .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
