/**
 * LOG-02 (ASVS5 16.2.5, FreeScout GHSA-7wcq-2qmv-mvcm): no secret a user or operator gives the
 * server ever appears in its log. A real server process (as `npm start` runs it, at debug level)
 * goes through every flow that handles a secret; then its whole output is searched for each one.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from '../../src/server/logging.ts';
import { strongPassword, uniqueEmail } from '../helpers/accounts.ts';
import { recordFigure } from '../helpers/figures.ts';
import { mailToReceiver } from '../helpers/inbound-mail.ts';
import { linkIn, tokenFrom, waitForMail, waitForMails } from '../helpers/mail.ts';
import { generateSecret } from 'otplib';
import { steadyPort } from '../reliability/crash-harness.ts';
import { createUserWithCli, ROOT, startServer, type ServerProcess } from '../helpers/server-process.ts';
import { currentStep, totpAt } from '../helpers/second-factor.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { openTestDatabase, testDatabaseKind, type TestDatabase, withMigratedDatabase } from '../helpers/test-app.ts';
import { DEFAULT_WAIT_MS, waitFor } from '../helpers/wait.ts';

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/verify-email?token=abc')).toBe('/verify-email?token=[redacted]');
    expect(redactUrl('/confirm-email?token=abc')).toBe('/confirm-email?token=[redacted]');
    expect(redactUrl('/x?a=1&TOKEN=abc&b=2')).toBe('/x?a=1&TOKEN=[redacted]&b=2');
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/faqs?type=sender')).toBe('/faqs?type=sender');
    expect(redactUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=1');
  });

  it('hides the token of an unsubscribe link, and of its React Router data request', () => {
    expect(redactUrl('/unsubscribe/AbC_123-xyz')).toBe('/unsubscribe/[redacted]');
    expect(redactUrl('/unsubscribe/AbC_123-xyz.data?_routes=x')).toBe('/unsubscribe/[redacted]?_routes=x');
  });

  it("is the request log's address every time an address is seen, however often (the log remembers clean ones)", () => {
    const { req } = loggerOptions('info').serializers as { req(request: object): { url: string } };
    for (let i = 0; i < 3; i++) {
      expect(req({ method: 'GET', url: '/verify-email?token=abc' }).url).toBe('/verify-email?token=[redacted]');
      expect(req({ method: 'GET', url: '/unsubscribe/AbC_123-xyz' }).url).toBe('/unsubscribe/[redacted]');
      expect(req({ method: 'GET', url: '/faqs?type=sender' }).url).toBe('/faqs?type=sender');
    }
  });
});

describe.runIf(testDatabaseKind === 'pglite')('secrets in the server log (LOG-02)', () => {
  let server: ServerProcess;
  let base: string;
  let dataDir: string;
  const secrets = new Map<string, string>();
  const keep = (label: string, value: string) => {
    expect(value.length).toBeGreaterThanOrEqual(8);
    secrets.set(label, value);
    return value;
  };

  beforeAll(async () => {
    dataDir = withMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-logs-')));
    server = startServer({
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'debug',
      PUBLIC_BASE_URL: 'http://localhost:3999',
    });
    base = await server.ready;
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, body: unknown, cookie?: string) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

  it('never logs a password, session token, email-link token or bearer token', async () => {
    const email = uniqueEmail('logs');
    const password = keep('sign-up password', strongPassword());
    expect((await post('/api/auth/signup', { email, password })).status).toBeLessThan(300);

    const [verifyMail] = await waitForMails(dataDir, email, 1);
    const verifyLink = linkIn(verifyMail!, 'http://localhost:3999/verify-email');
    const verifyToken = keep('verification token', tokenFrom(verifyLink));
    // The page the link opens (the token travels in its URL) and the POST that consumes it.
    expect((await fetch(`${base}/verify-email?token=${verifyToken}`)).status).toBe(200);
    expect((await post('/api/auth/verify-email', { token: verifyToken })).status).toBe(200);

    keep('wrong password', `Wrong-${strongPassword()}`);
    expect((await post('/api/auth/login', { email, password: secrets.get('wrong password') })).status).toBe(401);
    const login = await post('/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    keep('session cookie', cookie.split('=')[1]!);

    const bearer = await post('/api/auth/login', { email, password, session: 'token' });
    const token = keep('bearer token', (await bearer.json()).session.token as string);
    expect((await fetch(`${base}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );

    const newPassword = keep('changed password', strongPassword());
    expect((await post('/api/auth/change-password', { currentPassword: password, newPassword }, cookie)).status).toBe(
      200,
    );

    expect((await post('/api/auth/forgot-password', { email })).status).toBeLessThan(300);
    // The reset mail itself, whatever else (the password-changed notice) arrived around it.
    const resetMail = await waitForMail(dataDir, email, 'Reset your Bagspace password');
    const resetToken = keep('reset token', tokenFrom(linkIn(resetMail, 'http://localhost:3999/reset-password')));
    expect((await fetch(`${base}/reset-password?token=${resetToken}`)).status).toBe(200);
    const resetPassword = keep('reset password', strongPassword());
    expect((await post('/api/auth/reset-password', { token: resetToken, password: resetPassword })).status).toBe(200);
    // A malformed body that carries a password is logged as a validation failure, without it.
    expect((await post('/api/auth/login', { email: 'not-an-email', password: resetPassword })).status).toBe(400);

    // Changing the email address (docs/product.md §2.13): the current password, and the link mailed to the new address.
    const again = await post('/api/auth/login', { email, password: resetPassword });
    const cookieAgain = again.headers.getSetCookie()[0]!.split(';')[0]!;
    keep('session cookie after the reset', cookieAgain.split('=')[1]!);
    const newEmail = uniqueEmail('logs-moved');
    expect((await post('/api/account/email', { newEmail, currentPassword: resetPassword }, cookieAgain)).status).toBe(
      202,
    );
    const changeMail = await waitForMail(dataDir, newEmail, 'Confirm your new email address for Bagspace');
    const changeToken = keep(
      'email-change token',
      tokenFrom(linkIn(changeMail, 'http://localhost:3999/confirm-email')),
    );
    expect((await fetch(`${base}/confirm-email?token=${changeToken}`)).status).toBe(200);
    // The page's form without JavaScript, then the API (the link is spent by then: refused, still unlogged).
    const page = await fetch(`${base}/confirm-email?token=${changeToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ token: changeToken }).toString(),
    });
    expect(page.status).toBe(200);
    expect((await post('/api/auth/confirm-email-change', { token: changeToken })).status).toBe(400);

    // Deleting the account (docs/product.md §2.14): a wrong password, then the right one.
    const last = await post('/api/auth/login', { email: newEmail, password: resetPassword });
    expect(last.status).toBe(200);
    const lastCookie = last.headers.getSetCookie()[0]!.split(';')[0]!;
    keep('session cookie before deleting', lastCookie.split('=')[1]!);
    const wrong = keep('wrong password when deleting', strongPassword());
    expect((await post('/api/account/delete', { password: wrong }, lastCookie)).status).toBe(400);
    expect((await post('/api/account/delete', { password: resetPassword }, lastCookie)).status).toBe(200);

    // An admin's second factor (docs/product.md §2.15): made by the CLI through the running server's
    // socket, set up through the API; its secret, codes and recovery codes never reach the log.
    const adminEmail = uniqueEmail('logs-admin');
    const adminPassword = keep('admin password', strongPassword());
    execFileSync(
      process.execPath,
      ['scripts/cli.ts', 'create-user', '--admin', '--email', adminEmail, '--password-stdin'],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
        input: `${adminPassword}\n`,
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    const bearerPost = (url: string, body: unknown, token: string) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const pending = await post('/api/auth/login', { email: adminEmail, password: adminPassword, session: 'token' });
    const adminToken = keep(
      'admin session token',
      ((await pending.json()) as { session: { token: string } }).session.token,
    );
    const offer = (await (await bearerPost('/api/admin/second-factor/totp', {}, adminToken)).json()) as {
      factorId: string;
      secret: string;
    };
    const secret = keep('TOTP secret', offer.secret);
    const step = currentStep();
    const codes = [await totpAt(secret, step), await totpAt(secret, step + 1)];
    const confirmed = await bearerPost(
      '/api/admin/second-factor/totp/confirm',
      { factorId: offer.factorId, code: codes[0] },
      adminToken,
    );
    expect(confirmed.status).toBe(200);
    const recovery = ((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes;
    recovery.forEach((code, i) => keep(`recovery code ${i + 1}`, code));
    expect((await post('/api/auth/login', { email: adminEmail, password: adminPassword, otp: '000000' })).status).toBe(
      401,
    );
    expect((await post('/api/auth/login', { email: adminEmail, password: adminPassword, otp: codes[1] })).status).toBe(
      200,
    );
    expect(
      (await post('/api/auth/login', { email: adminEmail, password: adminPassword, otp: recovery[0] })).status,
    ).toBe(200);
    // New codes from Sign-in security: the admin's session passed its factor at enrolment.
    const renewed = await bearerPost('/api/admin/second-factor/recovery-codes', {}, adminToken);
    expect(renewed.status).toBe(200);
    ((await renewed.json()) as { recoveryCodes: string[] }).recoveryCodes.forEach((code, i) =>
      keep(`renewed recovery code ${i + 1}`, code),
    );

    await server.stop();
    const log = server.output();
    // Six-digit codes are too short to search for alone: never as a number of their own in the log.
    for (const code of codes) expect(log).not.toMatch(new RegExp(`(^|[^0-9])${code}([^0-9]|$)`));
    expect(log).toContain('second factor refused');
    expect(log).toContain('recovery codes renewed');
    // The log is real: it holds the requests made above, one JSON object per line.
    expect(log).toContain('/api/auth/login');
    expect(log).toContain('/verify-email?token=[redacted]');
    expect(log).toContain('/confirm-email?token=[redacted]');
    expect(log).toContain('account deletion requested');
    const leaks = [...secrets].filter(([, value]) => log.includes(value)).map(([label]) => label);
    recordFigure('log-secrets', {
      checks: ['LOG-02', 'LOG-03'],
      label: 'Secrets in logs',
      values: { secretsCreated: secrets.size, logBytes: log.length, occurrences: leaks.length },
    });
    expect(leaks).toEqual([]);
  });
});

describe.runIf(testDatabaseKind === 'pglite')('reply addresses in the server log (LOG-02)', () => {
  it('never logs a reply address’s token: not when it is handed out, used, misused or refused', async () => {
    const dataDir = withMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-reply-logs-')));
    const smtpPort = await steadyPort();
    const env = {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'debug',
      PUBLIC_BASE_URL: 'http://localhost:3999',
      REPLY_DOMAIN: 'reply.logs.test',
      INBOUND_SMTP_PORT: String(smtpPort),
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_AUTHSERV_ID: 'relay.logs.test',
      NOTIFY_DELAY_SECONDS: '0',
    };
    const user = { email: uniqueEmail('reply-logs'), password: strongPassword() };
    const admin = { email: uniqueEmail('reply-logs-admin'), password: strongPassword() };
    await createUserWithCli(env, user.email, user.password);
    await createUserWithCli(env, admin.email, admin.password, ['--admin', '--totp-secret', generateSecret()]);
    const server = startServer(env);
    try {
      const base = await server.ready;
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const created = await fetch(`${base}/api/functions/createSupportTicket`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ data: { reason: 'General', message: 'Where is my bag?' } }),
      });
      const { ticketId } = ((await created.json()) as { result: { ticketId: string } }).result;
      const tokenOf = (mail: { headers: Record<string, string> }) =>
        /reply\+([0-9a-f]{48})@/.exec(mail.headers['reply-to'] ?? '')![1]!;
      // Handed out: the team's mail about the new ticket.
      const [teamMail] = await waitForMails(dataDir, admin.email, 1);
      const adminToken = tokenOf(teamMail!);
      const send = (from: string, to: string, words: string) =>
        mailToReceiver(smtpPort, { from, to, words, vouchedBy: 'relay.logs.test' });
      // Used: the admin answers by mail, which mails the user a reply address of their own.
      await send(admin.email, `reply+${adminToken}@reply.logs.test`, 'We found your bag.');
      const [answerMail] = await waitForMails(dataDir, user.email, 1);
      const userToken = tokenOf(answerMail!);
      // Misused (another sender: held) and refused (no such address: 550 at RCPT TO).
      await send(uniqueEmail('mallory'), `reply+${userToken}@reply.logs.test`, 'Send it to me instead.');
      const unknownToken = randomBytes(24).toString('hex');
      await expect(send(user.email, `reply+${unknownToken}@reply.logs.test`, 'Hello?')).rejects.toMatchObject({
        responseCode: 550,
      });
      // Used by its person: the reply is posted.
      await send(user.email, `reply+${userToken}@reply.logs.test`, 'Thank you!');
      await waitFor('the mailed reply posted on the ticket', async () => {
        const res = await fetch(`${base}/api/support/tickets/${ticketId}/messages`, { headers: { cookie } });
        const { messages } = (await res.json()) as { messages: Array<{ messageBody: string }> };
        return messages.some((m) => m.messageBody === 'Thank you!');
      });
    } finally {
      await server.stop();
    }
    const log = server.output();
    // The log is real: it holds the mail delivered and the mail received.
    expect(log).toContain('mail delivered');
    expect(log).toContain('receiving mail by SMTP');
    const tokens = [...fs.readdirSync(path.join(dataDir, 'outbox'))]
      .map((file) => fs.readFileSync(path.join(dataDir, 'outbox', file), 'utf8'))
      .flatMap((eml) => [...eml.matchAll(/reply\+([0-9a-f]{48})@/g)].map((m) => m[1]!));
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(tokens.filter((token) => log.includes(token))).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('SMTP credentials in the server log (LOG-02)', () => {
  let sink: SmtpSink;
  let db: TestDatabase;
  beforeAll(async () => {
    sink = await startSmtpSink();
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await sink?.close();
    await db?.close();
  });

  it('never logs the SMTP password, whether mail is accepted or refused', async () => {
    const smtpPassword = `Smtp-${strongPassword()}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-logs-'));
    // A port nothing listens on: every send fails, and the failure is logged. The two servers
    // run one after the other: they share the outbox, so a dead one beside the live one could
    // take the live one's mail, fail it and hold it back for its retry.
    const dead = startServer({
      DATABASE_URL: db.url!,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'debug',
      SMTP_URL: `smtp://mailer:${smtpPassword}@127.0.0.1:1`,
    });
    const live = () =>
      startServer({
        DATABASE_URL: db.url!,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'debug',
        SMTP_URL: `smtp://mailer:${smtpPassword}@${new URL(sink.url).host}`,
      });
    const signUp = async (server: ServerProcess) => {
      const res = await fetch(`${await server.ready}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail('smtp'), password: strongPassword() }),
      });
      expect(res.status).toBeLessThan(300);
    };
    let log = '';
    try {
      await signUp(dead);
      await expect.poll(() => dead.output(), { timeout: DEFAULT_WAIT_MS }).toContain('mail not delivered');
    } finally {
      await dead.stop();
      log += dead.output();
    }
    const accepting = live();
    try {
      await signUp(accepting);
      await expect.poll(() => sink.messages.length, { timeout: DEFAULT_WAIT_MS }).toBeGreaterThan(0);
    } finally {
      await accepting.stop();
      log += accepting.output();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    expect(log).not.toContain(smtpPassword);
    // A URL that does not parse stops start-up naming the variable, not echoing the password.
    const bad = startServer({
      DATABASE_URL: db.url!,
      DATA_DIR: dataDir,
      PORT: '0',
      SMTP_URL: `smtp://mailer:${smtpPassword}@127.0.0.1:x`,
    });
    expect(await bad.exited).not.toBe(0);
    expect(bad.output()).toContain('SMTP_URL');
    expect(bad.output()).not.toContain(smtpPassword);
  });
});
