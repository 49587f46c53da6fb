// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_STATUS_TEXT } from '../../../src/contracts/partner-status.ts';
import { loggerOptions } from '../../../src/server/logging.ts';
import { linkIn, readOutbox, waitForMail } from '../../helpers/mail.ts';
import { type CompanyFields, pngOf, register, validCompany } from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The partner applicant's status page (docs/decisions/112-application-status-page.md): the private
 * link in the 'application received' mail opens the application as submitted, its state in plain
 * words, when it will be reviewed and its history; only the link's hash is stored; a wrong link
 * answers the same 404 words; the page is never cached or sent on in a Referer, and the server's
 * log never holds the token. The app logs at info level into `logLines`, as a server would.
 */
const BASE = 'http://status.test';
const RECEIVED_SUBJECT = 'We received your Bagspace partner application';
const logLines: string[] = [];
let t: TestApp;
let admin: SupportUser;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  t = await createTestApp({
    web: true,
    env: { LOG_LEVEL: 'info', PUBLIC_BASE_URL: BASE, COMPANY_NAME: 'Bagspace' },
    logger: { ...(loggerOptions('info') as object), stream } as never,
  });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

/** An instant at a New Zealand wall-clock time (December is NZDT, UTC+13). */
const nz = (local: string) => new Date(`${local}+13:00`);

interface Applied {
  id: string;
  fields: CompanyFields;
  token: string;
  link: string;
}

/** Applies with a contact email (and a licence file), and reads the link from the received mail. */
async function apply(options: { license?: boolean; remoteAddress?: string } = {}): Promise<Applied> {
  const fields = validCompany();
  const res = await register(
    t,
    { ...fields, nzbn: '' },
    options.license ? { bytes: pngOf(2048), name: 'licence.png', type: 'image/png' } : undefined,
    { remoteAddress: options.remoteAddress ?? '203.0.113.5' },
  );
  expect(res.statusCode, res.body).toBe(201);
  const mail = await waitForMail(t.dataDir, fields.contactPersonEmail, RECEIVED_SUBJECT);
  expect(mail.text).toContain(`${APPLICATION_STATUS_TEXT.mailButton}:`);
  expect(mail.html).toContain(APPLICATION_STATUS_TEXT.mailButton);
  const link = linkIn(mail, `${BASE}/partners/status/`);
  const token = link.slice(`${BASE}/partners/status/`.length);
  return { id: res.json().id as string, fields, token, link };
}

const api = (token: string, remoteAddress = '198.51.100.7') =>
  t.app.inject({ method: 'GET', url: `/api/partners/status/${token}`, remoteAddress });
const page = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/partners/status/${token}`,
    headers: { accept: 'text/html' },
    remoteAddress: '198.51.100.8',
  });

describe("the applicant's status page", () => {
  let first: Applied;
  let second: Applied;

  beforeAll(async () => {
    first = await apply({ license: true });
    second = await apply();
    // Submitted on Monday 30 November 2026, 09:00 in New Zealand: due Wednesday 2 December.
    await t.database.db.execute(
      sql`update companies set created_at = ${nz('2026-11-30T09:00:00').toISOString()}::timestamptz, submitted_at = ${nz('2026-11-30T09:00:00').toISOString()}::timestamptz where id = ${first.id}`,
    );
  });

  it('mails a link that opens this application as submitted, Received, with its review date', async () => {
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await api(first.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const body = res.json();
    expect(body.state).toBe('received');
    expect(body.reviewDueDate).toBe('2026-12-02');
    expect(body.company).toMatchObject({
      companyName: first.fields.companyName,
      phoneNumber: first.fields.phoneNumber,
      address: first.fields.address,
      street: first.fields.street,
      contactPersonName: first.fields.contactPersonName,
      contactPersonJobTitle: first.fields.contactPersonJobTitle,
      contactPersonPhoneNumber: first.fields.contactPersonPhoneNumber,
      contactPersonEmail: first.fields.contactPersonEmail,
      nzbn: null,
      licenseSent: true,
    });
    // Whether a licence was sent, never where it is.
    expect(res.body).not.toMatch(/commercialLicense|\/api\/admin|licenses\//i);
    expect(res.body).not.toContain(first.id);
    expect(body.history.map((e: { kind: string }) => e.kind)).toEqual(['received']);
  });

  it('stores only the hash of the token', async () => {
    const dump = await t.database.db.execute(
      sql`select row_to_json(c)::text as row from companies c union all select row_to_json(l)::text from company_status_links l`,
    );
    const rows = (dump as unknown as { rows: Array<{ row: string }> }).rows.map((r) => r.row).join('\n');
    expect(rows).not.toContain(first.token);
    expect(rows).not.toContain(second.token);
    const hashed = await t.database.db.execute(
      sql`select count(*)::int as n from company_status_links where token_hash = encode(sha256(convert_to(${first.token}, 'UTF8')), 'hex')`,
    );
    expect((hashed as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(1);
  });

  it("never shows another application's data", async () => {
    const res = await api(second.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().company.companyName).toBe(second.fields.companyName);
    expect(res.body).not.toContain(first.fields.companyName);
    expect(res.json().company.licenseSent).toBe(false);
  });

  it('answers a wrong or malformed token with the same 404 words', async () => {
    const wrong = first.token.slice(0, -1) + (first.token.endsWith('A') ? 'B' : 'A');
    for (const token of [wrong, 'short', 'x'.repeat(150), '%E2%9C%93', first.token.toLowerCase() + 'z']) {
      const res = await api(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.json().error.message).toBe(APPLICATION_STATUS_TEXT.notFound);
    }
    // The page says the same, even for an address longer than any route parameter.
    for (const token of [wrong, 'x'.repeat(500)]) {
      const html = await page(token);
      expect(html.statusCode).toBe(404);
      expect(html.body).toContain(APPLICATION_STATUS_TEXT.notFound);
      expect(html.body).not.toContain(first.fields.companyName);
    }
  });

  it('follows the decisions: Approved, Not approved with the reason, On hold, and the history', async () => {
    expect((await admin.post(`/api/admin/companies/${first.id}/approve`)).statusCode).toBe(200);
    let body = (await api(first.token)).json();
    expect(body.state).toBe('approved');
    expect(body.reviewDueDate).toBeNull();
    expect(body.history.map((e: { kind: string }) => e.kind)).toEqual(['received', 'approved']);

    const reason = 'The commercial licence has expired.';
    const rejected = await admin.post(`/api/admin/companies/${second.id}/reject`, { reason });
    expect(rejected.statusCode, rejected.body).toBe(200);
    body = (await api(second.token)).json();
    expect(body.state).toBe('not-approved');
    expect(body.reviewDueDate).toBeNull();
    expect(body.history).toMatchObject([
      { kind: 'received', reason: null },
      { kind: 'rejected', reason },
    ]);

    expect((await admin.post(`/api/admin/companies/${first.id}/ban`)).statusCode).toBe(200);
    body = (await api(first.token)).json();
    expect(body.state).toBe('on-hold');
    expect(body.history.map((e: { kind: string }) => e.kind)).toEqual(['received', 'approved', 'banned']);
    expect((await admin.post(`/api/admin/companies/${first.id}/unban`)).statusCode).toBe(200);
    body = (await api(first.token)).json();
    expect(body.state).toBe('approved');
    expect(body.history.map((e: { kind: string }) => e.kind)).toEqual(['received', 'approved', 'banned', 'unbanned']);
  });

  it('serves the page as HTML without JavaScript, never cached, with no Referer to other sites, and logs no token', async () => {
    const res = await page(second.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.body).toContain('<title>Your partner application | Bagspace</title>');
    expect(res.body).toContain('Not approved');
    expect(res.body).toContain('The commercial licence has expired.');
    expect(res.body).toContain(second.fields.companyName);
    // No React in the browser: the page is whole in its HTML.
    expect(res.body).not.toContain('window.__reactRouterContext');

    const missing = await page('not-a-token');
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers['referrer-policy']).toBe('same-origin');

    const log = logLines.join('\n');
    expect(log).toContain('/partners/status/[redacted]');
    expect(log).toContain('/api/partners/status/[redacted]');
    for (const token of [first.token, second.token]) expect(log).not.toContain(token);
  });

  it('answers a pending application with its review date in words, on the page', async () => {
    const third = await apply({ remoteAddress: '203.0.113.9' });
    await t.database.db.execute(
      sql`update companies set created_at = ${nz('2026-12-04T16:00:00').toISOString()}::timestamptz, submitted_at = ${nz('2026-12-04T16:00:00').toISOString()}::timestamptz where id = ${third.id}`,
    );
    const res = await page(third.token);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Received');
    expect(res.body).toContain('We will review it by Tue 8 Dec');
  });

  it('limits token reads from one address (429 in words)', async () => {
    let last = await api(first.token, '192.0.2.44');
    for (let i = 1; i <= 60 && last.statusCode !== 429; i++) last = await api('guess', '192.0.2.44');
    expect(last.statusCode).toBe(429);
    expect(last.json().error.message).toBe(APPLICATION_STATUS_TEXT.tooMany);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('a new link by email (/partners/status)', () => {
  const LINK_SUBJECT = 'Your Bagspace partner application link';

  it('mails a new working link to the contact address of its applications; earlier links keep working', async () => {
    const applied = await apply({ remoteAddress: '203.0.113.60' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/partners/status-link',
      payload: { email: `  ${applied.fields.contactPersonEmail.toUpperCase()} ` },
      remoteAddress: '203.0.113.61',
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: APPLICATION_STATUS_TEXT.findSent });
    const mail = await waitForMail(t.dataDir, applied.fields.contactPersonEmail, LINK_SUBJECT);
    const token = linkIn(mail, `${BASE}/partners/status/`).slice(`${BASE}/partners/status/`.length);
    expect(token).not.toBe(applied.token);
    expect((await api(token)).json().company.companyName).toBe(applied.fields.companyName);
    expect((await api(applied.token)).statusCode).toBe(200);
  });

  it('answers an address no application uses the same way, and sends nothing', async () => {
    const nobody = `nobody.${Date.now()}@example.co.nz`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/partners/status-link',
      payload: { email: nobody },
      remoteAddress: '203.0.113.62',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: APPLICATION_STATUS_TEXT.findSent });
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/partners/status-link',
      payload: { email: 'not an address' },
      remoteAddress: '203.0.113.62',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields.email).toBe(APPLICATION_STATUS_TEXT.emailInvalid);
    await t.app.mailWorker.runOnce();
    const sent = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(nobody));
    expect(sent).toEqual([]);
  });

  it('is a plain form without JavaScript, and a wrong link points to it', async () => {
    const applied = await apply({ remoteAddress: '203.0.113.63' });
    const form = await t.app.inject({ method: 'GET', url: '/partners/status', headers: { accept: 'text/html' } });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(APPLICATION_STATUS_TEXT.findIntro);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/partners/status',
      payload: new URLSearchParams({ email: applied.fields.contactPersonEmail }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      remoteAddress: '203.0.113.64',
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/partners/status?sent=1');
    await waitForMail(t.dataDir, applied.fields.contactPersonEmail, LINK_SUBJECT);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/partners/status',
      payload: 'email=nope',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(APPLICATION_STATUS_TEXT.emailInvalid);
    const wrong = await page('A'.repeat(43));
    expect(wrong.body).toContain('href="/partners/status"');
  });
});
