import { AUTH_MESSAGES } from '../../../contracts/auth.ts';
import type { User } from '../../../contracts/auth.schemas.ts';
import { codeForHttpStatus } from '../../../contracts/errors.ts';
import { SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import type { PasskeyAssertion } from '../../../contracts/second-factor.schemas.ts';
import { permissionsOf, type StaffRole } from '../../../contracts/roles.ts';
import { AppError } from '../../errors.ts';
import type { Principal } from '../../plugins/access.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { createToken, hashToken, isTokenShaped } from '../../security/tokens.ts';
import type { SecondFactorService } from '../second-factor/second-factor.service.ts';
import type { SessionDevice } from './accounts.device.ts';
import type { AccountsRepository, UserRow } from './accounts.repository.ts';
import type { Logger } from '../../logging.ts';
import { toUserDto } from './accounts.service.ts';
import { createPasswordThrottle, type LoginThrottleSettings } from './accounts.throttle.ts';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './passwords.ts';

/**
 * The one home of signing in (docs/design.md §5): the password step with its throttling (AUTH-05),
 * an admin's second factor (docs/product.md §2.15) with the code-step ticket of a page's form,
 * sessions (issued, rotated, ended, resolved) and the cookie that carries them. Every way a
 * sign-in ends is a value of SignInResult: the API route and the page's form each turn it into
 * their own answer, and nothing is decided by reading an error's text.
 */
export interface SignInSettings {
  sessions: { idleMs: number; absoluteMs: number };
  loginThrottle: LoginThrottleSettings;
  /** False: staff sign in with the identity provider only (decision 148); customers keep passwords. */
  staffPasswordSignIn?: boolean;
}

/** What a refusal answers over HTTP (the API's error shape), and what a page's form shows. */
interface Refusal {
  status: 400 | 401 | 403 | 429;
  message: string;
  /** Field errors; empty when the message is the form's own. */
  fields: Record<string, string>;
}

/** A new session: the token (kept only as its hash) and the Set-Cookie header that hands it to a browser. */
export interface IssuedSession {
  token: string;
  tokenHash: string;
  expiresAt: Date;
  setCookie: string;
}

export type SignInResult =
  | { outcome: 'signed-in'; user: User; session: IssuedSession }
  /** Unknown email or wrong password (one answer for both, AUTH-04), a disabled account, an expired ticket. */
  | ({ outcome: 'refused' } & Refusal)
  /** The password was right but the address is not verified: no session, and the one presented has ended. */
  | ({ outcome: 'unverified'; status: 403; presentedSessionEnded: boolean } & Refusal)
  /**
   * The password was right and an admin's code is missing or wrong. A page's form gets a ticket
   * that stands for the password in its next post (five minutes, once).
   */
  | ({ outcome: 'second-factor-needed'; status: 401; reason: 'missing' | 'wrong'; ticket?: string } & Refusal)
  /** Too many failed passwords or codes: wait this long. */
  | ({ outcome: 'throttled'; status: 429; retryAfterSeconds: number } & Refusal);

export type SignInRefusal = Exclude<SignInResult, { outcome: 'signed-in' }>;

/** The password step alone (a passkey sign-in's challenge comes after it). */
export type PasskeyChallengeResult =
  { outcome: 'challenge'; options: object } | Exclude<SignInRefusal, { outcome: 'second-factor-needed' }>;

/** The API's answer to a refusal: our error shape, with Retry-After when throttled. */
export function refusalError(refusal: SignInRefusal): AppError {
  const fields = Object.keys(refusal.fields).length > 0 ? refusal.fields : undefined;
  return new AppError(codeForHttpStatus(refusal.status), refusal.message, {
    fields,
    ...(refusal.outcome === 'throttled' ? { headers: { 'retry-after': String(refusal.retryAfterSeconds) } } : {}),
  });
}

interface SignInStep {
  ip: string;
  /** The session token the request came with (cookie or bearer): ended by the new one (rotation, SES-04). */
  presentedToken?: string | null;
  otp?: string;
  passkey?: PasskeyAssertion;
  /** Browser and network prefix, for the account page's sessions list (accounts.device.ts). */
  device?: SessionDevice;
}

const refused = (message: string, status: 400 | 401 = 401, fields: Record<string, string> = {}) =>
  ({ outcome: 'refused', status, message, fields }) as const;

export function createSignInService(deps: {
  repository: AccountsRepository;
  /** An admin's second factor: the code step, the form's tickets and passkey challenges. */
  secondFactor: Pick<SecondFactorService, 'check' | 'issueSignInTicket' | 'redeemSignInTicket' | 'passkeyLoginOptions'>;
  limiter: RateLimiter;
  settings: SignInSettings;
  /** The Set-Cookie header value that starts a session (the sessions plugin knows the cookie's name and flags). */
  sessionCookie: (token: string) => string;
  logger: Logger;
  /**
   * A code step's ticket became a session, or (a wrong code) a new ticket: the identity provider's
   * sign-in that waited for our second factor under the old ticket follows it (decision 148).
   */
  onTicketRedeemed?: (ticket: string, next: { tokenHash: string } | { ticket: string }) => Promise<void>;
}) {
  const { repository: repo, secondFactor, settings, logger } = deps;
  const startPasswordAttempt = createPasswordThrottle(deps.limiter, settings.loginThrottle);

  /** The throttle answers with an error; here it is one outcome among the others. */
  async function passwordAttempt(email: string, ip: string) {
    try {
      return await startPasswordAttempt(email, ip);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'RESOURCE_EXHAUSTED') throw error;
      const retryAfterSeconds = Number(error.headers?.['retry-after']);
      return { outcome: 'throttled', status: 429, message: error.message, fields: {}, retryAfterSeconds } as const;
    }
  }

  /** The password step, throttled: the account, or the one refusal for both mistakes. */
  async function checkPassword(input: { email: string; password: string; ip: string }) {
    const attempt = await passwordAttempt(input.email, input.ip);
    if ('outcome' in attempt) return attempt;
    const user = await repo.findUserByEmail(input.email);
    const valid =
      user && !user.disabledAt
        ? await verifyPassword(user.passwordHash, input.password)
        : (await burnPasswordCheck(input.password), false);
    if (!user || !valid) {
      await attempt.failed();
      logger.info({ ip: input.ip, reason: user ? 'wrong password' : 'unknown email' }, 'sign-in failed');
      return refused(AUTH_MESSAGES.invalidCredentials);
    }
    await attempt.succeeded();
    // Staff sign in at the company's identity provider only, once passwords are switched off for them.
    if (user.role === 'admin' && settings.staffPasswordSignIn === false) {
      logger.info({ userId: user.id, ip: input.ip }, 'staff password sign-in refused: the identity provider only');
      return refused(AUTH_MESSAGES.staffUseProvider);
    }
    if (needsRehash(user.passwordHash)) await repo.setPasswordHash(user.id, await hashPassword(input.password));
    return user;
  }

  const unverified = (presentedSessionEnded: boolean) =>
    ({
      outcome: 'unverified',
      status: 403,
      message: AUTH_MESSAGES.unverified,
      fields: {},
      presentedSessionEnded,
    }) as const;

  /** After the password step: the second factor, the verified address, the new session. */
  async function afterPassword(user: UserRow, input: SignInStep, ticketOnCodeStep: boolean): Promise<SignInResult> {
    // Only admins have a second factor, asked only once the password was right.
    const step =
      user.role === 'admin'
        ? await secondFactor.check({ userId: user.id, otp: input.otp, passkey: input.passkey, ip: input.ip })
        : ({ step: 'none' } as const);
    if (step.step === 'throttled') {
      const { message, retryAfterSeconds } = step;
      return { outcome: 'throttled', status: 429, message, fields: {}, retryAfterSeconds };
    }
    if (step.step === 'needed' || step.step === 'refused') {
      return {
        outcome: 'second-factor-needed',
        status: 401,
        reason: step.step === 'needed' ? 'missing' : 'wrong',
        message: step.message,
        fields: { otp: step.message },
        ...(ticketOnCodeStep ? { ticket: await secondFactor.issueSignInTicket(user.id) } : {}),
      };
    }
    const presentedHash = input.presentedToken ? hashToken(input.presentedToken) : undefined;
    if (presentedHash) await repo.deleteSession(presentedHash);
    // docs/product.md §6: an unverified user is signed out at once, so no session is issued at all. The state
    // is revealed only after a correct password.
    if (!user.emailVerifiedAt) return unverified(presentedHash !== undefined);
    const passed = step.step === 'passed';
    const session = await issueSession(user, passed, input.device);
    logger.info({ userId: user.id, ip: input.ip, secondFactor: passed }, 'signed in');
    return {
      outcome: 'signed-in',
      user: toUserDto({ ...user, emailVerified: user.emailVerifiedAt !== null }),
      session,
    };
  }

  async function issueSession(user: UserRow, secondFactorPassed: boolean, device?: SessionDevice) {
    await repo.deleteExpiredSessionsOfUser(user.id, settings.sessions.idleMs);
    const token = createToken();
    const tokenHash = hashToken(token);
    const expiresAt = await repo.insertSession({
      tokenHash,
      userId: user.id,
      absoluteMs: settings.sessions.absoluteMs,
      secondFactor: secondFactorPassed,
      device,
    });
    return { token, tokenHash, expiresAt, setCookie: deps.sessionCookie(token) };
  }

  return {
    /**
     * Signs in with email and password (and an admin's code or passkey). A page's form asks for
     * `ticketOnCodeStep`: a refused code step then carries a ticket for the next post.
     */
    async signIn(
      input: SignInStep & { email: string; password: string; ticketOnCodeStep?: boolean },
    ): Promise<SignInResult> {
      const user = await checkPassword(input);
      if ('outcome' in user) return user;
      return afterPassword(user, input, input.ticketOnCodeStep ?? false);
    },

    /**
     * The code step of a form's sign-in, with the ticket an earlier post earned by its right
     * password instead of the password. An unknown, used or expired ticket starts over.
     */
    async continueWithTicket(input: SignInStep & { ticket: string }): Promise<SignInResult> {
      const userId = await secondFactor.redeemSignInTicket(input.ticket);
      const user = userId ? await repo.findUserById(userId) : null;
      if (!user || user.disabledAt) return refused(M.signInExpired);
      const result = await afterPassword(user, input, true);
      if (result.outcome === 'signed-in')
        await deps.onTicketRedeemed?.(input.ticket, { tokenHash: result.session.tokenHash });
      // A wrong code earns a new ticket: the provider's sign-in waits under that one now.
      if (result.outcome === 'second-factor-needed' && result.ticket)
        await deps.onTicketRedeemed?.(input.ticket, { ticket: result.ticket });
      return result;
    },

    /**
     * An account the company's identity provider vouched for (decision 148): a session at once when
     * the provider asked a second factor itself; else our own, as after a right password (a code
     * step with a ticket, or a session that sets one up first when the account has none yet).
     */
    async signInFromProvider(
      input: { userId: string; secondFactorDone: boolean } & Omit<SignInStep, 'otp' | 'passkey'>,
    ): Promise<SignInResult> {
      const user = await repo.findUserById(input.userId);
      if (!user || user.disabledAt) return refused(AUTH_MESSAGES.invalidCredentials);
      if (!input.secondFactorDone) return afterPassword(user, input, true);
      const presentedHash = input.presentedToken ? hashToken(input.presentedToken) : undefined;
      if (presentedHash) await repo.deleteSession(presentedHash);
      const session = await issueSession(user, true, input.device);
      logger.info({ userId: user.id, ip: input.ip, secondFactor: 'provider' }, 'signed in at the identity provider');
      return {
        outcome: 'signed-in',
        user: toUserDto({ ...user, emailVerified: user.emailVerifiedAt !== null }),
        session,
      };
    },

    /**
     * Signs in an account this very request created with its password (the first admin at /setup):
     * that form was the password step. No second factor has been passed, so an admin's session sets
     * one up before the console opens (docs/product.md §2.15). Null for an account that cannot sign
     * in (gone, disabled or unverified).
     */
    async signInNewAccount(
      input: { userId: string; ip: string } & Pick<SignInStep, 'presentedToken' | 'device'>,
    ): Promise<IssuedSession | null> {
      const user = await repo.findUserById(input.userId);
      if (!user || user.disabledAt || !user.emailVerifiedAt) return null;
      if (input.presentedToken) await repo.deleteSession(hashToken(input.presentedToken));
      const session = await issueSession(user, false, input.device);
      logger.info({ userId: user.id, ip: input.ip, secondFactor: false }, 'signed in as a new account');
      return session;
    },

    /** A passkey sign-in's first step: the same password checks, then a challenge for the account's passkeys. */
    async passkeyChallenge(input: { email: string; password: string; ip: string }): Promise<PasskeyChallengeResult> {
      const user = await checkPassword(input);
      if ('outcome' in user) return user;
      if (!user.emailVerifiedAt) return unverified(false);
      const options = await secondFactor.passkeyLoginOptions({ userId: user.id, role: user.role });
      if (!options) return refused(M.passkeyNone, 400, { otp: M.passkeyNone });
      return { outcome: 'challenge', options };
    },

    /** Ends the session of the presented token, if there is one. */
    async signOut(presentedToken: string | null): Promise<void> {
      if (presentedToken) await repo.deleteSession(hashToken(presentedToken));
    },

    /** The principal behind a presented token, read from the database now; null when none is valid. */
    async resolveSession(token: string): Promise<Principal | null> {
      if (!isTokenShaped(token)) return null;
      const session = await repo.findActiveSession(hashToken(token), settings.sessions.idleMs);
      if (!session) return null;
      // An admin's session that has not passed the second factor acts as a user's (docs/product.md §2.15).
      const pending = session.role === 'admin' && !session.secondFactorPassed;
      const staff = session.role === 'admin' && !pending;
      return {
        userId: session.userId,
        email: session.email,
        role: staff ? 'admin' : 'user',
        roles: staff ? (session.roles as StaffRole[]) : [],
        permissions: staff ? permissionsOf(session.roles, session) : [],
        emailVerified: session.emailVerified,
        sessionId: session.tokenHash,
        secondFactorPending: pending,
      };
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
