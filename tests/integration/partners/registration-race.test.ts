import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { recordFigure } from '../../helpers/figures.ts';
import { createTestApp, testDatabaseKind, type TestApp } from '../../helpers/test-app.ts';
import { companiesNamed, pngOf, registerAtOnce, storedFiles, validCompany } from '../../helpers/registration.ts';

let t: TestApp;
const figures = { bursts: 0, attempts: 0, companiesCreated: 0, controlDuplicates: 0 };
beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
});
afterAll(async () => {
  recordFigure('races-registration', {
    checks: ['DATA-03', 'IN-02'],
    label: 'Duplicate registrations',
    values: figures,
  });
  await t.close();
});

function count(responses: Array<{ statusCode: number }>) {
  figures.bursts += 1;
  figures.attempts += responses.length;
  figures.companiesCreated += responses.filter((r) => r.statusCode === 201).length;
}

const DUPLICATE_MESSAGES: string[] = [
  COMPANY_MESSAGES.duplicateEmail,
  COMPANY_MESSAGES.duplicateName,
  COMPANY_MESSAGES.duplicatePhone,
];

describe(`concurrent identical registrations (${testDatabaseKind})`, () => {
  it('20 at once create exactly one company; the other 19 get the duplicate message in the spec’s order', async () => {
    const input = validCompany();
    const responses = await registerAtOnce(
      t,
      Array.from({ length: 20 }, () => ({ fields: input })),
    );
    count(responses);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const res of responses.filter((r) => r.statusCode === 409)) {
      // The email was given, so it is the first duplicate every loser is told about.
      expect(res.json().error.fields).toEqual({ contactPersonEmail: COMPANY_MESSAGES.duplicateEmail });
    }
    expect(await companiesNamed(t, input.companyName)).toHaveLength(1);
  });

  it('20 at once with a licence each leave exactly one company and one file', async () => {
    const input = validCompany();
    const filesBefore = storedFiles(t);
    const responses = await registerAtOnce(
      t,
      Array.from({ length: 20 }, () => ({
        fields: input,
        file: { bytes: pngOf(20_000), name: 'licence.png', type: 'image/png' },
      })),
    );
    count(responses);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
    expect(await companiesNamed(t, input.companyName)).toHaveLength(1);
    const winner = responses.find((r) => r.statusCode === 201)!.json().id;
    expect(storedFiles(t)).toEqual([...filesBefore, `commercialLicenses/${winner}.png`].sort());
  });

  it('holds for variants only the normalised keys recognise (case, spacing, phone form, no email)', async () => {
    const input = validCompany();
    const responses = await registerAtOnce(
      t,
      Array.from({ length: 20 }, (_, i) => ({
        fields: {
          companyName: i % 2 ? input.companyName.toUpperCase() : ` ${input.companyName.replaceAll(' ', '  ')} `,
          phoneNumber: i % 3 ? input.phoneNumber : `64${input.phoneNumber.slice(1)}`,
          address: input.address,
        },
      })),
    );
    count(responses);
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.statusCode !== 201)) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error.fields).toEqual({ companyName: COMPANY_MESSAGES.duplicateName });
    }
  });

  it('negative control: without the unique indexes the same burst does create duplicates', async () => {
    // Shows the burst above really races: the checks alone would let several through.
    const bare = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
    try {
      for (const index of ['companies_email_key_uq', 'companies_name_key_uq', 'companies_phone_key_uq']) {
        await bare.database.db.execute(sql.raw(`drop index ${index}`));
      }
      const input = validCompany();
      const responses = await registerAtOnce(
        bare,
        Array.from({ length: 20 }, () => ({ fields: input })),
      );
      const created = responses.filter((r) => r.statusCode === 201).length;
      figures.controlDuplicates += created - 1;
      expect(created).toBeGreaterThan(1);
      expect(await companiesNamed(bare, input.companyName)).toHaveLength(created);
      for (const res of responses.filter((r) => r.statusCode !== 201)) {
        expect(DUPLICATE_MESSAGES).toContain(Object.values(res.json().error.fields)[0]);
      }
    } finally {
      await bare.close();
    }
  });
});
