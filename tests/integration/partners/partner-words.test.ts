// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NZBN_TEXT } from '../../../src/contracts/companies.ts';
import { linkIn, waitForMail } from '../../helpers/mail.ts';
import { pngOf, register, validCompany } from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The partner form keeps its words: one spelling of licence wherever an applicant
 * or an admin reads it, one status badge, 'NZBN check: not checked' explained, and an approval mail
 * that states the licence's expiry and links to the status page (no account needed).
 */

const BASE = 'http://words.test';
let t: TestApp;
let admin: SupportUser;

beforeAll(async () => {
  t = await createTestApp({
    web: true,
    env: { PUBLIC_BASE_URL: BASE, REGISTRATIONS_PER_IP_PER_HOUR: '1000', PARTNER_STATUS_READS_PER_MIN: '1000' },
  });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

const apply = async (extra: Record<string, string> = {}) => {
  const fields = { ...validCompany(), ...extra };
  const res = await register(t, fields, { bytes: pngOf(2048), name: 'licence.png', type: 'image/png' });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, fields, statusPath: res.json().statusPath as string };
};

/** What a person reads on a page: its text, and the words of its title and description. */
const readable = (html: string) =>
  [
    ...html.matchAll(
      /<(?:title)>([^<]*)<\/title>|<meta name="description" content="([^"]*)"|alt="([^"]*)"|title="([^"]*)"/g,
    ),
  ]
    .flatMap((m) => m.slice(1).filter(Boolean))
    .concat(
      html
        .replace(/<script[\s\S]*?<\/script>/g, ' ')
        .replace(/<style[\s\S]*?<\/style>/g, ' ')
        .replace(/<[^>]+>/g, ' '),
    )
    .join(' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const html = async (url: string, as?: SupportUser) => {
  const res = as ? await as.get(url) : await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  expect(res.statusCode, url).toBe(200);
  return res.body;
};

describe('one spelling: licence', () => {
  it('on /register, the status page, the admin’s pages and the API’s messages', async () => {
    const { id, statusPath } = await apply();
    const pages = [
      await html('/register'),
      await html('/register?submitted=1'),
      await html(statusPath),
      await html(`/admin/partners/${id}`, admin),
      await html('/admin/partners', admin),
    ];
    for (const page of pages) expect(readable(page)).not.toMatch(/licen[sS]e/i);
    const missing = await admin.get(`/api/admin/companies/${(await apply()).id}/renewal-license`);
    expect(missing.json().error.message).not.toMatch(/license/i);
    const none = await admin.get('/api/admin/companies/3b2f9d4e-8c1a-4e5b-9f7d-2a6c8e0b1d34/license');
    expect(none.json().error.message).toBe('This company has no commercial licence on file.');
  });
});

describe('the admin’s application page', () => {
  const badges = (page: string) =>
    [...(/<p class="admin-badges">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '').matchAll(/class="badge[^"]*">([^<]*)</g)].map(
      (m) => m[1],
    );

  it('shows one status badge, the status the list files it under', async () => {
    const pending = await apply();
    // Opening it puts it in review: one badge says so, not 'Pending' beside 'In review'.
    await admin.get(`/api/admin/companies/${pending.id}`);
    expect(badges(await html(`/admin/partners/${pending.id}`, admin))).toEqual(['In review']);

    const banned = await apply();
    expect(
      (await admin.post(`/api/admin/companies/${banned.id}/approve`, { licenseExpiresOn: 'never' })).statusCode,
    ).toBe(200);
    expect((await admin.post(`/api/admin/companies/${banned.id}/ban`)).statusCode).toBe(200);
    expect(badges(await html(`/admin/partners/${banned.id}`, admin))).toEqual(['Banned']);
  });

  it('explains why the NZBN is not checked', async () => {
    const withNzbn = await apply({ nzbn: '9429046393920' });
    const given = readable(await html(`/admin/partners/${withNzbn.id}`, admin));
    expect(given).toContain(`${NZBN_TEXT.checkLabel} ${NZBN_TEXT.notCheckedNoKey}`);
    expect(NZBN_TEXT.notCheckedNoKey).toBe(
      'Not checked: this site does not look numbers up in the NZBN register (NZBN_API_KEY is not set). Check it yourself at nzbn.govt.nz.',
    );
    const without = readable(await html(`/admin/partners/${(await apply()).id}`, admin));
    expect(without).toContain(`${NZBN_TEXT.checkLabel} Not checked: no NZBN was given.`);
  });
});

describe('the approval mail', () => {
  it('states the licence’s expiry and links to the status page, not to a page that needs an account', async () => {
    const { id, fields } = await apply();
    expect(
      (await admin.post(`/api/admin/companies/${id}/approve`, { licenseExpiresOn: '2099-12-01' })).statusCode,
    ).toBe(200);
    const mail = await waitForMail(
      t.dataDir,
      fields.contactPersonEmail,
      'Your Bagspace partner application is approved',
    );
    expect(mail.text).toContain('The commercial licence we hold for you expires on Tue 1 Dec 2099');
    expect(mail.text).not.toContain(`${BASE}/support`);
    expect(mail.text).not.toMatch(/license/i);
    const link = linkIn(mail, `${BASE}/partners/status/`);
    const status = await t.app.inject({ method: 'GET', url: `/api/partners/status/${link.split('/').at(-1)}` });
    expect(status.statusCode).toBe(200);
    expect(status.json().state).toBe('approved');
  });

  it('says when the licence does not expire', async () => {
    const { id, fields } = await apply();
    expect((await admin.post(`/api/admin/companies/${id}/approve`, { licenseExpiresOn: 'never' })).statusCode).toBe(
      200,
    );
    const mail = await waitForMail(
      t.dataDir,
      fields.contactPersonEmail,
      'Your Bagspace partner application is approved',
    );
    expect(mail.text).toContain('The commercial licence we hold for you does not expire');
    expect(linkIn(mail, `${BASE}/partners/status/`)).toBeTruthy();
  });
});
