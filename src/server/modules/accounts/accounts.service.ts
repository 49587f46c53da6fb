import type { Logger } from '../../logging.ts';
import { AUTH_MESSAGES, RESET_PASSWORD_TOKEN_HOURS, VERIFY_EMAIL_TOKEN_HOURS } from '../../../contracts/auth.ts';
import type { User } from '../../../contracts/auth.schemas.ts';
import { AppError } from '../../errors.ts';
import type { AppDatabase } from '../../db/connection.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { type MailKind, mailTransactions, type Outbox } from '../../mail/outbox.ts';
import type { Principal } from '../../plugins/access.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import {
  type AccountMailContext,
  alreadyRegisteredMail,
  passwordChangedMail,
  resetPasswordMail,
  verifyEmailMail,
} from './accounts.mail.ts';
import { type AccountsRepository, createAccountsRepository, type UserRow } from './accounts.repository.ts';
import { findPasswordProblem, hashPassword, verifyPassword } from './passwords.ts';
import { createToken, hashToken } from '../../security/tokens.ts';
import { createAccountRequestLimits, createPasswordThrottle } from './accounts.throttle.ts';

/**
 * The account rules: sign-up, verification, password reset and change (signing in and sessions
 * live in sign-in.service.ts). Answers that could reveal whether an email has an account are the same either way
 * (docs/decisions/042-enumeration-safe-accounts.md); mail that depends on whether an account
 * exists is recorded after the answer, in the background, so timing tells nothing either. Every
 * mail is recorded in the outbox in the same transaction as the change it is about (a new link, a
 * new password) and delivered by the outbox worker.
 */
export interface AccountsSettings extends AccountMailContext {
  sessions: { idleMs: number; absoluteMs: number };
  loginThrottle: { perAccount: number; perIp: number; windowMs: number };
  accountEmailsPerHour: number;
  accountRequestsPerIpPerHour: number;
}

const HOUR = 3_600_000;

export function toUserDto(row: Pick<UserRow, 'id' | 'email' | 'role'> & { emailVerified: boolean }): User {
  return { id: row.id, email: row.email, role: row.role, emailVerified: row.emailVerified };
}

export function createAccountsService(deps: {
  repository: AccountsRepository;
  /** For transactions: a change and its mail commit together. */
  db: AppDatabase;
  outbox: Outbox;
  limiter: RateLimiter;
  settings: AccountsSettings;
  logger: Logger;
}) {
  const { repository: repo, outbox, limiter, settings, logger } = deps;
  const pending = new Set<Promise<void>>();

  /** Work that must not delay (or shape) the answer; awaited by `drain` at shutdown. */
  function inBackground(what: string, work: () => Promise<void>) {
    const task = work()
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => pending.delete(task));
    pending.add(task);
  }

  /** One transaction with a queue for mail that commits (or not) with it. */
  const transaction = mailTransactions(deps.db, outbox, createAccountsRepository);

  const send = (kind: MailKind, message: MailMessage, userId: string) =>
    transaction((_tx, queue) => queue(kind, message, userId));

  /** A new link replaces the unused ones of its purpose; the link and its mail commit together. */
  function mailEmailToken(user: UserRow, purpose: 'verify-email' | 'reset-password') {
    return transaction(async (tx, queue) => {
      const token = createToken();
      const hours = purpose === 'verify-email' ? VERIFY_EMAIL_TOKEN_HOURS : RESET_PASSWORD_TOKEN_HOURS;
      await tx.replaceEmailToken({ userId: user.id, purpose, tokenHash: hashToken(token), ttlMs: hours * HOUR });
      const message =
        purpose === 'verify-email'
          ? verifyEmailMail(settings, user.email, token)
          : resetPasswordMail(settings, user.email, token);
      await queue(purpose, message, user.id);
    });
  }

  const sendVerification = (user: UserRow) =>
    inBackground('verification mail', () => mailEmailToken(user, 'verify-email'));

  const { limitIp, limitMailsTo } = createAccountRequestLimits(limiter, settings);

  const startPasswordAttempt = createPasswordThrottle(limiter, settings.loginThrottle);

  async function checkNewPassword(password: string, email: string, field: string) {
    const problem = findPasswordProblem(password, email);
    if (problem) throw new AppError('INVALID_ARGUMENT', problem, { fields: { [field]: problem } });
  }

  return {
    async getUser(userId: string): Promise<User> {
      const user = await repo.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      return toUserDto({ ...user, emailVerified: user.emailVerifiedAt !== null });
    },

    async signUp(input: { email: string; password: string; name?: string | undefined; ip: string }): Promise<string> {
      await limitIp(input.ip);
      await limitMailsTo(input.email);
      await checkNewPassword(input.password, input.email, 'password');
      // Hashed before looking the email up, so a taken email answers exactly as slowly as a new one.
      const passwordHash = await hashPassword(input.password);
      // The name goes with a new account only: an existing one keeps its own (as it keeps its password).
      const created = await repo.insertUser({
        email: input.email,
        passwordHash,
        role: 'user',
        verified: false,
        name: input.name || null,
      });
      if (created) {
        logger.info({ userId: created.id }, 'account created');
        sendVerification(created);
        return AUTH_MESSAGES.signupAccepted;
      }
      const existing = await repo.findUserByEmail(input.email);
      if (existing && !existing.disabledAt) {
        // The password of an existing account is never changed here: that would let anyone pre-set
        // the password of an account whose owner has not verified it yet.
        if (existing.emailVerifiedAt) {
          inBackground('already-registered mail', () =>
            send('already-registered', alreadyRegisteredMail(settings, existing.email), existing.id),
          );
        } else sendVerification(existing);
      }
      return AUTH_MESSAGES.signupAccepted;
    },

    async resendVerification(input: { email: string; ip: string }): Promise<string> {
      await limitIp(input.ip);
      await limitMailsTo(input.email);
      const user = await repo.findUserByEmail(input.email);
      if (user && !user.disabledAt && !user.emailVerifiedAt) sendVerification(user);
      return AUTH_MESSAGES.verificationSent;
    },

    async verifyEmail(input: { token: string; ip: string }): Promise<string> {
      await limitIp(input.ip);
      const userId = await repo.consumeEmailToken(hashToken(input.token), 'verify-email');
      if (!userId) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.tokenInvalid);
      await repo.markEmailVerified(userId);
      logger.info({ userId }, 'email verified');
      return AUTH_MESSAGES.emailVerified;
    },

    async forgotPassword(input: { email: string; ip: string }): Promise<string> {
      await limitIp(input.ip);
      await limitMailsTo(input.email);
      const user = await repo.findUserByEmail(input.email);
      if (user && !user.disabledAt) {
        inBackground('reset mail', () => mailEmailToken(user, 'reset-password'));
      }
      return AUTH_MESSAGES.resetRequested;
    },

    /** A reset ends every session (AUTH-10); following the link also proves the mailbox, so it verifies. */
    async resetPassword(input: { token: string; password: string; ip: string }): Promise<string> {
      await limitIp(input.ip);
      const tokenHash = hashToken(input.token);
      const owner = await repo.findEmailTokenUser(tokenHash, 'reset-password');
      if (!owner || owner.disabledAt) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.tokenInvalid);
      await checkNewPassword(input.password, owner.email, 'password');
      const passwordHash = await hashPassword(input.password);
      const userId = await repo.consumeEmailToken(tokenHash, 'reset-password');
      if (userId !== owner.id) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.tokenInvalid);
      const ended = await transaction(async (tx, queue) => {
        await tx.setPasswordHash(owner.id, passwordHash);
        await tx.markEmailVerified(owner.id);
        const count = await tx.deleteSessionsOfUser(owner.id);
        await tx.withdrawEmailTokens(owner.id, 'reset-password');
        await queue('password-changed', passwordChangedMail(settings, owner.email), owner.id);
        return count;
      });
      logger.info({ userId: owner.id, endedSessions: ended }, 'password reset');
      return AUTH_MESSAGES.passwordReset;
    },

    /** Needs the current password (AUTH-03); ends every other session, keeps this one. */
    async changePassword(input: {
      principal: Principal;
      currentPassword: string;
      newPassword: string;
      ip: string;
    }): Promise<string> {
      const user = await repo.findUserById(input.principal.userId);
      if (!user) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      const attempt = await startPasswordAttempt(user.email, input.ip);
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        await attempt.failed();
        throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.currentPasswordWrong, {
          fields: { currentPassword: AUTH_MESSAGES.currentPasswordWrong },
        });
      }
      await attempt.succeeded();
      if (input.currentPassword === input.newPassword) {
        throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.newPasswordSameAsOld, {
          fields: { newPassword: AUTH_MESSAGES.newPasswordSameAsOld },
        });
      }
      await checkNewPassword(input.newPassword, user.email, 'newPassword');
      const newHash = await hashPassword(input.newPassword);
      const ended = await transaction(async (tx, queue) => {
        await tx.setPasswordHash(user.id, newHash);
        const count = await tx.deleteSessionsOfUser(user.id, input.principal.sessionId);
        await queue('password-changed', passwordChangedMail(settings, user.email), user.id);
        return count;
      });
      logger.info({ userId: user.id, endedSessions: ended }, 'password changed');
      return AUTH_MESSAGES.passwordChanged;
    },

    /**
     * Checks the signed-in person's password before something drastic (deleting the account),
     * throttled as sign-ins are; a wrong one is a field error on `field`.
     */
    async confirmPassword(input: { userId: string; password: string; ip: string; field: string }): Promise<void> {
      const user = await repo.findUserById(input.userId);
      if (!user) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      const attempt = await startPasswordAttempt(user.email, input.ip);
      if (!(await verifyPassword(user.passwordHash, input.password))) {
        await attempt.failed();
        throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.currentPasswordWrong, {
          fields: { [input.field]: AUTH_MESSAGES.currentPasswordWrong },
        });
      }
      await attempt.succeeded();
    },

    /** Waits for mail still being recorded (graceful shutdown, tests). */
    async drain(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
