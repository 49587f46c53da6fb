// One database: a sign-in protocol with a provider on loopback; the SQL is a few plain rows, the same on either kind.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, OIDC_TEXT } from '../../../src/contracts/auth.ts';
import { USER_MESSAGES } from '../../../src/contracts/users.ts';
import { apiClient } from '../../helpers/admin-client.ts';
import { waitForMails } from '../../helpers/mail.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { oidcLogins, oidcSessions } from '../../../src/server/db/schema.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { createOidcRepository } from '../../../src/server/modules/accounts/oidc.repository.ts';
import { createUser, postJson, signIn } from '../../helpers/accounts.ts';
import { startTestProvider, testBrowser, type TestProvider } from '../../helpers/oidc-provider.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { freePort } from '../../helpers/ports.ts';
import { nextOtp } from '../../helpers/second-factor.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Staff sign-in with the company's identity provider (docs/decisions/148-staff-sign-in-oidc.md),
 * against a real OpenID provider on loopback (oidc-provider), through the app's real HTTP address:
 * the authorization code flow with PKCE, state and nonce; refusals; invitations; groups to roles;
 * the provider's second factor (amr) or ours; leaving: the re-check and back-channel logout.
 */
let t: TestApp;
let provider: TestProvider;
let base: string;
const clock = movableClock(new Date('2026-12-03T01:00:00Z'));
const DOMAIN = 'bagspace.test';
const person = (label: string) => `${label}-${randomBytes(4).toString('hex')}@${DOMAIN}`;

let staffInviter: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  provider = await startTestProvider({ callbackBase: base });
  t = await createTestApp({
    web: true,
    clock,
    env: {
      PUBLIC_BASE_URL: base,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_PROVIDER_NAME: 'Bagspace Workspace',
      OIDC_SCOPES: 'openid email groups offline_access',
      OIDC_ALLOWED_DOMAINS: DOMAIN,
      OIDC_GROUP_ROLES: 'desk-leads=lead,desk=agent,auditors=auditor',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  staffInviter = (await createUser(t, { role: 'admin' })).id;
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** Someone the provider knows, signing in next with these amr values. */
function atProvider(email: string, options: { groups?: string[]; amr?: string[]; verified?: boolean } = {}) {
  const subject = `sub-${randomBytes(6).toString('hex')}`;
  provider.people.set(subject, { email, groups: options.groups ?? ['desk'], emailVerified: options.verified });
  provider.nextSignIn = { subject, amr: options.amr ?? ['pwd', 'mfa'] };
  return subject;
}

const host = () => new URL(base).host;
const sessionCookie = (browser: ReturnType<typeof testBrowser>) => browser.cookie(host(), t.config.sessions.cookieName);
const asSession = (token: string | undefined) =>
  t.app.inject({
    method: 'GET',
    url: '/api/auth/session',
    headers: { cookie: `${t.config.sessions.cookieName}=${token}` },
  });
const rolesOf = async (userId: string) =>
  (
    await queryRows<{ role: string }>(
      t.database.db,
      sql`select role from staff_roles where user_id = ${userId}::uuid order by role`,
    )
  ).map((r) => r.role);

describe('signing in at the provider', () => {
  it('uses the code flow with PKCE (S256), state and nonce, and opens the console when the provider asked a second factor', async () => {
    const staff = await createUser(t, { email: person('agent'), roles: ['agent'] });
    const subject = atProvider(staff.email, { amr: ['pwd', 'mfa'] });
    const browser = testBrowser();
    const { url, visited } = await browser.go(`${base}/auth/oidc/start`);
    const authorization = new URL(visited[1]!);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('state')).toBeTruthy();
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${base}/auth/oidc/callback`);
    expect(url.href).toBe(`${base}/admin`);

    const token = sessionCookie(browser);
    expect((await asSession(token)).statusCode).toBe(200);
    const inbox = await t.app.inject({
      method: 'GET',
      url: '/api/admin/support/tickets',
      headers: { cookie: `${t.config.sessions.cookieName}=${token}` },
    });
    expect(inbox.statusCode).toBe(200);
    // The session remembers who it is at the provider, for the re-check and back-channel logout.
    const [linked] = await t.database.db.select().from(oidcSessions).where(eq(oidcSessions.subject, subject));
    expect(linked).toMatchObject({ subject, refreshToken: expect.any(String), providerSid: expect.any(String) });
    // The state is spent: the same answer again is refused.
    const again = await browser.go(visited[visited.length - 2]!);
    expect(again.url.href).toBe(`${base}/admin?signIn=expired`);
  });

  it('asks our own second factor when the provider did not (amr), and ties the session to it once passed', async () => {
    const staff = await createUser(t, { email: person('lead'), roles: ['lead'] });
    const subject = atProvider(staff.email, { amr: ['pwd'], groups: ['desk-leads'] });
    const browser = testBrowser();
    const { url } = await browser.go(`${base}/auth/oidc/start`);
    expect(url.href).toBe(`${base}/admin`);
    expect(sessionCookie(browser)).toBeUndefined();
    const step = browser.cookie(host(), 'oidc_code_step');
    expect(step).toMatch(/^[A-Za-z0-9_-]+\./);
    // The console's login screen shows the code step (the page reads the ticket from its cookie).
    const page = await t.app.inject({ method: 'GET', url: '/admin', headers: { cookie: `oidc_code_step=${step}` } });
    expect(page.body).toContain('One-time code');

    const ticket = step!.split('.')[0]!;
    const wrong = await postPageForm(
      t,
      '/admin',
      { email: staff.email, ticket, otp: '000000' },
      { 'sec-fetch-mode': 'navigate' },
    );
    expect(wrong.statusCode).toBe(401);
    const newTicket = /name="ticket" value="([^"]+)"/.exec(wrong.body)?.[1];
    expect(newTicket).toBeTruthy();
    const right = await postPageForm(
      t,
      '/admin',
      { email: staff.email, ticket: newTicket!, otp: (await nextOtp(staff.email))! },
      { 'sec-fetch-mode': 'navigate' },
    );
    expect(right.statusCode, right.body.slice(0, 300)).toBe(303);
    const cookies = ([] as string[]).concat(right.headers['set-cookie'] ?? []);
    expect(cookies.some((c) => c.startsWith('oidc_code_step=;'))).toBe(true);
    const [linked] = await t.database.db.select().from(oidcSessions).where(eq(oidcSessions.subject, subject));
    expect(linked?.refreshToken).toEqual(expect.any(String));
    // The provider's groups set the roles: desk-leads is a lead.
    expect(await rolesOf(staff.id)).toEqual(['lead']);
  });

  it('refuses a state that is not this browser’s, an answer older than ten minutes, and a nonce that does not match', async () => {
    const staff = await createUser(t, { email: person('state'), roles: ['agent'] });
    atProvider(staff.email);
    const other = testBrowser();
    const first = await other.go(`${base}/auth/oidc/start`);
    expect(first.url.href).toBe(`${base}/admin`);

    // Another browser's state: its cookie is not the one the request was made with.
    atProvider(staff.email);
    const browser = testBrowser();
    const start = await fetch(`${base}/auth/oidc/start`, { redirect: 'manual' });
    const authorize = start.headers.get('location')!;
    browser.setCookie(host(), 'oidc_state', 'someone-elses-state');
    const forged = await browser.go(authorize);
    expect(forged.url.href).toBe(`${base}/admin?signIn=expired`);
    expect(sessionCookie(browser)).toBeUndefined();

    // Too slow: ten minutes on the app's clock.
    atProvider(staff.email);
    const slow = testBrowser();
    const started = await slow.go(`${base}/auth/oidc/start`, {});
    expect(started.url.href).toBe(`${base}/admin`);
    const late = testBrowser();
    const lateStart = await fetch(`${base}/auth/oidc/start`, { redirect: 'manual' });
    late.setCookie(host(), 'oidc_state', /oidc_state=([^;]+)/.exec(lateStart.headers.get('set-cookie')!)![1]!);
    clock.advance(11 * 60_000);
    atProvider(staff.email);
    expect((await late.go(lateStart.headers.get('location')!)).url.href).toBe(`${base}/admin?signIn=expired`);

    // A nonce that is not the one the ID token carries: openid-client refuses the token.
    atProvider(staff.email);
    const tampered = testBrowser();
    const tamperStart = await fetch(`${base}/auth/oidc/start`, { redirect: 'manual' });
    const state = /oidc_state=([^;]+)/.exec(tamperStart.headers.get('set-cookie')!)![1]!;
    tampered.setCookie(host(), 'oidc_state', state);
    await t.database.db.update(oidcLogins).set({ nonce: 'not-the-nonce' }).where(eq(oidcLogins.state, state));
    expect((await tampered.go(tamperStart.headers.get('location')!)).url.href).toBe(`${base}/admin?signIn=failed`);
    expect(sessionCookie(tampered)).toBeUndefined();
  });

  it('refuses a code used once already at the provider', async () => {
    const staff = await createUser(t, { email: person('replay'), roles: ['agent'] });
    atProvider(staff.email);
    const browser = testBrowser();
    const { visited } = await browser.go(`${base}/auth/oidc/start`);
    const callback = visited.find((address) => address.startsWith(`${base}/auth/oidc/callback`))!;
    const state = new URL(callback).searchParams.get('state')!;
    // The request's state made usable again, so only the code's second use is left to refuse.
    await t.database.db
      .insert(oidcLogins)
      .values({ state, nonce: 'n', codeVerifier: 'v'.repeat(43), returnTo: '/admin', createdAt: clock.now() })
      .onConflictDoUpdate({ target: oidcLogins.state, set: { createdAt: clock.now(), ticketHash: null } });
    const replay = testBrowser();
    replay.setCookie(host(), 'oidc_state', state);
    expect((await replay.go(callback)).url.href).toBe(`${base}/admin?signIn=failed`);
    expect(sessionCookie(replay)).toBeUndefined();
  });

  it('refuses an unknown address, another domain and an unverified address; an invitation lets a new person in with its roles', async () => {
    const stranger = person('stranger');
    atProvider(stranger);
    expect((await testBrowser().go(`${base}/auth/oidc/start`)).url.href).toBe(`${base}/admin?signIn=unknown`);
    const page = await t.app.inject({ method: 'GET', url: '/admin?signIn=unknown' });
    expect(page.body).toContain(OIDC_TEXT.refused.unknown);
    expect(page.body).toContain(OIDC_TEXT.button('Bagspace Workspace'));

    atProvider(`someone-${randomBytes(3).toString('hex')}@elsewhere.test`);
    expect((await testBrowser().go(`${base}/auth/oidc/start`)).url.href).toBe(`${base}/admin?signIn=domain`);
    atProvider(person('unverified'), { verified: false });
    expect((await testBrowser().go(`${base}/auth/oidc/start`)).url.href).toBe(`${base}/admin?signIn=unverified`);

    // Invited as an auditor by an admin on /admin/users: a mail, seven days; signs in with the
    // invitation's roles (no group maps).
    const invited = person('invited');
    const admin = await apiClient(t);
    const sent = await admin.post('/api/admin/invitations', { email: invited, roles: ['auditor'] });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      invitation: { email: invited, roles: ['auditor'], acceptedAt: null },
      message: USER_MESSAGES.invited(invited),
    });
    const [mail] = await waitForMails(t.dataDir, invited, 1);
    expect(mail!.subject).toBe('You are invited to the Bagspace console');
    expect(mail!.text).toContain(`Sign in with Bagspace Workspace`);
    expect(mail!.text).toContain(`${base}/admin`);
    expect(mail!.text).toContain('7 days, once');
    const invitations = createOidcRepository(t.database.db);
    atProvider(invited, { groups: [] });
    const browser = testBrowser();
    expect((await browser.go(`${base}/auth/oidc/start`)).url.href).toBe(`${base}/admin`);
    const [account] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from users where email = ${invited}`,
    );
    expect(await rolesOf(account!.id)).toEqual(['auditor']);
    // Used once: the invitation is accepted and cannot bring anyone else in; the list says so.
    expect(await invitations.openInvitation(invited, clock.now())).toBeNull();
    const listed = (await admin.get('/api/admin/invitations')).json();
    expect(listed.available).toBe(true);
    expect(listed.invitations.find((i: { email: string }) => i.email === invited).acceptedAt).toEqual(
      expect.any(String),
    );
    // The Users page without JavaScript: the form sends one, the list shows who joined.
    const viaPage = person('via-page');
    const posted = await postPageForm(
      t,
      '/admin/users',
      { intent: 'invite', inviteEmail: viaPage, inviteRoles: 'agent' },
      { ...admin.headers, 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' },
    );
    expect(posted.statusCode, posted.body.slice(0, 200)).toBe(303);
    expect(decodeURIComponent(String(posted.headers.location)).replaceAll('+', ' ')).toContain(
      USER_MESSAGES.invited(viaPage),
    );
    const usersPage = await t.app.inject({ method: 'GET', url: '/admin/users', headers: admin.headers });
    expect(usersPage.body).toContain('Send invitation');
    expect(usersPage.body).toContain(viaPage);
    expect(usersPage.body).toContain(invited);
    // Staff already: no invitation.
    const again = await admin.post('/api/admin/invitations', { email: invited, roles: ['agent'] });
    expect([again.statusCode, again.json().error.message]).toEqual([409, USER_MESSAGES.alreadyStaff]);

    // An expired invitation is no invitation.
    const late = person('late');
    await invitations.invite({
      email: late,
      roles: ['agent'],
      invitedBy: staffInviter,
      expiresAt: new Date(clock.now().getTime() - 1),
    });
    atProvider(late);
    expect((await testBrowser().go(`${base}/auth/oidc/start`)).url.href).toBe(`${base}/admin?signIn=unknown`);
  });

  it('refuses staff in none of the mapped groups', async () => {
    const staff = await createUser(t, { email: person('nogroup'), roles: ['agent'] });
    atProvider(staff.email, { groups: ['marketing'] });
    expect((await testBrowser().go(`${base}/auth/oidc/start`)).url.href).toBe(`${base}/admin?signIn=noGroup`);
    expect(await rolesOf(staff.id)).toEqual(['agent']);
  });
});

describe('leaving', () => {
  it('ends the session at the re-check after the provider deactivates the person, and not before', async () => {
    const staff = await createUser(t, { email: person('leaver'), roles: ['agent'] });
    const subject = atProvider(staff.email);
    const browser = testBrowser();
    await browser.go(`${base}/auth/oidc/start`);
    const token = sessionCookie(browser);
    expect((await asSession(token)).statusCode).toBe(200);

    // Five minutes on: the provider still knows them, the refresh works, the session stays.
    clock.advance(5 * 60_000 + 1000);
    expect((await t.app.staffSignIn!.recheck()).ended).toBe(0);
    expect((await asSession(token)).statusCode).toBe(200);

    // Deactivated at the provider: at the next re-check (within five minutes) the session is gone.
    provider.people.delete(subject);
    clock.advance(5 * 60_000 + 1000);
    const round = await t.app.staffSignIn!.recheck();
    expect(round.ended).toBeGreaterThanOrEqual(1);
    expect((await asSession(token)).statusCode).toBe(401);
  });

  it('ends the session at once on the provider’s back-channel logout, and refuses a forged logout token', async () => {
    const staff = await createUser(t, { email: person('logout'), roles: ['agent'] });
    const subject = atProvider(staff.email);
    const browser = testBrowser();
    await browser.go(`${base}/auth/oidc/start`);
    const token = sessionCookie(browser);
    const [linked] = await t.database.db.select().from(oidcSessions).where(eq(oidcSessions.subject, subject));

    const forged = await fetch(`${base}/auth/oidc/backchannel-logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: 'eyJhbGciOiJub25lIn0.eyJzaWQiOiJ4In0.' }),
    });
    expect(forged.status).toBe(400);
    expect((await asSession(token)).statusCode).toBe(200);

    await provider.backchannelLogout(subject, linked!.providerSid!);
    expect((await asSession(token)).statusCode).toBe(401);
  });
});

describe('password sign-in for staff switched off', () => {
  it('refuses a staff password (after a right one only), and leaves customers theirs', async () => {
    const off = await createTestApp({
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        STAFF_PASSWORD_SIGN_IN: 'off',
      },
    });
    try {
      const staff = await createUser(off, { roles: ['agent'] });
      const refused = await postJson(off, '/api/auth/login', { email: staff.email, password: staff.password });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.message).toBe(AUTH_MESSAGES.staffUseProvider);
      const wrong = await postJson(off, '/api/auth/login', { email: staff.email, password: 'Not-the-password-1' });
      expect(wrong.json().error.message).toBe(AUTH_MESSAGES.invalidCredentials);
      const customer = await createUser(off);
      expect(await signIn(off, customer.email, customer.password)).toBeTruthy();
    } finally {
      await off.close();
    }
  });
});
