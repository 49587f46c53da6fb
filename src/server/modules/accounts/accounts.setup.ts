import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { User } from '../../../contracts/auth.schemas.ts';
import { SETUP_TEXT } from '../../../contracts/setup.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { setupTokens, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { createToken, hashToken, isTokenShaped } from '../../security/tokens.ts';
import { createAccountAdmin } from './accounts.admin.service.ts';
import { createAccountsRepository } from './accounts.repository.ts';

/** How long a printed setup link works. */
export const SETUP_LINK_TTL_MS = 60 * 60 * 1000;

/**
 * The first admin, created in the browser: while the database has no admin, each server start
 * prints a one-time link to /setup (valid for an hour, once; a newer link replaces an unused one).
 * The page's form creates a verified admin with the sign-up rules for email and password, and the
 * page signs it in (app.signIn.signInNewAccount: a session that has not passed a second factor, so
 * the console asks for one first). Once an admin exists no link is issued and the page refuses
 * every token: from then on admins are made in the console or with the command line.
 */
export function createFirstAdminSetup(db: AppDatabase) {
  const hasAdmin = async (executor: AppDatabase = db) =>
    (await executor.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1)).length > 0;

  const liveToken = (token: string) =>
    and(eq(setupTokens.tokenHash, hashToken(token)), isNull(setupTokens.usedAt), gt(setupTokens.expiresAt, sql`now()`));

  return {
    /** A new one-time token while there is no admin (unused older ones stop working), else null. */
    async issueLink(): Promise<string | null> {
      if (await hasAdmin()) return null;
      const token = createToken();
      await db.transaction(async (tx) => {
        await tx.delete(setupTokens).where(isNull(setupTokens.usedAt));
        await tx
          .insert(setupTokens)
          .values({ tokenHash: hashToken(token), expiresAt: new Date(Date.now() + SETUP_LINK_TTL_MS) });
      });
      return token;
    },

    /** Whether a token opens the setup form now. */
    async isUsable(token: string): Promise<boolean> {
      if (!isTokenShaped(token) || (await hasAdmin())) return false;
      return (await db.select({ at: setupTokens.expiresAt }).from(setupTokens).where(liveToken(token))).length > 0;
    },

    /**
     * Creates the first admin. The email and password are checked (and the password hashed) before
     * the transaction; inside it the token is spent by one conditional UPDATE, so of two submits of
     * one link exactly one creates an account, and a refused account leaves the link usable.
     */
    async createFirstAdmin(input: { token: string; email: unknown; password: unknown }): Promise<User> {
      if (!isTokenShaped(input.token)) throw new AppError('NOT_FOUND', SETUP_TEXT.linkInvalid);
      // Validates like the command line does (the same messages, per field), before any write.
      const checked = await createAccountAdmin(createAccountsRepository(db)).checkNewAccount(input);
      return inTransaction(db, async (tx) => {
        const spent = await tx
          .update(setupTokens)
          .set({ usedAt: sql`now()` })
          .where(liveToken(input.token))
          .returning({ tokenHash: setupTokens.tokenHash });
        if (spent.length === 0 || (await hasAdmin(tx))) {
          throw new AppError('NOT_FOUND', SETUP_TEXT.linkInvalid);
        }
        return createAccountAdmin(createAccountsRepository(tx)).insertChecked(checked, {
          role: 'admin',
          verified: true,
        });
      });
    },
  };
}

export type FirstAdminSetup = ReturnType<typeof createFirstAdminSetup>;
