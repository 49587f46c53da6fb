import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_REVIEW_MESSAGES } from '../../../src/contracts/partner-review.ts';
import { deliverDueMail, readOutbox, waitForMail } from '../../helpers/mail.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { pngOf, register, validCompany } from '../../helpers/registration.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';

/** Reviewing partner applications: list, detail, approve, reject, ban, and the decision mails. */

let t: TestApp;
let admin: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
  admin = await apiClient(t);
});
afterAll(() => t.close());

async function apply(fields = validCompany(), withLicence = false) {
  const res = await register(
    t,
    fields,
    withLicence ? { bytes: pngOf(4000), name: 'licence.png', type: 'image/png' } : undefined,
  );
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, fields };
}

const ids = (res: { json(): { companies: Array<{ id: string }> } }) => res.json().companies.map((c) => c.id);

describe('the list of applications', () => {
  it('filters by status, works the pending queue oldest first, counts each status and searches', async () => {
    const first = await apply();
    const second = await apply();
    const pending = await admin.get('/api/admin/companies?status=pending');
    expect(pending.statusCode).toBe(200);
    const order = ids(pending);
    expect(order.indexOf(first.id)).toBeLessThan(order.indexOf(second.id));
    expect(pending.json().counts.pending).toBe(order.length);

    expect((await admin.post(`/api/admin/companies/${second.id}/approve`)).statusCode).toBe(200);
    expect(ids(await admin.get('/api/admin/companies?status=pending'))).not.toContain(second.id);
    expect(ids(await admin.get('/api/admin/companies?status=verified'))).toContain(second.id);

    const byName = await admin.get(
      `/api/admin/companies?status=pending&q=${encodeURIComponent(first.fields.companyName.toUpperCase())}`,
    );
    expect(ids(byName)).toEqual([first.id]);
    const byEmail = await admin.get(
      `/api/admin/companies?status=pending&q=${encodeURIComponent(first.fields.contactPersonEmail)}`,
    );
    expect(ids(byEmail)).toEqual([first.id]);
    expect(ids(await admin.get('/api/admin/companies?status=pending&q=%25'))).toEqual([]);
  });

  it('refuses an unknown status', async () => {
    expect((await admin.get('/api/admin/companies?status=everything')).statusCode).toBe(400);
  });
});

describe('one application', () => {
  it('shows every field of the record and the licence link, and nothing internal', async () => {
    const { id, fields } = await apply(validCompany(), true);
    const res = await admin.get(`/api/admin/companies/${id}`);
    expect(res.statusCode).toBe(200);
    const { company } = res.json();
    expect(company).toMatchObject({
      ...fields,
      id,
      verified: 0,
      isBanned: false,
      isEmailSend: false,
      rejectionReason: null,
    });
    expect(company.commercialLicenseUrl).toBe(`/api/admin/companies/${id}/license`);
    expect(Object.keys(company).sort()).toEqual(
      [
        'id',
        'companyName',
        'nzbn',
        'street',
        'address',
        'phoneNumber',
        'contactPersonName',
        'contactPersonJobTitle',
        'contactPersonPhoneNumber',
        'contactPersonEmail',
        'commercialLicenseUrl',
        'verified',
        'isBanned',
        'isEmailSend',
        'lastUpdated',
        'rejectionReason',
        'createdAt',
        'nzbnCheck',
        // Licence expiry (docs/decisions/115-licence-expiry.md): dates only, never a storage key.
        'licenseExpiresOn',
        'licenseFormat',
        'licenseHoldAt',
        'renewalSentAt',
        // Where a pending application stands in review, and the changes asked for.
        'reviewStage',
        'submittedAt',
        'requestedChanges',
      ].sort(),
    );
    const licence = await admin.get(company.commercialLicenseUrl);
    expect(licence.statusCode).toBe(200);
    expect(licence.headers['content-type']).toBe('image/png');
  });

  it('answers 404 for an unknown application', async () => {
    const res = await admin.get('/api/admin/companies/5d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(COMPANY_REVIEW_MESSAGES.notFound);
  });
});

describe('approving', () => {
  it('sets verified = 1, emails the contact address, then marks isEmailSend, and is audited', async () => {
    const { id, fields } = await apply();
    const before = (await admin.get(`/api/admin/companies/${id}`)).json().company;
    const res = await admin.post(`/api/admin/companies/${id}/approve`);
    expect(res.statusCode).toBe(200);
    const { company, mail } = res.json();
    // Recorded with the decision; isEmailSend waits for the delivery.
    expect(mail).toBe('queued');
    expect(company).toMatchObject({ verified: 1, isEmailSend: false, isBanned: false });
    expect(new Date(company.lastUpdated).getTime()).toBeGreaterThan(new Date(before.lastUpdated).getTime());

    const message = await waitForMail(
      t.dataDir,
      fields.contactPersonEmail,
      'Your Bagspace partner application is approved',
    );
    expect(message.text).toContain(fields.companyName);
    await deliverDueMail(t.app);
    expect((await admin.get(`/api/admin/companies/${id}`)).json().company.isEmailSend).toBe(true);

    const [entry] = await auditOf(admin, 'company', id);
    expect(entry).toMatchObject({
      action: 'company.approve',
      actorEmail: admin.email,
      details: { companyName: fields.companyName, from: 0, mail: 'queued' },
    });

    const again = await admin.post(`/api/admin/companies/${id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(COMPANY_REVIEW_MESSAGES.alreadyApproved);
  });

  it('says so when there is no contact email, and leaves isEmailSend false', async () => {
    const fields = { ...validCompany(), contactPersonEmail: '' };
    const { id } = await apply(fields);
    await deliverDueMail(t.app);
    const mailsBefore = (await readOutbox(t.dataDir)).length;
    const res = await admin.post(`/api/admin/companies/${id}/approve`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      mail: 'no-address',
      company: { verified: 1, isEmailSend: false, contactPersonEmail: null },
    });
    await deliverDueMail(t.app);
    expect((await readOutbox(t.dataDir)).length).toBe(mailsBefore);
  });
});

describe('rejecting', () => {
  it('needs a reason', async () => {
    const { id } = await apply();
    for (const body of [{}, { reason: '   ' }]) {
      const res = await admin.post(`/api/admin/companies/${id}/reject`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.reason).toBe(COMPANY_REVIEW_MESSAGES.reasonRequired);
    }
    expect((await admin.get(`/api/admin/companies/${id}`)).json().company.verified).toBe(0);
  });

  it('sets verified = 2 with the reason, mails it, and the applicant can apply again with the same name, email and phone', async () => {
    const { id, fields } = await apply();
    // While the application is live, the same details are refused (docs/product.md §5).
    expect((await register(t, fields)).statusCode).toBe(409);

    const reason = 'The licence image is unreadable. Please upload a clearer scan.';
    const res = await admin.post(`/api/admin/companies/${id}/reject`, { reason });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      mail: 'queued',
      company: { verified: 2, rejectionReason: reason, isEmailSend: false },
    });
    const message = await waitForMail(t.dataDir, fields.contactPersonEmail, 'About your Bagspace partner application');
    expect(message.text).toContain(reason);
    expect(message.text).toContain(`${t.config.publicBaseUrl}/register`);
    await deliverDueMail(t.app);
    expect((await admin.get(`/api/admin/companies/${id}`)).json().company.isEmailSend).toBe(true);
    expect((await auditOf(admin, 'company', id))[0]).toMatchObject({
      action: 'company.reject',
      details: { reason, mail: 'queued' },
    });

    const again = await register(t, fields);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().company).toMatchObject({ companyName: fields.companyName, verified: 0 });

    // The old application cannot come back while the new one holds its details.
    const revive = await admin.post(`/api/admin/companies/${id}/approve`);
    expect(revive.statusCode).toBe(409);
    expect(revive.json().error.message).toBe(COMPANY_REVIEW_MESSAGES.nameTaken);
    expect((await admin.get(`/api/admin/companies/${id}`)).json().company.verified).toBe(2);
  });
});

describe('banning', () => {
  it('toggles isBanned, updates lastUpdated, lists the company under Banned, and is audited', async () => {
    const { id } = await apply();
    const ban = await admin.post(`/api/admin/companies/${id}/ban`);
    expect(ban.statusCode).toBe(200);
    expect(ban.json().company).toMatchObject({ isBanned: true, verified: 0 });
    expect(ids(await admin.get('/api/admin/companies?status=banned'))).toContain(id);
    expect(ids(await admin.get('/api/admin/companies?status=pending'))).not.toContain(id);
    expect((await admin.post(`/api/admin/companies/${id}/ban`)).statusCode).toBe(409);

    const unban = await admin.post(`/api/admin/companies/${id}/unban`);
    expect(unban.json().company.isBanned).toBe(false);
    expect(new Date(unban.json().company.lastUpdated).getTime()).toBeGreaterThan(
      new Date(ban.json().company.lastUpdated).getTime(),
    );
    expect((await admin.post(`/api/admin/companies/${id}/unban`)).statusCode).toBe(409);
    expect((await auditOf(admin, 'company', id)).map((e) => e.action)).toEqual(['company.unban', 'company.ban']);
  });
});

describe('decision mail over SMTP', () => {
  let sink: SmtpSink;
  let smtp: TestApp;
  let smtpAdmin: ApiClient;
  beforeAll(async () => {
    sink = await startSmtpSink();
    smtp = await createTestApp({ env: { SMTP_URL: sink.url } });
    smtpAdmin = await apiClient(smtp);
  });
  afterAll(async () => {
    await smtp.close();
    await sink.close();
  });

  it('cannot be steered by line breaks in the company name or the reason (IN-06)', async () => {
    const fields = { ...validCompany(), companyName: 'Evil Freight\r\nBcc: thief@evil.example' };
    const res = await register(smtp, fields);
    expect(res.statusCode, res.body).toBe(201);
    const reject = await smtpAdmin.post(`/api/admin/companies/${res.json().id}/reject`, {
      reason: 'No.\r\nBcc: thief@evil.example\r\n\r\nInjected body',
    });
    expect(reject.json().mail).toBe('queued');
    // The acknowledgement of the application, then the decision.
    const mails = await sink.waitFor(fields.contactPersonEmail, 2);
    const received = sink.messages.find((m) => m.subject === 'About your Bagspace partner application')!;
    expect(received.envelopeTo).toEqual([fields.contactPersonEmail]);
    expect(sink.messages.some((m) => m.envelopeTo.includes('thief@evil.example'))).toBe(false);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'About your Bagspace partner application',
      'We received your Bagspace partner application',
    ]);
  });
});

describe('when the mail cannot be sent', () => {
  let broken: TestApp;
  let brokenAdmin: ApiClient;
  beforeAll(async () => {
    // Nothing listens on port 1: the mailer's connection is refused.
    broken = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    brokenAdmin = await apiClient(broken);
  });
  afterAll(() => broken.close());

  it('keeps the decision, keeps the mail for a retry, and leaves isEmailSend false while the server is unreachable', async () => {
    const fields = validCompany();
    const res = await register(broken, fields);
    const id = res.json().id as string;
    const approve = await brokenAdmin.post(`/api/admin/companies/${id}/approve`);
    expect(approve.statusCode).toBe(200);
    expect(approve.json()).toMatchObject({ mail: 'queued', company: { verified: 1, isEmailSend: false } });
    await deliverDueMail(broken.app);
    const outbox = (await brokenAdmin.get(`/api/admin/mail?q=${encodeURIComponent(fields.contactPersonEmail)}`)).json();
    const decision = outbox.mails.find((m: { kind: string }) => m.kind === 'partner-decision');
    expect(decision).toMatchObject({ state: 'retrying', attempts: 1 });
    expect(decision.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
    expect((await brokenAdmin.get(`/api/admin/companies/${id}`)).json().company.isEmailSend).toBe(false);
    const again = await brokenAdmin.post(`/api/admin/companies/${id}/notify`);
    expect(again.json()).toMatchObject({ mail: 'queued', company: { isEmailSend: false } });
    expect((await auditOf(brokenAdmin, 'company', id)).map((e) => e.details.mail)).toEqual(['queued', 'queued']);
  });

  it('has nothing to resend before a decision', async () => {
    const res = await register(broken, validCompany());
    const notify = await brokenAdmin.post(`/api/admin/companies/${res.json().id}/notify`);
    expect(notify.statusCode).toBe(409);
    expect(notify.json().error.message).toBe(COMPANY_REVIEW_MESSAGES.nothingToNotify);
  });
});
