import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { companies } from '../../../src/server/db/schema.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { encodeForm, register, validCompany } from '../../helpers/registration.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The optional NZBN on a partner application (docs/product.md §2, docs/decisions/110-nzbn.md): checked
 * like the form checks it, stored without spaces, shown in the record, and unique among live applications.
 */
let t: TestApp;
let admin: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
  admin = await apiClient(t);
});
afterAll(() => t.close());

/** A fresh number with the GS1 check digit worked out here (weights 1, 3, 1, 3, … from the left). */
function newNzbn(): string {
  const body = `9429${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const spaced = (nzbn: string) => `${nzbn.slice(0, 4)} ${nzbn.slice(4, 8)} ${nzbn.slice(8, 12)} ${nzbn.slice(12)}`;

async function registered(fields: Record<string, string>) {
  const res = await register(t, fields);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; company: Record<string, unknown> };
}

describe('POST /api/companies with an NZBN', () => {
  it('stores a valid number without the spaces it was typed with, and the record shows it', async () => {
    const nzbn = newNzbn();
    const { id, company } = await registered({ ...validCompany(), nzbn: spaced(nzbn) });
    expect(company.nzbn).toBe(nzbn);
    const [row] = await t.database.db.select({ nzbn: companies.nzbn }).from(companies).where(eq(companies.id, id));
    expect(row!.nzbn).toBe(nzbn);
    const read = await admin.get(`/api/admin/companies/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().company.nzbn).toBe(nzbn);
  });

  it('accepts the real numbers the check was written from', async () => {
    for (const nzbn of ['9429046393920', '9429050294954', '9429033362823']) {
      expect((await registered({ ...validCompany(), nzbn })).company.nzbn).toBe(nzbn);
    }
  });

  it('refuses a wrong number with 400 and the message under the field, storing nothing', async () => {
    for (const [wrong, message] of [
      ['9429034581661', COMPANY_MESSAGES.nzbnCheckDigit],
      ['942904639392', COMPANY_MESSAGES.nzbnInvalid],
      ['94290463939200', COMPANY_MESSAGES.nzbnInvalid],
      ['4006381333931', COMPANY_MESSAGES.nzbnInvalid],
      ['94290463939a0', COMPANY_MESSAGES.nzbnInvalid],
    ]) {
      const company = { ...validCompany(), nzbn: wrong };
      const res = await register(t, company);
      expect(res.statusCode, wrong).toBe(400);
      expect(res.json().error.fields).toEqual({ nzbn: message });
      const rows = await t.database.db
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.companyName, company.companyName));
      expect(rows).toEqual([]);
    }
  });

  it('works as before without one: absent, empty or blank is null', async () => {
    expect((await registered(validCompany())).company.nzbn).toBeNull();
    expect((await registered({ ...validCompany(), nzbn: '' })).company.nzbn).toBeNull();
    expect((await registered({ ...validCompany(), nzbn: '   ' })).company.nzbn).toBeNull();
  });
});

describe('one NZBN per live application', () => {
  it('refuses the same number on a second live application with 409 under the field', async () => {
    const nzbn = newNzbn();
    await registered({ ...validCompany(), nzbn });
    const res = await register(t, { ...validCompany(), nzbn: spaced(nzbn) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.status).toBe('ALREADY_EXISTS');
    expect(res.json().error.fields).toEqual({ nzbn: COMPANY_MESSAGES.duplicateNzbn });
  });

  it('is checked after the spec’s three: email, then company name, then phone number, then NZBN', async () => {
    const existing = { ...validCompany(), nzbn: newNzbn() };
    await registered(existing);
    const other = validCompany();
    const attempt = async (fields: Record<string, string>) => {
      const res = await register(t, fields);
      expect(res.statusCode).toBe(409);
      return res.json().error.fields;
    };
    expect(await attempt({ ...existing })).toEqual({ contactPersonEmail: COMPANY_MESSAGES.duplicateEmail });
    expect(await attempt({ ...existing, contactPersonEmail: other.contactPersonEmail })).toEqual({
      companyName: COMPANY_MESSAGES.duplicateName,
    });
    expect(await attempt({ ...other, phoneNumber: existing.phoneNumber, nzbn: existing.nzbn })).toEqual({
      phoneNumber: COMPANY_MESSAGES.duplicatePhone,
    });
    expect(await attempt({ ...other, nzbn: existing.nzbn })).toEqual({ nzbn: COMPANY_MESSAGES.duplicateNzbn });
  });

  it('frees the number when the application holding it is rejected (verified 2)', async () => {
    const nzbn = newNzbn();
    const first = await registered({ ...validCompany(), nzbn });
    const rejected = await admin.post(`/api/admin/companies/${first.id}/reject`, { reason: 'Not a logistics company' });
    expect(rejected.statusCode).toBe(200);
    const again = await registered({ ...validCompany(), nzbn });
    expect(again.company.nzbn).toBe(nzbn);
    // …and the new application holds it now.
    expect((await register(t, { ...validCompany(), nzbn })).statusCode).toBe(409);
  });

  it('is guaranteed by the database too: a second live row with the number cannot be written', async () => {
    const nzbn = newNzbn();
    await registered({ ...validCompany(), nzbn });
    const other = await registered(validCompany());
    await expect(t.database.db.update(companies).set({ nzbn }).where(eq(companies.id, other.id))).rejects.toThrow();
  });
});

describe('the register page without JavaScript (POST /register)', () => {
  const post = async (fields: Record<string, string>) => {
    const form = await encodeForm(fields);
    return t.app.inject({
      method: 'POST',
      url: '/register',
      payload: form.payload,
      headers: { ...form.headers, accept: 'text/html', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
    });
  };

  it('answers a wrong NZBN under its field, saying its check digit is wrong, with what was typed kept', async () => {
    const res = await post({ ...validCompany(), nzbn: '9429 0345 8166 1' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(
      '<p class="field__error" id="register-nzbn-error">The last digit of this NZBN (its check digit) does not match the 12 before it. Check the number on your NZBN record.</p>',
    );
    expect(res.body).toContain('value="9429 0345 8166 1"');
  });

  it('answers a number another live application holds under its field', async () => {
    const nzbn = newNzbn();
    expect((await post({ ...validCompany(), nzbn })).statusCode).toBe(303);
    const res = await post({ ...validCompany(), nzbn });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(
      `<p class="field__error" id="register-nzbn-error">${COMPANY_MESSAGES.duplicateNzbn}</p>`,
    );
  });
});
