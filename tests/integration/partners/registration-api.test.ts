import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { companies } from '../../../src/server/db/schema.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import {
  companiesNamed,
  encodeForm,
  GIF,
  jpegOf,
  PDF,
  pngOf,
  register,
  storedFiles,
  validCompany,
} from '../../helpers/registration.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
});
afterAll(() => t.close());

const countCompanies = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0]!.n;

describe('POST /api/companies: a valid application', () => {
  it('is stored exactly as the spec’s company record, with the licence under commercialLicenses/{id}.png', async () => {
    const input = validCompany();
    const licence = pngOf(4096);
    const before = Date.now();
    const res = await register(t, input, { bytes: licence, name: 'My Licence (scan).PNG', type: 'image/png' });
    expect(res.statusCode).toBe(201);
    const { id, company } = res.json();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(company).toEqual({
      id,
      companyName: input.companyName,
      nzbn: null,
      street: input.street,
      address: input.address,
      phoneNumber: input.phoneNumber,
      contactPersonName: 'Aroha Ngāta',
      contactPersonJobTitle: input.contactPersonJobTitle,
      contactPersonPhoneNumber: input.contactPersonPhoneNumber,
      contactPersonEmail: input.contactPersonEmail,
      commercialLicenseUrl: `/api/admin/companies/${id}/license`,
      verified: 0,
      isBanned: false,
      isEmailSend: false,
      lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Date.parse(company.lastUpdated)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(company.lastUpdated)).toBeLessThanOrEqual(Date.now() + 1000);

    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, id));
    expect(row).toMatchObject({
      verified: 0,
      isBanned: false,
      isEmailSend: false,
      street: input.street,
      address: input.address,
    });
    expect(row!.commercialLicenseKey).toBe(`commercialLicenses/${id}.png`);
    const stored = path.join(t.dataDir, 'files', 'commercialLicenses', `${id}.png`);
    expect(fs.readFileSync(stored).equals(licence)).toBe(true);
    expect(storedFiles(t)).toContain(`commercialLicenses/${id}.png`);
  });

  it('answers with the private status page of the application, also when no email was given', async () => {
    const input = { ...validCompany(), contactPersonEmail: '' };
    const res = await register(t, input);
    expect(res.statusCode).toBe(201);
    const { statusPath } = res.json();
    expect(statusPath).toMatch(/^\/partners\/status\/[A-Za-z0-9_-]{43}$/);
    expect(String(res.headers['set-cookie'])).toBe(
      `partner_status=${statusPath.split('/').at(-1)}; Max-Age=3600; Path=/register; HttpOnly; SameSite=Lax`,
    );
    const status = await t.app.inject({ method: 'GET', url: `/api${statusPath}` });
    expect(status.statusCode).toBe(200);
    expect(status.json().company.companyName).toBe(input.companyName);
  });

  it('never shows internal columns (normalised keys, storage key, review notes)', async () => {
    const res = await register(t, validCompany());
    expect(res.statusCode).toBe(201);
    const text = res.body;
    for (const internal of [
      'nameKey',
      'name_key',
      'phoneKey',
      'emailKey',
      'commercialLicenseKey',
      'rejectionReason',
      'createdAt',
    ]) {
      expect(text).not.toContain(internal);
    }
  });

  it('stores empty optional fields as null, trims values, and needs no licence', async () => {
    const input = validCompany();
    const res = await register(t, {
      companyName: `  ${input.companyName}  `,
      phoneNumber: ` ${input.phoneNumber} `,
      address: input.address,
      street: '',
      contactPersonName: '   ',
      contactPersonJobTitle: '',
      contactPersonPhoneNumber: '',
      contactPersonEmail: '',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().company).toMatchObject({
      companyName: input.companyName,
      phoneNumber: input.phoneNumber,
      street: null,
      contactPersonName: null,
      contactPersonJobTitle: null,
      contactPersonPhoneNumber: null,
      contactPersonEmail: null,
      commercialLicenseUrl: null,
    });
  });

  it('accepts the fields sent alone (optional ones absent altogether)', async () => {
    const { companyName, phoneNumber, address } = validCompany();
    const res = await register(t, { companyName, phoneNumber, address });
    expect(res.statusCode).toBe(201);
    expect(res.json().company.contactPersonEmail).toBeNull();
  });
});

describe('POST /api/companies refuses what the form would have caught, with the spec’s messages', () => {
  const cases: Array<[string, string | undefined, string]> = [
    ['companyName', undefined, 'Company name is required'],
    ['companyName', '', 'Company name is required'],
    ['companyName', '   ', 'Company name is required'],
    ['companyName', 'AB', 'Company name must be at least 3 characters'],
    ['companyName', 'x'.repeat(121), 'Company name must be at most 120 characters'],
    ['address', undefined, 'Address 1 is required'],
    ['address', '', 'Address 1 is required'],
    ['address', '12 Q', 'Address 1 must be at least 5 characters'],
    ['phoneNumber', undefined, 'Phone number is required'],
    ['phoneNumber', '', 'Phone number is required'],
    ['phoneNumber', '123456', 'Phone number must be between 7 and 14 digits'],
    ['phoneNumber', '123456789012345', 'Phone number must be between 7 and 14 digits'],
    ['phoneNumber', '021 123 456789 012', 'Phone number must be between 7 and 14 digits'],
    ['phoneNumber', '021.123.4567', 'Phone number must be between 7 and 14 digits'],
    ['phoneNumber', '(021) 123 4567', 'Phone number must be between 7 and 14 digits'],
    ['phoneNumber', '+61 2 1234 5678', 'Phone number must be between 7 and 14 digits'],
    ['phoneNumber', ' - ', 'Phone number is required'],
    ['contactPersonName', 'Aroha 2', 'Contact person name must only contain alphabetic characters'],
    ['contactPersonName', "O'Brien", 'Contact person name must only contain alphabetic characters'],
    ['contactPersonName', 'Al', 'Contact person name must be at least 3 characters'],
    ['contactPersonJobTitle', 'CEO & Founder', 'Job title must only contain alphabetic characters'],
    ['contactPersonJobTitle', 'PA', 'Job title must be at least 3 characters'],
    ['contactPersonPhoneNumber', '12345', 'Phone number must be between 7 and 14 digits'],
    ['contactPersonPhoneNumber', '02x1234567', 'Phone number must be between 7 and 14 digits'],
    ['contactPersonEmail', 'not-an-email', 'Invalid email format'],
    ['contactPersonEmail', 'aroha@', 'Invalid email format'],
    ['contactPersonEmail', `${'a'.repeat(250)}@example.nz`, 'Invalid email format'],
  ];

  it.each(cases)('%s = %j → "%s" under the field, nothing stored', async (field, value, message) => {
    const before = await countCompanies();
    const input = { ...validCompany(), [field]: value };
    const res = await register(t, input, { bytes: pngOf(2048), name: 'licence.png', type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { status: 'INVALID_ARGUMENT', message: COMPANY_MESSAGES.invalidForm, fields: { [field]: message } },
    });
    expect(await countCompanies()).toBe(before);
  });

  it('reports every broken field at once', async () => {
    const res = await register(t, { companyName: 'AB', phoneNumber: '12', address: '', contactPersonEmail: 'x@' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      companyName: 'Company name must be at least 3 characters',
      phoneNumber: 'Phone number must be between 7 and 14 digits',
      address: 'Address 1 is required',
      contactPersonEmail: 'Invalid email format',
    });
  });

  it('validates adversarial long inputs quickly (no ReDoS) and refuses them', async () => {
    const started = Date.now();
    const res = await register(t, {
      ...validCompany(),
      contactPersonEmail: `${'a.'.repeat(4000)}@${'b-'.repeat(800)}`,
      contactPersonName: `${'a '.repeat(49)}1`,
    });
    expect(res.statusCode).toBe(400);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.json().error.fields).toMatchObject({ contactPersonEmail: 'Invalid email format' });
  });
});

describe('phone numbers as people write them', () => {
  it('removes spaces, dashes and a leading +64 (written as the national 0) before the rules, on both numbers', async () => {
    const tag = String(Date.now()).slice(-7);
    const res = await register(t, {
      ...validCompany(),
      phoneNumber: `+64 21-${tag.slice(0, 3)} ${tag.slice(3)}`,
      contactPersonPhoneNumber: ` 027 - ${tag} `,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().company.phoneNumber).toBe(`021${tag}`);
    expect(res.json().company.contactPersonPhoneNumber).toBe(`027${tag}`);
    // The number written the other way is the same number: a duplicate.
    const again = await register(t, { ...validCompany(), phoneNumber: `021 ${tag}` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.fields).toEqual({ phoneNumber: COMPANY_MESSAGES.duplicatePhone });
  });
});

describe('POST /api/companies: the request itself', () => {
  it('refuses unknown, repeated or path-like fields and stores nothing (UP-09)', async () => {
    const before = await countCompanies();
    const filesBefore = storedFiles(t);
    for (const extra of [
      [['id', '00000000-0000-4000-8000-000000000000']],
      [['commercialLicenseKey', 'commercialLicenses/victim.png']],
      [['verified', '1']],
      [['companyName', 'Second Name Ltd']],
    ] as Array<Array<[string, string]>>) {
      const res = await register(
        t,
        validCompany(),
        { bytes: pngOf(1024), name: 'a.png', type: 'image/png' },
        { extra },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toHaveProperty(extra[0]![0]);
    }
    expect(await countCompanies()).toBe(before);
    expect(storedFiles(t)).toEqual(filesBefore);
  });

  it('refuses a second file, a file under another name, and too many fields, storing nothing', async () => {
    const filesBefore = storedFiles(t);
    const png = { bytes: pngOf(1024), name: 'a.png', type: 'image/png' };
    const twoFiles = await register(t, validCompany(), png, { extra: [['commercialLicense', png]] });
    expect(twoFiles.statusCode).toBe(400);
    expect(twoFiles.json().error).toEqual({ status: 'INVALID_ARGUMENT', message: COMPANY_MESSAGES.tooManyParts });

    const otherName = await register(t, validCompany(), undefined, { extra: [['avatar', png]] });
    expect(otherName.statusCode).toBe(400);
    expect(otherName.json().error.fields).toEqual({ avatar: COMPANY_MESSAGES.unexpectedField });

    const manyFields = Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x'] as [string, string]);
    const tooMany = await register(t, validCompany(), undefined, { extra: manyFields });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.status).toBe('INVALID_ARGUMENT');
    expect(storedFiles(t)).toEqual(filesBefore);
  });

  it('refuses a field value over the 10 kB field limit', async () => {
    const res = await register(t, { ...validCompany(), street: 'x'.repeat(11 * 1024) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ street: COMPANY_MESSAGES.fieldTooLong });
  });

  it('answers JSON and malformed multipart bodies with 400 in the error shape', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/companies', payload: validCompany() });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toEqual({ status: 'INVALID_ARGUMENT', message: COMPANY_MESSAGES.notMultipart });

    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      payload: '--XYZ\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nHarbour',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toEqual({ status: 'INVALID_ARGUMENT', message: COMPANY_MESSAGES.unreadableForm });
  });

  it('answers a body cut off in the middle of the licence with 400, leaving no file', async () => {
    const filesBefore = storedFiles(t);
    const { payload, headers } = await encodeForm(validCompany(), {
      bytes: pngOf(300_000),
      name: 'a.png',
      type: 'image/png',
    });
    for (const cut of [payload.length - 100, payload.length - 200_000]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/companies',
        headers,
        payload: payload.subarray(0, cut),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({ status: 'INVALID_ARGUMENT', message: COMPANY_MESSAGES.unreadableForm });
    }
    expect(storedFiles(t)).toEqual(filesBefore);
  });

  it('refuses a field named like an object property (prototype pollution)', async () => {
    const res = await register(t, validCompany(), undefined, { extra: [['__proto__', '{"isAdmin":true}']] });
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const operation = doc.paths['/api/companies'].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '429']));
    expect(operation.description).toContain('commercialLicense');
    expect(doc.paths['/api/admin/companies/{companyId}/license'].get).toBeDefined();
  });

  it('is refused when the browser says it comes from another site', async () => {
    const input = validCompany();
    const res = await register(t, input, undefined, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.statusCode).toBe(403);
    expect(await companiesNamed(t, input.companyName)).toEqual([]);
  });
});

describe('the commercial licence file', () => {
  const exactly10MiB = 10 * 1024 * 1024;

  it(`accepts exactly ${exactly10MiB} bytes, streamed, and stores every byte`, async () => {
    const bytes = pngOf(exactly10MiB);
    const res = await register(
      t,
      validCompany(),
      { bytes, name: 'big.png', type: 'image/png' },
      { chunkSize: 64 * 1024 },
    );
    expect(res.statusCode).toBe(201);
    const file = path.join(t.dataDir, 'files', 'commercialLicenses', `${res.json().id}.png`);
    expect(fs.statSync(file).size).toBe(exactly10MiB);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it.each([
    ['in one piece', undefined],
    ['streamed in 64 KiB chunks', 64 * 1024],
  ])(
    'refuses one byte more (%s) with "File size should be less than 10MB" and leaves no partial file',
    async (_how, chunkSize) => {
      const filesBefore = storedFiles(t);
      const input = validCompany();
      const res = await register(
        t,
        input,
        { bytes: pngOf(exactly10MiB + 1), name: 'big.png', type: 'image/png' },
        { chunkSize },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ commercialLicense: 'File size should be less than 10MB' });
      expect(storedFiles(t)).toEqual(filesBefore);
      expect(await companiesNamed(t, input.companyName)).toEqual([]);
    },
  );

  it('decides the type from the bytes: a PDF renamed .png is stored as the PDF it is (decision 130)', async () => {
    const res = await register(t, validCompany(), { bytes: PDF, name: 'licence.png', type: 'image/png' });
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    expect(storedFiles(t)).toContain(`commercialLicenses/${id}.pdf`);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', 'commercialLicenses', `${id}.pdf`)).equals(PDF)).toBe(true);
  });

  it('refuses a file that only claims to be a PDF, with the accepted types in the message', async () => {
    const filesBefore = storedFiles(t);
    const res = await register(t, validCompany(), {
      bytes: Buffer.from('<html>%PDF-1.7</html>'),
      name: 'licence.pdf',
      type: 'application/pdf',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
    expect(COMPANY_MESSAGES.fileUnsupported).toBe('Unsupported File Format. Please choose a JPG, PNG or PDF file.');
    expect(storedFiles(t)).toEqual(filesBefore);
  });

  it.each([
    ['a GIF named .jpg', GIF, 'licence.jpg', 'image/jpeg'],
    ['an HTML page named .png', Buffer.from('<!doctype html><script>alert(1)</script>'), 'x.png', 'image/png'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'x.svg', 'image/svg+xml'],
    ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
    ['a file too short to be an image', Buffer.from([0xff, 0xd8, 0xff]), 'tiny.jpg', 'image/jpeg'],
  ])('refuses %s', async (_label, bytes, name, type) => {
    const res = await register(t, validCompany(), { bytes, name, type });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
  });

  it('stores a JPEG as .jpg and a PNG as .png whatever the name or declared type says, ignoring the client name', async () => {
    const jpeg = await register(t, validCompany(), {
      bytes: jpegOf(3000),
      name: '../../../etc/passwd.png',
      type: 'application/pdf',
    });
    expect(jpeg.statusCode).toBe(201);
    const png = await register(t, validCompany(), { bytes: pngOf(3000), name: 'x.php%00.jpg', type: 'image/jpeg' });
    expect(png.statusCode).toBe(201);
    const files = storedFiles(t);
    expect(files).toContain(`commercialLicenses/${jpeg.json().id}.jpg`);
    expect(files).toContain(`commercialLicenses/${png.json().id}.png`);
    expect(files.every((f) => /^commercialLicenses\/[0-9a-f-]{36}\.(jpg|png|pdf)$/.test(f))).toBe(true);
  });

  it('leaves no file behind when the registration is refused for its fields or as a duplicate', async () => {
    const first = validCompany();
    expect((await register(t, first)).statusCode).toBe(201);
    const filesBefore = storedFiles(t);
    const licence = { bytes: pngOf(50_000), name: 'licence.png', type: 'image/png' };

    const invalid = await register(t, { ...validCompany(), address: 'x' }, licence);
    expect(invalid.statusCode).toBe(400);
    const duplicate = await register(t, { ...validCompany(), companyName: first.companyName }, licence);
    expect(duplicate.statusCode).toBe(409);
    expect(storedFiles(t)).toEqual(filesBefore);
  });
});

describe('duplicates, checked in the spec’s order and ignoring rejected companies', () => {
  it('email first (only if given), then company name, then phone number', async () => {
    const existing = validCompany();
    expect((await register(t, existing)).statusCode).toBe(201);
    const other = validCompany();
    const attempt = async (fields: Record<string, string>) => {
      const res = await register(t, fields);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.status).toBe('ALREADY_EXISTS');
      return res.json().error.fields;
    };

    expect(await attempt({ ...existing })).toEqual({ contactPersonEmail: COMPANY_MESSAGES.duplicateEmail });
    expect(await attempt({ ...existing, contactPersonEmail: other.contactPersonEmail })).toEqual({
      companyName: COMPANY_MESSAGES.duplicateName,
    });
    expect(await attempt({ ...existing, contactPersonEmail: '' })).toEqual({
      companyName: COMPANY_MESSAGES.duplicateName,
    });
    expect(await attempt({ ...other, phoneNumber: existing.phoneNumber })).toEqual({
      phoneNumber: COMPANY_MESSAGES.duplicatePhone,
    });
    expect(await attempt({ ...other, contactPersonEmail: existing.contactPersonEmail })).toEqual({
      contactPersonEmail: COMPANY_MESSAGES.duplicateEmail,
    });
    expect(await companiesNamed(t, existing.companyName)).toHaveLength(1);
  });

  it('treats case, spacing, full-width letters and the phone’s national or international form as the same', async () => {
    const existing = validCompany();
    expect((await register(t, existing)).statusCode).toBe(201);
    const other = validCompany();
    const spaced = `  ${existing.companyName.toUpperCase().replace(' ', '   ')} `;
    const fullWidth = existing.companyName.replace('H', 'Ｈ');
    const international = `64${existing.phoneNumber.slice(1)}`;
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...other, contactPersonEmail: ` ${existing.contactPersonEmail.toUpperCase()} ` }, 'contactPersonEmail'],
      [{ ...other, companyName: spaced }, 'companyName'],
      [{ ...other, companyName: fullWidth }, 'companyName'],
      [{ ...other, phoneNumber: international }, 'phoneNumber'],
      [{ ...other, phoneNumber: `00${international}` }, 'phoneNumber'],
    ];
    for (const [fields, field] of cases) {
      const res = await register(t, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(409);
      expect(Object.keys(res.json().error.fields)).toEqual([field]);
    }
  });

  it('accepts an exact copy of a rejected (verified = 2) company', async () => {
    const rejected = validCompany();
    const first = await register(t, rejected);
    await t.database.db.update(companies).set({ verified: 2 }).where(eq(companies.id, first.json().id));
    const again = await register(t, rejected);
    expect(again.statusCode).toBe(201);
    expect(await companiesNamed(t, rejected.companyName)).toHaveLength(2);
    // …and the new application now holds the keys again.
    expect((await register(t, rejected)).statusCode).toBe(409);
  });
});

describe('GET /api/admin/companies/{id}/license', () => {
  it('refuses anonymous callers with 401, and the storage path is no API path', async () => {
    const res = await register(t, validCompany(), { bytes: pngOf(1000), name: 'a.png', type: 'image/png' });
    const { id } = res.json();
    const download = await t.app.inject({ method: 'GET', url: `/api/admin/companies/${id}/license` });
    expect(download.statusCode).toBe(401);
    expect(download.json().error.status).toBe('UNAUTHENTICATED');
    expect(download.body).not.toContain('PNG');
    for (const url of [`/api/commercialLicenses/${id}.png`, `/api/files/commercialLicenses/${id}.png`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});
