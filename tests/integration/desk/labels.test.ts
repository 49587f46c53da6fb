import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABEL_NAME_MAX, LABEL_TEXT } from '../../../src/contracts/labels.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Labels (docs/decisions/141-labels.md): the team's list (add, rename, remove, refusals in words), a
 * ticket's labels, the inbox's filter, merge, split and undo, the audit log; never the customer's.
 */
let t: TestApp;
let admin: SupportUser;
let customer: SupportUser;

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  admin = await supportUser(t, { role: 'admin' });
  customer = await supportUser(t);
});
afterAll(() => t.close());

interface Label {
  id: string;
  name: string;
}
const create = async (name: string): Promise<Label> => {
  const res = await admin.post('/api/admin/labels', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().label;
};
const setLabels = (ticketId: string, labelIds: string[]) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/support/tickets/${ticketId}/labels`,
    headers: { ...admin.headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ labelIds }),
  });
const labelsOf = async (ticketId: string) =>
  ((await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket.labels as Label[]).map((l) => l.name);
const listed = async (query: string) =>
  ((await admin.get(`/api/admin/support/tickets?${query}`)).json().tickets as Array<{ id: string }>).map((x) => x.id);

describe('the team’s labels', () => {
  it('are added, listed by name with their tickets, renamed and removed; refusals say why and change nothing', async () => {
    const refund = await create('Refund');
    const lost = await create('Lost bag');
    const list = (await admin.get('/api/admin/labels')).json().labels as Array<Label & { tickets: number }>;
    expect(list.filter((l) => [refund.id, lost.id].includes(l.id)).map((l) => [l.name, l.tickets])).toEqual([
      ['Lost bag', 0],
      ['Refund', 0],
    ]);
    for (const [name, words] of [
      ['refund', LABEL_TEXT.nameTaken],
      ['   ', LABEL_TEXT.nameRequired],
      ['x'.repeat(LABEL_NAME_MAX + 1), LABEL_TEXT.nameTooLong],
    ] as const) {
      const res = await admin.post('/api/admin/labels', { name });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.json().error.fields.name).toBe(words);
    }
    const put = (id: string, name: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/labels/${id}`,
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ name }),
      });
    expect((await put(lost.id, 'REFUND')).json().error.fields.name).toBe(LABEL_TEXT.nameTaken);
    const renamed = await put(lost.id, 'Lost luggage');
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().label).toEqual({ id: lost.id, name: 'Lost luggage' });
    expect((await put('00000000-0000-4000-8000-000000000000', 'Nope')).statusCode).toBe(404);
    // Only admins.
    expect((await customer.get('/api/admin/labels')).statusCode).toBe(403);
    expect((await customer.post('/api/admin/labels', { name: 'Mine' })).statusCode).toBe(403);

    const { ticketId } = await customer.createTicket('General', 'Can I have my money back?');
    expect((await setLabels(ticketId, [refund.id, lost.id])).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/labels/${refund.id}`,
      headers: admin.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await labelsOf(ticketId)).toEqual(['Lost luggage']);
    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string; details: object }>;
    expect(audit.find((e) => e.action === 'label.delete')?.details).toMatchObject({ name: 'Refund', tickets: 1 });
    expect(audit.find((e) => e.action === 'label.rename')?.details).toMatchObject({ name: 'Lost luggage' });
  });
});

describe('a ticket’s labels', () => {
  it('are set as a whole, shown on the ticket and in the inbox, filter it, and never reach the customer', async () => {
    const urgent = await create('Urgent');
    const insurance = await create('Insurance');
    const a = await customer.createTicket('Incident', 'My bag is torn.');
    const b = await customer.createTicket('General', 'Where is my parcel?');
    const set = await setLabels(a.ticketId, [urgent.id, insurance.id, urgent.id]);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().labels.map((l: Label) => l.name)).toEqual(['Insurance', 'Urgent']);
    expect((await setLabels(b.ticketId, [insurance.id])).statusCode).toBe(200);

    expect(await labelsOf(a.ticketId)).toEqual(['Insurance', 'Urgent']);
    expect(await listed(`label=${urgent.id}`)).toEqual([a.ticketId]);
    expect((await listed(`label=${insurance.id}`)).sort()).toEqual([a.ticketId, b.ticketId].sort());
    expect((await admin.get(`/api/admin/support/tickets?label=nope`)).statusCode).toBe(400);

    // Set again: what is not named comes off.
    expect((await setLabels(a.ticketId, [insurance.id])).statusCode).toBe(200);
    expect(await listed(`label=${urgent.id}`)).toEqual([]);
    // An unknown label refuses the whole change.
    const unknown = await setLabels(a.ticketId, [insurance.id, '00000000-0000-4000-8000-000000000000']);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.labelIds).toBe(LABEL_TEXT.unknownLabel);
    expect(await labelsOf(a.ticketId)).toEqual(['Insurance']);

    // The customer's ticket, list and export have none of it.
    for (const url of [`/api/support/tickets/${a.ticketId}`, '/api/support/tickets', '/api/account/export'])
      expect((await customer.get(url)).body).not.toContain('Insurance');
    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string; details: object }>;
    expect(audit.find((e) => e.action === 'ticket.labels')?.details).toMatchObject({ labels: ['Insurance'] });
  });

  it('go with a merge to the target, and the undo takes off the ones the target did not have', async () => {
    const refundable = await create('Refundable');
    const vip = await create('VIP');
    const a = await customer.createTicket('General', 'Labels: the first.');
    const b = await customer.createTicket('General', 'Labels: the second.');
    await setLabels(a.ticketId, [refundable.id, vip.id]);
    await setLabels(b.ticketId, [vip.id]);
    const merged = await admin.post(`/api/admin/support/tickets/${a.ticketId}/merge`, { targetTicketId: b.ticketId });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(await labelsOf(b.ticketId)).toEqual(['Refundable', 'VIP']);
    const [entry] = (await admin.get(`/api/admin/support/tickets/${b.ticketId}/merges`)).json().merges as Array<{
      id: number;
    }>;
    expect((await admin.post(`/api/admin/support/merges/${entry!.id}/undo`)).statusCode).toBe(200);
    expect(await labelsOf(b.ticketId)).toEqual(['VIP']);
    expect(await labelsOf(a.ticketId)).toEqual(['Refundable', 'VIP']);
  });

  it('are the new ticket’s after a split', async () => {
    const damaged = await create('Damaged');
    const a = await customer.createTicket('Incident', 'Split labels: the wheel broke.');
    const later = (
      await customer.post(`/api/support/tickets/${a.ticketId}/messages`, { messageBody: 'Also: a new question.' })
    ).json().message as { id: number };
    await setLabels(a.ticketId, [damaged.id]);
    const split = await admin.post(`/api/admin/support/tickets/${a.ticketId}/split`, {
      messageId: later.id,
      reason: 'General',
    });
    expect(split.statusCode, split.body).toBe(200);
    expect(await labelsOf(split.json().newTicketId)).toEqual(['Damaged']);
    expect(await labelsOf(a.ticketId)).toEqual(['Damaged']);
  });
});
