import type { AppDatabase } from '../../db/connection.ts';
import { AppError } from '../../errors.ts';
import { createSecondFactorRepository } from './second-factor.repository.ts';
import { isUsableTotpSecret, normaliseTotpSecret } from './totp.ts';

/**
 * What the command line does to an admin's second factor (docs/operations.md): enrol a TOTP secret
 * an automation already holds (confirmed at once), and reset a second factor that was lost.
 */
export const SECRET_INVALID =
  'The TOTP secret must be base32 (the letters A–Z and digits 2–7) of at least 26 characters (16 bytes).';
export const ADMINS_ONLY = 'Only admins have a second factor: make the account an admin first (set-role).';

/** What the reset needs of the accounts module (its repository, handed in by the command line). */
export interface AccountLookup {
  findUserByEmail(email: string): Promise<{ id: string; email: string; role: string } | null>;
  deleteSessionsOfUser(userId: string): Promise<number>;
}

export function createSecondFactorAdmin(db: AppDatabase, accounts: AccountLookup) {
  const repo = createSecondFactorRepository(db);

  async function adminByEmail(email: string) {
    const user = await accounts.findUserByEmail(email.trim().toLowerCase());
    if (!user) throw new AppError('NOT_FOUND', `There is no account for ${email}.`);
    return user;
  }

  return {
    /** The secret must be usable before anything is written (create-user checks it before creating the account). */
    checkSecret(secret: string): string {
      const clean = normaliseTotpSecret(secret);
      if (!isUsableTotpSecret(clean)) throw new AppError('INVALID_ARGUMENT', SECRET_INVALID);
      return clean;
    },

    /** Replaces the admin's authenticator app with this secret, confirmed at once. */
    async setTotp(input: { email: string; secret: string }) {
      const secret = this.checkSecret(input.secret);
      const user = await adminByEmail(input.email);
      if (user.role !== 'admin') throw new AppError('INVALID_ARGUMENT', ADMINS_ONLY);
      await repo.replaceTotp({ userId: user.id, secret, label: 'Command line' });
      return { email: user.email };
    },

    /** Removes every factor and recovery code and ends the account's sessions: the next sign-in enrols again. */
    async reset(input: { email: string }) {
      const user = await adminByEmail(input.email);
      const removed = await repo.removeAll(user.id);
      const endedSessions = await accounts.deleteSessionsOfUser(user.id);
      return { email: user.email, ...removed, endedSessions };
    },
  };
}
