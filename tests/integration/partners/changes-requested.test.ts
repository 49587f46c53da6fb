import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES, LICENCE_FIELD_TEXT } from '../../../src/contracts/companies.ts';
import { CHANGES_MESSAGES, CHANGES_TEXT } from '../../../src/contracts/partner-changes.ts';
import { APPLICATION_STATUS_TEXT } from '../../../src/contracts/partner-status.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { companies } from '../../../src/server/db/schema.ts';
import { linkIn, waitForMail, waitForMails } from '../../helpers/mail.ts';
import {
  type CompanyFields,
  encodeForm,
  GIF,
  PDF,
  pngOf,
  register,
  storedFiles,
  type UploadFile,
  validCompany,
} from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Changes requested (docs/decisions/113-changes-requested.md): an admin asks for what is wrong from
 * fixed reasons instead of rejecting; the applicant gets a mail with a link and sends only that on
 * the status page, through the registration's rules, which puts the application back in review with
 * its review due date counted from the resubmission. Both databases; the app's clock is moved, never
 * slept on.
 */
const BASE = 'http://changes.test';
const RECEIVED = 'We received your Bagspace partner application';
const ASKED = 'Your Bagspace partner application: a few changes needed';
// Monday 7 December 2026, 10:00 in Auckland (NZDT, UTC+13).
const clock = movableClock(new Date('2026-12-06T21:00:00Z'));
const DAY_MS = 24 * 60 * 60 * 1000;
let t: TestApp;
let admin: SupportUser;

beforeAll(async () => {
  t = await createTestApp({
    web: true,
    clock,
    env: {
      PUBLIC_BASE_URL: BASE,
      COMPANY_NAME: 'Bagspace',
      PARTNER_STATUS_READS_PER_MIN: '1000',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    },
  });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

interface Applied {
  id: string;
  fields: CompanyFields;
  token: string;
}

const png = (size = 2048): UploadFile => ({ bytes: pngOf(size), name: 'licence.png', type: 'image/png' });

async function apply(): Promise<Applied> {
  const fields = validCompany();
  const res = await register(t, fields, png());
  expect(res.statusCode, res.body).toBe(201);
  const mail = await waitForMail(t.dataDir, fields.contactPersonEmail, RECEIVED);
  const token = linkIn(mail, `${BASE}/partners/status/`).slice(`${BASE}/partners/status/`.length);
  return { id: res.json().id as string, fields, token };
}

const status = async (token: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/partners/status/${token}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ask = (id: string, body: unknown) => admin.post(`/api/admin/companies/${id}/request-changes`, body);
async function send(token: string, fields: Record<string, string>, file?: UploadFile) {
  const { payload, headers } = await encodeForm(fields, file);
  return t.app.inject({ method: 'POST', url: `/api/partners/status/${token}/changes`, payload, headers });
}
const licenceKeyOf = async (id: string) =>
  (await t.database.db.select({ key: companies.commercialLicenseKey }).from(companies).where(eq(companies.id, id)))[0]!
    .key;

describe('changes requested', () => {
  it('opening an application in the console puts it in review; the list does not', async () => {
    const a = await apply();
    expect((await admin.get('/api/admin/companies?status=pending')).statusCode).toBe(200);
    expect((await status(a.token)).state).toBe('received');
    expect((await admin.get(`/api/admin/companies/${a.id}`)).statusCode).toBe(200);
    const after = await status(a.token);
    expect(after.state).toBe('in-review');
    expect(after.history.map((e: { kind: string }) => e.kind)).toEqual(['received', 'review_started']);
    // Once only.
    await admin.get(`/api/admin/companies/${a.id}`);
    expect((await status(a.token)).history).toHaveLength(2);
  });

  it('refuses a request without a reason, and Other without its note and fields, in words', async () => {
    const a = await apply();
    const none = await ask(a.id, { reasons: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields.reasons).toBe(CHANGES_MESSAGES.reasonRequired);
    const other = await ask(a.id, { reasons: ['other'] });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.fields).toMatchObject({
      note: CHANGES_MESSAGES.noteRequired,
      fields: CHANGES_MESSAGES.fieldsRequired,
    });
    const long = await ask(a.id, { reasons: ['license-unreadable'], note: 'x'.repeat(1001) });
    expect(long.json().error.fields.note).toBe(CHANGES_MESSAGES.noteTooLong);
    expect((await status(a.token)).state).toBe('received');
  });

  it('asks for a new licence: mail with a new working link, the page says what is due, and the new file puts it back in review', async () => {
    const a = await apply();
    const firstKey = await licenceKeyOf(a.id);
    const asked = await ask(a.id, { reasons: ['license-unreadable'], note: 'The photo is blurred at the bottom.' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ mail: 'queued' });
    // Asking twice is refused; the first request stands.
    expect((await ask(a.id, { reasons: ['missing-document'] })).json().error.message).toBe(
      CHANGES_MESSAGES.alreadyRequested,
    );

    const mail = await waitForMail(t.dataDir, a.fields.contactPersonEmail, ASKED);
    expect(mail.text).toContain(CHANGES_TEXT.applicantReasons['license-unreadable']);
    expect(mail.text).toContain('The photo is blurred at the bottom.');
    const newToken = linkIn(mail, `${BASE}/partners/status/`).slice(`${BASE}/partners/status/`.length);
    expect(newToken).not.toBe(a.token);
    const seen = await status(newToken);
    expect(seen.state).toBe('changes-requested');
    expect(seen.reviewDueDate).toBeNull();
    expect(seen.requestedChanges).toEqual({
      reasons: ['license-unreadable'],
      fields: ['license'],
      note: 'The photo is blurred at the bottom.',
    });
    expect(seen.history.at(-1)).toMatchObject({
      kind: 'changes_requested',
      reason: `${CHANGES_TEXT.applicantReasons['license-unreadable']} The photo is blurred at the bottom.`,
    });
    // The first link still works.
    expect((await status(a.token)).state).toBe('changes-requested');

    // What was not asked for, no file, or a file of the wrong kind: refused in words, nothing kept.
    const files = storedFiles(t);
    const notAsked = await send(a.token, { companyName: 'Another Name Ltd' }, png());
    expect(notAsked.statusCode).toBe(400);
    expect(notAsked.json().error.fields.companyName).toBe(CHANGES_MESSAGES.notAsked);
    const noFile = await send(a.token, {});
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.fields.commercialLicense).toBe(CHANGES_MESSAGES.licenseRequired);
    const gif = await send(a.token, {}, { bytes: GIF, name: 'licence.gif', type: 'image/gif' });
    expect(gif.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
    expect(storedFiles(t)).toEqual(files);
    expect((await status(a.token)).state).toBe('changes-requested');

    // Five days later (Saturday 12 December) the applicant sends a readable licence: the review is due
    // two working days after that day, on Tuesday 15 December.
    clock.advance(5 * DAY_MS);
    const sent = await send(a.token, {}, png(4096));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sent: 'changes' });
    const back = await status(a.token);
    expect(back.state).toBe('in-review');
    expect(back.reviewDueDate).toBe('2026-12-15');
    expect(back.requestedChanges).toBeNull();
    expect(back.history.at(-1)).toMatchObject({ kind: 'resubmitted', reason: APPLICATION_STATUS_TEXT.fields.license });
    // The new file replaced the old one, which is gone from storage; the admin downloads the new one.
    const newKey = await licenceKeyOf(a.id);
    expect(newKey).not.toBe(firstKey);
    expect(storedFiles(t)).toContain(newKey);
    expect(storedFiles(t)).not.toContain(firstKey);
    const download = await admin.get(`/api/admin/companies/${a.id}/license`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(4096);
    // Nothing more is due.
    expect((await send(a.token, {}, png())).json().error.message).toBe(CHANGES_MESSAGES.nothingDue);
  });

  it('a name that does not match is corrected under the registration rules and duplicate checks', async () => {
    const a = await apply();
    const other = await apply();
    expect((await ask(a.id, { reasons: ['name-mismatch'] })).statusCode).toBe(200);
    expect((await status(a.token)).requestedChanges.fields).toEqual(['license', 'companyName']);
    const short = await send(a.token, { companyName: 'ab' });
    expect(short.json().error.fields.companyName).toBe(COMPANY_MESSAGES.companyNameTooShort);
    const taken = await send(a.token, { companyName: ` ${other.fields.companyName.toUpperCase()} ` });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields.companyName).toBe(COMPANY_MESSAGES.duplicateName);
    // The licence is not required for a name mismatch: the name alone answers it.
    const fixed = await send(a.token, { companyName: `${a.fields.companyName} Limited` });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const now = await status(a.token);
    expect(now.company.companyName).toBe(`${a.fields.companyName} Limited`);
    expect(now.history.at(-1).reason).toBe(APPLICATION_STATUS_TEXT.fields.companyName);
    // The old name is free for a new application; the new one is held.
    const again = await register(t, { ...validCompany(), companyName: a.fields.companyName });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('Other opens only the fields the admin picked', async () => {
    const a = await apply();
    const asked = await ask(a.id, { reasons: ['other'], fields: ['address'], note: 'Please give the depot address.' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await status(a.token)).requestedChanges.fields).toEqual(['address']);
    expect((await send(a.token, { phoneNumber: '0211111111' })).json().error.fields.phoneNumber).toBe(
      CHANGES_MESSAGES.notAsked,
    );
    expect((await send(a.token, { address: '99 Depot Road, Hamilton' })).statusCode).toBe(200);
    expect((await status(a.token)).company.address).toBe('99 Depot Road, Hamilton');
  });

  it('an approved or rejected application cannot be asked for changes', async () => {
    const a = await apply();
    expect((await admin.post(`/api/admin/companies/${a.id}/reject`, { reason: 'Not a courier' })).statusCode).toBe(200);
    const refused = await ask(a.id, { reasons: ['missing-document'] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(CHANGES_MESSAGES.notPending);
    expect(
      (await ask('6f1d1a3e-0000-4000-8000-000000000000', { reasons: ['other'], fields: ['address'], note: 'x' }))
        .statusCode,
    ).toBe(404);
  });

  it('works as a plain form without JavaScript: messages under the fields, then the thanks', async () => {
    const a = await apply();
    await ask(a.id, { reasons: ['missing-document'] });
    const page = await t.app.inject({
      method: 'GET',
      url: `/partners/status/${a.token}`,
      headers: { accept: 'text/html' },
    });
    expect(page.body).toContain(CHANGES_TEXT.dueHeading);
    expect(page.body).toContain(CHANGES_TEXT.applicantReasons['missing-document']);
    expect(page.body).toMatch(/<form[^>]*encType="multipart\/form-data"[^>]*method="post"/);
    const empty = await encodeForm({});
    const refused = await t.app.inject({
      method: 'POST',
      url: `/partners/status/${a.token}`,
      payload: empty.payload,
      headers: { ...empty.headers, accept: 'text/html' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    expect(refused.body).toContain(CHANGES_MESSAGES.licenseRequired);
    // The licence is asked for in the registration's words: JPG, PNG or PDF (decision 130).
    expect(refused.body).toContain('New commercial licence (JPG, PNG or PDF)');
    expect(refused.body).toContain(LICENCE_FIELD_TEXT.hint);
    expect(refused.body).toContain('accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf"');
    const full = await encodeForm({}, { bytes: PDF, name: 'licence.pdf', type: 'application/pdf' });
    const done = await t.app.inject({
      method: 'POST',
      url: `/partners/status/${a.token}`,
      payload: full.payload,
      headers: { ...full.headers, accept: 'text/html' },
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/partners/status/${a.token}?sent=changes`);
    const thanks = await t.app.inject({ method: 'GET', url: done.headers.location!, headers: { accept: 'text/html' } });
    expect(thanks.body).toContain('Thank you. We have your changes and will review them by');
    expect(thanks.body).toContain(APPLICATION_STATUS_TEXT.states['in-review']);
  });

  it('an approved partner sends a new licence, kept aside for an admin', async () => {
    const a = await apply();
    await admin.get(`/api/admin/companies/${a.id}`);
    const approved = await admin.post(`/api/admin/companies/${a.id}/approve`, { licenseExpiresOn: '2027-12-01' });
    expect(approved.statusCode, approved.body).toBe(200);
    const before = await licenceKeyOf(a.id);
    const sent = await send(a.token, {}, png(3000));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sent: 'renewal' });
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, a.id));
    expect(row!.commercialLicenseKey).toBe(before);
    expect(storedFiles(t)).toContain(row!.renewalLicenseKey);
    const seen = await status(a.token);
    expect(seen.state).toBe('approved');
    expect(seen.renewalSentAt).not.toBeNull();
    expect(seen.history.at(-1).kind).toBe('license_sent');
    // A second one replaces the first, whose file goes.
    expect((await send(a.token, {}, png(3100))).statusCode).toBe(200);
    const [again] = await t.database.db.select().from(companies).where(eq(companies.id, a.id));
    expect(storedFiles(t)).not.toContain(row!.renewalLicenseKey);
    expect(storedFiles(t)).toContain(again!.renewalLicenseKey);
    // A PDF is a licence too (decision 130): kept as .pdf, and the admin downloads it as one.
    expect((await send(a.token, {}, { bytes: PDF, name: 'renewed.pdf', type: 'application/pdf' })).statusCode).toBe(
      200,
    );
    const [pdf] = await t.database.db.select().from(companies).where(eq(companies.id, a.id));
    expect(pdf!.renewalLicenseKey).toMatch(/\.pdf$/);
    const download = await admin.get(`/api/admin/companies/${a.id}/renewal-license`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="new-licence-${a.id}.pdf"`);
    expect(download.rawPayload.equals(PDF)).toBe(true);
  });

  it('the request is mailed once, with the request, and audited', async () => {
    const a = await apply();
    await ask(a.id, { reasons: ['wrong-document'] });
    const mails = await waitForMails(t.dataDir, a.fields.contactPersonEmail, 2);
    expect(mails.filter((m) => m.subject === ASKED)).toHaveLength(1);
    const audit = await t.database.db.execute(
      sql`select action, details->>'companyName' as name from audit_log where target_id = ${a.id} and action = 'company.request-changes'`,
    );
    expect((audit as unknown as { rows: unknown[] }).rows).toEqual([
      { action: 'company.request-changes', name: a.fields.companyName },
    ]);
  });
});
