import {
  AUTH_MESSAGES,
  RESET_PASSWORD_TOKEN_HOURS,
  type User,
  VERIFY_EMAIL_TOKEN_HOURS,
} from '../../../contracts/auth.ts';
import { AppError } from '../../errors.ts';
import type { AppDatabase } from '../../db/connection.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { type MailKind, mailTransactions, type Outbox } from '../../mail/outbox.ts';
import type { Principal } from '../../plugins/access.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { type PasskeyAssertion, SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import {
  type AccountMailContext,
  alreadyRegisteredMail,
  passwordChangedMail,
  resetPasswordMail,
  verifyEmailMail,
} from './accounts.mail.ts';
import { type AccountsRepository, createAccountsRepository, type UserRow } from './accounts.repository.ts';
import { burnPasswordCheck, findPasswordProblem, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { createToken, hashToken, isTokenShaped } from '../../security/tokens.ts';
import type { SessionDevice } from './accounts.device.ts';
import { createAccountRequestLimits, createPasswordThrottle } from './accounts.throttle.ts';

/**
 * The account rules: sign-in with throttling, sessions, sign-up, verification and password reset.
 * Answers that could reveal whether an email has an account are the same either way
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

export interface AccountsLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * The second-factor step of an admin's sign-in (modules/second-factor), handed over once that module
 * is built. Asked only after the password was right, so it never tells whether a factor is needed.
 */
export interface SecondFactorGate {
  /** True: passed; false: the admin has no factor yet (the console will ask to set one up). Throws when one is needed or wrong. */
  check(input: { userId: string; otp?: string; passkey?: PasskeyAssertion; ip: string }): Promise<boolean>;
  /** A one-time ticket that stands for the right password in the next sign-in post (five minutes). */
  issueSignInTicket(userId: string): Promise<string>;
  /** The account a ticket was issued to, spending it; null when unknown, used or expired. */
  redeemSignInTicket(ticket: string): Promise<string | null>;
}

/**
 * A form sign-in whose password was right but whose code was missing or wrong: the refusal, and a
 * ticket the page puts in its form so the next post brings the code without the password.
 */
export class SignInTicketIssued extends AppError {
  readonly ticket: string;
  constructor(refusal: AppError, ticket: string) {
    super(refusal.code, refusal.message, { fields: refusal.fields, headers: refusal.headers });
    this.ticket = ticket;
  }
}

interface LoginStep {
  ip: string;
  previousTokenHash?: string;
  otp?: string;
  passkey?: PasskeyAssertion;
  /** Browser and network prefix, for the account page's sessions list (accounts.device.ts). */
  device?: SessionDevice;
  /** A form's sign-in: a refused code step answers with a ticket (SignInTicketIssued). */
  ticketOnCodeStep?: boolean;
}

export interface SignedIn {
  user: User;
  token: string;
  tokenHash: string;
  expiresAt: Date;
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
  logger: AccountsLogger;
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

  let secondFactorGate: SecondFactorGate | null = null;

  /** Only admins have a second factor; without the module nothing passes it (fail closed). */
  async function passSecondFactor(
    user: UserRow,
    input: { otp?: string; passkey?: PasskeyAssertion; ip: string },
  ): Promise<boolean> {
    if (user.role !== 'admin' || !secondFactorGate) return false;
    return secondFactorGate.check({ userId: user.id, otp: input.otp, passkey: input.passkey, ip: input.ip });
  }

  /** The password step of a sign-in, throttled (AUTH-05): the account, or the one refusal for both mistakes. */
  async function authenticate(input: { email: string; password: string; ip: string }): Promise<UserRow> {
    const attempt = await startPasswordAttempt(input.email, input.ip);
    const user = await repo.findUserByEmail(input.email);
    const valid =
      user && !user.disabledAt
        ? await verifyPassword(user.passwordHash, input.password)
        : (await burnPasswordCheck(input.password), false);
    if (!user || !valid) {
      await attempt.failed();
      logger.info({ ip: input.ip, reason: user ? 'wrong password' : 'unknown email' }, 'sign-in failed');
      throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.invalidCredentials);
    }
    await attempt.succeeded();
    if (needsRehash(user.passwordHash)) await repo.setPasswordHash(user.id, await hashPassword(input.password));
    return user;
  }

  /** A sign-in after its password step: the second factor, the verified address, the new session. */
  async function afterPassword(user: UserRow, input: LoginStep): Promise<SignedIn> {
    // An admin's second factor (docs/product.md §2.15), asked only once the password was right.
    let secondFactor: boolean;
    try {
      secondFactor = await passSecondFactor(user, input);
    } catch (error) {
      const codeStep = error instanceof AppError && error.code === 'UNAUTHENTICATED' && error.fields?.otp;
      if (codeStep && input.ticketOnCodeStep && secondFactorGate) {
        throw new SignInTicketIssued(error, await secondFactorGate.issueSignInTicket(user.id));
      }
      throw error;
    }
    if (input.previousTokenHash) await repo.deleteSession(input.previousTokenHash);
    // docs/product.md §6: an unverified user is signed out at once, so no session is issued at all. The state
    // is revealed only after a correct password.
    if (!user.emailVerifiedAt) throw new AppError('PERMISSION_DENIED', AUTH_MESSAGES.unverified);
    const signedIn = await createSession(user, secondFactor, input.device);
    logger.info({ userId: user.id, ip: input.ip, secondFactor }, 'signed in');
    return signedIn;
  }

  async function createSession(user: UserRow, secondFactor = false, device?: SessionDevice): Promise<SignedIn> {
    await repo.deleteExpiredSessionsOfUser(user.id, settings.sessions.idleMs);
    const token = createToken();
    const tokenHash = hashToken(token);
    const expiresAt = await repo.insertSession({
      tokenHash,
      userId: user.id,
      absoluteMs: settings.sessions.absoluteMs,
      secondFactor,
      device,
    });
    return { user: toUserDto({ ...user, emailVerified: user.emailVerifiedAt !== null }), token, tokenHash, expiresAt };
  }

  return {
    /** Signs in; the session that came with the request (if any) is ended first (rotation, SES-04). */
    async login(input: LoginStep & { email: string; password: string }): Promise<SignedIn> {
      return afterPassword(await authenticate(input), input);
    },

    /**
     * The code step of a form's sign-in, with the ticket an earlier post earned by its right
     * password instead of the password. An unknown, used or expired ticket starts over.
     */
    async loginWithTicket(input: LoginStep & { ticket: string }): Promise<SignedIn> {
      const userId = secondFactorGate ? await secondFactorGate.redeemSignInTicket(input.ticket) : null;
      const user = userId ? await repo.findUserById(userId) : null;
      if (!user || user.disabledAt) throw new AppError('UNAUTHENTICATED', M.signInExpired);
      return afterPassword(user, input);
    },

    /** The password step alone (a passkey sign-in asks for its challenge after it): the account's id and role. */
    async checkPassword(input: { email: string; password: string; ip: string }) {
      const user = await authenticate(input);
      if (!user.emailVerifiedAt) throw new AppError('PERMISSION_DENIED', AUTH_MESSAGES.unverified);
      return { userId: user.id, email: user.email, role: user.role };
    },

    /** Set by the second-factor module when it is built. */
    useSecondFactorGate(gate: SecondFactorGate): void {
      secondFactorGate = gate;
    },

    async logout(tokenHash: string): Promise<void> {
      await repo.deleteSession(tokenHash);
    },

    /** The principal behind a presented token, read from the database now; null when none is valid. */
    async resolveSession(token: string): Promise<Principal | null> {
      if (!isTokenShaped(token)) return null;
      const session = await repo.findActiveSession(hashToken(token), settings.sessions.idleMs);
      if (!session) return null;
      // An admin's session that has not passed the second factor acts as a user's (docs/product.md §2.15).
      const pending = session.role === 'admin' && !session.secondFactorPassed;
      return {
        userId: session.userId,
        email: session.email,
        role: pending ? 'user' : session.role,
        emailVerified: session.emailVerified,
        sessionId: session.tokenHash,
        secondFactorPending: pending,
      };
    },

    async getUser(userId: string): Promise<User> {
      const user = await repo.findUserById(userId);
      if (!user) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.signInRequired);
      return toUserDto({ ...user, emailVerified: user.emailVerifiedAt !== null });
    },

    async signUp(input: { email: string; password: string; ip: string }): Promise<string> {
      await limitIp(input.ip);
      await limitMailsTo(input.email);
      await checkNewPassword(input.password, input.email, 'password');
      // Hashed before looking the email up, so a taken email answers exactly as slowly as a new one.
      const passwordHash = await hashPassword(input.password);
      const created = await repo.insertUser({ email: input.email, passwordHash, role: 'user', verified: false });
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
