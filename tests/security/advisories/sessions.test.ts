/**
 * Advisory regressions (docs/security-checks.md#advisory-regressions): signing in and staying
 * signed in. Password changes, throttling (also under spoofed proxy headers), signing out of live
 * streams, mailed links, session tokens, account enumeration.
 * Each test is a short scenario on the real app (real requests, a fresh database) asserting what a
 * client observes; the exhaustive versions live in the matrix, IDOR, fuzz and upload suites. The
 * table of advisories and where each is tested: tests/helpers/advisories.ts.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import type { ApiClient } from '../../helpers/admin-client.ts';
import { register, validCompany } from '../../helpers/registration.ts';
import { createUser, sessionStatus, strongPassword, uniqueEmail, withCookie } from '../../helpers/accounts.ts';
import { advisory } from '../../helpers/advisories.ts';
import {
  cookieOf,
  endsWithin,
  freshIp,
  headerBlock,
  login,
  loginCookie,
  newLink,
  post,
  registerCompany,
  rows,
  send,
  sha256,
  withAdvisoryApp,
} from '../../helpers/advisory-app.ts';
import { readOutbox, waitForMail, waitForMails } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser } from '../../helpers/support.ts';
import type { TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let base: string;
let admin: ApiClient;
withAdvisoryApp('sessions', (app) => ({ t, base, admin } = app));

describe('support-desk advisories (docs/security-checks.md#advisory-regressions)', () => {
  advisory(
    2,
    'changing the password ends every other session (cookie and bearer), keeps this one, and needs the current password',
    async () => {
      const user = await createUser(t);
      const [first, second] = [
        await loginCookie(user.email, user.password),
        await loginCookie(user.email, user.password),
      ];
      const bearer = (await login(user.email, user.password, undefined, { session: 'token' })).json().session
        .token as string;
      const newPassword = strongPassword();

      const wrong = await post(
        '/api/auth/change-password',
        { currentPassword: 'not-the-password', newPassword },
        { headers: withCookie(t, first) },
      );
      expect(wrong.statusCode).toBe(400);
      expect(await sessionStatus(t, second)).toBe(200);

      const changed = await post(
        '/api/auth/change-password',
        { currentPassword: user.password, newPassword },
        { headers: withCookie(t, first) },
      );
      expect(changed.statusCode).toBe(200);
      expect(await sessionStatus(t, first)).toBe(200);
      expect(await sessionStatus(t, second)).toBe(401);
      expect(
        (await send('GET', '/api/auth/session', { headers: { authorization: `Bearer ${bearer}` } })).statusCode,
      ).toBe(401);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      expect((await login(user.email, newPassword)).statusCode).toBe(200);
    },
  );

  advisory(
    4,
    'sign-in and sign-up attempts are limited: 429 with Retry-After past the limit, per address and per account',
    async () => {
      const { perIp, perAccount } = t.config.loginThrottle;
      const user = await createUser(t);

      // Per address: guesses at many accounts from one address.
      const ip = freshIp();
      for (let i = 0; i < perIp; i++)
        expect((await login(uniqueEmail('guess'), 'Wrong-password-1', ip)).statusCode).toBe(401);
      const blocked = await login(uniqueEmail('guess'), 'Wrong-password-1', ip);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Even the right password waits, from that address; from another it works.
      expect((await login(user.email, user.password, ip)).statusCode).toBe(429);
      expect((await login(user.email, user.password, freshIp())).statusCode).toBe(200);

      // Per account: guesses at one account from many addresses.
      const victim = await createUser(t);
      for (let i = 0; i < perAccount; i++)
        expect((await login(victim.email, `Wrong-${i}-password`, freshIp())).statusCode).toBe(401);
      const locked = await login(victim.email, 'Wrong-again-password', freshIp());
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

      // Sign-ups per address (account creation as a flood).
      const signupIp = freshIp();
      const limit = t.config.accountRequestsPerIpPerHour;
      for (let i = 0; i < limit; i++) {
        expect(
          (
            await post(
              '/api/auth/signup',
              { email: uniqueEmail('flood'), password: strongPassword() },
              { ip: signupIp },
            )
          ).statusCode,
        ).toBe(202);
      }
      const lastEmail = uniqueEmail('flood');
      const refused = await post(
        '/api/auth/signup',
        { email: lastEmail, password: strongPassword() },
        { ip: signupIp },
      );
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await rows(sql`select id from users where email = ${lastEmail}`)).toEqual([]);
    },
    120_000,
  );

  advisory(
    7,
    '50 concurrent wrong passwords: at most the limit is evaluated, the rest 429, then even the right password waits out the window',
    async () => {
      const victim = await createUser(t);
      const limit = t.config.loginThrottle.perAccount;
      // Each guess from its own address: rotating addresses must not help either.
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => login(victim.email, `Wrong-guess-${i}-x`, freshIp())),
      );
      const statuses = answers.map((a) => a.statusCode);
      const evaluated = statuses.filter((s) => s === 401).length;
      expect(evaluated).toBeGreaterThan(0);
      expect(evaluated).toBeLessThanOrEqual(limit);
      expect(statuses.filter((s) => s === 429).length).toBe(50 - evaluated);
      for (const a of answers.filter((x) => x.statusCode === 429))
        expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);

      const right = await login(victim.email, victim.password, freshIp());
      expect(right.statusCode).toBe(429);
      expect(right.cookies).toEqual([]);

      // The window passes (its end moved into the past, as a clock would): the right password works.
      await t.database.db.execute(
        sql`update rate_limits set reset_at = now() - interval '1 second' where key like ${`%${victim.email}%`}`,
      );
      expect((await login(victim.email, victim.password, freshIp())).statusCode).toBe(200);
    },
  );

  advisory(12, 'signing out ends the open live streams at once, and the old cookie cannot open a new one', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Live until I sign out');
    const list = await openSse(`${base}/api/support/tickets/stream`, cookieOf(user));
    const messages = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(user));
    await list.waitFor((e) => e.some((x) => x.event === 'tickets'));
    await messages.waitFor((e) => e.some((x) => x.event === 'message'));

    expect((await user.post('/api/auth/logout')).statusCode).toBe(200);
    // Heartbeats come every 15 s here: ending within 2 s is the sign-out itself closing them.
    expect(await endsWithin(list)).toBe('ended');
    expect(await endsWithin(messages)).toBe('ended');
    expect((await openSse(`${base}/api/support/tickets/stream`, cookieOf(user))).status).toBe(401);
    expect((await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(user))).status).toBe(401);
    expect(await sessionStatus(t, user.cookie)).toBe(401);
  });

  advisory(17, 'verification and reset links expire and work once', async () => {
    const ip = freshIp();
    const email = uniqueEmail('links');
    const used = new Set<string>();
    const verifyLink = `${t.config.publicBaseUrl}/verify-email`;
    const resetLink = `${t.config.publicBaseUrl}/reset-password`;
    expect((await post('/api/auth/signup', { email, password: strongPassword() }, { ip })).statusCode).toBe(202);
    const expired = await newLink(email, 1, verifyLink, used);
    // The link's lifetime passes (its expiry moved into the past, as a clock would).
    await t.database.db.execute(
      sql`update email_tokens set expires_at = now() - interval '1 second' where user_id = (select id from users where email = ${email})`,
    );
    const late = await post('/api/auth/verify-email', { token: expired }, { ip });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);

    expect((await post('/api/auth/resend-verification', { email }, { ip })).statusCode).toBe(202);
    const fresh = await newLink(email, 2, verifyLink, used);
    expect((await post('/api/auth/verify-email', { token: fresh }, { ip })).statusCode).toBe(200);
    expect((await post('/api/auth/verify-email', { token: fresh }, { ip })).statusCode).toBe(400);
    expect((await post('/api/auth/verify-email', { token: expired }, { ip })).statusCode).toBe(400);

    expect((await post('/api/auth/forgot-password', { email }, { ip })).statusCode).toBe(202);
    const reset = await newLink(email, 3, resetLink, used);
    expect(
      (await post('/api/auth/reset-password', { token: reset, password: strongPassword() }, { ip })).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/auth/reset-password', { token: reset, password: strongPassword() }, { ip })).statusCode,
    ).toBe(400);

    expect((await post('/api/auth/forgot-password', { email }, { ip })).statusCode).toBe(202);
    // The mails so far: verification twice, reset, "password changed", and this reset.
    const lateReset = await newLink(email, 5, resetLink, used);
    await t.database.db.execute(
      sql`update email_tokens set expires_at = now() - interval '1 second' where purpose = 'reset-password' and user_id = (select id from users where email = ${email})`,
    );
    const refused = await post('/api/auth/reset-password', { token: lateReset, password: strongPassword() }, { ip });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);
  });

  advisory(
    18,
    '200 session tokens: distinct, 43-character base64url, no user id or email inside, and only their SHA-256 stored',
    async () => {
      const user = await createUser(t);
      const tokens: string[] = [];
      const ip = freshIp();
      for (let batch = 0; batch < 50; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => login(user.email, user.password, ip, { session: 'token' })),
        );
        for (const res of answers) {
          expect(res.statusCode).toBe(200);
          tokens.push(res.json().session.token as string);
        }
      }
      expect(new Set(tokens).size).toBe(200);
      const idForms = [
        user.id,
        user.id.replaceAll('-', ''),
        Buffer.from(user.id.replaceAll('-', ''), 'hex').toString('base64url'),
      ];
      const emailForms = [
        user.email,
        user.email.split('@')[0]!,
        Buffer.from(user.email).toString('base64url').slice(0, 12),
      ];
      for (const token of tokens) {
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(Buffer.from(token, 'base64url')).toHaveLength(32);
        for (const form of [...idForms, ...emailForms]) expect(token.toLowerCase()).not.toContain(form.toLowerCase());
      }
      const stored = await rows<{ token_hash: string }>(
        sql`select token_hash from sessions where user_id = ${user.id}`,
      );
      const hashes = new Set(stored.map((r) => r.token_hash));
      for (const token of tokens) {
        expect(hashes.has(token)).toBe(false);
        expect(hashes.has(sha256(token))).toBe(true);
      }
      const dump = JSON.stringify(await rows(sql`select * from sessions`));
      expect(tokens.filter((token) => dump.includes(token))).toEqual([]);
    },
    120_000,
  );

  advisory(19, 'forgot-password answers an unknown email exactly as a known one', async () => {
    const known = await createUser(t);
    const unknown = uniqueEmail('nobody');
    const ip = freshIp();
    const a = await post('/api/auth/forgot-password', { email: known.email }, { ip });
    const b = await post('/api/auth/forgot-password', { email: unknown }, { ip });
    const shape = (res: LightMyRequestResponse) => ({
      status: res.statusCode,
      body: res.body,
      cookies: res.cookies,
      headers: Object.keys(res.headers)
        .filter((h) => !['date', 'x-request-id', 'content-security-policy'].includes(h))
        .sort(),
      type: res.headers['content-type'],
      length: res.headers['content-length'],
      cache: res.headers['cache-control'],
    });
    expect(shape(a)).toEqual(shape(b));
    expect(a.statusCode).toBe(202);
    expect(a.json().message).toBe(AUTH_MESSAGES.resetRequested);
    // The difference is only in the mailboxes.
    expect(await waitForMails(t.dataDir, known.email, 1)).toHaveLength(1);
    expect((await readOutbox(t.dataDir)).filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  advisory(
    20,
    'spoofed CF-Connecting-IP / X-Forwarded-For do not reset the sign-in limit or name the client; CR/LF in names and reasons add no mail header',
    async () => {
      const ip = freshIp();
      const spoof = (i: number) => ({
        'cf-connecting-ip': `203.0.113.${i}`,
        'x-forwarded-for': `203.0.113.${i}`,
        'x-real-ip': `203.0.113.${i}`,
        'true-client-ip': `203.0.113.${i}`,
      });
      const perIp = t.config.loginThrottle.perIp;
      for (let i = 0; i < perIp; i++) {
        expect(
          (
            await post(
              '/api/auth/login',
              { email: uniqueEmail('g'), password: 'Wrong-password-1' },
              { ip, headers: spoof(i + 1) },
            )
          ).statusCode,
        ).toBe(401);
      }
      const next = await post(
        '/api/auth/login',
        { email: uniqueEmail('g'), password: 'Wrong-password-1' },
        { ip, headers: spoof(200) },
      );
      expect(next.statusCode).toBe(429);
      const keys = (await rows<{ key: string }>(sql`select key from rate_limits`)).map((r) => r.key);
      expect(keys).toContain(`login:ip:${ip}`);
      expect(keys.filter((k) => k.includes('203.0.113.'))).toEqual([]);

      // IN-06: line breaks in what an applicant or admin types never reach a header.
      const injected = '\r\nBcc: spy@evil.example\r\nSubject: hijacked\r\nX-Injected: 1';
      const company = { ...validCompany(), companyName: `Harbour${injected} Ltd`, street: `Level 1${injected}` };
      const { id } = await registerCompany(company);
      expect((await admin.post(`/api/admin/companies/${id}/approve`)).json().mail).toBe('queued');
      const other = validCompany();
      const { id: otherId } = await registerCompany(other);
      expect(
        (await admin.post(`/api/admin/companies/${otherId}/reject`, { reason: `Not approved.${injected}` })).json()
          .mail,
      ).toBe('queued');

      for (const [to, subject] of [
        [company.contactPersonEmail, `Your ${t.config.companyName} partner application is approved`],
        [other.contactPersonEmail, `About your ${t.config.companyName} partner application`],
      ] as const) {
        const mail = await waitForMail(t.dataDir, to, subject);
        const headers = headerBlock(mail.file);
        expect(mail!.to).toBe(to);
        expect(mail!.subject).toBe(subject);
        expect(headers).not.toMatch(/^(bcc|cc|x-injected):/im);
        expect(headers).not.toContain('spy@evil.example');
        expect(headers).not.toContain('hijacked');
        expect(headers.match(/^to:/gim)).toHaveLength(1);
        expect(headers.match(/^subject:/gim)).toHaveLength(1);
      }
      // An address with a line break in it is not an address at all.
      const bad = await register(t, { ...validCompany(), contactPersonEmail: 'a@example.nz\r\nBcc: spy@evil.example' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.contactPersonEmail).toBe(COMPANY_MESSAGES.emailInvalid);
    },
  );
});
