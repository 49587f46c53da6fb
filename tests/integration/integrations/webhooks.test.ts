import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTEGRATION_TEXT, WEBHOOK_EVENTS } from '../../../src/contracts/integrations.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';
import { pngOf, register, validCompany } from '../../helpers/registration.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor } from '../../helpers/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/**
 * Webhooks (docs/decisions/150-webhooks.md): every event type from the change that causes it, signed
 * as Standard Webhooks says and checked by that specification's own library; 1,000 deliveries all
 * verified, in order per ticket; tampered and replayed ones refused; retries with backoff for a day,
 * an endpoint failing for three days turned off with mail to the admins; the delivery log and
 * "Deliver again" with the same webhook-id.
 */
const clock = movableClock();
let t: TestApp;
let admin: ApiClient;
let customer: SupportUser;
let receiver: WebhookReceiver;
let endpointId: string;

const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  // The worker runs only when a test says: each test decides when deliveries go.
  t = await createTestApp({ mailWorker: false, clock, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  admin = await apiClient(t, { role: 'admin' });
  customer = await supportUser(t);
  receiver = await startWebhookReceiver();
  const res = await admin.post('/api/admin/webhooks', {
    url: receiver.url(),
    description: 'The app',
    events: [...WEBHOOK_EVENTS],
  });
  expect(res.statusCode, res.body).toBe(201);
  endpointId = res.json().endpoint.id;
  expect(res.json().secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  receiver.setSecret(res.json().secret);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const deliver = () => t.app.webhooksWorker.run();
const ofType = (type: string) => receiver.received.filter((r) => r.payload?.type === type);

describe('every event, from whatever made the change', () => {
  it('tells a new ticket, its messages (never a note), a close, a rating, a merge and a partner decision', async () => {
    const first = await customer.createTicket('General', 'Where is my parcel?');
    const second = await customer.createTicket('General', 'Also: the same parcel.');
    await admin.post(`/api/admin/support/tickets/${first.ticketId}/messages`, { messageBody: 'It is on its way.' });
    await admin.post(`/api/admin/support/tickets/${first.ticketId}/notes`, { messageBody: 'Secret note' });
    await admin.post(`/api/admin/support/tickets/${first.ticketId}/close`);
    const rated = await customer.post(`/api/support/tickets/${first.ticketId}/rating`, { good: true, comment: 'Kind' });
    expect(rated.statusCode, rated.body).toBe(200);
    const merged = await admin.post(`/api/admin/support/tickets/${second.ticketId}/merge`, {
      targetTicketId: first.ticketId,
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const company = await register(t, validCompany(), { bytes: pngOf(200), name: 'licence.png', type: 'image/png' });
    await admin.post(`/api/admin/companies/${company.json().id}/approve`);
    await deliver();

    expect(
      receiver.received.every((r) => r.verified),
      JSON.stringify(receiver.received.find((r) => !r.verified)?.error),
    ).toBe(true);
    expect(
      ofType('ticket.created')
        .map((r) => r.payload!.data.ticketId)
        .sort(),
    ).toEqual([first.ticketId, second.ticketId].sort());
    const firstTicket = receiver.received
      .filter((r) => r.payload!.data.ticketId === first.ticketId)
      .map((r) => r.payload!.type);
    expect(firstTicket.slice(0, 4)).toEqual([
      'ticket.created',
      'ticket.message.created',
      'ticket.message.created',
      'ticket.status.changed',
    ]);
    const messages = ofType('ticket.message.created').map((r) => [r.payload!.data.author, r.payload!.data.body]);
    expect(messages).toContainEqual(['customer', 'Where is my parcel?']);
    expect(messages).toContainEqual(['staff', 'It is on its way.']);
    expect(receiver.received.some((r) => r.body.includes('Secret note'))).toBe(false);
    // Each ticket's events arrive in their order; two tickets' may interleave.
    expect(
      ofType('ticket.status.changed').find((r) => r.payload!.data.ticketId === first.ticketId)!.payload!.data,
    ).toMatchObject({
      ticketId: first.ticketId,
      status: 'closed',
      previousStatus: 'open',
    });
    expect(ofType('ticket.rated')[0]!.payload!.data).toMatchObject({ rating: 'good', comment: 'Kind' });
    expect(ofType('ticket.merged')[0]!.payload!.data).toMatchObject({
      ticketId: second.ticketId,
      mergedIntoTicketId: first.ticketId,
    });
    expect(ofType('partner.decided')[0]!.payload!.data).toMatchObject({
      companyId: company.json().id,
      decision: 'approved',
    });
  });
});

describe('signatures a receiver can check', () => {
  it('verifies all of 1,000 deliveries, each ticket’s in the order they happened', { timeout: 180_000 }, async () => {
    receiver.received.length = 0;
    const tickets = [];
    for (let i = 0; i < 10; i++) tickets.push(await customer.createTicket('General', `Parcel ${i}`));
    for (let round = 0; round < 99; round++)
      for (const ticket of tickets)
        await customer.post(`/api/support/tickets/${ticket.ticketId}/messages`, { messageBody: `Update ${round}` });
    await deliver();
    const received = await waitFor('1,000 message deliveries', () => {
      const messages = ofType('ticket.message.created');
      return messages.length >= 1000 && messages;
    });
    expect(received).toHaveLength(1000);
    expect(received.every((r) => r.verified)).toBe(true);
    expect(new Set(received.map((r) => r.id)).size).toBe(1000);
    for (const ticket of tickets) {
      const ids = received
        .filter((r) => r.payload!.data.ticketId === ticket.ticketId)
        .map((r) => Number(r.payload!.data.messageId));
      expect(ids).toHaveLength(100);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
  });

  it('refuses a delivery whose body, id or timestamp was changed, and one replayed after five minutes', () => {
    const sample = receiver.received.find((r) => r.verified && r.body.includes('Update'))!;
    expect(() => receiver.verify(sample.body, sample.headers)).not.toThrow();
    expect(() => receiver.verify(sample.body.replace('Update', 'Upd4te'), sample.headers)).toThrow();
    expect(() => receiver.verify(sample.body, { ...sample.headers, 'webhook-id': 'msg_forged' })).toThrow();
    expect(() =>
      receiver.verify(sample.body, { ...sample.headers, 'webhook-timestamp': String(Number(sample.timestamp) - 1) }),
    ).toThrow();
    // The same request sent again later: its timestamp is too old (the library allows five minutes).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 6 * 60 * 1000);
      expect(() => receiver.verify(sample.body, sample.headers)).toThrow(/timestamp/i);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('retries, giving up, turning off, delivering again', () => {
  it('retries with backoff for a day, logs each attempt, and gives up', async () => {
    receiver.received.length = 0;
    receiver.answerWith(() => 503);
    const ticket = await customer.createTicket('General', 'Retry me');
    await deliver();
    const created = () => ofType('ticket.created').filter((r) => r.payload!.data.ticketId === ticket.ticketId);
    expect(created()).toHaveLength(1);
    // The next try is set 5 s after the first (the backoff's first step); then it goes again.
    const waiting = (await admin.get(`/api/admin/webhooks/${endpointId}/deliveries`)).json().deliveries as Array<{
      webhookId: string;
      nextAttemptAt: string;
      attempts: Array<{ at: string }>;
    }>;
    const first = waiting.find((d) => d.webhookId === created()[0]!.id)!;
    expect(Date.parse(first.nextAttemptAt) - Date.parse(first.attempts[0]!.at)).toBe(5_000);
    clock.advance(6_000);
    await deliver();
    expect(created()).toHaveLength(2);
    expect(new Set(created().map((r) => r.id)).size).toBe(1);
    const log = (await admin.get(`/api/admin/webhooks/${endpointId}/deliveries`)).json().deliveries as Array<{
      id: number;
      webhookId: string;
      type: string;
      state: string;
      attempts: Array<{ status: number | null }>;
    }>;
    const entry = log.find((d) => d.webhookId === created()[0]!.id)!;
    expect(entry.state).toBe('pending');
    expect(entry.attempts.map((a) => a.status)).toEqual([503, 503]);
    // A day later, every retry spent: given up.
    for (let i = 0; i < 8; i++) {
      clock.advance(4 * HOUR);
      await deliver();
    }
    const after = (await admin.get(`/api/admin/webhooks/${endpointId}/deliveries`)).json().deliveries as typeof log;
    expect(after.find((d) => d.id === entry.id)!.state).toBe('failed');
    const endpoint = (await admin.get('/api/admin/webhooks')).json().endpoints[0];
    expect(endpoint.enabled).toBe(true);
    expect(endpoint.failingSince).not.toBeNull();

    // Deliver again, now that the endpoint answers: the same webhook-id.
    receiver.answerWith(() => 204);
    const again = await admin.post(`/api/admin/webhooks/deliveries/${entry.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    await deliver();
    expect(created().at(-1)!.id).toBe(entry.webhookId);
    const redelivered = (await admin.get(`/api/admin/webhooks/${endpointId}/deliveries`)).json()
      .deliveries as typeof log;
    expect(redelivered.find((d) => d.id === entry.id)!.state).toBe('delivered');
    expect((await auditOf(admin, 'webhook', endpointId)).map((e) => e.action)).toContain('webhook.redeliver');
    // A success ends the endpoint's failing.
    expect((await admin.get('/api/admin/webhooks')).json().endpoints[0].failingSince).toBeNull();
  });

  it('turns off an endpoint that failed for three days, and mails the admins once', async () => {
    receiver.answerWith(() => 500);
    for (let day = 0; day < 4; day++) {
      await customer.createTicket('General', `Day ${day}`);
      await deliver();
      clock.advance(25 * HOUR);
    }
    await customer.createTicket('General', 'The last straw');
    await deliver();
    const endpoint = (await admin.get('/api/admin/webhooks')).json().endpoints[0];
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: INTEGRATION_TEXT.failingDisabled });
    const mails = await queryRows<{ recipient: string }>(
      t.database.db,
      sql`select recipient from mail_outbox where kind = 'webhook-disabled'`,
    );
    expect(mails.map((m) => m.recipient)).toContain(admin.email);
    expect(mails.filter((m) => m.recipient === admin.email)).toHaveLength(1);
    // Turned off: events are no longer recorded for it.
    const before = receiver.received.length;
    await customer.createTicket('General', 'Nobody listens');
    await deliver();
    expect(receiver.received.length).toBe(before);
    // Turned on again by hand: it hears events once more.
    receiver.answerWith(() => 200);
    const on = await admin.put(`/api/admin/webhooks/${endpointId}`, {
      url: receiver.url(),
      description: 'The app',
      events: [...WEBHOOK_EVENTS],
      enabled: true,
    });
    expect(on.json().endpoint).toMatchObject({ enabled: true, disabledReason: null });
    const ticket = await customer.createTicket('General', 'Listening again');
    await deliver();
    expect(ofType('ticket.created').some((r) => r.payload!.data.ticketId === ticket.ticketId)).toBe(true);
  });

  it('refuses a URL that is not http(s), with a password in it, and an unknown event', async () => {
    for (const url of ['ftp://example.com/x', 'https://user:pw@example.com/x', 'not a url']) {
      const res = await admin.post('/api/admin/webhooks', { url, events: ['ticket.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.fields.url).toBe(INTEGRATION_TEXT.urlInvalid);
    }
    const res = await admin.post('/api/admin/webhooks', { url: receiver.url(), events: ['ticket.deleted'] });
    expect(res.statusCode).toBe(400);
  });
});
