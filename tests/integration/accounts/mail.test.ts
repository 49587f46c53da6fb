import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.ts';
import { postJson, strongPassword, uniqueEmail } from '../../helpers/accounts.ts';
import { linkIn, tokenFrom, waitForMails } from '../../helpers/mail.ts';
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('mail, by default (no SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { COMPANY_NAME: 'Kiwi Carry', PUBLIC_BASE_URL: 'https://kiwicarry.example.nz' } });
  });
  afterAll(() => t.close());

  it('writes each message to DATA_DIR/outbox as a complete .eml with plain-text and HTML bodies naming the company', async () => {
    const email = uniqueEmail();
    expect((await postJson(t, '/api/auth/signup', { email, password: strongPassword() })).statusCode).toBe(202);
    const [mail] = await waitForMails(t.dataDir, email);
    expect(path.dirname(mail!.file)).toBe(path.join(t.dataDir, 'outbox'));
    expect(fs.readdirSync(path.join(t.dataDir, 'outbox')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(mail!.from).toBe('"Kiwi Carry" <no-reply@kiwicarry.example.nz>');
    expect(mail!.subject).toBe('Confirm your email address for Kiwi Carry');
    expect(mail!.text).toContain('Kiwi Carry');
    expect(mail!.html).toContain('Kiwi Carry');
    const textLink = linkIn(mail!, 'https://kiwicarry.example.nz/verify-email?token=');
    expect(mail!.html).toContain(`href="${textLink}"`);
    expect(tokenFrom(textLink)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('mail with SMTP_URL', () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Bagspace Support <support@bagspace.example.nz>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('is sent to the SMTP server (and not written to the outbox)', async () => {
    const email = uniqueEmail();
    await postJson(t, '/api/auth/signup', { email, password: strongPassword() });
    const [mail] = await sink.waitFor(email);
    expect(mail!.from).toBe('"Bagspace Support" <support@bagspace.example.nz>');
    expect(mail!.subject).toBe('Confirm your email address for Bagspace');
    expect(mail!.text).toContain(`${t.config.publicBaseUrl}/verify-email?token=`);
    expect(mail!.html).toContain('Bagspace');
    const token = tokenFrom(linkIn(mail!, `${t.config.publicBaseUrl}/verify-email`));
    expect((await postJson(t, '/api/auth/verify-email', { token })).statusCode).toBe(200);
    expect(fs.existsSync(path.join(t.dataDir, 'outbox'))).toBe(false);
  });

  it('carries password-reset links the same way', async () => {
    const email = uniqueEmail();
    await postJson(t, '/api/auth/signup', { email, password: strongPassword() });
    await sink.waitFor(email);
    await postJson(t, '/api/auth/forgot-password', { email });
    const mails = await sink.waitFor(email, 2);
    expect(mails[1]!.subject).toBe('Reset your Bagspace password');
    expect(mails[1]!.text).toContain(`${t.config.publicBaseUrl}/reset-password?token=`);
  });
});

describe('mail and session configuration', () => {
  it.each([
    [{ SMTP_URL: 'http://mail.example.nz' }, 'SMTP_URL must be an smtp:// or smtps:// URL'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM must be an address'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES must be a whole number of at least 1'],
    [{ SESSION_ABSOLUTE_HOURS: 'soon' }, 'SESSION_ABSOLUTE_HOURS must be a whole number of at least 1 (got "soon")'],
    [
      { SESSION_IDLE_MINUTES: '120', SESSION_ABSOLUTE_HOURS: '1' },
      'SESSION_ABSOLUTE_HOURS must be at least as long as SESSION_IDLE_MINUTES',
    ],
    [{ SESSION_COOKIE_SAMESITE: 'none' }, 'SESSION_COOKIE_SAMESITE must be lax or strict'],
    [{ LOGIN_FAILURES_PER_IP: '-1' }, 'LOGIN_FAILURES_PER_IP must be a whole number of at least 1'],
    [{ LOGIN_FAILURES_PER_ACCOUNT: 'ten' }, 'LOGIN_FAILURES_PER_ACCOUNT must be a whole number of at least 1'],
  ])('stops start-up on %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
