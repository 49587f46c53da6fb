import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNzDateTime } from '../../../src/contracts/dates.ts';
import type { AdminTicket } from '../../../src/contracts/support.schemas.ts';
import { firstLineOf, reasonLabel } from '../../../src/contracts/support.ts';
import { MERGE_TEXT } from '../../../src/contracts/ticket-merge.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Agents see what they decide on: the inbox's rows and the merge and split pickers show the first
 * line of what the customer wrote (its first line with text, cut at a word when long), read on the
 * server, so the pages show it without JavaScript.
 */
let t: TestApp;
let admin: SupportUser;
let user: SupportUser;

beforeAll(async () => {
  t = await createTestApp({
    web: true,
    mailWorker: false,
    serviceLevelWorker: false,
    env: { TICKETS_PER_USER_PER_HOUR: '1000' },
  });
  [admin, user] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t)]);
});
afterAll(() => t?.close());

const page = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { ...admin.headers, accept: 'text/html' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};
const listed = async (ticketId: string) => {
  const res = await admin.get('/api/admin/support/tickets?open=true');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().tickets as AdminTicket[]).find((ticket) => ticket.id === ticketId);
};

describe('the first line of a ticket', () => {
  it('shows in the inbox: the first line with text of the first message, not the answers or later messages', async () => {
    const torn = await user.createTicket('Incident', '\n  My suitcase to Dunedin   was torn open.\nPhotos below.');
    await admin.post(`/api/admin/support/tickets/${torn.ticketId}/messages`, { messageBody: 'Sorry to hear it.' });
    await user.post(`/api/support/tickets/${torn.ticketId}/messages`, { messageBody: 'Any news?' });
    expect((await listed(torn.ticketId))?.firstLine).toBe('My suitcase to Dunedin was torn open.');

    const rambling =
      'Kia ora, I booked a traveller from Wellington to Queenstown for a box of books and the app now says delivered but nothing came';
    const long = await user.createTicket('General', rambling);
    const shown = (await listed(long.ticketId))?.firstLine;
    expect(shown).toBe(firstLineOf(rambling));
    expect(shown).toMatch(/…$/);
    expect(rambling.startsWith(shown!.slice(0, -1))).toBe(true);

    const inbox = await page('/admin/support');
    expect(inbox).toContain('My suitcase to Dunedin was torn open.');
    expect(inbox).not.toContain('Photos below.');
    expect(inbox).toContain(shown!);
  });

  it('shows in the merge picker beside each ticket, and in the split picker for each message', async () => {
    const first = await user.createTicket('General', 'Where is my parcel to Nelson?\nIt left on Monday.');
    const second = await user.createTicket('Incident', 'The Nelson parcel arrived crushed.');
    const later = (
      await user.post(`/api/support/tickets/${second.ticketId}/messages`, {
        messageBody: 'A separate thing: my refund for the Picton trip.\nBooking 4411.',
      })
    ).json().message as { timestamp: string };

    const targets = (await admin.get(`/api/admin/support/tickets/${second.ticketId}/merge-targets`)).json()
      .tickets as Array<{ id: string; firstLine: string }>;
    expect(targets.find((target) => target.id === first.ticketId)?.firstLine).toBe('Where is my parcel to Nelson?');

    const console = await page(`/admin/support/${second.ticketId}`);
    expect(console).toContain(
      MERGE_TEXT.option(first.ticketNo, reasonLabel('General'), true, 'Where is my parcel to Nelson?'),
    );
    expect(console).toContain(
      MERGE_TEXT.splitOption(formatNzDateTime(later.timestamp), 'A separate thing: my refund for the Picton trip.'),
    );
    // The split's new ticket is offered a reason by its label, as the customer chose it.
    expect(console).toContain(`<option value="Incident" selected="">${reasonLabel('Incident')}</option>`);
  });
});
