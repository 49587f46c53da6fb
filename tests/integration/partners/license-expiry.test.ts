import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENCE_TEXT } from '../../../src/contracts/partner-review.ts';
import { buildApp } from '../../../src/server/app.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { openDatabase } from '../../../src/server/db/connection.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { pngOf, register, validCompany } from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp, testDatabaseKind } from '../../helpers/test-app.ts';

/**
 * Licence expiry (docs/decisions/115-licence-expiry.md), as an admin and a partner observe it: the
 * expiry date recorded at approval; the reminders 30, 14 and 3 days before it mailed once each
 * (through the outbox), the latest one reached only when the earlier ones passed unseen; on the date
 * the partner goes on hold (the console's On hold list, the history, a mail); a new licence accepted
 * (the hold ends) or refused. The app's clock is moved; each moment's round is run twice and across
 * a restart, and on PostgreSQL by two app instances at once.
 */
const clock = movableClock();
let t: TestApp;
let app: FastifyInstance;
let admin: SupportUser;

/** An instant at a New Zealand wall-clock time (January–March is NZDT, UTC+13). */
const nz = (local: string) => new Date(`${local}+13:00`);

beforeAll(async () => {
  clock.set(nz('2027-01-01T10:00:00'));
  t = await createTestApp({ clock, mailWorker: false, env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
  app = t.app;
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(async () => {
  if (app !== t?.app) await app.close();
  await t?.close();
});

async function applied(): Promise<{ id: string; email: string; name: string }> {
  const fields = validCompany();
  const res = await register(t, fields);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, email: fields.contactPersonEmail!, name: fields.companyName! };
}

async function approve(id: string, licenseExpiresOn?: string) {
  return admin.post(`/api/admin/companies/${id}/approve`, licenseExpiresOn ? { licenseExpiresOn } : {});
}

/** The licence mails written to the outbox for `to`, oldest first. */
async function licenceMails(to: string) {
  return queryRows<{ subject: string; kind: string }>(
    t.database.db,
    sql`select subject, kind from mail_outbox where recipient = ${to} and kind like 'license-%' order by created_at, id`,
  );
}

async function company(id: string) {
  const res = await admin.get(`/api/admin/companies/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().company as {
    licenseExpiresOn: string | null;
    licenseHoldAt: string | null;
    renewalSentAt: string | null;
  };
}

async function list(status: string) {
  const res = await admin.get(`/api/admin/companies?status=${status}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { companies: Array<{ id: string }>; counts: Record<string, number> };
}

async function events(id: string) {
  const rows = await queryRows<{ kind: string; reason: string | null }>(
    t.database.db,
    sql`select kind, reason from company_events where company_id = ${id} order by id`,
  );
  return rows;
}

/** Runs the worker's round twice (a second round must add nothing). */
async function rounds() {
  await app.licenseExpiryWorker.run();
  await app.licenseExpiryWorker.run();
}

/** Stops this app and starts another on the same database, as a restart does. */
async function restart() {
  // The first app keeps answering the admin's requests; only its worker goes.
  if (app !== t.app) await app.close();
  else await t.app.licenseExpiryWorker.stop();
  app = await buildApp({ config: t.config, database: t.database, startMailWorker: false, clock });
  await app.ready();
}

const subjects = (mails: Array<{ subject: string }>) => mails.map((m) => m.subject);

describe('approve records the licence expiry date', () => {
  it('stores a valid date, refuses a malformed or past one, and keeps the spec’s approve without a body', async () => {
    clock.set(nz('2027-01-01T10:00:00'));
    const a = await applied();
    for (const bad of ['2027-02-30', 'tomorrow', '1 March 2027']) {
      const res = await approve(a.id, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.fields.licenseExpiresOn).toBe(LICENCE_TEXT.dateInvalid);
    }
    const past = await approve(a.id, '2026-12-31');
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields.licenseExpiresOn).toBe(LICENCE_TEXT.datePast);
    expect((await company(a.id)).licenseExpiresOn).toBeNull();

    // Today (New Zealand) is allowed.
    expect((await approve(a.id, '2027-01-01')).statusCode).toBe(200);
    expect((await company(a.id)).licenseExpiresOn).toBe('2027-01-01');

    const b = await applied();
    const plain = await admin.post(`/api/admin/companies/${b.id}/approve`);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().company.licenseExpiresOn).toBeNull();
    await rounds();
    expect(await licenceMails(b.email)).toEqual([]);
  });

  it("records a licence that does not expire ('never'): no reminder and no hold, however far the clock goes", async () => {
    clock.set(nz('2027-01-01T10:00:00'));
    const c = await applied();
    const res = await approve(c.id, 'never');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().company.licenseExpiresOn).toBe('never');
    expect((await admin.get(`/api/admin/companies/${c.id}`)).json().company.licenseExpiresOn).toBe('never');
    clock.set(nz('2099-06-01T10:00:00'));
    await rounds();
    expect(await licenceMails(c.email)).toEqual([]);
    expect((await company(c.id)).licenseHoldAt).toBeNull();
    clock.set(nz('2027-01-01T10:00:00'));
  });
});

describe('reminders and the hold', () => {
  let partner: { id: string; email: string; name: string };
  let banned: { id: string; email: string; name: string };
  let rejected: { id: string; email: string; name: string };
  let noEmail: { id: string; email: string; name: string };

  beforeAll(async () => {
    clock.set(nz('2027-01-01T10:00:00'));
    partner = await applied();
    banned = await applied();
    rejected = await applied();
    noEmail = await applied();
    for (const c of [partner, banned, noEmail]) expect((await approve(c.id, '2027-03-01')).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/companies/${banned.id}/ban`)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/companies/${rejected.id}/reject`, { reason: 'No licence' })).statusCode).toBe(
      200,
    );
    // A rejected application with an expiry date (approved once, then rejected) is never reminded.
    await t.database.db.execute(sql`update companies set license_expires_on = '2027-03-01' where id = ${rejected.id}`);
    await t.database.db.execute(sql`update companies set contact_person_email = null where id = ${noEmail.id}`);
  });

  it('sends nothing before 30 days, then each reminder once, across a restart', async () => {
    clock.set(nz('2027-01-29T23:59:00'));
    await rounds();
    expect(await licenceMails(partner.email)).toEqual([]);

    clock.set(nz('2027-01-30T00:01:00'));
    await rounds();
    expect(subjects(await licenceMails(partner.email))).toEqual([
      expect.stringContaining('licence expires in 30 days'),
    ]);

    await restart();
    await rounds();
    clock.set(nz('2027-02-14T12:00:00'));
    await rounds();
    expect(await licenceMails(partner.email)).toHaveLength(1);
    clock.set(nz('2027-02-15T08:00:00'));
    await rounds();
    await restart();
    await rounds();
    clock.set(nz('2027-02-26T08:00:00'));
    await rounds();
    const mails = await licenceMails(partner.email);
    expect(subjects(mails)).toEqual([
      expect.stringContaining('expires in 30 days'),
      expect.stringContaining('expires in 14 days'),
      expect.stringContaining('expires in 3 days'),
    ]);
    expect(mails.every((m) => m.kind === 'license-reminder')).toBe(true);
    expect((await company(partner.id)).licenseHoldAt).toBeNull();
  });

  it('puts the partner on hold on the expiry date: the On hold list, its count, the history and a mail', async () => {
    const before = await list('verified');
    expect(before.companies.map((c) => c.id)).toContain(partner.id);

    clock.set(nz('2027-03-01T00:05:00'));
    await rounds();
    await restart();
    await rounds();

    const held = await company(partner.id);
    expect(held.licenseHoldAt).not.toBeNull();
    const mails = await licenceMails(partner.email);
    expect(mails).toHaveLength(4);
    expect(mails[3]!.subject).toContain('on hold');

    const onHold = await list('on-hold');
    expect(onHold.companies.map((c) => c.id)).toEqual(expect.arrayContaining([partner.id, noEmail.id]));
    expect(onHold.companies.map((c) => c.id)).not.toContain(banned.id);
    expect(onHold.counts['on-hold']).toBe(onHold.companies.length);
    const verified = await list('verified');
    expect(verified.companies.map((c) => c.id)).not.toContain(partner.id);
    expect(verified.counts.verified).toBe((before.counts.verified ?? 0) - 2);

    expect((await events(partner.id)).map((e) => e.kind)).toEqual(['received', 'approved', 'license_expired']);

    // The applicant's status page (its link, from the 'received' mail) says on hold, and why.
    const [received] = await queryRows<{ text_body: string }>(
      t.database.db,
      sql`select text_body from mail_outbox where recipient = ${partner.email} and kind not like 'license-%' order by id limit 1`,
    );
    const token = /\/partners\/status\/([A-Za-z0-9_-]{43})/.exec(received!.text_body)![1]!;
    const status = await t.app.inject({ method: 'GET', url: `/api/partners/status/${token}` });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ state: 'on-hold', hold: 'license-expired' });
    expect(status.json().history.map((e: { kind: string }) => e.kind)).toContain('license_expired');
    // The on-hold mail carries a fresh link of its own to the page where the new licence is sent.
    const [held2] = await queryRows<{ text_body: string }>(
      t.database.db,
      sql`select text_body from mail_outbox where recipient = ${partner.email} and subject like '%on hold%'`,
    );
    const fresh = /\/partners\/status\/([A-Za-z0-9_-]{43})/.exec(held2!.text_body)![1]!;
    expect(fresh).not.toBe(token);
    const page = await t.app.inject({ method: 'GET', url: `/api/partners/status/${fresh}` });
    expect(page.json()).toMatchObject({ state: 'on-hold', hold: 'license-expired' });
  });

  it('never reminds a banned or rejected company, and records (but cannot mail) one with no contact email', async () => {
    expect(await licenceMails(banned.email)).toEqual([]);
    expect(await licenceMails(rejected.email)).toEqual([]);
    const reminders = async (id: string) =>
      (
        await queryRows<{ days_before: unknown }>(
          t.database.db,
          sql`select days_before from company_license_reminders where company_id = ${id} order by sent_at`,
        )
      ).map((r) => Number(r.days_before));
    expect(await reminders(banned.id)).toEqual([]);
    expect(await reminders(rejected.id)).toEqual([]);
    expect(await reminders(noEmail.id)).toEqual([30, 14, 3, 0]);
    expect((await company(banned.id)).licenseHoldAt).toBeNull();
  });

  it('does not send a reminder late: a licence approved 10 days before expiry gets only the 14-day one', async () => {
    clock.set(nz('2027-03-05T09:00:00'));
    const late = await applied();
    expect((await approve(late.id, '2027-03-15')).statusCode).toBe(200);
    await rounds();
    expect(subjects(await licenceMails(late.email))).toEqual([expect.stringContaining('expires in 10 days')]);
    clock.set(nz('2027-03-12T09:00:00'));
    await rounds();
    expect(subjects(await licenceMails(late.email))).toEqual([
      expect.stringContaining('expires in 10 days'),
      expect.stringContaining('expires in 3 days'),
    ]);
  });
});

describe('a new licence sent by the partner', () => {
  /** Puts a file in storage as the partner's new licence (the upload is the status page's). */
  async function sendRenewal(id: string, bytes: Buffer) {
    const key = `commercialLicenses/${id}-renewal.png`;
    const file = path.join(t.dataDir, 'files', key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    await t.database.db.execute(
      sql`update companies set renewal_license_key = ${key}, renewal_sent_at = now() where id = ${id}`,
    );
    return file;
  }

  it('is downloaded by an admin and, accepted with its expiry date, replaces the old one and ends the hold', async () => {
    clock.set(nz('2027-04-01T09:00:00'));
    const fields = validCompany();
    const res = await register(t, fields, { bytes: pngOf(900), name: 'old.png', type: 'image/png' });
    const id = res.json().id as string;
    expect((await approve(id, '2027-04-02')).statusCode).toBe(200);
    clock.set(nz('2027-04-02T09:00:00'));
    await rounds();
    expect((await company(id)).licenseHoldAt).not.toBeNull();
    const [oldKey] = (
      await queryRows<{ key: string }>(
        t.database.db,
        sql`select commercial_license_key as key from companies where id = ${id}`,
      )
    ).map((r) => r.key);
    const oldFile = path.join(t.dataDir, 'files', oldKey!);
    expect(fs.existsSync(oldFile)).toBe(true);

    const bytes = pngOf(1234);
    const newFile = await sendRenewal(id, bytes);
    expect((await company(id)).renewalSentAt).not.toBeNull();
    const download = await admin.get(`/api/admin/companies/${id}/renewal-license`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.rawPayload.equals(bytes)).toBe(true);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/admin/companies/${id}/renewal-license` });
    expect(anonymous.statusCode).toBe(401);

    const past = await admin.post(`/api/admin/companies/${id}/renewal-license/accept`, {
      licenseExpiresOn: '2027-04-01',
    });
    expect(past.statusCode).toBe(400);

    const accepted = await admin.post(`/api/admin/companies/${id}/renewal-license/accept`, {
      licenseExpiresOn: '2028-04-02',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const after = await company(id);
    expect(after).toMatchObject({ licenseExpiresOn: '2028-04-02', licenseHoldAt: null, renewalSentAt: null });
    expect(fs.existsSync(oldFile)).toBe(false);
    expect(fs.existsSync(newFile)).toBe(true);
    const current = await admin.get(`/api/admin/companies/${id}/license`);
    expect(current.rawPayload.equals(bytes)).toBe(true);
    expect((await list('verified')).companies.map((c) => c.id)).toContain(id);
    expect((await events(id)).map((e) => e.kind)).toEqual([
      'received',
      'approved',
      'license_expired',
      'license_accepted',
    ]);
    expect(subjects(await licenceMails(fields.contactPersonEmail!)).at(-1)).toContain('is accepted');
    const audit = await admin.get(`/api/admin/audit?targetType=company&targetId=${id}`);
    expect(audit.body).toContain('company.license-accept');

    // Accepting twice: nothing waits any more.
    const again = await admin.post(`/api/admin/companies/${id}/renewal-license/accept`, {
      licenseExpiresOn: '2028-04-02',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(LICENCE_TEXT.noRenewal);

    // The new expiry date has reminders of its own.
    clock.set(nz('2028-03-03T09:00:00'));
    await rounds();
    expect(subjects(await licenceMails(fields.contactPersonEmail!)).at(-1)).toContain('expires in 30 days');
  });

  it('refused with a reason: the file goes, the hold stays, the partner is told why', async () => {
    clock.set(nz('2027-05-01T09:00:00'));
    const c = await applied();
    expect((await approve(c.id, '2027-05-01')).statusCode).toBe(200);
    await rounds();
    const file = await sendRenewal(c.id, pngOf(700));
    const noReason = await admin.post(`/api/admin/companies/${c.id}/renewal-license/refuse`, { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    const refused = await admin.post(`/api/admin/companies/${c.id}/renewal-license/refuse`, {
      reason: 'The scan is unreadable',
    });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    const after = await company(c.id);
    expect(after.licenseHoldAt).not.toBeNull();
    expect(after.renewalSentAt).toBeNull();
    expect((await events(c.id)).at(-1)).toEqual({ kind: 'license_refused', reason: 'The scan is unreadable' });
    expect(subjects(await licenceMails(c.email)).at(-1)).toContain('About your new');
    expect((await admin.get(`/api/admin/companies/${c.id}/renewal-license`)).statusCode).toBe(404);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('two app instances on one database', () => {
  it('running their rounds at the same time send each moment once', async () => {
    clock.set(nz('2027-06-01T09:00:00'));
    const partners = [];
    for (let i = 0; i < 8; i++) {
      const c = await applied();
      expect((await approve(c.id, '2027-07-01')).statusCode).toBe(200);
      partners.push(c);
    }
    const second = await openDatabase({ kind: 'postgres', url: t.databaseUrl! });
    const other = await buildApp({ config: t.config, database: second, startMailWorker: false, clock });
    await other.ready();
    try {
      const together = () =>
        Promise.all([app.licenseExpiryWorker.run(), other.licenseExpiryWorker.run(), other.licenseExpiryWorker.run()]);
      for (const at of ['2027-06-01T09:00:00', '2027-06-17T09:00:00', '2027-06-28T09:00:00', '2027-07-01T09:00:00']) {
        clock.set(nz(at));
        await together();
        await together();
      }
      for (const c of partners) {
        expect(subjects(await licenceMails(c.email)), c.name).toEqual([
          expect.stringContaining('expires in 30 days'),
          expect.stringContaining('expires in 14 days'),
          expect.stringContaining('expires in 3 days'),
          expect.stringContaining('on hold'),
        ]);
        expect((await events(c.id)).filter((e) => e.kind === 'license_expired')).toHaveLength(1);
      }
    } finally {
      await other.close();
      await second.close();
    }
  });
});
