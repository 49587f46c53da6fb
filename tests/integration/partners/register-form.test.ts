// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES, REGISTERED_TEXT } from '../../../src/contracts/companies.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import {
  companiesNamed,
  encodeForm,
  pngOf,
  storedFiles,
  type UploadFile,
  validCompany,
} from '../../helpers/registration.ts';

/**
 * The register form sent the way a browser sends it without JavaScript: multipart, to /register
 * itself, the file part present even when no file was chosen. The page's action hands it on to
 * /api/companies and answers with the page.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '4' } });
});
afterAll(() => t.close());

/** What a browser sends for "no file chosen". */
const NO_FILE: UploadFile = { bytes: new Uint8Array(), name: '', type: 'application/octet-stream' };

let visitor = 0;
/** Each post from its own address unless one is given: only the rate-limit test shares one. */
async function post(
  fields: Partial<Record<string, string>>,
  file: UploadFile = NO_FILE,
  ip = `198.51.100.${++visitor}`,
) {
  const form = await encodeForm(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/register',
    payload: form.payload,
    remoteAddress: ip,
    headers: { ...form.headers, accept: 'text/html', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
  });
}

const escaped = (text: string) => text.replaceAll("'", '&#x27;');

describe('partner registration without JavaScript (POST /register)', () => {
  it('registers the company with its licence and redirects to the page, which says so', async () => {
    const company = validCompany();
    const before = storedFiles(t).length;
    const res = await post(company, { bytes: pngOf(300_000), name: 'licence.png', type: 'image/png' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    expect(res.headers.location).toBe('/register?submitted=1');
    const [row] = await companiesNamed(t, company.companyName);
    expect(row?.contactPersonEmail).toBe(company.contactPersonEmail);
    expect(row?.commercialLicenseKey).toBeTruthy();
    expect(storedFiles(t).length).toBe(before + 1);

    const page = await t.app.inject({ method: 'GET', url: '/register?submitted=1', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(new RegExp(`role="status"[^>]*><div><p>${COMPANY_MESSAGES.submitted}</p>`));
  });

  it('after it, the page says what happens next with the private status link, for that browser only', async () => {
    // No contact email: the page is the only place the link is given.
    const company = { ...validCompany(), contactPersonEmail: '' };
    const res = await post(company);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/register?submitted=1');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^partner_status=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/register; HttpOnly; SameSite=Lax$/);
    const pair = cookie.split(';')[0]!;
    const get = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/register?submitted=1', headers: { accept: 'text/html', ...headers } });

    // A visitor without the cookie first (the page may not be kept for the next one), then the applicant.
    const other = await get();
    expect(other.body).toContain(COMPANY_MESSAGES.submitted);
    expect(other.body).not.toContain('/partners/status/');
    const page = await get({ cookie: pair });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(COMPANY_MESSAGES.submitted);
    expect(page.body).toContain(escaped(REGISTERED_TEXT.heading));
    for (const line of REGISTERED_TEXT.steps) expect(page.body).toContain(escaped(line));
    const link = new RegExp(
      `<a href="(/partners/status/[A-Za-z0-9_-]{43})"[^>]*>${REGISTERED_TEXT.statusLink}</a>`,
    ).exec(page.body);
    expect(link, 'the status link').not.toBeNull();
    expect(page.headers['cache-control']).toBe('no-store');
    const status = await t.app.inject({ method: 'GET', url: link![1]!, headers: { accept: 'text/html' } });
    expect(status.statusCode).toBe(200);
    expect(status.body).toContain(escaped(company.companyName));
  });

  it('takes an application without a licence (the empty file part a browser sends)', async () => {
    const company = validCompany();
    const res = await post(company);
    expect(res.statusCode, res.body.match(/field__error[^<]*<|alert[\s\S]{0,300}/g)?.join('\n')).toBe(303);
    expect((await companiesNamed(t, company.companyName))[0]?.commercialLicenseKey).toBeNull();
  });

  it('answers invalid fields with the page: the messages under the fields, the text kept, nothing saved', async () => {
    const company = { ...validCompany(), companyName: 'Ki', phoneNumber: '12ab', contactPersonEmail: 'not-an-email' };
    const res = await post(company);
    expect(res.statusCode).toBe(400);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(res.body).toContain(
      `<p class="field__error" id="register-companyName-error">${COMPANY_MESSAGES.companyNameTooShort}</p>`,
    );
    expect(res.body).toContain(
      `<p class="field__error" id="register-phoneNumber-error">${COMPANY_MESSAGES.phoneDigits}</p>`,
    );
    expect(res.body).toContain(
      `<p class="field__error" id="register-contactPersonEmail-error">${COMPANY_MESSAGES.emailInvalid}</p>`,
    );
    expect(res.body).toMatch(/id="register-companyName"[^>]*aria-invalid="true"/);
    expect(res.body).toContain(`value="${company.address}"`);
    expect(res.body).toContain('value="not-an-email"');
    expect(res.body).toContain(COMPANY_MESSAGES.submitFailed);
    expect(await companiesNamed(t, 'Ki')).toEqual([]);
  });

  it('takes a PDF licence (decision 130), whatever its name says', async () => {
    const company = validCompany();
    const res = await post(company, {
      bytes: Buffer.from('%PDF-1.7\n%%EOF\n'),
      name: 'licence.png',
      type: 'image/png',
    });
    expect(res.statusCode).toBe(303);
    expect(await companiesNamed(t, company.companyName)).toHaveLength(1);
  });

  it('answers a licence that is not a JPG, PNG or PDF under the licence field, asking for the file again', async () => {
    const company = validCompany();
    const res = await post(company, {
      bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      name: 'licence.pdf',
      type: 'application/pdf',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(
      `<p class="field__error" id="register-commercialLicense-error">${COMPANY_MESSAGES.fileUnsupported}</p>`,
    );
    expect(res.body).toContain('Please choose the file again.');
    expect(res.body).toContain(`value="${company.companyName}"`);
    expect(await companiesNamed(t, company.companyName)).toEqual([]);
  });

  it('answers a duplicate under its field only, as the script does', async () => {
    const first = validCompany();
    expect((await post(first)).statusCode).toBe(303);
    const again = { ...validCompany(), companyName: first.companyName };
    const res = await post(again);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(
      `<p class="field__error" id="register-companyName-error">${COMPANY_MESSAGES.duplicateName}</p>`,
    );
    expect(res.body).not.toContain(COMPANY_MESSAGES.submitFailed);
  });

  it('says the spec’s failure message and the reason when a network sends too many', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 4; i++) expect((await post(validCompany(), NO_FILE, ip)).statusCode).toBe(303);
    const res = await post(validCompany(), NO_FILE, ip);
    expect(res.statusCode).toBe(429);
    expect(res.body).toContain(COMPANY_MESSAGES.submitFailed);
    expect(res.body).toContain(escaped(COMPANY_MESSAGES.tooManyRegistrations));
  });

  it('refuses a body larger than a licence and its fields with a page, not JSON', async () => {
    const form = await encodeForm(validCompany(), {
      bytes: pngOf(12 * 1024 * 1024),
      name: 'big.png',
      type: 'image/png',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: form.payload,
      headers: { ...form.headers, accept: 'text/html', 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode).toBe(413);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(res.body).toContain('This form is too large.');
  });

  it('answers a licence just over 10 MB under its field (the endpoint’s limit, reached while streaming)', async () => {
    const company = validCompany();
    const res = await post(company, { bytes: pngOf(10_485_761), name: 'big.png', type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(
      `<p class="field__error" id="register-commercialLicense-error">${COMPANY_MESSAGES.fileTooLarge}</p>`,
    );
    expect(await companiesNamed(t, company.companyName)).toEqual([]);
  });

  it('refuses a form from another site', async () => {
    const form = await encodeForm(validCompany());
    const res = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: form.payload,
      headers: { ...form.headers, accept: 'text/html', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
    expect(String(res.headers['content-type'])).toContain('text/html');
  });
});
