import { z } from 'zod';
import { EmailSchema, NewPasswordSchema, type User } from '../../../contracts/auth.ts';
import { AppError } from '../../errors.ts';
import type { AccountsRepository, Role, UserRow } from './accounts.repository.ts';
import { findPasswordProblem, hashPassword } from './passwords.ts';
import { toUserDto } from './accounts.service.ts';

/**
 * Administration of accounts (DESIGN §4b): what the command line does, and later the admin API.
 * The same rules as sign-up apply to passwords chosen here; there is no default account anywhere
 * (AUTH-06): the first admin is whoever an operator creates with `create-user --admin`.
 */
function parse<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? 'Invalid value';
    throw new AppError('INVALID_ARGUMENT', `${field}: ${message}`, { fields: { [field]: message } });
  }
  return result.data;
}

async function checkedHash(password: unknown, email: string): Promise<string> {
  const value = parse(NewPasswordSchema, password, 'password');
  const problem = findPasswordProblem(value, email);
  if (problem) throw new AppError('INVALID_ARGUMENT', `password: ${problem}`, { fields: { password: problem } });
  return hashPassword(value);
}

const dto = (row: UserRow) => toUserDto({ ...row, emailVerified: row.emailVerifiedAt !== null });

export function createAccountAdmin(repo: AccountsRepository) {
  async function requireUser(rawEmail: unknown): Promise<UserRow> {
    const email = parse(EmailSchema, rawEmail, 'email');
    const user = await repo.findUserByEmail(email);
    if (!user) throw new AppError('NOT_FOUND', `There is no account for ${email}.`);
    return user;
  }

  return {
    async createUser(input: { email: unknown; password: unknown; role?: Role; verified?: boolean }): Promise<User> {
      const email = parse(EmailSchema, input.email, 'email');
      const passwordHash = await checkedHash(input.password, email);
      const row = await repo.insertUser({ email, passwordHash, role: input.role ?? 'user', verified: input.verified ?? true });
      if (!row) throw new AppError('ALREADY_EXISTS', `An account for ${email} already exists.`);
      return dto(row);
    },

    /** Sets a password and ends every session of the account. */
    async setPassword(input: { email: unknown; password: unknown }): Promise<{ user: User; endedSessions: number }> {
      const user = await requireUser(input.email);
      await repo.setPasswordHash(user.id, await checkedHash(input.password, user.email));
      const endedSessions = await repo.deleteSessionsOfUser(user.id);
      return { user: dto(user), endedSessions };
    },

    async verifyEmail(input: { email: unknown }): Promise<User> {
      const user = await requireUser(input.email);
      await repo.markEmailVerified(user.id);
      return dto((await repo.findUserById(user.id))!);
    },

    async setRole(input: { email: unknown; role: unknown }): Promise<User> {
      const role = parse(z.enum(['user', 'admin'], { error: 'must be user or admin' }), input.role, 'role');
      const user = await requireUser(input.email);
      await repo.setRole(user.id, role);
      return dto((await repo.findUserById(user.id))!);
    },

    /** Disables an account and ends every one of its sessions at once (SES-08). */
    async disableUser(input: { email: unknown }): Promise<{ user: User; endedSessions: number }> {
      const user = await requireUser(input.email);
      await repo.setDisabled(user.id, true);
      const endedSessions = await repo.deleteSessionsOfUser(user.id);
      return { user: dto(user), endedSessions };
    },

    async enableUser(input: { email: unknown }): Promise<User> {
      const user = await requireUser(input.email);
      await repo.setDisabled(user.id, false);
      return dto(user);
    },
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;
