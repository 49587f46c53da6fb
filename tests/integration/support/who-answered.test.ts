import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Who answered: admins see which admin wrote each message (its author's email, and whether it is
 * their own, decided by id), in the ticket's API and its live stream alike; the ticket's owner
 * reads every answer as from 'Admin' and is never given an admin's address, by the API, the stream
 * or the page.
 */
let t: TestApp;
let base: string;
let aroha: SupportUser;
let ben: SupportUser;
let owner: SupportUser;
let ticketId: string;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [aroha, ben, owner] = await Promise.all([
    supportUser(t, { role: 'admin', email: `aroha-${Date.now()}@desk.bagspace.test` }),
    supportUser(t, { role: 'admin', email: `ben-${Date.now()}@desk.bagspace.test` }),
    supportUser(t),
  ]);
  ({ ticketId } = await owner.createTicket('General', 'Can I take a surfboard as checked bag?'));
  for (const [admin, messageBody] of [
    [aroha, 'Yes, up to 2.5 metres.'],
    [ben, 'And it needs a padded bag.'],
  ] as const) {
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody })).statusCode).toBe(200);
  }
  expect(
    (await aroha.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Asked about boards before.' }))
      .statusCode,
  ).toBe(200);
});
afterAll(() => t.close());

type DeskMessage = {
  messageBody: string;
  admin: boolean;
  mine: boolean;
  authorEmail: string | null;
  internal: boolean;
};
const byBody = (messages: DeskMessage[], text: string) => messages.find((m) => m.messageBody === text)!;

describe('the console', () => {
  it("names each answer's author, and marks as mine only the reader's own", async () => {
    for (const [reader, other] of [
      [aroha, ben],
      [ben, aroha],
    ] as const) {
      const { messages } = (await reader.get(`/api/admin/support/tickets/${ticketId}`)).json() as {
        messages: DeskMessage[];
      };
      const mineOf = (text: string) => byBody(messages, text).mine;
      expect(byBody(messages, 'Yes, up to 2.5 metres.')).toMatchObject({ admin: true, authorEmail: aroha.email });
      expect(byBody(messages, 'And it needs a padded bag.')).toMatchObject({ admin: true, authorEmail: ben.email });
      expect(byBody(messages, 'Can I take a surfboard as checked bag?')).toMatchObject({
        admin: false,
        mine: false,
        authorEmail: owner.email,
      });
      const own = reader === aroha ? 'Yes, up to 2.5 metres.' : 'And it needs a padded bag.';
      const theirs = other === aroha ? 'Yes, up to 2.5 metres.' : 'And it needs a padded bag.';
      expect(mineOf(own)).toBe(true);
      expect(mineOf(theirs)).toBe(false);
      expect(byBody(messages, 'Asked about boards before.')).toMatchObject({
        internal: true,
        authorEmail: aroha.email,
        mine: reader === aroha,
      });
    }
  });

  it('gets the same from the live stream, relative to each admin watching', async () => {
    const url = `${base}/api/support/tickets/${ticketId}/messages/stream`;
    const streams = await Promise.all([aroha, ben].map((admin) => openSse(url, { cookie: admin.headers.cookie! })));
    const fresh = 'Padded bags are on sale at the counter.';
    await ben.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: fresh });
    const arrived = (events: SseEvent[]) =>
      events.some((e) => (e.data as DeskMessage | undefined)?.messageBody === fresh);
    const [arohaSees, benSees] = await Promise.all(streams.map((stream) => stream.waitFor(arrived)));
    const messagesOf = (events: SseEvent[]) =>
      events.filter((e) => e.event === 'message').map((e) => e.data as DeskMessage);
    expect(byBody(messagesOf(arohaSees!), fresh)).toMatchObject({ authorEmail: ben.email, mine: false });
    expect(byBody(messagesOf(benSees!), fresh)).toMatchObject({ authorEmail: ben.email, mine: true });
    expect(byBody(messagesOf(arohaSees!), 'Yes, up to 2.5 metres.')).toMatchObject({
      authorEmail: aroha.email,
      mine: true,
    });
    for (const stream of streams) stream.close();
  });
});

describe("the ticket's owner", () => {
  const noAdminAddress = (text: string) => {
    for (const admin of [aroha, ben]) expect(text).not.toContain(admin.email);
    expect(text).not.toContain('desk.bagspace.test');
  };

  it('reads answers as from Admin, with no admin address in the ticket or messages API', async () => {
    const ticket = await owner.get(`/api/support/tickets/${ticketId}`);
    const list = await owner.get(`/api/support/tickets/${ticketId}/messages`);
    expect(ticket.statusCode).toBe(200);
    expect(list.statusCode).toBe(200);
    noAdminAddress(ticket.body);
    noAdminAddress(list.body);
    const messages = list.json().messages as Record<string, unknown>[];
    expect(messages.filter((m) => m.admin)).toHaveLength(messages.length - 1);
    for (const message of messages) expect(message).not.toHaveProperty('authorEmail');
    expect(messages.map((m) => m.messageBody)).not.toContain('Asked about boards before.');
  });

  it('gets no admin address from the live stream', async () => {
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, {
      cookie: owner.headers.cookie!,
    });
    const fresh = 'We can hold it at the depot too.';
    await aroha.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: fresh });
    const events = await stream.waitFor((all) =>
      all.some((e) => (e.data as { messageBody?: string } | undefined)?.messageBody === fresh),
    );
    stream.close();
    expect(events.filter((e) => e.event === 'message').length).toBeGreaterThanOrEqual(3);
    noAdminAddress(JSON.stringify(events));
  });

  it('gets no admin address from the page, which names every answer Admin', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: `/support/ticket/${ticketId}`,
      headers: { accept: 'text/html', ...owner.headers },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Yes, up to 2.5 metres.');
    expect(page.body).toContain('<span class="bubble__author">Admin</span>');
    noAdminAddress(page.body);
  });
});
