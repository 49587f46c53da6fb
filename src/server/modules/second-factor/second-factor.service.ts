import type { AuditAction } from '../../../contracts/audit.ts';
import type { Logger } from '../../logging.ts';
import { SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import type {
  PasskeyAssertion,
  RecoveryCodes,
  SecondFactorStatus,
  TotpEnrolment,
} from '../../../contracts/second-factor.schemas.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { Principal } from '../../plugins/access.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { createToken, hashToken, isTokenShaped } from '../../security/tokens.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  authenticationOptions,
  checkAuthentication,
  checkRegistration,
  registrationOptions,
  type RelyingParty,
} from './passkeys.ts';
import { hashRecoveryCode, isRecoveryCodeShaped, newRecoveryCodes } from './recovery-codes.ts';
import {
  createSecondFactorRepository,
  type ChallengePurpose,
  type FactorRow,
  type SecondFactorRepository,
} from './second-factor.repository.ts';
import { checkTotp, newTotpSecret, totpQrSvg, totpUri } from './totp.ts';

/**
 * The second factor of admins (docs/product.md §2.15, docs/decisions/096-admin-second-factor.md):
 * the sign-in step (which the sign-in service asks after a right password), enrolment of an
 * authenticator app or a passkey with ten recovery codes, and passkey challenges. Codes are
 * throttled per account (every try counts, a success clears it) and per address (failures).
 */
export interface SecondFactorSettings {
  relyingParty: RelyingParty;
  /** The issuer an authenticator app shows next to the code. */
  issuer: string;
  codeThrottle: { perAccount: number; perIp: number; windowMs: number };
}

/** A TOTP enrolment waits this long for its first code; a passkey challenge is good for five minutes. */
const ENROLMENT_MS = 15 * 60_000;
const CHALLENGE_MS = 5 * 60_000;

/** Where an admin's sign-in stands after its second-factor step. */
export type SecondFactorStep =
  | { step: 'passed' }
  /** The admin has no factor yet: signed in, the console asks to set one up. */
  | { step: 'none' }
  /** No code was sent (`needed`), or it was wrong or used (`refused`): the message is the code field's. */
  | { step: 'needed' | 'refused'; message: string }
  | { step: 'throttled'; message: string; retryAfterSeconds: number };

const passkeyOf = (row: FactorRow) => ({
  credentialId: row.credentialId ?? '',
  publicKey: row.publicKey ?? '',
  signCount: row.signCount ?? 0,
  transports: row.transports ?? [],
});

export function createSecondFactorService(deps: {
  repository: SecondFactorRepository;
  db: AppDatabase;
  limiter: RateLimiter;
  audit: AuditService;
  settings: SecondFactorSettings;
  logger: Pick<Logger, 'info'>;
}) {
  const { repository: repo, limiter, settings, logger } = deps;
  const rp = settings.relyingParty;

  const tooManyCodes = (retryAfterSeconds: number) => M.tooManyCodes(Math.max(1, Math.ceil(retryAfterSeconds / 60)));

  /**
   * Counts one code attempt before it is checked (concurrent guesses cannot all be evaluated), or
   * says how long to wait.
   */
  async function startCodeAttempt(userId: string, ip: string) {
    const { perAccount, perIp, windowMs } = settings.codeThrottle;
    const byIp = { key: `second-factor:ip:${ip}`, limit: perIp, windowMs };
    const byAccount = { key: `second-factor:account:${userId}`, limit: perAccount, windowMs };
    const ipState = await limiter.peek(byIp);
    if (!ipState.allowed) return { retryAfterSeconds: ipState.retryAfterSeconds } as const;
    const accountState = await limiter.hit(byAccount);
    if (!accountState.allowed) return { retryAfterSeconds: accountState.retryAfterSeconds } as const;
    return {
      retryAfterSeconds: null,
      failed: () => limiter.hit(byIp),
      succeeded: () => limiter.reset(byAccount.key),
    } as const;
  }

  const challengeCheck = (userId: string, purpose: ChallengePurpose) => async (challenge: string) =>
    (await repo.takeChallenge(purpose, hashToken(challenge), userId)) !== null;

  async function saveChallenge(userId: string, purpose: ChallengePurpose, challenge: string) {
    await repo.saveChallenge({ userId, purpose, challenge, challengeHash: hashToken(challenge), ttlMs: CHALLENGE_MS });
  }

  /** True when the code or passkey is right for one of the user's factors (a code is spent). */
  async function verifyFactor(userId: string, factors: FactorRow[], otp?: string, passkey?: PasskeyAssertion) {
    if (passkey) {
      const row = await repo.findPasskey(userId, passkey.id);
      if (!row) return false;
      const counter = await checkAuthentication(rp, passkey, passkeyOf(row), challengeCheck(userId, 'passkey-login'));
      if (counter === null) return false;
      await repo.passkeyUsed(row.id, counter);
      return true;
    }
    const code = (otp ?? '').replace(/[\s-]/g, '').toLowerCase();
    if (/^\d{6}$/.test(code)) {
      for (const factor of factors) {
        if (factor.kind !== 'totp' || !factor.totpSecret) continue;
        const step = await checkTotp({ secret: factor.totpSecret, code, afterStep: factor.totpLastStep });
        if (step !== null && (await repo.advanceTotpStep(factor.id, step))) return true;
      }
      return false;
    }
    if (isRecoveryCodeShaped(code) && (await repo.useRecoveryCode(userId, hashRecoveryCode(code)))) {
      logger.info({ userId, left: await repo.recoveryCodesLeft(userId) }, 'recovery code used');
      return true;
    }
    return false;
  }

  /** The user is an admin (the route said so); one who already has a factor proves it by signing in with it. */
  async function assertMayEnrol(principal: Principal) {
    if (principal.secondFactorPending && (await repo.hasConfirmedFactor(principal.userId))) {
      throw new AppError('PERMISSION_DENIED', M.signInAgain);
    }
  }

  /** An admin's change to their own second factors, in the audit log. */
  const auditOwn = (principal: Principal, action: AuditAction, details: Record<string, unknown>) =>
    deps.audit.record({
      actor: { userId: principal.userId, email: principal.email },
      action,
      targetType: 'user',
      targetId: principal.userId,
      details,
    });

  /** The factor is confirmed: new recovery codes, this session passes, the audit log says so. */
  async function enrolled(principal: Principal, kind: 'totp' | 'passkey', label: string): Promise<RecoveryCodes> {
    const { codes, hashes } = newRecoveryCodes();
    await inTransaction(deps.db, async (tx) => {
      const txRepo = createSecondFactorRepository(tx);
      await txRepo.replaceRecoveryCodes(principal.userId, hashes);
      await txRepo.markSessionPassed(principal.sessionId);
    });
    await auditOwn(principal, 'admin.second-factor.enrolled', { kind, label });
    logger.info({ userId: principal.userId, kind }, 'second factor enrolled');
    return { message: M.enrolled, recoveryCodes: codes };
  }

  return {
    /**
     * The sign-in step, asked by the sign-in service only after a right password (so it never tells
     * whether a factor is needed): passed, no factor yet, or why not.
     */
    async check(input: {
      userId: string;
      otp?: string;
      passkey?: PasskeyAssertion;
      ip: string;
    }): Promise<SecondFactorStep> {
      const factors = await repo.confirmedFactors(input.userId);
      if (factors.length === 0) return { step: 'none' };
      if (!input.otp && !input.passkey) return { step: 'needed', message: M.otpRequired };
      const attempt = await startCodeAttempt(input.userId, input.ip);
      if (attempt.retryAfterSeconds !== null) {
        return {
          step: 'throttled',
          message: tooManyCodes(attempt.retryAfterSeconds),
          retryAfterSeconds: attempt.retryAfterSeconds,
        };
      }
      if (!(await verifyFactor(input.userId, factors, input.otp, input.passkey))) {
        await attempt.failed();
        logger.info(
          { userId: input.userId, ip: input.ip, how: input.passkey ? 'passkey' : 'code' },
          'second factor refused',
        );
        return { step: 'refused', message: input.passkey ? M.passkeyFailed : M.otpWrong };
      }
      await attempt.succeeded();
      return { step: 'passed' };
    },

    /**
     * After a right password, when the code is still to come: a ticket that stands for the password
     * in the next sign-in post, for five minutes and once (a form without JavaScript cannot keep
     * the password it sent; docs/product.md §2.15). Only its hash is stored.
     */
    async issueSignInTicket(userId: string): Promise<string> {
      const ticket = createToken();
      await repo.saveChallenge({
        userId,
        purpose: 'password-login',
        challenge: '',
        challengeHash: hashToken(ticket),
        ttlMs: CHALLENGE_MS,
      });
      return ticket;
    },

    /** Spends a sign-in ticket: the account it was issued to, or null (unknown, used or expired). */
    async redeemSignInTicket(ticket: string): Promise<string | null> {
      if (!isTokenShaped(ticket)) return null;
      return repo.takeChallenge('password-login', hashToken(ticket));
    },

    /** After the password was right: a challenge for the account's passkeys; null when it has none. */
    async passkeyLoginOptions(user: { userId: string; role: string }) {
      const passkeys =
        user.role === 'admin' ? (await repo.confirmedFactors(user.userId)).filter((f) => f.kind === 'passkey') : [];
      if (passkeys.length === 0) return null;
      const options = await authenticationOptions(rp, passkeys.map(passkeyOf));
      await saveChallenge(user.userId, 'passkey-login', options.challenge);
      return options;
    },

    async status(principal: Principal): Promise<SecondFactorStatus> {
      const factors = await repo.confirmedFactors(principal.userId);
      return {
        passed: !principal.secondFactorPending,
        factors: factors.map((f) => ({
          id: f.id,
          kind: f.kind as 'totp' | 'passkey',
          label: f.label,
          createdAt: f.createdAt.toISOString(),
          lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
        })),
        recoveryCodesLeft: await repo.recoveryCodesLeft(principal.userId),
      };
    },

    /** A secret for an authenticator app (the same one again while it waits for its first code). */
    async beginTotp(principal: Principal): Promise<TotpEnrolment> {
      await assertMayEnrol(principal);
      const pending =
        (await repo.pendingTotp(principal.userId, ENROLMENT_MS)) ??
        (await repo.insertPendingTotp({
          userId: principal.userId,
          secret: newTotpSecret(),
          label: 'Authenticator app',
        }));
      const secret = pending.totpSecret!;
      const uri = totpUri({ issuer: settings.issuer, account: principal.email, secret });
      return { factorId: pending.id, secret, uri, qrSvg: await totpQrSvg(uri) };
    },

    async confirmTotp(
      principal: Principal,
      input: { factorId: string; code: string; label?: string; ip: string },
    ): Promise<RecoveryCodes> {
      await assertMayEnrol(principal);
      const factor = await repo.findPendingTotp(input.factorId, principal.userId, ENROLMENT_MS);
      if (!factor?.totpSecret)
        throw new AppError('INVALID_ARGUMENT', M.enrolmentExpired, { fields: { code: M.enrolmentExpired } });
      const attempt = await startCodeAttempt(principal.userId, input.ip);
      if (attempt.retryAfterSeconds !== null) {
        throw new AppError('RESOURCE_EXHAUSTED', tooManyCodes(attempt.retryAfterSeconds), {
          headers: { 'retry-after': String(attempt.retryAfterSeconds) },
        });
      }
      const step = await checkTotp({ secret: factor.totpSecret, code: input.code });
      if (step === null) {
        await attempt.failed();
        throw new AppError('INVALID_ARGUMENT', M.codeWrong, { fields: { code: M.codeWrong } });
      }
      await attempt.succeeded();
      const label = input.label || factor.label;
      if (!(await repo.confirmTotp(factor.id, { label, step }))) {
        throw new AppError('INVALID_ARGUMENT', M.enrolmentExpired, { fields: { code: M.enrolmentExpired } });
      }
      return enrolled(principal, 'totp', label);
    },

    async passkeyRegistrationOptions(principal: Principal) {
      await assertMayEnrol(principal);
      const existing = (await repo.confirmedFactors(principal.userId)).filter((f) => f.kind === 'passkey');
      const options = await registrationOptions(
        rp,
        { id: principal.userId, email: principal.email },
        existing.map(passkeyOf),
      );
      await saveChallenge(principal.userId, 'passkey-register', options.challenge);
      return options;
    },

    /** Removes one of the admin's factors; the last one stays (the command line resets it). */
    async removeFactor(principal: Principal, factorId: string): Promise<{ message: string }> {
      // An id that is no uuid is no factor of anyone's: the same answer as an unknown one.
      const removed = isUuid(factorId) ? await repo.removeConfirmedFactor(principal.userId, factorId) : null;
      if (removed === null) throw new AppError('NOT_FOUND', M.factorNotFound);
      if (removed === 'last') throw new AppError('INVALID_ARGUMENT', M.lastFactor);
      await auditOwn(principal, 'admin.second-factor.removed', { kind: removed.kind, label: removed.label });
      logger.info({ userId: principal.userId, kind: removed.kind }, 'second factor removed');
      return { message: M.removed(removed.label) };
    },

    /** Ten new recovery codes, shown once; the old ones stop working. */
    async renewRecoveryCodes(principal: Principal): Promise<RecoveryCodes> {
      const { codes, hashes } = newRecoveryCodes();
      await repo.replaceRecoveryCodes(principal.userId, hashes);
      await auditOwn(principal, 'admin.second-factor.recovery-codes-renewed', {});
      logger.info({ userId: principal.userId }, 'recovery codes renewed');
      return { message: M.codesRenewed, recoveryCodes: codes };
    },

    async registerPasskey(principal: Principal, input: { response: unknown; label?: string }): Promise<RecoveryCodes> {
      await assertMayEnrol(principal);
      const passkey = await checkRegistration(rp, input.response, challengeCheck(principal.userId, 'passkey-register'));
      if (!passkey) throw new AppError('INVALID_ARGUMENT', M.passkeyRegisterFailed);
      const label = input.label || 'Passkey';
      try {
        await repo.insertPasskey({ userId: principal.userId, label, ...passkey });
      } catch {
        // The credential is already registered (the unique index on credential_id).
        throw new AppError('INVALID_ARGUMENT', M.passkeyRegisterFailed);
      }
      return enrolled(principal, 'passkey', label);
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
