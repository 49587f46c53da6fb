import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { createAccountAdmin } from '../../src/server/modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { linkIn, tokenFrom, waitForMails } from './mail.ts';
import { enrolTestTotp, nextOtp } from './second-factor.ts';
import type { TestApp } from './test-app.ts';
import type { StaffRole } from '../../src/contracts/roles.ts';

/** A password no list would refuse, different on every call. */
export const strongPassword = () => `Harbour-${randomBytes(6).toString('hex')}-kite`;
export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.nz`;

/**
 * What the CLI does, on the test's database: an account with a known password. An admin also gets
 * an authenticator app (as `create-user --admin --totp-secret`), which signIn answers with a code,
 * unless `secondFactor: false` (an admin who has not set one up yet).
 */
export async function createUser(
  t: TestApp,
  options: {
    email?: string;
    password?: string;
    verified?: boolean;
    /** 'admin': a console account holding the admin role, unless `roles` names others. */
    role?: 'user' | 'admin';
    /** The staff roles it holds (a console account): e.g. ['agent']. */
    roles?: StaffRole[];
    secondFactor?: boolean;
  } = {},
) {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? strongPassword();
  const repository = createAccountsRepository(t.database.db);
  const created = await createAccountAdmin(repository).createUser({
    email,
    password,
    verified: options.verified ?? true,
    // Roles named: a customer's account first, then exactly those roles (it becomes staff with them).
    role: options.role === 'admin' && !options.roles ? 'admin' : 'user',
  });
  if (options.roles && !(await repository.setRoles(created.id, options.roles)))
    throw new Error(`createUser: the roles ${options.roles.join(', ')} were refused`);
  const user = options.roles ? { ...created, role: 'admin' as const } : created;
  if (user.role === 'admin' && options.secondFactor !== false) await enrolTestTotp(t.database.db, user);
  return { ...user, password };
}

export function postJson(t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The session cookie a response set (value ''), or undefined. */
export function sessionCookieOf(t: TestApp, res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === t.config.sessions.cookieName);
}

export const withCookie = (t: TestApp, value: string) => ({ cookie: `${t.config.sessions.cookieName}=${value}` });

/** Signs in through the API and returns the cookie value. */
export async function signIn(
  t: TestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const otp = await nextOtp(email.trim().toLowerCase());
  const res = await postJson(t, '/api/auth/login', { email, password, ...(otp ? { otp } : {}) }, headers);
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = sessionCookieOf(t, res);
  if (!cookie?.value) throw new Error('sign-in set no session cookie');
  return cookie.value;
}

/** GET /api/auth/session with a cookie: the status tells whether the session is still accepted. */
export async function sessionStatus(t: TestApp, cookie: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: withCookie(t, cookie) })).statusCode;
}

/** Signs up through the API and follows the verification link from the outbox. */
export async function signUpAndVerify(t: TestApp, email = uniqueEmail(), password = strongPassword()) {
  const before = (await waitForMails(t.dataDir, email, 0)).length;
  const res = await postJson(t, '/api/auth/signup', { email, password });
  if (res.statusCode !== 202) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const mails = await waitForMails(t.dataDir, email, before + 1);
  const token = tokenFrom(linkIn(mails.at(-1)!, `${t.config.publicBaseUrl}/verify-email`));
  const verified = await postJson(t, '/api/auth/verify-email', { token });
  if (verified.statusCode !== 200) throw new Error(`verification failed: ${verified.statusCode} ${verified.body}`);
  return { email, password };
}
