import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsApi } from '../../../src/contracts/api/reports.ts';
import { formatNzd } from '../../../src/contracts/claims.ts';
import { pathOf } from '../../../src/contracts/endpoint.ts';
import { CLAIM_REPORT_TEXT, CLAIMS_CSV_COLUMNS } from '../../../src/contracts/report-claims.ts';
import type { Report, ReportTickets } from '../../../src/contracts/reports.schemas.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The report's claims (contracts/report-claims.ts), made and decided through the API while the
 * app's clock walks across Matariki, Friday 10 July 2026 (closed in the default calendar: Monday to
 * Friday, 09:00–17:00). July is standard time in New Zealand (NZST, UTC+12).
 *
 *   claim  kind              value     made (NZ)         first decision (NZ)         working days
 *   F      lost              $10.00    Sun 5 Jul 23:30   declined Fri 17 Jul         (before the range)
 *   A      lost              $120.00   Mon 6 Jul 10:00   upheld Mon 6 Jul 15:00      0 (the same day)
 *   C      not-as-described  $80.50    Thu 9 Jul 11:00   declined Tue 14 Jul 10:00   2 (Mon 13, Tue 14)
 *          appealed Wed 15 Jul, decided on appeal in part, $40.00, Thu 16 Jul
 *   B      late              none      Thu 9 Jul 16:00   part $30.00 Mon 13 Jul      1 (Matariki is no working day)
 *   D      lost              $1,234.50 Fri 10 Jul 12:00  upheld Fri 17 Jul 10:00     5 (Mon 13 to Fri 17)
 *   E      other             none      Sat 11 Jul 09:00  not decided
 *   G      lost              $5.00     Mon 13 Jul 10:00  (after the range)
 *
 * The range is Monday 6 to Sunday 12 July. Days to decide, sorted: 0, 1, 2, 5. Nearest rank: the
 * median is the 2nd (⌈0.5 × 4⌉) = 1; the 90th percentile the 4th (⌈0.9 × 4⌉) = 5. (Interpolated,
 * they would be 1.5 and 4.1; counting Matariki as a working day, B would take 2 and the median be 2.)
 */
const clock = movableClock(new Date('2026-07-05T11:30:00Z'));
const nzst = (local: string) => new Date(`${local}:00+12:00`);
const RANGE = { from: '2026-07-06', to: '2026-07-12' };

let t: TestApp;
let sender: SupportUser;
let agent: ApiClient;
let lead: ApiClient;
const ticket: Record<string, { ticketId: string; ticketNo: number }> = {};

async function claim(key: string, at: string, body: Record<string, unknown>) {
  clock.set(nzst(at));
  const res = await sender.post('/api/support/tickets', {
    reason: 'Incident',
    message: `Claim ${key}: the delivery went wrong.`,
    deliveredOn: '2026-07-03',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  ticket[key] = res.json();
}

async function decide(key: string, at: string, body: Record<string, unknown>, who: ApiClient = agent) {
  clock.set(nzst(at));
  const seen = await who.get(`/api/admin/support/tickets/${ticket[key]!.ticketId}/claim`);
  const res = await who.post(`/api/admin/support/tickets/${ticket[key]!.ticketId}/claim/decision`, {
    ...body,
    seenVersion: seen.json().claim.version,
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({
    mailWorker: false,
    serviceLevelWorker: false,
    clock,
    // The clock walks twelve days: the sessions made at its start must last.
    env: { TICKETS_PER_USER_PER_HOUR: '1000', SESSION_IDLE_MINUTES: '100000', SESSION_ABSOLUTE_HOURS: '10000' },
  });
  [sender, agent, lead] = await Promise.all([supportUser(t), apiClient(t), apiClient(t)]);

  await claim('F', '2026-07-05T23:30', { claimKind: 'lost', deliveryReference: 'BGS-7000', itemValue: '10' });
  await claim('A', '2026-07-06T10:00', { claimKind: 'lost', deliveryReference: 'BGS-7001', itemValue: '120' });
  await decide('A', '2026-07-06T15:00', { outcome: 'upheld' });
  await claim('C', '2026-07-09T11:00', {
    claimKind: 'not-as-described',
    deliveryReference: 'BGS-7003',
    itemValue: '80.50',
  });
  await claim('B', '2026-07-09T16:00', { claimKind: 'late', deliveryReference: 'BGS-7002' });
  await claim('D', '2026-07-10T12:00', { claimKind: 'lost', deliveryReference: 'BGS-7004', itemValue: '$1,234.50' });
  await claim('E', '2026-07-11T09:00', { claimKind: 'other', deliveryReference: 'BGS-7005' });
  await decide('B', '2026-07-13T10:00', { outcome: 'part', amount: '30' });
  await claim('G', '2026-07-13T10:00', { claimKind: 'lost', deliveryReference: 'BGS-7006', itemValue: '5' });
  await decide('C', '2026-07-14T10:00', { outcome: 'declined', reason: 'It matches the listing.' });
  clock.set(nzst('2026-07-15T10:00'));
  const appeal = await sender.post(`/api/support/tickets/${ticket.C!.ticketId}/claim/appeal`, {
    reason: 'The listing said leather; it is plastic.',
  });
  expect(appeal.statusCode, appeal.body).toBe(200);
  // An appeal is decided by someone other than who decided first.
  await decide('C', '2026-07-16T10:00', { outcome: 'part', amount: '40' }, lead);
  await decide('D', '2026-07-17T10:00', { outcome: 'upheld' });
  await decide('F', '2026-07-17T10:30', { outcome: 'declined', reason: 'Delivered to the door, photographed.' });
});
afterAll(() => t.close());

async function report(query: Record<string, string> = RANGE) {
  const res = await agent.get(pathOf(reportsApi.report, { query }));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Report).claims;
}
async function list(query: Record<string, string>) {
  const res = await agent.get(pathOf(reportsApi.tickets, { query: { ...RANGE, ...query } }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportTickets;
}
const numbers = (tickets: ReportTickets) => tickets.tickets.map((x) => x.ticketNo).sort((a, b) => a - b);
const noOf = (...keys: string[]) => keys.map((key) => ticket[key]!.ticketNo).sort((a, b) => a - b);

describe('the claims of 6–12 July 2026', () => {
  it('counts the claims made in the range by what happened, every kind listed', async () => {
    const claims = await report();
    expect(claims.made).toBe(5);
    expect(claims.kinds).toEqual([
      { kind: 'lost', count: 2 },
      { kind: 'damaged', count: 0 },
      { kind: 'late', count: 1 },
      { kind: 'not-as-described', count: 1 },
      { kind: 'other', count: 1 },
    ]);
  });

  it('shares the decided claims by their first decision, an appeal’s decision aside', async () => {
    const claims = await report();
    expect(claims.decided).toBe(4);
    expect(claims.outcomes).toEqual([
      { outcome: 'upheld', count: 2 },
      { outcome: 'part', count: 1 },
      { outcome: 'declined', count: 1 },
    ]);
  });

  it('adds up what was paid (the amounts as they stand, after the appeal) and the value claimed', async () => {
    const claims = await report();
    // Paid: A 120.00 + B 30.00 + C 40.00 (declined first, in part on appeal) + D 1,234.50.
    expect(claims.paidCents).toBe(142_450);
    expect(formatNzd(claims.paidCents)).toBe('$1,424.50');
    // Claimed: A 120.00 + C 80.50 + D 1,234.50 (B and E gave no value).
    expect(claims.claimedCents).toBe(143_500);
    expect(formatNzd(claims.claimedCents)).toBe('$1,435.00');
  });

  it('counts working days to the first decision in the calendar, Matariki closed: nearest-rank median and 90th percentile', async () => {
    const claims = await report();
    expect(claims.medianDecisionDays).toBe(1);
    expect(claims.p90DecisionDays).toBe(5);
    // One day alone: only A (0 days) was made on Monday 6 July.
    const monday = await report({ from: '2026-07-06', to: '2026-07-06' });
    expect(monday).toMatchObject({ made: 1, decided: 1, medianDecisionDays: 0, p90DecisionDays: 0 });
  });

  it('with a label, only the claims whose tickets have it: in the figures, the lists and the CSV', async () => {
    const created = await agent.post('/api/admin/labels', { name: `Claims ${Date.now().toString(36)}` });
    expect(created.statusCode, created.body).toBe(200);
    const label = created.json().label.id as string;
    for (const key of ['C', 'G']) {
      const res = await agent.put(`/api/admin/support/tickets/${ticket[key]!.ticketId}/labels`, { labelIds: [label] });
      expect(res.statusCode, res.body).toBe(200);
    }
    const claims = await report({ ...RANGE, label });
    expect(claims).toMatchObject({ made: 1, decided: 1, paidCents: 4000, claimedCents: 8050, medianDecisionDays: 2 });
    expect(claims.kinds.find((k) => k.kind === 'not-as-described')!.count).toBe(1);
    expect(numbers(await list({ figure: 'claim-kind', claimKind: 'lost', label }))).toEqual([]);
    expect(numbers(await list({ figure: 'claims', label }))).toEqual(noOf('C'));
    const csv = await agent.get(pathOf(reportsApi.claimsCsv, { query: { ...RANGE, label } }));
    expect(csv.body.split('\r\n').filter(Boolean).slice(1)).toEqual([expect.stringMatching(/^\d+,2026-07-09 11:00,/)]);
  });

  it('a range without claims lists every kind at zero, and has no times', async () => {
    const claims = await report({ from: '2026-06-01', to: '2026-06-30' });
    expect(claims).toMatchObject({ made: 0, decided: 0, paidCents: 0, claimedCents: 0, medianDecisionDays: null });
    expect(claims.kinds.map((k) => k.count)).toEqual([0, 0, 0, 0, 0]);
    expect(claims.outcomes.map((o) => o.count)).toEqual([0, 0, 0]);
  });
});

describe('the claims’ tickets and CSV', () => {
  it('each kind’s and each first decision’s count opens its tickets', async () => {
    const lost = await list({ figure: 'claim-kind', claimKind: 'lost' });
    expect(lost.title).toBe(CLAIM_REPORT_TEXT.listKind('lost'));
    expect(numbers(lost)).toEqual(noOf('A', 'D'));
    expect(numbers(await list({ figure: 'claim-kind', claimKind: 'damaged' }))).toEqual([]);
    expect(numbers(await list({ figure: 'claim-kind', claimKind: 'other' }))).toEqual(noOf('E'));
    expect(numbers(await list({ figure: 'claim-outcome', claimOutcome: 'upheld' }))).toEqual(noOf('A', 'D'));
    expect(numbers(await list({ figure: 'claim-outcome', claimOutcome: 'part' }))).toEqual(noOf('B'));
    // C counts as declined: its first decision, though the appeal upheld it in part.
    expect(numbers(await list({ figure: 'claim-outcome', claimOutcome: 'declined' }))).toEqual(noOf('C'));
    expect(numbers(await list({ figure: 'claims-decided' }))).toEqual(noOf('A', 'B', 'C', 'D'));
    expect(numbers(await list({ figure: 'claims' }))).toEqual(noOf('A', 'B', 'C', 'D', 'E'));
  });

  it('a kind or decision left out or unknown is refused in words', async () => {
    const noKind = await agent.get(pathOf(reportsApi.tickets, { query: { ...RANGE, figure: 'claim-kind' } }));
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().error.fields).toEqual({ claimKind: CLAIM_REPORT_TEXT.needsKind });
    const noOutcome = await agent.get(pathOf(reportsApi.tickets, { query: { ...RANGE, figure: 'claim-outcome' } }));
    expect(noOutcome.json().error.fields).toEqual({ claimOutcome: CLAIM_REPORT_TEXT.needsOutcome });
    const stolen = await agent.get(
      pathOf(reportsApi.tickets, { query: { ...RANGE, figure: 'claim-kind', claimKind: 'stolen' } }),
    );
    expect(stolen.statusCode).toBe(400);
  });

  it('the CSV has one row per claim made in the range, with its first decision and working days', async () => {
    const res = await agent.get(pathOf(reportsApi.claimsCsv, { query: RANGE }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="claims-2026-07-06-to-2026-07-12.csv"');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const no = (key: string) => ticket[key]!.ticketNo;
    expect(res.body.slice(1).split('\r\n')).toEqual([
      CLAIMS_CSV_COLUMNS.join(','),
      `${no('A')},2026-07-06 10:00,Lost,BGS-7001,120.00,Decided,Upheld in full,2026-07-06 15:00,0,Upheld in full,120.00`,
      `${no('C')},2026-07-09 11:00,Not as described,BGS-7003,80.50,Closed,Declined,2026-07-14 10:00,2,Upheld in part,40.00`,
      `${no('B')},2026-07-09 16:00,Late,BGS-7002,,Decided,Upheld in part,2026-07-13 10:00,1,Upheld in part,30.00`,
      `${no('D')},2026-07-10 12:00,Lost,BGS-7004,1234.50,Decided,Upheld in full,2026-07-17 10:00,5,Upheld in full,1234.50`,
      `${no('E')},2026-07-11 09:00,Something else,BGS-7005,,Submitted,,,,,`,
      '',
    ]);
  });

  it('only those who read reports get them', async () => {
    for (const url of [
      pathOf(reportsApi.claimsCsv, { query: RANGE }),
      pathOf(reportsApi.tickets, { query: { ...RANGE, figure: 'claims' } }),
    ]) {
      expect((await sender.get(url)).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});
