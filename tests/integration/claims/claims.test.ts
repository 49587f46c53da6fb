import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_TEXT } from '../../../src/contracts/attachments.ts';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../../src/contracts/claims.ts';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { BusinessCalendar, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { jpegWithGps, pdf, png, postFiles } from '../../helpers/attachment-files.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/**
 * Incident claims (docs/decisions/152-incident-claims.md): an Incident Report with what happened,
 * the delivery, the item's value and a photo for damage opens a claim with its due times in working
 * days of the team's calendar; staff decide it once per version, and the app hears each decision
 * once (claim.decided), whatever is sent again.
 */
const clock = movableClock(new Date('2026-12-22T22:00:00Z')); // Wednesday 23 December, 11:00 in Auckland
let t: TestApp;
let sender: SupportUser;
let agent: ApiClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, clock, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [sender, agent] = await Promise.all([supportUser(t), apiClient(t, { role: 'admin' })]);
  receiver = await startWebhookReceiver();
  const res = await agent.post('/api/admin/webhooks', { url: receiver.url(), events: ['claim.decided'] });
  expect(res.statusCode, res.body).toBe(201);
  receiver.setSecret(res.json().secret);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const claimOf = async (ticketId: string) => {
  const res = await agent.get(`/api/admin/support/tickets/${ticketId}/claim`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().claim;
};

const damaged = { reason: 'Incident', message: 'The vase arrived in pieces.', claimKind: 'damaged' };

describe('asking well', () => {
  it('a damaged item with a photo opens a claim: its facts, its window and the decision due in 5 working days', async () => {
    const res = await postFiles(
      t,
      '/api/support/tickets',
      sender.headers,
      { ...damaged, deliveryReference: 'BGS-1042', itemValue: '$1,200.50', deliveredOn: '2026-12-21' },
      [
        { name: 'box.jpg', data: await jpegWithGps() },
        { name: 'label.pdf', data: pdf() },
      ],
    );
    expect(res.statusCode, res.body).toBe(201);
    const { ticketId } = res.json();
    const claim = await claimOf(ticketId);
    expect(claim).toMatchObject({
      ticketId,
      kind: 'damaged',
      deliveryReference: 'BGS-1042',
      itemValueCents: 120050,
      deliveredOn: '2026-12-21',
      state: 'submitted',
      version: 1,
      evidence: 2,
      late: false,
      claimedLate: false,
      decision: null,
    });
    // Seven working days from Monday 21 December: Christmas, Boxing Day (Mondayised to the 28th)
    // and the New Year's two days are not counted.
    expect(claim.windowEndsOn).toBe('2027-01-05');
    // Five working days from Wednesday 23 December 11:00: 24, 29, 30, 31 December and 5 January.
    expect(newZealandDate(new Date(claim.dueAt))).toBe('2027-01-05');
    expect(new Date(claim.dueAt).toISOString().slice(0, 13)).toBe('2027-01-04T22');
    // The ticket carries the delivery, so its card shows it.
    const ticket = await agent.get(`/api/admin/support/tickets/${ticketId}`);
    expect(ticket.json().ticket.deliveryReference).toBe('BGS-1042');
  });

  it('a damaged item without a photo is refused, in words, and nothing is kept', async () => {
    const [{ count: before } = { count: -1 }] = await queryRows<{ count: number }>(
      t.database.db,
      sql`select count(*)::int from support_tickets`,
    );
    const res = await postFiles(
      t,
      '/api/support/tickets',
      sender.headers,
      { ...damaged, deliveryReference: 'BGS-1043', itemValue: '80' },
      [{ name: 'receipt.pdf', data: pdf() }],
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      message: CLAIM_TEXT.photoRequired,
      fields: { files: CLAIM_TEXT.photoRequired },
    });
    const json = await sender.post('/api/functions/createSupportTicket', {
      data: { ...damaged, deliveryReference: 'BGS-1043', itemValue: 80 },
    });
    expect(json.statusCode).toBe(400);
    const [{ count: after } = { count: -2 }] = await queryRows<{ count: number }>(
      t.database.db,
      sql`select count(*)::int from support_tickets`,
    );
    expect(after).toBe(before);
  });

  it('says what is missing or wrong under each field', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ claimKind: 'lost' }, { deliveryReference: CLAIM_TEXT.deliveryRequired, itemValue: CLAIM_TEXT.valueRequired }],
      [
        { claimKind: 'lost', deliveryReference: 'BGS 1', itemValue: '10' },
        { deliveryReference: CLAIM_TEXT.deliveryInvalid },
      ],
      [{ claimKind: 'lost', deliveryReference: 'BGS-1', itemValue: 'ten' }, { itemValue: CLAIM_TEXT.valueInvalid }],
      [
        { claimKind: 'late', deliveryReference: 'BGS-1', deliveredOn: '21/12/2026' },
        { deliveredOn: CLAIM_TEXT.deliveredOnInvalid },
      ],
      [{ claimKind: 'lost', deliveryReference: 'BGS-1', itemValue: '100001' }, { itemValue: CLAIM_TEXT.valueTooLarge }],
      [{ claimKind: 'stolen', deliveryReference: 'BGS-1' }, { claimKind: CLAIM_TEXT.chooseKind }],
      [
        { reason: 'General', claimKind: 'late', deliveryReference: 'BGS-1' },
        { claimKind: CLAIM_TEXT.kindWithoutIncident },
      ],
      [
        { claimKind: 'late', deliveryReference: 'BGS-1', deliveredOn: '2026-12-24' },
        { deliveredOn: CLAIM_TEXT.deliveredOnFuture },
      ],
      // A day the database cannot hold (there is no year 0): a field's message, not a failure of ours.
      [
        { claimKind: 'late', deliveryReference: 'BGS-1', deliveredOn: '0000-01-01' },
        { deliveredOn: CLAIM_TEXT.dayTooEarly },
      ],
      [
        { claimKind: 'late', deliveryReference: 'BGS-1', deliveredOn: '1899-12-31' },
        { deliveredOn: CLAIM_TEXT.dayTooEarly },
      ],
    ];
    for (const [fields, expected] of cases) {
      const res = await sender.post('/api/support/tickets', {
        reason: 'Incident',
        message: 'It went wrong.',
        ...fields,
      });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().error.fields, JSON.stringify(fields)).toEqual(expected);
    }
  });

  it('a body that is no form at all is a 400, never a failure of ours', async () => {
    for (const body of [{}, { data: null }, { data: 'claim' }, { data: [] }, { data: { claimKind: 'lost' } }]) {
      const res = await sender.post('/api/functions/createSupportTicket', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const incident = { reason: 'Incident', message: 'It went wrong.', claimKind: 'damaged' };
    for (const body of [
      null,
      [],
      'claim',
      { ...incident, claimKind: ['lost'], deliveryReference: {} },
      { ...incident, deliveryReference: 'BGS-1', itemValue: [] },
      { ...incident, deliveryReference: 7, itemValue: { dollars: 5 }, deliveredOn: 20261201 },
      { ...incident, deliveryReference: 'BGS-1', itemValue: '5', deliveredOn: '9999-12-30' },
    ]) {
      const res = await sender.post('/api/support/tickets', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('a late delivery needs no value; an Incident Report without a kind is a ticket as before', async () => {
    const late = await sender.post('/api/support/tickets', {
      reason: 'Incident',
      message: 'It came a week after the date.',
      claimKind: 'late',
      deliveryReference: 'BGS-2001',
      deliveredOn: '2026-12-01',
    });
    expect(late.statusCode, late.body).toBe(201);
    // Seven working days from 1 December ended on 10 December: this claim came after its window.
    expect(await claimOf(late.json().ticketId)).toMatchObject({
      kind: 'late',
      itemValueCents: null,
      windowEndsOn: '2026-12-10',
      claimedLate: true,
    });
    const plain = await sender.createTicket('Incident', 'Something about my account.');
    expect(await claimOf(plain.ticketId)).toBeNull();
  });

  it('a claim takes up to ten files; a ticket without one keeps to five', async () => {
    const photo = await png();
    const photos = Array.from({ length: 10 }, (_, i) => ({ name: `photo-${i}.png`, data: photo }));
    const ten = await postFiles(
      t,
      '/api/support/tickets',
      sender.headers,
      { ...damaged, deliveryReference: 'BGS-3001', itemValue: '40' },
      photos,
    );
    expect(ten.statusCode, ten.body).toBe(201);
    expect((await claimOf(ten.json().ticketId)).evidence).toBe(10);
    const eleven = await postFiles(
      t,
      '/api/support/tickets',
      sender.headers,
      { ...damaged, deliveryReference: 'BGS-3002', itemValue: '40' },
      [...photos, { name: 'one-more.png', data: photo }],
    );
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error.message).toBe(CLAIM_TEXT.tooManyFiles);
    const six = await postFiles(
      t,
      '/api/support/tickets',
      sender.headers,
      { reason: 'General', message: 'Six photos of my bag.' },
      photos.slice(0, 6),
    );
    expect(six.statusCode).toBe(400);
    expect(six.json().error.message).toBe(ATTACHMENT_TEXT.tooMany);
  });
});

describe('the working days the database counts', () => {
  it('agree with the team calendar on Matariki, Mondayised days and the Christmas break', async () => {
    const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
    const starts = [
      '2026-07-09T21:00:00Z', // Friday 10 July 2026, Matariki, 09:00
      '2026-04-23T23:30:00Z', // Friday 24 April, before Anzac Day on a Saturday (Mondayised)
      '2027-02-04T02:15:00Z', // Thursday 4 February, before Waitangi Day on a Saturday
      '2026-12-23T20:00:00Z', // Thursday 24 December
      '2027-01-01T03:00:00Z', // New Year's Day
    ];
    for (const start of starts) {
      for (const days of [1, 2, 5, 7, 10]) {
        const [row] = await queryRows<{ due: Date | string }>(
          t.database.db,
          sql`select claim_working_days(${start}::timestamptz, ${days}::integer) as due`,
        );
        expect(new Date(row!.due).toISOString(), `${start} + ${days}`).toBe(
          calendar.addWorkingDays(new Date(start), days).toISOString(),
        );
      }
    }
    // By name: 2 working days after Matariki Friday is Tuesday 14 July; after Christmas Eve, 30 December.
    expect(newZealandDate(calendar.addWorkingDays(new Date(starts[0]!), 2))).toBe('2026-07-14');
    expect(newZealandDate(calendar.addWorkingDays(new Date(starts[3]!), 2))).toBe('2026-12-30');
  });
});

describe('deciding', () => {
  let ticketId: string;
  beforeAll(async () => {
    const res = await sender.post('/api/support/tickets', {
      reason: 'Incident',
      message: 'The jacket never came.',
      claimKind: 'lost',
      deliveryReference: 'BGS-4001',
      itemValue: 120,
      deliveredOn: '2026-12-21',
    });
    expect(res.statusCode, res.body).toBe(201);
    ticketId = res.json().ticketId;
  });

  const decide = (body: Record<string, unknown>) =>
    agent.post(`/api/admin/support/tickets/${ticketId}/claim/decision`, body);

  it('refuses a decision without what it needs, in words', async () => {
    const noReason = await decide({ outcome: 'declined', seenVersion: 1 });
    expect(noReason.json().error.fields).toEqual({ reason: CLAIM_TEXT.reasonRequired });
    const noAmount = await decide({ outcome: 'part', seenVersion: 1 });
    expect(noAmount.json().error.fields).toEqual({ amount: CLAIM_TEXT.amountRequired });
    const tooMuch = await decide({ outcome: 'part', amount: '120.01', seenVersion: 1 });
    expect(tooMuch.json().error.fields).toEqual({ amount: CLAIM_TEXT.amountOverValue('$120.00') });
    expect((await claimOf(ticketId)).state).toBe('submitted');
  });

  it('the customer cannot read or decide the claim', async () => {
    expect((await sender.get(`/api/admin/support/tickets/${ticketId}/claim`)).statusCode).toBe(403);
    const res = await sender.post(`/api/admin/support/tickets/${ticketId}/claim/decision`, {
      outcome: 'upheld',
      seenVersion: 1,
    });
    expect(res.statusCode).toBe(403);
  });

  it('a decision moves the claim on, starts the appeal window and reaches the app once, however often it is sent', async () => {
    const body = { outcome: 'part', amount: '45.50', seenVersion: 1 };
    const first = await decide(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().claim).toMatchObject({
      state: 'decided',
      version: 2,
      decision: { outcome: 'part', amountCents: 4550, reason: null, decidedBy: agent.email },
    });
    // The appeal window: ten working days from the decision (the app's clock).
    const decidedAt = new Date(first.json().claim.decision.decidedAt);
    expect(first.json().claim.dueAt).toBe(
      new BusinessCalendar(DEFAULT_CALENDAR).addWorkingDays(decidedAt, CLAIM_PERIODS.appealWindowDays).toISOString(),
    );
    expect(newZealandDate(new Date(first.json().claim.dueAt))).toBe('2027-01-12');
    // The same decision sent again, and sent twice at once: the claim as it is; nothing decided again.
    const again = await Promise.all([decide(body), decide(body)]);
    expect(again.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(again.map((r) => r.json().claim.version)).toEqual([2, 2]);
    // Another decision made on the version that was decided: stopped.
    const other = await decide({ outcome: 'declined', reason: 'Not carried by us', seenVersion: 1 });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.message).toBe(CLAIM_TEXT.alreadyDecided);
    const stale = await decide({ outcome: 'declined', reason: 'Not carried by us', seenVersion: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(CLAIM_TEXT.notDecidable);

    await t.app.webhooksWorker.run();
    const told = receiver.received.filter((r) => r.payload?.type === 'claim.decided');
    expect(told).toHaveLength(1);
    expect(told[0]!.verified).toBe(true);
    expect(told[0]!.payload!.data).toMatchObject({
      ticketId,
      deliveryReference: 'BGS-4001',
      kind: 'lost',
      version: 2,
      outcome: 'part',
      amount: 4550,
      currency: 'NZD',
      itemValue: 12000,
      appeal: false,
      parties: { sender: { userId: sender.id } },
    });
    const decisions = await queryRows<{ version: number }>(
      t.database.db,
      sql`select d.version from claim_decisions d join incident_claims c on c.id = d.claim_id where c.ticket_id = ${ticketId}::uuid`,
    );
    expect(decisions).toEqual([{ version: 2 }]);
  });
});
