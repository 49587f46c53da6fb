import { ACCOUNT_MESSAGES, CHANGE_EMAIL_TOKEN_HOURS } from '../../../contracts/account.ts';
import type { AccountProfile, AccountSession } from '../../../contracts/account.schemas.ts';
import { AUTH_MESSAGES } from '../../../contracts/auth.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { mailTransactions, type Outbox } from '../../mail/outbox.ts';
import type { Principal } from '../../plugins/access.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { createToken, hashToken } from '../../security/tokens.ts';
import { AppError } from '../../errors.ts';
import { describeDevice, publicSessionId } from './accounts.device.ts';
import { createAccountRequestLimits } from './accounts.throttle.ts';
import {
  changeEmailMail,
  changeEmailTakenMail,
  emailChangedMail,
  emailChangeRequestedMail,
} from './accounts.email-change.mail.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { type AccountSessionsRepository, createAccountSessionsRepository } from './accounts.sessions.repository.ts';
import type { Logger } from '../../logging.ts';
import type { AccountsSettings } from './accounts.service.ts';
import { verifyPassword } from './passwords.ts';

/**
 * The account page's rules (docs/product.md §2.13, decision 097): the profile, the person's own
 * sessions (list, sign out one, sign out everywhere else) and changing the email address, which
 * waits for a link mailed to the new address and tells the old one. Ending a session announces
 * `sessions.ended`, so its live streams close at once.
 */
const HOUR = 3_600_000;

export function createAccountProfileService(deps: {
  db: AppDatabase;
  repository: AccountSessionsRepository;
  accounts: Pick<AccountsRepository, 'findUserById'>;
  outbox: Outbox;
  limiter: RateLimiter;
  settings: AccountsSettings;
  logger: Logger;
}) {
  const { repository: repo, outbox, limiter, settings, logger } = deps;

  /** One transaction with a queue for mail that commits (or not) with it. */
  const transaction = mailTransactions(deps.db, outbox, createAccountSessionsRepository);

  const { limitIp, limitMailsTo } = createAccountRequestLimits(limiter, settings);

  /**
   * The current password, counted against the same budget as sign-in (the account's key, and the
   * network's on a failure), so a stolen session cannot guess it here faster than at the login screen.
   */
  async function checkCurrentPassword(email: string, passwordHash: string, password: string, ip: string) {
    const { perAccount, perIp, windowMs } = settings.loginThrottle;
    const tooMany = (seconds: number) =>
      new AppError('RESOURCE_EXHAUSTED', ACCOUNT_MESSAGES.tooManyPasswordTries(seconds), {
        headers: { 'retry-after': String(seconds) },
      });
    const byIp = await limiter.peek({ key: `login:ip:${ip}`, limit: perIp, windowMs });
    if (!byIp.allowed) throw tooMany(byIp.retryAfterSeconds);
    const account = { key: `login:account:${email}`, limit: perAccount, windowMs };
    const byAccount = await limiter.hit(account);
    if (!byAccount.allowed) throw tooMany(byAccount.retryAfterSeconds);
    if (!(await verifyPassword(passwordHash, password))) {
      await limiter.hit({ key: `login:ip:${ip}`, limit: perIp, windowMs });
      throw new AppError('INVALID_ARGUMENT', ACCOUNT_MESSAGES.currentPasswordWrong, {
        fields: { currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong },
      });
    }
    await limiter.reset(account.key);
  }

  async function sessionsOf(principal: Principal) {
    const rows = await repo.listSessions(principal.userId, settings.sessions.idleMs);
    return rows.map((row) => ({ row, id: publicSessionId(row.tokenHash) }));
  }

  return {
    async profile(principal: Principal): Promise<AccountProfile> {
      const row = await repo.findProfile(principal.userId);
      if (!row) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      return {
        email: row.email,
        name: row.name,
        emailVerified: row.emailVerifiedAt !== null,
        role: row.role,
        memberSince: row.createdAt.toISOString(),
        pendingEmail: row.pendingEmail,
      };
    },

    /** Sets the name mail greets the person by; an empty one (after trimming) removes it. */
    async setName(principal: Principal, name: string): Promise<{ message: string; name: string | null }> {
      const kept = name.trim() || null;
      if (!(await repo.setName(principal.userId, kept)))
        throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      logger.info({ userId: principal.userId, named: kept !== null }, 'account name set');
      return { message: kept ? ACCOUNT_MESSAGES.nameSaved : ACCOUNT_MESSAGES.nameCleared, name: kept };
    },

    /** The console's single-key shortcuts for this staff member (decision 146): on unless they turned them off. */
    async keyboard(principal: Principal): Promise<{ keyboardShortcuts: boolean }> {
      const on = await repo.keyboardShortcuts(principal.userId);
      if (on === null) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      return { keyboardShortcuts: on };
    },

    async setKeyboard(principal: Principal, on: boolean): Promise<{ keyboardShortcuts: boolean }> {
      if (!(await repo.setKeyboardShortcuts(principal.userId, on)))
        throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      return { keyboardShortcuts: on };
    },

    async listSessions(principal: Principal): Promise<AccountSession[]> {
      return (await sessionsOf(principal)).map(({ row, id }) => ({
        id,
        device: describeDevice(row.userAgent),
        place: row.ipPrefix,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.tokenHash === principal.sessionId,
      }));
    },

    /** Signs one other device out; the session in use is ended with Sign Out instead. */
    async endSession(principal: Principal, id: string): Promise<string> {
      const match = (await sessionsOf(principal)).find((s) => s.id === id);
      if (!match) throw new AppError('NOT_FOUND', ACCOUNT_MESSAGES.sessionNotFound);
      if (match.row.tokenHash === principal.sessionId)
        throw new AppError('INVALID_ARGUMENT', ACCOUNT_MESSAGES.sessionIsCurrent);
      if (!(await repo.deleteSession(principal.userId, match.row.tokenHash)))
        throw new AppError('NOT_FOUND', ACCOUNT_MESSAGES.sessionNotFound);
      logger.info({ userId: principal.userId }, 'session ended from the account page');
      return ACCOUNT_MESSAGES.sessionEnded;
    },

    async endOtherSessions(principal: Principal): Promise<{ message: string; ended: number }> {
      const ended = await repo.deleteOtherSessions(principal.userId, principal.sessionId);
      logger.info({ userId: principal.userId, endedSessions: ended }, 'other sessions ended from the account page');
      return { message: ACCOUNT_MESSAGES.otherSessionsEnded(ended), ended };
    },

    /**
     * Needs the current password. Mails a link to the new address and a notice to the old one; the
     * answer is the same whether or not the new address has an account (then it is told so instead).
     */
    async requestEmailChange(input: {
      principal: Principal;
      newEmail: string;
      currentPassword: string;
      ip: string;
    }): Promise<string> {
      const user = await deps.accounts.findUserById(input.principal.userId);
      if (!user || user.disabledAt) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      await checkCurrentPassword(user.email, user.passwordHash, input.currentPassword, input.ip);
      if (input.newEmail === user.email)
        throw new AppError('INVALID_ARGUMENT', ACCOUNT_MESSAGES.sameEmail, {
          fields: { newEmail: ACCOUNT_MESSAGES.sameEmail },
        });
      await limitIp(input.ip);
      await limitMailsTo(input.newEmail);
      await limitMailsTo(user.email);
      const taken = await repo.emailTaken(input.newEmail, user.id);
      await transaction(async (tx, queue) => {
        const token = createToken();
        // A link is recorded either way, so the page shows the same pending address; a taken address never gets it.
        await tx.replaceChangeEmailToken({
          userId: user.id,
          tokenHash: hashToken(token),
          newEmail: input.newEmail,
          ttlMs: CHANGE_EMAIL_TOKEN_HOURS * HOUR,
        });
        await queue(
          'change-email',
          taken ? changeEmailTakenMail(settings, input.newEmail) : changeEmailMail(settings, input.newEmail, token),
          user.id,
        );
        await queue('email-change-notice', emailChangeRequestedMail(settings, user.email, input.newEmail), user.id);
      });
      logger.info({ userId: user.id }, 'email change requested');
      return ACCOUNT_MESSAGES.emailChangeRequested;
    },

    /**
     * Follows an email-change link: the account moves to the new address (refused if another
     * account has it by now), links mailed to the old address stop working, and the old address
     * is told. Sessions stay signed in (decision 097).
     */
    async confirmEmailChange(input: { token: string; ip: string }): Promise<string> {
      await limitIp(input.ip);
      let changed: { userId: string; oldEmail: string } | null;
      try {
        changed = await transaction(async (tx, queue) => {
          const link = await tx.consumeChangeEmailToken(hashToken(input.token));
          if (!link || link.disabled) return null;
          if (await tx.emailTaken(link.newEmail, link.userId))
            throw new AppError('ABORTED', ACCOUNT_MESSAGES.emailTaken);
          await tx.setEmail(link.userId, link.newEmail);
          await tx.withdrawUnusedEmailTokens(link.userId);
          await queue('email-change-notice', emailChangedMail(settings, link.oldEmail, link.newEmail), link.userId);
          return { userId: link.userId, oldEmail: link.oldEmail };
        });
      } catch (error) {
        // Another account took the address between the check and the update (the unique index decides).
        if (isUniqueViolation(error)) throw new AppError('ABORTED', ACCOUNT_MESSAGES.emailTaken);
        throw error;
      }
      if (!changed) throw new AppError('INVALID_ARGUMENT', AUTH_MESSAGES.tokenInvalid);
      logger.info({ userId: changed.userId }, 'email changed');
      return ACCOUNT_MESSAGES.emailChanged;
    },
  };
}

export type AccountProfileService = ReturnType<typeof createAccountProfileService>;
