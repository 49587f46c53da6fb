import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { emailTokens, sessions, users } from '../../../src/server/db/schema.ts';
import { commonPasswordCount } from '../../../src/server/modules/accounts/passwords.ts';
import {
  createUser,
  postJson,
  sessionStatus,
  signIn,
  signUpAndVerify,
  strongPassword,
  uniqueEmail,
  withCookie,
} from '../../helpers/accounts.ts';
import { deliverDueMail, linkIn, readOutbox, tokenFrom, waitForMails } from '../../helpers/mail.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

let t: TestApp;
beforeAll(async () => {
  // A public address unlike the test's own Host header: links must use the configured one.
  t = await createTestApp({
    env: { PUBLIC_BASE_URL: 'https://bagspace.example.nz', ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000' },
  });
});
afterAll(() => t.close());

const cookieName = () => t.config.sessions.cookieName;
const signInStatus = async (email: string, password: string) =>
  (await postJson(t, '/api/auth/login', { email, password })).statusCode;
const verifyLinkOf = async (email: string, count = 1) =>
  linkIn((await waitForMails(t.dataDir, email, count)).at(-1)!, 'https://bagspace.example.nz/verify-email?token=');
const resetLinkOf = async (email: string, count = 1) =>
  linkIn((await waitForMails(t.dataDir, email, count)).at(-1)!, 'https://bagspace.example.nz/reset-password?token=');

describe('sign-up and email verification', () => {
  it('creates an unverified account, mails a link that verifies it once, then sign-in works', async () => {
    const email = uniqueEmail('Newcomer').toUpperCase();
    const password = strongPassword();
    const res = await postJson(t, '/api/auth/signup', { email: `  ${email} `, password }, { host: 'evil.example' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: AUTH_MESSAGES.signupAccepted });
    const lower = email.toLowerCase();
    const [row] = await t.database.db.select().from(users).where(eq(users.email, lower));
    expect(row).toMatchObject({ role: 'user', emailVerifiedAt: null });

    expect(await signInStatus(lower, password)).toBe(403);

    const [mail] = await waitForMails(t.dataDir, lower);
    expect(mail!.subject).toBe('Confirm your email address for Bagspace');
    const link = linkIn(mail!, 'https://bagspace.example.nz/verify-email?token=');
    expect(mail!.text + mail!.html).not.toContain('evil.example');
    const token = tokenFrom(link);
    // Only the hash is stored, with a 24-hour life.
    const [stored] = await t.database.db.select().from(emailTokens).where(eq(emailTokens.userId, row!.id));
    expect(stored!.tokenHash).toBe(sha256(token));
    expect(stored!.purpose).toBe('verify-email');
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(24 * 3600 * 1000);
    expect(JSON.stringify(await t.database.db.select().from(emailTokens))).not.toContain(token);

    const verified = await postJson(t, '/api/auth/verify-email', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().message).toBe(AUTH_MESSAGES.emailVerified);
    expect(await signInStatus(email, password)).toBe(200);

    const replay = await postJson(t, '/api/auth/verify-email', { token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);
  });

  it('refuses an expired link, and only the newest link works after a resend', async () => {
    const email = uniqueEmail();
    await postJson(t, '/api/auth/signup', { email, password: strongPassword() });
    const first = tokenFrom(await verifyLinkOf(email));
    const resend = await postJson(t, '/api/auth/resend-verification', { email });
    expect(resend.statusCode).toBe(202);
    expect(resend.json().message).toBe(AUTH_MESSAGES.verificationSent);
    const second = tokenFrom(await verifyLinkOf(email, 2));
    expect(second).not.toBe(first);
    expect((await postJson(t, '/api/auth/verify-email', { token: first })).statusCode).toBe(400);

    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailTokens.tokenHash, sha256(second)));
    expect((await postJson(t, '/api/auth/verify-email', { token: second })).statusCode).toBe(400);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.emailVerifiedAt).toBeNull();
  });

  it("does not let one user's link be swapped for another's, and refuses made-up links", async () => {
    const a = uniqueEmail('a');
    const b = uniqueEmail('b');
    await postJson(t, '/api/auth/signup', { email: a, password: strongPassword() });
    await postJson(t, '/api/auth/signup', { email: b, password: strongPassword() });
    const tokenA = tokenFrom(await verifyLinkOf(a));
    expect((await postJson(t, '/api/auth/verify-email', { token: tokenA })).statusCode).toBe(200);
    const rows = await t.database.db
      .select({ email: users.email, verified: users.emailVerifiedAt })
      .from(users)
      .where(sql`${users.email} in (${a}, ${b})`);
    expect(Object.fromEntries(rows.map((r) => [r.email, r.verified !== null]))).toEqual({ [a]: true, [b]: false });
    for (const token of ['x'.repeat(43), 'short', '']) {
      const res = await postJson(t, '/api/auth/verify-email', { token });
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers a taken email exactly like a new one, changes nothing, and tells the owner by mail', async () => {
    const owner = await createUser(t);
    const res = await postJson(t, '/api/auth/signup', { email: owner.email, password: strongPassword() });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: AUTH_MESSAGES.signupAccepted });
    const [mail] = await waitForMails(t.dataDir, owner.email);
    expect(mail!.subject).toBe('You already have a Bagspace account');
    expect(mail!.text).toContain('https://bagspace.example.nz/forgot-password');
    expect(await signInStatus(owner.email, owner.password)).toBe(200);
  });

  it('sends an unverified account a fresh link on a second sign-up, without changing its password', async () => {
    const email = uniqueEmail();
    const password = strongPassword();
    await postJson(t, '/api/auth/signup', { email, password });
    await verifyLinkOf(email);
    await postJson(t, '/api/auth/signup', { email, password: strongPassword() });
    const token = tokenFrom(await verifyLinkOf(email, 2));
    expect((await postJson(t, '/api/auth/verify-email', { token })).statusCode).toBe(200);
    expect(await signInStatus(email, password)).toBe(200);
  });

  it('resend says the same for unknown and verified accounts and mails nobody', async () => {
    const verified = await createUser(t);
    const unknown = uniqueEmail('ghost');
    for (const email of [verified.email, unknown]) {
      const res = await postJson(t, '/api/auth/resend-verification', { email });
      expect(res.statusCode).toBe(202);
      expect(res.json().message).toBe(AUTH_MESSAGES.verificationSent);
    }
    await deliverDueMail(t.app);
    const mails = await readOutbox(t.dataDir);
    expect(mails.filter((m) => m.to.includes(verified.email) || m.to.includes(unknown))).toEqual([]);
  });

  it('limits mail to one address to 5 an hour, for known and unknown addresses alike', async () => {
    for (const email of [uniqueEmail('flood'), (await createUser(t, { verified: false })).email]) {
      for (let i = 0; i < 5; i++)
        expect((await postJson(t, '/api/auth/resend-verification', { email })).statusCode).toBe(202);
      const res = await postJson(t, '/api/auth/resend-verification', { email });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json().error.message).toBe(AUTH_MESSAGES.tooManyMailRequests);
    }
  });
});

describe('password rules', () => {
  const signup = (password: string, email = uniqueEmail()) => postJson(t, '/api/auth/signup', { email, password });

  it('refuses fewer than 8 characters and common passwords, with a message under the field', async () => {
    const short = await signup('Ab3$xyz');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.password).toBe(AUTH_MESSAGES.passwordTooShort);
    expect(commonPasswordCount()).toBeGreaterThan(3000);
    for (const common of [
      'password',
      'Password1',
      '12345678',
      'qwerty123',
      'iloveyou',
      'Bagspace2025',
      'letmein!',
      'NewZealand123',
    ]) {
      const res = await signup(common);
      expect(res.statusCode, common).toBe(400);
      expect(res.json().error.fields.password).toBe(AUTH_MESSAGES.passwordTooCommon);
    }
    const sameAsEmail = uniqueEmail();
    expect((await signup(sameAsEmail, sameAsEmail)).json().error.fields.password).toBe(AUTH_MESSAGES.passwordIsEmail);
  });

  it('accepts any 8+ characters, spaces and emoji included, and they sign in afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 8, maxLength: 64 }), async (password) => {
        fc.pre(!/^(.)\1*$/u.test(password));
        const created = await createUser(t, { password });
        expect(await signInStatus(created.email, password)).toBe(200);
      }),
      { numRuns: 12 },
    );
  });

  it('does not truncate: 100-character passwords differing only at position 90 do not cross-verify', async () => {
    const base = 'k'.repeat(89);
    const user = await createUser(t, { password: `${base}A${'z'.repeat(10)}` });
    expect(await signInStatus(user.email, `${base}B${'z'.repeat(10)}`)).toBe(401);
    expect(await signInStatus(user.email, `${base}A${'z'.repeat(10)}`)).toBe(200);
  });

  describe('at the policy’s cost (as in production; the test processes hash cheaper, decision 104)', () => {
    const hashOf = async (id: typeof users.$inferSelect.id) =>
      (await t.database.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id)))[0]!
        .passwordHash;
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('stores argon2id PHC strings (m=19456, t=2, p=1) with a unique salt each', async () => {
      vi.stubEnv('PASSWORD_HASHING', undefined);
      const password = strongPassword();
      const a = await createUser(t, { password });
      const b = await createUser(t, { password });
      const rows = await t.database.db
        .select()
        .from(users)
        .where(sql`${users.id} in (${a.id}, ${b.id})`);
      for (const row of rows) {
        expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
        expect(JSON.stringify(row)).not.toContain(password);
      }
      expect(rows[0]!.passwordHash).not.toBe(rows[1]!.passwordHash);
    });

    it('replaces a hash weaker than the policy at the next sign-in, and the password still works', async () => {
      const user = await createUser(t); // at the tests' cost: 1 MiB, one pass
      const weak = await hashOf(user.id);
      expect(weak).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      vi.stubEnv('PASSWORD_HASHING', undefined);
      expect(await signInStatus(user.email, 'not-the-password')).toBe(401);
      expect(await hashOf(user.id)).toBe(weak); // only a correct password can be re-hashed
      expect(await signInStatus(user.email, user.password)).toBe(200);
      const upgraded = await hashOf(user.id);
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await signInStatus(user.email, user.password)).toBe(200);
      expect(await hashOf(user.id)).toBe(upgraded); // a hash at the policy stays as it is
    });
  });
});

describe('forgotten password', () => {
  it('answers the same for an unknown and a known email, and mails only the known one', async () => {
    const user = await createUser(t);
    const unknown = uniqueEmail('ghost');
    const answers = [];
    for (const email of [user.email, unknown]) {
      const res = await postJson(t, '/api/auth/forgot-password', { email });
      answers.push({ status: res.statusCode, body: res.json() });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({ status: 202, body: { message: AUTH_MESSAGES.resetRequested } });
    const [mail] = await waitForMails(t.dataDir, user.email);
    expect(mail!.subject).toBe('Reset your Bagspace password');
    await deliverDueMail(t.app);
    expect((await readOutbox(t.dataDir)).filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  it('a reset sets the new password, ends every session, and the link works once and expires in an hour', async () => {
    const user = await createUser(t);
    const phone = await signIn(t, user.email, user.password);
    const laptop = await signIn(t, user.email, user.password);
    await postJson(t, '/api/auth/forgot-password', { email: user.email });
    const token = tokenFrom(await resetLinkOf(user.email));
    const [stored] = await t.database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, sha256(token)));
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(3600 * 1000);

    const weak = await postJson(t, '/api/auth/reset-password', { token, password: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.password).toBe(AUTH_MESSAGES.passwordTooCommon);

    const newPassword = strongPassword();
    const res = await postJson(t, '/api/auth/reset-password', { token, password: newPassword }, withCookie(t, phone));
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_MESSAGES.passwordReset);
    expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^${cookieName()}=;`));
    expect(await sessionStatus(t, phone)).toBe(401);
    expect(await sessionStatus(t, laptop)).toBe(401);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await signInStatus(user.email, user.password)).toBe(401);
    expect(await signInStatus(user.email, newPassword)).toBe(200);

    const replay = await postJson(t, '/api/auth/reset-password', { token, password: strongPassword() });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);
    const notice = await waitForMails(t.dataDir, user.email, 2);
    expect(notice.at(-1)!.subject).toBe('Your Bagspace password was changed');
  });

  it('an expired or superseded reset link is refused', async () => {
    const user = await createUser(t);
    await postJson(t, '/api/auth/forgot-password', { email: user.email });
    const first = tokenFrom(await resetLinkOf(user.email));
    await postJson(t, '/api/auth/forgot-password', { email: user.email });
    const second = tokenFrom(await resetLinkOf(user.email, 2));
    expect(
      (await postJson(t, '/api/auth/reset-password', { token: first, password: strongPassword() })).statusCode,
    ).toBe(400);
    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailTokens.tokenHash, sha256(second)));
    expect(
      (await postJson(t, '/api/auth/reset-password', { token: second, password: strongPassword() })).statusCode,
    ).toBe(400);
    expect(await signInStatus(user.email, user.password)).toBe(200);
  });

  it('verifies the email of an account that resets its password (the link proves the mailbox)', async () => {
    const user = await createUser(t, { verified: false });
    await postJson(t, '/api/auth/forgot-password', { email: user.email });
    const token = tokenFrom(await resetLinkOf(user.email));
    const password = strongPassword();
    expect((await postJson(t, '/api/auth/reset-password', { token, password })).statusCode).toBe(200);
    expect(await signInStatus(user.email, password)).toBe(200);
  });
});

describe('changing the password', () => {
  it('needs the current password, ends every other session and keeps this one', async () => {
    const { email, password } = await signUpAndVerify(t);
    const here = await signIn(t, email, password);
    const elsewhere = await signIn(t, email, password);
    const newPassword = strongPassword();

    const wrong = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: 'not-it', newPassword },
      withCookie(t, here),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ currentPassword: AUTH_MESSAGES.currentPasswordWrong });
    const missing = await postJson(t, '/api/auth/change-password', { newPassword }, withCookie(t, here));
    expect(missing.statusCode).toBe(400);
    expect(await sessionStatus(t, elsewhere)).toBe(200);

    const res = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: password, newPassword },
      withCookie(t, here),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_MESSAGES.passwordChanged);
    expect(await sessionStatus(t, here)).toBe(200);
    expect(await sessionStatus(t, elsewhere)).toBe(401);
    expect(await signInStatus(email, password)).toBe(401);
    expect(await signInStatus(email, newPassword)).toBe(200);
  });

  it('refuses anonymous callers and common new passwords', async () => {
    const anonymous = await postJson(t, '/api/auth/change-password', {
      currentPassword: 'x',
      newPassword: strongPassword(),
    });
    expect(anonymous.statusCode).toBe(401);
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const res = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'sunshine1' },
      withCookie(t, cookie),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.newPassword).toBe(AUTH_MESSAGES.passwordTooCommon);
  });
});
