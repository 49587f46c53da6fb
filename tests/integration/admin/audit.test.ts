import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE } from '../../../src/contracts/audit.ts';
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
