import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../../src/contracts/claims.ts';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { BusinessCalendar, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { jpegWithGps, postFiles } from '../../helpers/attachment-files.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A claim's life after it is made (docs/decisions/153-claim-life.md): the traveller asked by mail
 * and answering on their page (seeing the claim's statement only), the sender asked for more, the
 * appeal (once, in its window, decided by someone else), the partner carrier's notice, and the
 * periods as settings, every wait on the team's working days.
 */
// Thursday 9 July 2026, 10:00 in Auckland: Matariki is Friday 10 July.
const clock = movableClock(new Date('2026-07-08T22:00:00Z'));
let t: TestApp;
let sender: SupportUser;
let traveller: SupportUser;
let stranger: SupportUser;
let agent: ApiClient;
let lead: ApiClient;
const calendar = new BusinessCalendar(DEFAULT_CALENDAR);

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, clock, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [sender, traveller, stranger, agent, lead] = await Promise.all([
    supportUser(t),
    supportUser(t),
    supportUser(t),
    apiClient(t, { role: 'admin' }),
    apiClient(t, { role: 'admin' }),
  ]);
});
afterAll(async () => {
  await t.close();
});

const claimPath = (ticketId: string) => `/api/admin/support/tickets/${ticketId}/claim`;
const claimOf = async (ticketId: string) => {
  const res = await agent.get(claimPath(ticketId));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().claim;
};

async function newClaim(reference: string, message = 'The jacket never came.') {
  const res = await sender.post('/api/support/tickets', {
    reason: 'Incident',
    message,
    claimKind: 'lost',
    deliveryReference: reference,
    itemValue: 150,
    deliveredOn: '2026-07-07',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticketId as string;
}

const statement = 'The sender says the jacket never arrived. When did you hand it over, and to whom?';

describe('the traveller', () => {
  let ticketId: string;
  let claimId: string;
  beforeAll(async () => {
    ticketId = await newClaim('BGS-7001', 'My own words, for the team only: the jacket never came.');
  });

  it('is asked by mail with a link to their page; their answer is due 2 working days later (Matariki not counted)', async () => {
    const res = await agent.post(`${claimPath(ticketId)}/traveller`, {
      email: traveller.email.toUpperCase(),
      name: 'Sam',
      statement,
      seenVersion: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const claim = res.json().claim;
    claimId = claim.id;
    expect(claim).toMatchObject({
      state: 'with-traveller',
      version: 2,
      traveller: { email: traveller.email.toLowerCase(), name: 'Sam', statement, answeredAt: null },
    });
    // Thursday 10:00 + 2 working days: Friday is Matariki, so Tuesday 14 July at 10:00.
    expect(newZealandDate(new Date(claim.dueAt))).toBe('2026-07-14');
    expect(claim.dueAt).toBe(calendar.addWorkingDays(new Date(claim.traveller.askedAt), 2).toISOString());
    const [mail] = await queryRows<{ recipient: string; subject: string; text_body: string }>(
      t.database.db,
      sql`select recipient, subject, text_body from mail_outbox where kind = 'claim-traveller' and recipient = ${traveller.email.toLowerCase()}`,
    );
    expect(mail?.subject).toBe(CLAIM_TEXT.travellerMail('BGS-7001'));
    expect(mail?.text_body).toContain(`/support/claims/${claimId}`);
    expect(mail?.text_body).toContain(statement);
    expect(mail?.text_body).not.toContain('My own words');
  });

  it('the sender cannot be asked as the traveller, and a stale form is stopped', async () => {
    const self = await agent.post(`${claimPath(ticketId)}/traveller`, {
      email: sender.email,
      statement,
      seenVersion: 2,
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.fields).toEqual({ email: CLAIM_TEXT.travellerIsSender });
    const stale = await agent.post(`${claimPath(ticketId)}/traveller`, {
      email: traveller.email,
      statement,
      seenVersion: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(CLAIM_TEXT.alreadyDecided);
  });

  it('only the account at the address asked reads the claim, and reads its statement, not the ticket', async () => {
    for (const someone of [stranger, sender]) {
      const res = await someone.get(`/api/claims/${claimId}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(CLAIM_TEXT.travellerMissing);
      expect((await someone.post(`/api/claims/${claimId}/answer`, { message: 'Not mine' })).statusCode).toBe(404);
    }
    const res = await traveller.get(`/api/claims/${claimId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().claim).toMatchObject({
      id: claimId,
      kind: 'lost',
      deliveryReference: 'BGS-7001',
      deliveredOn: '2026-07-07',
      statement,
      answeredAt: null,
      answerable: true,
    });
    expect(res.body).not.toContain('My own words');
    expect(res.body).not.toContain(sender.email);
    // Nor the sender's ticket itself.
    expect((await traveller.get(`/api/support/tickets/${ticketId}`)).statusCode).toBe(404);
  });

  it('answers once with words and a photo: a note for staff only, and a decision due 5 working days later', async () => {
    const res = await postFiles(
      t,
      `/api/claims/${claimId}/answer`,
      traveller.headers,
      { message: 'I handed it to the sender at Wellington airport, whole.' },
      [{ name: 'handover.jpg', data: await jpegWithGps() }],
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().claim).toMatchObject({ answerable: false });
    const claim = await claimOf(ticketId);
    expect(claim).toMatchObject({ state: 'submitted', version: 3 });
    expect(claim.traveller.answeredAt).not.toBeNull();
    expect(claim.dueAt).toBe(
      calendar.addWorkingDays(new Date(claim.traveller.answeredAt), CLAIM_PERIODS.decisionDays).toISOString(),
    );
    const thread = (await agent.get(`/api/admin/support/tickets/${ticketId}`)).json();
    const note = thread.messages.find((m: { id: number }) => m.id === claim.traveller.messageId);
    expect(note).toMatchObject({
      internal: true,
      authorEmail: traveller.email,
      messageBody: 'I handed it to the sender at Wellington airport, whole.',
    });
    expect(note.attachments).toHaveLength(1);
    // The sender's thread never has it.
    const own = await sender.get(`/api/support/tickets/${ticketId}`);
    expect(own.statusCode).toBe(200);
    expect(own.body).not.toContain('Wellington airport');
    // A second answer: refused in words, nothing stored.
    const again = await traveller.post(`/api/claims/${claimId}/answer`, { message: 'And another thing' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CLAIM_TEXT.notAnswerable);
  });

  it('an empty answer is refused in words', async () => {
    const other = await newClaim('BGS-7002');
    const asked = await agent.post(`${claimPath(other)}/traveller`, {
      email: traveller.email,
      statement,
      seenVersion: 1,
    });
    const id = asked.json().claim.id;
    const res = await traveller.post(`/api/claims/${id}/answer`, { message: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ message: CLAIM_TEXT.answerRequired });
    expect((await claimOf(other)).state).toBe('with-traveller');
  });
});

describe('the sender asked for more', () => {
  it('waits with nothing due; their reply gives the claim back with a decision due', async () => {
    const ticketId = await newClaim('BGS-7101');
    const res = await agent.post(`${claimPath(ticketId)}/wait-for-sender`, { seenVersion: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().claim).toMatchObject({ state: 'information-requested', dueAt: null, version: 2 });
    // Waiting already: nothing to wait for again.
    const again = await agent.post(`${claimPath(ticketId)}/wait-for-sender`, { seenVersion: 2 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CLAIM_TEXT.notWaitable);
    // A note of the team's does not count as the sender's answer.
    await agent.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Asked them for the receipt.' });
    expect((await claimOf(ticketId)).state).toBe('information-requested');
    const reply = await sender.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Receipt attached.' });
    expect(reply.statusCode, reply.body).toBe(200);
    const claim = await claimOf(ticketId);
    expect(claim).toMatchObject({ state: 'submitted', version: 3 });
    expect(claim.dueAt).toBe(
      calendar.addWorkingDays(new Date(reply.json().message.timestamp), CLAIM_PERIODS.decisionDays).toISOString(),
    );
  });
});

describe('the partner carrier', () => {
  it('records the company and the notice day; the law’s days are counted from delivery', async () => {
    const ticketId = await newClaim('BGS-7201');
    const [company] = await queryRows<{ id: string }>(
      t.database.db,
      sql`insert into companies (company_name, address, phone_number, verified, name_key, phone_key)
          values ('Kea Freight Ltd', '1 Quay St, Auckland', '+64 9 300 1000', 1, 'kea freight', '6493001000')
          returning id`,
    );
    const before = await agent.get(claimPath(ticketId));
    expect(before.json().carriers).toContainEqual({ id: company!.id, name: 'Kea Freight Ltd' });
    // A day after today, and year 0 (which the database has not: the fuzzer's find, once a 500).
    for (const [noticeSentOn, message] of [
      ['2026-08-01', CLAIM_TEXT.noticeFuture],
      ['0000-01-01', CLAIM_TEXT.dayTooEarly],
    ]) {
      const refused = await agent.post(`${claimPath(ticketId)}/carrier`, {
        companyId: company!.id,
        noticeSentOn,
        seenVersion: 1,
      });
      expect(refused.statusCode, noticeSentOn).toBe(400);
      expect(refused.json().error.fields, noticeSentOn).toEqual({ noticeSentOn: message });
    }
    const unknown = await agent.post(`${claimPath(ticketId)}/carrier`, {
      companyId: '00000000-0000-4000-8000-000000000001',
      seenVersion: 1,
    });
    expect(unknown.json().error.fields).toEqual({ companyId: CLAIM_TEXT.carrierMissing });
    const res = await agent.post(`${claimPath(ticketId)}/carrier`, {
      companyId: company!.id,
      noticeSentOn: '2026-07-09',
      seenVersion: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().claim.carrier).toEqual({
      companyId: company!.id,
      companyName: 'Kea Freight Ltd',
      noticeSentOn: '2026-07-09',
      noticeBy: '2026-08-06',
      actionBy: '2027-07-07',
    });
    // Removed again (a blank company).
    const none = await agent.post(`${claimPath(ticketId)}/carrier`, { companyId: '', seenVersion: 2 });
    expect(none.json().claim.carrier).toBeNull();
  });
});

describe('the periods as settings', () => {
  it('the database’s defaults are the contract’s, and a setting changes the next wait', async () => {
    for (const [name, days] of Object.entries(CLAIM_PERIODS)) {
      const [row] = await queryRows<{ days: number }>(t.database.db, sql`select claim_period(${name}) as days`);
      expect([name, Number(row?.days)]).toEqual([name, days]);
    }
    await t.database.db.execute(
      sql`insert into settings (key, value) values ('claims/periods', '{"travellerAnswerDays": 3}'::jsonb)`,
    );
    try {
      const ticketId = await newClaim('BGS-7301');
      const res = await agent.post(`${claimPath(ticketId)}/traveller`, {
        email: traveller.email,
        statement,
        seenVersion: 1,
      });
      const claim = res.json().claim;
      expect(claim.dueAt).toBe(calendar.addWorkingDays(new Date(claim.traveller.askedAt), 3).toISOString());
      // The others keep their defaults.
      const [row] = await queryRows<{ days: number }>(t.database.db, sql`select claim_period('decisionDays') as days`);
      expect(Number(row?.days)).toBe(CLAIM_PERIODS.decisionDays);
    } finally {
      await t.database.db.execute(sql`delete from settings where key = 'claims/periods'`);
    }
  });
});

describe('the appeal', () => {
  it('once, within its window, decided by someone other than who decided; that decision closes the claim', async () => {
    const ticketId = await newClaim('BGS-7401');
    const own = async () => (await sender.get(`/api/support/tickets/${ticketId}/claim`)).json().claim;
    expect(await own()).toMatchObject({ state: 'submitted', decision: null, appealUntil: null });
    // Too early: nothing to appeal.
    const early = await sender.post(`/api/support/tickets/${ticketId}/claim/appeal`, { reason: 'Too soon' });
    expect(early.statusCode).toBe(409);
    const decided = await agent.post(`${claimPath(ticketId)}/decision`, {
      outcome: 'declined',
      reason: 'The traveller handed it over whole.',
      seenVersion: 1,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const mine = await own();
    expect(mine).toMatchObject({
      state: 'decided',
      decision: { outcome: 'declined', reason: 'The traveller handed it over whole.' },
    });
    expect(mine.appealUntil).toBe(decided.json().claim.dueAt);
    // Another customer cannot see it or appeal it.
    expect((await stranger.get(`/api/support/tickets/${ticketId}/claim`)).json().claim).toBeNull();
    expect(
      (await stranger.post(`/api/support/tickets/${ticketId}/claim/appeal`, { reason: 'Not mine' })).statusCode,
    ).toBe(404);
    const empty = await sender.post(`/api/support/tickets/${ticketId}/claim/appeal`, { reason: ' ' });
    expect(empty.json().error.fields).toEqual({ reason: CLAIM_TEXT.appealReasonRequired });
    const appealed = await sender.post(`/api/support/tickets/${ticketId}/claim/appeal`, {
      reason: 'The photo shows the torn bag.',
    });
    expect(appealed.statusCode, appealed.body).toBe(200);
    expect(appealed.json().claim).toMatchObject({ state: 'appealed', appealUntil: null });
    const twice = await sender.post(`/api/support/tickets/${ticketId}/claim/appeal`, { reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(CLAIM_TEXT.notAppealable);
    const staff = await claimOf(ticketId);
    expect(staff).toMatchObject({ state: 'appealed', appeal: { reason: 'The photo shows the torn bag.' } });
    expect(staff.dueAt).toBe(
      calendar.addWorkingDays(new Date(staff.appeal.at), CLAIM_PERIODS.appealDecisionDays).toISOString(),
    );
    // The first decider may not decide the appeal.
    const same = await agent.post(`${claimPath(ticketId)}/decision`, { outcome: 'upheld', seenVersion: staff.version });
    expect(same.statusCode).toBe(403);
    expect(same.json().error.message).toBe(CLAIM_TEXT.appealByOther);
    const other = await lead.post(`${claimPath(ticketId)}/decision`, { outcome: 'upheld', seenVersion: staff.version });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().claim).toMatchObject({
      state: 'closed',
      dueAt: null,
      decision: { outcome: 'upheld', amountCents: 15000 },
    });
    expect(other.json().claim.decisions.map((d: { outcome: string }) => d.outcome)).toEqual(['declined', 'upheld']);
    expect(other.json().claim.closedAt).not.toBeNull();
    expect(await own()).toMatchObject({ state: 'closed', appealUntil: null, decision: { outcome: 'upheld' } });
  });

  it('is refused once its window has ended', async () => {
    const ticketId = await newClaim('BGS-7402');
    const decided = await agent.post(`${claimPath(ticketId)}/decision`, {
      outcome: 'declined',
      reason: 'No proof of value.',
      seenVersion: 1,
    });
    clock.set(new Date(Date.parse(decided.json().claim.dueAt) + 60_000));
    const late = await sender.post(`/api/support/tickets/${ticketId}/claim/appeal`, { reason: 'Here is the receipt.' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(CLAIM_TEXT.notAppealable);
    expect((await sender.get(`/api/support/tickets/${ticketId}/claim`)).json().claim.appealUntil).toBeNull();
  });
});
