// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { SYSTEM_LINE_TEXT } from '../../../src/contracts/support.ts';
import { BusinessCalendar } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The auto-close's line in the thread as the pages draw it (production build, no JavaScript): on
 * the customer's ticket page and in the console alike, a note across the thread with its time and
 * no author, never a bubble.
 */
const clock = movableClock();
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, clock, serviceLevelWorker: false, mailWorker: false });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

const getPage = (url: string, who: { headers: Record<string, string> }) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...who.headers } });

describe('a ticket closed automatically', () => {
  it('shows its line across the thread, with no author, to the customer and in the console', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Has my bag been found yet?');
    const answer = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
      messageBody: 'Not yet: we will keep looking.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const answeredAt = new Date(answer.json().message.timestamp as string);
    const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
    clock.set(calendar.addWorkingDays(answeredAt, 5));
    await t.app.serviceLevelWorker.run();
    clock.set(calendar.addWorkingDays(answeredAt, 7));
    await t.app.serviceLevelWorker.run();
    const line = (await user.get(`/api/support/tickets/${ticketId}`)).json().messages.at(-1) as {
      id: number;
      systemEvent?: string;
    };
    expect(line.systemEvent).toBe('auto-closed');

    for (const [url, who] of [
      [`/support/ticket/${ticketId}`, user],
      [`/admin/support/${ticketId}`, admin],
    ] as const) {
      const page = await getPage(url, who);
      expect(page.statusCode, url).toBe(200);
      const item = new RegExp(`<li id="message-${line.id}" class="([^"]*)">(.*?)</li>`, 's').exec(page.body);
      expect(item, url).not.toBeNull();
      expect(item![1]).toBe('thread__system');
      expect(item![2]).toContain(SYSTEM_LINE_TEXT.autoClosed(7));
      expect(item![2]).toMatch(/<time dateTime="[^"]+">/i);
      expect(item![2]).not.toContain('bubble__author');
    }
  });
});
