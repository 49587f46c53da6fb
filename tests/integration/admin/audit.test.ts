import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE } from '../../../src/contracts/audit.ts';
import { auditLog } from '../../../src/server/db/schema.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';

/** The audit log: who did what, when, to which record; newest first, a page at a time. */

let t: TestApp;
let admin: ApiClient;
let customer: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  admin = await apiClient(t);
  customer = await supportUser(t);
});
afterAll(() => t.close());

describe('support actions', () => {
  it('records answering, closing and reopening a ticket with the admin, the ticket and its number', async () => {
    const { ticketId, ticketNo } = await customer.createTicket('Incident', 'My bag arrived wet.');
    const answer = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
      messageBody: 'Sorry! Please send a photo.',
    });
    expect(answer.statusCode).toBe(200);
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/reopen`)).statusCode).toBe(200);

    const entries = await auditOf(admin, 'ticket', ticketId);
    expect(entries.map((e) => e.action)).toEqual(['ticket.reopen', 'ticket.close', 'ticket.answer']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actorEmail: admin.email, targetType: 'ticket', targetId: ticketId });
      expect(entry.details).toMatchObject({ ticketNo, userEmail: customer.email });
      expect(Date.now() - new Date(entry.at).getTime()).toBeLessThan(60_000);
    }
    expect(entries[2]!.details.messageId).toBe(answer.json().message.id);
  });

  it('records nothing for a refused answer', async () => {
    const { ticketId } = await customer.createTicket('General', 'Closing soon');
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Too late' })).statusCode,
    ).toBe(409);
    expect((await auditOf(admin, 'ticket', ticketId)).map((e) => e.action)).toEqual(['ticket.close']);
  });

  it('does not record what users do themselves', async () => {
    const { ticketId } = await customer.createTicket('General', 'Just me');
    await customer.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'And me again' });
    expect(await auditOf(admin, 'ticket', ticketId)).toEqual([]);
  });
});

describe('reading the log', () => {
  it('pages back newest first without gaps or repeats', async () => {
    const other = await apiClient(t);
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      const res = await other.post('/api/admin/faqs', {
        type: 'general',
        title: `Paging question ${i}`,
        content: 'Answer',
      });
      expect(res.statusCode).toBe(201);
    }
    const seen: Array<{ id: number; at: string }> = [];
    let url = '/api/admin/audit';
    for (let pages = 0; pages < 20; pages++) {
      const res = await admin.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { entries, nextBefore } = res.json() as {
        entries: Array<{ id: number; at: string }>;
        nextBefore: number | null;
      };
      expect(entries.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
      seen.push(...entries);
      if (nextBefore === null) break;
      expect(nextBefore).toBe(entries.at(-1)!.id);
      url = `/api/admin/audit?before=${nextBefore}`;
    }
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(ids.length).toBeGreaterThanOrEqual(AUDIT_PAGE_SIZE + 5 + 3);

    const first = (await admin.get('/api/admin/audit')).json().entries;
    expect(first[0]).toMatchObject({
      actorEmail: other.email,
      action: 'faq.create',
      targetType: 'faq',
      targetId: expect.any(String),
      details: { type: 'general', title: `Paging question ${AUDIT_PAGE_SIZE + 4}` },
    });
  });

  it('refuses a malformed page or filter', async () => {
    for (const url of ['/api/admin/audit?before=abc', '/api/admin/audit?targetType=everything']) {
      expect((await admin.get(url)).statusCode).toBe(400);
    }
  });
});

describe('filters', () => {
  type Page = { entries: Array<{ id: number; action: string; actorEmail: string }>; nextBefore: number | null };
  const read = async (query: string) => {
    const res = await admin.get(`/api/admin/audit?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page & { actors: string[] };
  };

  it('narrows the log to one person (any case) and one action, and pages back within them', async () => {
    const pager = await apiClient(t);
    for (let i = 0; i < AUDIT_PAGE_SIZE + 1; i++) {
      const res = await pager.post('/api/admin/faqs', { type: 'sender', title: `Filtered ${i}`, content: 'Answer' });
      expect(res.statusCode).toBe(201);
      if (i === 0) expect((await pager.del(`/api/admin/faqs/${res.json().faq.id}`)).statusCode).toBe(200);
    }
    const { ticketId } = await customer.createTicket('General', 'Filter me');
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);

    const mine = await read(`actor=${encodeURIComponent(pager.email.toUpperCase())}`);
    expect(new Set(mine.entries.map((e) => e.actorEmail))).toEqual(new Set([pager.email]));
    expect(mine.actors).toEqual(expect.arrayContaining([admin.email, pager.email]));

    const query = `actor=${encodeURIComponent(pager.email)}&action=faq.create`;
    const first = await read(query);
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries.every((e) => e.action === 'faq.create')).toBe(true);
    expect(first.nextBefore).not.toBeNull();
    const second = await read(`${query}&before=${first.nextBefore}`);
    expect(second.entries.map((e) => e.action)).toEqual(['faq.create']);
    expect(second.nextBefore).toBeNull();

    const closes = await read('action=ticket.close');
    expect(closes.entries.length).toBeGreaterThan(0);
    expect(closes.entries.every((e) => e.action === 'ticket.close')).toBe(true);
    expect((await read(`actor=nobody%40example.com`)).entries).toEqual([]);
  });

  it('reads the from and to days as New Zealand days', async () => {
    const someone = `clock-${Date.now()}@example.com`;
    // 10:59 UTC on 4 March 2026 is 23:59 on the 4th in New Zealand (daylight time, +13); 11:00 is the 5th.
    await t.database.db.insert(auditLog).values([
      { actorEmail: someone, action: 'faq.reorder', targetType: 'faq', at: new Date('2026-03-04T10:59:00Z') },
      { actorEmail: someone, action: 'faq.reorder', targetType: 'faq', at: new Date('2026-03-04T11:00:00Z') },
    ]);
    const days = async (range: string) =>
      (await read(`actor=${encodeURIComponent(someone)}&${range}`)).entries.map((e) => e.id);
    const [fifth, fourth] = await days('from=2026-03-01');
    expect(await days('from=2026-03-04&to=2026-03-04')).toEqual([fourth]);
    expect(await days('from=2026-03-05&to=2026-03-05')).toEqual([fifth]);
    expect(await days('from=2026-03-05')).toEqual([fifth]);
    expect(await days('to=2026-03-04')).toEqual([fourth]);
    expect(await days('from=2026-03-06')).toEqual([]);
  });

  it('offers the admins who acted, not people who asked to delete their own account', async () => {
    const leaving = await supportUser(t);
    expect((await leaving.post('/api/account/delete', { password: leaving.password })).statusCode).toBe(200);
    const page = await read('');
    expect(page.actors).toContain(admin.email);
    expect(page.actors).not.toContain(leaving.email);
    // The filter still finds their entry by address.
    const theirs = await read(`actor=${encodeURIComponent(leaving.email)}`);
    expect(theirs.entries.map((e) => e.action)).toEqual(['account.deletion-requested']);
  });

  it('refuses an unknown action or a malformed day', async () => {
    for (const query of ['action=everything', 'from=2026-13-01', 'from=0000-01-01', 'to=yesterday', 'actor=']) {
      expect((await admin.get(`/api/admin/audit?${query}`)).statusCode, query).toBe(400);
    }
  });
});
