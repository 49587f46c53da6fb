import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_EXPORT_FORMAT } from '../../../src/contracts/privacy.ts';
import { type DataExport, DataExportSchema } from '../../../src/contracts/privacy.schemas.ts';
import { png, postFiles } from '../../helpers/attachment-files.ts';
import { encodeForm, validCompany } from '../../helpers/registration.ts';
import { signIn, withCookie } from '../../helpers/accounts.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** "Download my data": everything held about the person, nothing about anyone else, no secret. */
let t: TestApp;
let alice: SupportUser;
let bob: SupportUser;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '100' } });
  [alice, bob, admin] = await Promise.all([supportUser(t), supportUser(t), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const exportOf = async (who: SupportUser) => {
  const res = await who.get('/api/account/export');
  expect(res.statusCode, res.body).toBe(200);
  return { res, data: DataExportSchema.parse(res.json()) as DataExport };
};

describe('the data export', () => {
  it('holds the account, sign-ins, tickets with messages and files, ratings, mail settings, applications and audit', async () => {
    const { ticketId } = await alice.createTicket('Incident', 'My surfboard arrived cracked.');
    const photo = await postFiles(
      t,
      `/api/support/tickets/${ticketId}/messages`,
      alice.headers,
      { messageBody: 'Here' },
      [{ name: 'crack.png', data: await png() }],
    );
    expect(photo.statusCode).toBe(200);
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'We will cover it.' });
    const secretNote = 'Internal: the courier admitted fault';
    await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: secretNote });
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    await alice.post(`/api/support/tickets/${ticketId}/rating`, { good: true, comment: 'Quick and kind' });
    await t.app.inject({
      method: 'PUT',
      url: '/api/account/notifications',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: { ticketReplies: false },
    });
    const company = { ...validCompany(), contactPersonEmail: alice.email.toUpperCase() };
    const form = await encodeForm(company);
    expect((await t.app.inject({ method: 'POST', url: '/api/companies', ...form })).statusCode).toBe(201);
    await bob.createTicket('General', 'Bob asks something private.');

    const { res, data } = await exportOf(alice);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(data.format).toBe(DATA_EXPORT_FORMAT);
    expect(data.account).toMatchObject({ email: alice.email, emailVerified: true, role: 'user', disabled: false });
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    // Every sign-in came from the test's own address; the export names its network, not the address.
    for (const session of data.sessions) expect(session.ipPrefix).toBe('127.0.0.0/24');
    expect(data.sessions.some((s) => typeof s.userAgent === 'string' && s.userAgent.length > 0)).toBe(true);
    expect(data.notificationOptOuts.map((o) => o.kind)).toEqual(['ticket-replies']);
    const [ticket] = data.tickets;
    expect(ticket).toMatchObject({
      reason: 'Incident',
      open: false,
      rating: { good: true, comment: 'Quick and kind' },
    });
    expect(ticket!.messages.map((m) => [m.from, m.text])).toEqual([
      ['you', 'My surfboard arrived cracked.'],
      ['you', 'Here'],
      ['support', 'We will cover it.'],
    ]);
    expect(ticket!.messages[1]!.attachments.map((a) => [a.name, a.kind])).toEqual([['crack.png', 'png']]);
    expect(data.partnerApplications.map((a) => a.companyName)).toEqual([company.companyName]);
    expect(data.partnerApplications[0]).toMatchObject({ status: 'pending', licenceFileKept: false });

    const text = res.body;
    expect(text).not.toContain(secretNote);
    expect(text).not.toContain('Bob asks something private.');
    expect(text).not.toContain(bob.email);
    expect(text).not.toContain(admin.email);
    // No secrets: no password hash, no session token or its hash, no storage keys.
    expect(text).not.toMatch(/\$argon2|scrypt|password|token|storage_?key|ticketAttachments\//i);
    expect(text).not.toContain(alice.cookie);
  });

  it('holds the claim of an Incident Report, decided and appealed, and nothing of its traveller or who decided it', async () => {
    const made = await alice.post('/api/support/tickets', {
      reason: 'Incident',
      message: 'The vase never came.',
      claimKind: 'lost',
      deliveryReference: 'BGS-4242',
      itemValue: '$1,200.50',
      deliveredOn: '2026-01-05',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { ticketId } = made.json() as { ticketId: string };
    const claimPath = `/api/admin/support/tickets/${ticketId}/claim`;
    const statement = 'Statement for the traveller: when did you hand the vase over?';
    const asked = await admin.post(`${claimPath}/traveller`, {
      email: bob.email,
      name: 'Tui Traveller',
      statement,
      seenVersion: 1,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const claimId = asked.json().claim.id as string;
    const travellerAnswer = 'Answer of the traveller: handed over at the depot.';
    const answered = await bob.post(`/api/claims/${claimId}/answer`, { message: travellerAnswer });
    expect(answered.statusCode, answered.body).toBe(200);
    const staffNote = 'Internal: the traveller sounds right';
    await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: staffNote });
    const seen = await admin.get(claimPath);
    const decided = await admin.post(`${claimPath}/decision`, {
      outcome: 'part',
      amount: 400,
      seenVersion: seen.json().claim.version,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const appealed = await alice.post(`/api/support/tickets/${ticketId}/claim/appeal`, {
      reason: 'The receipt shows what it cost.',
    });
    expect(appealed.statusCode, appealed.body).toBe(200);

    const { res, data } = await exportOf(alice);
    const ticket = data.tickets.find((t) => t.claim?.deliveryReference === 'BGS-4242');
    expect(ticket?.claim).toEqual({
      kind: 'lost',
      deliveryReference: 'BGS-4242',
      itemValue: { cents: 120050, nzd: '1200.50' },
      deliveredOn: '2026-01-05',
      state: 'appealed',
      createdAt: expect.any(String),
      decision: {
        outcome: 'part',
        amount: { cents: 40000, nzd: '400.00' },
        reason: null,
        decidedAt: expect.any(String),
      },
      appeal: { reason: 'The receipt shows what it cost.', at: expect.any(String) },
    });
    expect(Date.parse(ticket!.claim!.decision!.decidedAt)).toBeLessThanOrEqual(Date.parse(ticket!.claim!.appeal!.at));
    // Her other ticket (an Incident Report without a kind) is no claim.
    expect(data.tickets.filter((t) => t !== ticket).map((t) => t.claim)).toEqual([null]);
    const text = res.body;
    for (const secret of [statement, travellerAnswer, 'Tui Traveller', bob.email, staffNote, admin.email]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/traveller/i);
  });

  it("lists what the team did to the account, and an admin's own actions without other people's data", async () => {
    await admin.post(`/api/admin/users/${bob.id}/disable`);
    await admin.post(`/api/admin/users/${bob.id}/enable`);
    // Disabling ended Bob's sessions: he signs in again.
    const cookie = await signIn(t, bob.email, bob.password);
    const res = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: withCookie(t, cookie) });
    const about = (res.json() as DataExport).auditEntries;
    expect(about.map((e) => [e.action, e.about])).toEqual([
      ['user.disable', 'you'],
      ['user.enable', 'you'],
    ]);
    const admins = await exportOf(admin);
    const byAdmin = admins.data.auditEntries.filter((e) => e.about === 'by you');
    expect(byAdmin.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.disable', 'user.enable', 'ticket.note']),
    );
    expect(byAdmin.every((e) => e.details === null)).toBe(true);
    expect(JSON.stringify(admins.data)).not.toContain(bob.email);
  });

  it('answers 401 to a visitor who is not signed in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(401);
  });
});
