import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_TEXT } from '../../../src/contracts/setup.ts';
import { postJson, sessionCookieOf, withCookie } from '../../helpers/accounts.ts';
import { startServer } from '../../helpers/server-process.ts';
import { createTestApp, testDatabaseKind, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/** The first admin, created in the browser from the link a server prints while there is none. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true, mailWorker: false });
});
afterAll(() => t.close());

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const submit = (token: string, fields: Record<string, string>) =>
  postPageForm(t, `/setup?token=${token}`, fields, { 'sec-fetch-site': 'same-origin' });
const invalidText = SETUP_TEXT.linkInvalid.replace('--', '&#x27;').slice(0, 40);

describe('/setup', () => {
  it('a link works once, with the sign-up rules, and makes a verified admin who can sign in', async () => {
    const first = (await t.app.firstAdminSetup.issueLink())!;
    const token = (await t.app.firstAdminSetup.issueLink())!;
    expect(token).not.toBe(first);
    // A newer link replaces the older one; a made-up one never works.
    expect((await page(`/setup?token=${first}`)).statusCode).toBe(404);
    expect((await page('/setup?token=not-a-token')).body).toContain(invalidText);

    const form = await page(`/setup?token=${token}`);
    expect(form.statusCode).toBe(200);
    expect(form.headers['referrer-policy']).toBe('same-origin');
    expect(form.body).toContain(SETUP_TEXT.intro);

    const email = `first-admin-${Date.now()}@example.nz`;
    const differ = await submit(token, { email, password: 'Harbour-first-kite-42', confirmPassword: 'other' });
    expect(differ.statusCode).toBe(400);
    expect(differ.body).toContain(SETUP_TEXT.passwordsDiffer);
    expect(differ.body).toContain(`value="${email}"`);
    expect(differ.body).not.toContain('Harbour-first-kite-42');

    const weak = await submit(token, { email, password: 'short', confirmPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toMatch(/at least \d+ characters/);

    // Created and signed in at once: straight to the console, which asks for a second factor first.
    const done = await submit(token, {
      email,
      password: 'Harbour-first-kite-42',
      confirmPassword: 'Harbour-first-kite-42',
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/admin');
    const session = sessionCookieOf(t, done);
    expect(session?.value).toBeTruthy();
    expect(session).toMatchObject({ httpOnly: true, path: '/' });
    const consolePage = await t.app.inject({
      method: 'GET',
      url: '/admin',
      headers: { accept: 'text/html', ...withCookie(t, session!.value) },
    });
    expect(consolePage.statusCode).toBe(200);
    expect(consolePage.body).toMatch(/<h1[^>]*>Set up a second factor<\/h1>/);
    expect(consolePage.body).toContain('QR code for your authenticator app');
    // A passkey needs the browser's JavaScript: the button comes with hydration, never dead in the HTML.
    expect(consolePage.body).not.toContain('Use a passkey');
    expect(consolePage.body).not.toContain('Staff sign-in');
    // The session is the admin's, not yet past a second factor: nothing of the console opens.
    const who = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: withCookie(t, session!.value) });
    expect(who.json().user).toMatchObject({ email, role: 'admin' });
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit',
      headers: withCookie(t, session!.value),
    });
    expect(audit.statusCode).toBe(403);

    const signIn = await postJson(t, '/api/auth/login', { email, password: 'Harbour-first-kite-42' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ email, role: 'admin', emailVerified: true });

    // Used: the link is spent, and with an admin in place no new link is issued.
    const again = await submit(token, {
      email: `second-${email}`,
      password: 'Harbour-second-kite-42',
      confirmPassword: 'Harbour-second-kite-42',
    });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(invalidText);
    expect((await page(`/setup?token=${token}`)).statusCode).toBe(404);
    expect(await t.app.firstAdminSetup.issueLink()).toBeNull();
  });

  it('a link older than an hour does not work', async () => {
    const other = await createTestApp({ web: true, mailWorker: false });
    try {
      const token = (await other.app.firstAdminSetup.issueLink())!;
      expect((await other.app.inject({ method: 'GET', url: `/setup?token=${token}` })).statusCode).toBe(200);
      await other.database.db.execute(sql`update setup_tokens set expires_at = now() - interval '1 second'`);
      expect((await other.app.inject({ method: 'GET', url: `/setup?token=${token}` })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'pglite')('the server on an empty database', () => {
  it('prints a one-time setup link while there is no admin, and none once there is', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-setup-'));
    try {
      const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
      let link: string;
      try {
        const base = await server.ready;
        link = /(http:\/\/localhost:\d+\/setup\?token=[\w-]+)/.exec(server.output())![1]!;
        expect(link.startsWith(base)).toBe(true);
        const res = await fetch(link);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(SETUP_TEXT.submit);
        const created = await fetch(link, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
          body: new URLSearchParams({
            email: 'owner@example.nz',
            password: 'Harbour-owner-kite-42',
            confirmPassword: 'Harbour-owner-kite-42',
          }),
        });
        expect(created.status).toBe(303);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const restarted = startServer({ DATA_DIR: dataDir, PORT: '0' });
      try {
        await restarted.ready;
        expect(restarted.output()).not.toContain('/setup?token=');
      } finally {
        await restarted.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
