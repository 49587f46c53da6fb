import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_DUE_TEXT } from '../../../src/contracts/partner-review.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { register, validCompany } from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Review due dates of partner applications, as an admin sees them: each pending application is due
 * for review two New Zealand working days after it was submitted and is late from the day after;
 * the list filters the late ones (due=late), orders by due date (sort=due) and counts them, and the
 * console's home says how many are late. The app's clock is moved; the submissions are written
 * into the database (the database stamps created_at with its own now()).
 */
const clock = movableClock();
let t: TestApp;
let admin: SupportUser;

beforeAll(async () => {
  t = await createTestApp({ web: true, clock, env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

/** An instant at a New Zealand wall-clock time (December is NZDT, UTC+13). */
const nz = (local: string) => new Date(`${local}+13:00`);

interface Listed {
  id: string;
  companyName: string;
  reviewDue: { dueDate: string; late: boolean } | null;
}
interface List {
  companies: Listed[];
  counts: Record<'pending' | 'verified' | 'rejected' | 'banned' | 'late', number>;
}

async function list(query: string): Promise<List> {
  const res = await admin.get(`/api/admin/companies?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as List;
}

/** An application submitted at `submittedAt`. */
async function applied(submittedAt: Date) {
  const fields = validCompany();
  const res = await register(t, fields);
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  await t.database.db.execute(
    sql`update companies set created_at = ${submittedAt.toISOString()}::timestamptz, submitted_at = ${submittedAt.toISOString()}::timestamptz where id = ${id}`,
  );
  return { id, name: fields.companyName };
}

const ids = (result: List) => result.companies.map((company) => company.id);
const dueOf = (result: List, id: string) => result.companies.find((company) => company.id === id)?.reviewDue;

describe('partner applications’ review due dates', () => {
  // Submitted Monday 30 November 09:00 (due Wed 2 Dec), Thursday 3 December (due Mon 7 Dec), Friday
  // 4 December 16:00 (due Tue 8 Dec), Tuesday 8 December (due Thu 10 Dec); sent out of order.
  let monday: { id: string; name: string };
  let thursday: { id: string; name: string };
  let friday: { id: string; name: string };
  let tuesday: { id: string; name: string };
  let approved: { id: string; name: string };
  let rejected: { id: string; name: string };
  let banned: { id: string; name: string };

  beforeAll(async () => {
    friday = await applied(nz('2026-12-04T16:00:00'));
    tuesday = await applied(nz('2026-12-08T09:00:00'));
    monday = await applied(nz('2026-11-30T09:00:00'));
    thursday = await applied(nz('2026-12-03T10:00:00'));
    // Decided (and banned) ones, submitted long before: never late.
    approved = await applied(nz('2026-11-02T09:00:00'));
    rejected = await applied(nz('2026-11-02T09:00:00'));
    banned = await applied(nz('2026-11-02T09:00:00'));
    expect((await admin.post(`/api/admin/companies/${approved.id}/approve`)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/companies/${rejected.id}/reject`, { reason: 'No licence' })).statusCode).toBe(
      200,
    );
    expect((await admin.post(`/api/admin/companies/${banned.id}/ban`)).statusCode).toBe(200);
  });

  it('is not late on its due date, and late the next working day', async () => {
    clock.set(nz('2026-12-08T16:59:00'));
    let pending = await list('status=pending');
    expect(dueOf(pending, friday.id)).toEqual({ dueDate: '2026-12-08', late: false });
    expect(ids(await list('status=pending&due=late'))).not.toContain(friday.id);

    clock.set(nz('2026-12-09T00:01:00'));
    pending = await list('status=pending');
    expect(dueOf(pending, friday.id)).toEqual({ dueDate: '2026-12-08', late: true });
    expect(ids(await list('status=pending&due=late'))).toContain(friday.id);
    // The application's own page says the same; a decided one has nothing due.
    expect((await admin.get(`/api/admin/companies/${friday.id}`)).json().reviewDue).toEqual({
      dueDate: '2026-12-08',
      late: true,
    });
    expect((await admin.get(`/api/admin/companies/${approved.id}`)).json().reviewDue).toBeNull();
    const html = await t.app.inject({
      method: 'GET',
      url: `/admin/partners/${friday.id}`,
      headers: { ...admin.headers, accept: 'text/html' },
    });
    expect(html.body).toContain('Late: was due Tue 8 Dec');
  });

  it('filters exactly the late ones, orders by due date and counts them; decided ones are never late', async () => {
    clock.set(nz('2026-12-09T10:00:00'));
    const pending = await list('status=pending');
    expect(pending.counts).toMatchObject({ pending: 4, verified: 1, rejected: 1, banned: 1, late: 3 });
    expect(pending.companies.map((company) => [company.id, company.reviewDue])).toEqual([
      [monday.id, { dueDate: '2026-12-02', late: true }],
      [thursday.id, { dueDate: '2026-12-07', late: true }],
      [friday.id, { dueDate: '2026-12-08', late: true }],
      [tuesday.id, { dueDate: '2026-12-10', late: false }],
    ]);

    const late = await list('status=pending&due=late');
    expect(ids(late)).toEqual([monday.id, thursday.id, friday.id]);
    // The counts stay those of the whole table.
    expect(late.counts).toEqual(pending.counts);

    const byDue = await list('status=pending&sort=due');
    expect(ids(byDue)).toEqual([monday.id, thursday.id, friday.id, tuesday.id]);
    const dueDates = byDue.companies.map((company) => company.reviewDue!.dueDate);
    expect(dueDates).toEqual([...dueDates].sort());
    expect(ids(await list('status=pending&due=late&sort=due'))).toEqual([monday.id, thursday.id, friday.id]);
    // With a search, the filter still applies.
    expect(ids(await list(`status=pending&due=late&q=${encodeURIComponent(tuesday.name)}`))).toEqual([]);
    expect(ids(await list(`status=pending&due=late&q=${encodeURIComponent(monday.name)}`))).toEqual([monday.id]);

    for (const [status, company] of [
      ['verified', approved],
      ['rejected', rejected],
      ['banned', banned],
    ] as const) {
      const decided = await list(`status=${status}`);
      expect(dueOf(decided, company.id)).toBeNull();
      expect(ids(await list(`status=${status}&due=late`))).toEqual([]);
    }
  });

  it('the console’s home says how many are late and links to them, and says nothing when none is', async () => {
    clock.set(nz('2026-12-09T10:00:00'));
    const home = await admin.get('/admin');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(REVIEW_DUE_TEXT.lateOnHome(3));
    expect(home.body).toContain('href="/admin/partners?status=pending&amp;due=late"');

    // The linked page, as a browser without JavaScript reads it: only the late ones, and their words.
    const page = await admin.get('/admin/partners?status=pending&due=late');
    expect(page.statusCode).toBe(200);
    for (const company of [monday, thursday, friday]) expect(page.body).toContain(company.name);
    expect(page.body).not.toContain(tuesday.name);
    expect(page.body).toContain(REVIEW_DUE_TEXT.wasDue('2026-12-02'));
    expect(page.body).toContain(REVIEW_DUE_TEXT.lateOnly(3));
    const all = await admin.get('/admin/partners?status=pending');
    expect(all.body).toContain(REVIEW_DUE_TEXT.due('2026-12-10'));
    expect(REVIEW_DUE_TEXT.due('2026-12-10')).toBe('Review due Thu 10 Dec');

    // On Wednesday 2 December nothing is late yet: the earliest is due that very day.
    clock.set(nz('2026-12-02T17:00:00'));
    expect((await list('status=pending')).counts.late).toBe(0);
    const quiet = await admin.get('/admin');
    expect(quiet.statusCode).toBe(200);
    expect(quiet.body).not.toContain('late for review');
  });
});
