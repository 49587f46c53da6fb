import { AUTH_MESSAGES, tooManySignInsMessage } from '../../../contracts/auth.ts';
import { AppError } from '../../errors.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';

export interface LoginThrottleSettings {
  perAccount: number;
  perIp: number;
  windowMs: number;
}

/** The refusal of a throttled sign-in: 429 with Retry-After. */
export const throttledSignIn = (retryAfterSeconds: number) =>
  new AppError('RESOURCE_EXHAUSTED', tooManySignInsMessage(retryAfterSeconds), {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

/**
 * Password attempts (AUTH-05). Each attempt is counted against the account before it is checked,
 * so fifty concurrent guesses cannot all be evaluated; a success clears the account's count again.
 * The address counts failures only, so one office behind one IP can still sign in.
 */
export function createPasswordThrottle(limiter: RateLimiter, settings: LoginThrottleSettings) {
  return async function startPasswordAttempt(email: string, ip: string) {
    const account = { key: `login:account:${email}`, limit: settings.perAccount, windowMs: settings.windowMs };
    const byIp = { key: `login:ip:${ip}`, limit: settings.perIp, windowMs: settings.windowMs };
    const ipState = await limiter.peek(byIp);
    if (!ipState.allowed) throw throttledSignIn(ipState.retryAfterSeconds);
    const accountState = await limiter.hit(account);
    if (!accountState.allowed) throw throttledSignIn(accountState.retryAfterSeconds);
    return {
      async failed() {
        await limiter.hit(byIp);
      },
      async succeeded() {
        await limiter.reset(account.key);
      },
    };
  };
}

/**
 * The limits of account requests that send mail or spend a link: per network address, and per
 * address asked about (whether or not it has an account, so the limit reveals nothing).
 */
export function createAccountRequestLimits(
  limiter: RateLimiter,
  settings: { accountRequestsPerIpPerHour: number; accountEmailsPerHour: number },
) {
  const HOUR = 3_600_000;
  return {
    limitIp: (ip: string) =>
      limiter.consume(
        { key: `account:ip:${ip}`, limit: settings.accountRequestsPerIpPerHour, windowMs: HOUR },
        AUTH_MESSAGES.tooManyRequests,
      ),
    limitMailsTo: (email: string) =>
      limiter.consume(
        { key: `account:mail:${email}`, limit: settings.accountEmailsPerHour, windowMs: HOUR },
        AUTH_MESSAGES.tooManyMailRequests,
      ),
  };
}
