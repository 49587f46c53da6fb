// One database: pages and their forms (the routes' loaders and actions, the markup).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_TEXT } from '../../../src/contracts/integrations.ts';
import { apiClient } from '../../helpers/admin-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/**
 * /admin/integrations and an endpoint's page without JavaScript (docs/integrations.md): a key made
 * by a form shows its secret once, in the page and nowhere else; revoke; an endpoint added by a
 * form, its signing secret shown on asking, its delivery log and Deliver again; an auditor reads
 * the page with no form to change anything.
 */
let t: TestApp;
let admin: SupportUser;
let auditor: { headers: Record<string, string> };
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await createTestApp({ web: true, mailWorker: false });
  admin = await supportUser(t, { role: 'admin' });
  auditor = await apiClient(t, { roles: ['auditor'] });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t?.close();
  await receiver.close();
});

const post = (url: string, fields: Array<[string, string]>, who: { headers: Record<string, string> } = admin) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      ...who.headers,
      origin: 'http://localhost:80',
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    },
    payload: new URLSearchParams(fields).toString(),
  });
const page = (url: string, who: { headers: Record<string, string> } = admin) =>
  t.app.inject({ method: 'GET', url, headers: { ...who.headers, accept: 'text/html' } });

describe('integrations without JavaScript', () => {
  it('makes a key, shows its secret once, lists it by last four, and revokes it', async () => {
    const empty = await post('/admin/integrations', [
      ['intent', 'create-key'],
      ['name', ''],
    ]);
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(INTEGRATION_TEXT.nameRequired);
    expect(empty.body).toContain(INTEGRATION_TEXT.scopesRequired);

    const made = await post('/admin/integrations', [
      ['intent', 'create-key'],
      ['name', 'Bagspace app'],
      ['scopes', 'tickets:write'],
      ['scopes', 'tickets:read'],
      ['expiresInDays', '90'],
    ]);
    expect(made.statusCode).toBe(200);
    expect(made.headers['content-type']).toContain('text/html');
    const secret = /bsk_[A-Za-z0-9_-]{43}/.exec(made.body)![0];
    expect(made.body).toContain(INTEGRATION_TEXT.keyCreated);
    const listed = await page('/admin/integrations');
    expect(listed.body).not.toContain(secret);
    expect(listed.body).toContain(`…${secret.slice(-4)}`);
    const works = await t.app.inject({
      method: 'GET',
      url: `/api/app/tickets?userId=${admin.id}`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(works.statusCode).toBe(200);

    const keys = (await t.app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: admin.headers })).json()
      .keys as Array<{ id: string; name: string }>;
    const revoked = await post('/admin/integrations', [
      ['intent', 'revoke'],
      ['keyId', keys.find((k) => k.name === 'Bagspace app')!.id],
    ]);
    expect(revoked.statusCode).toBe(303);
    expect(new URL(revoked.headers.location!, 'http://x').searchParams.get('done')).toBe(
      INTEGRATION_TEXT.keyRevoked('Bagspace app'),
    );
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/app/tickets?userId=${admin.id}`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(refused.statusCode).toBe(401);
  });

  it('adds an endpoint, shows its secret on asking, logs deliveries and delivers again', async () => {
    const bad = await post('/admin/integrations', [
      ['intent', 'add-webhook'],
      ['url', 'ftp://example.com'],
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(INTEGRATION_TEXT.urlInvalid);
    expect(bad.body).toContain(INTEGRATION_TEXT.eventsRequired);
    const added = await post('/admin/integrations', [
      ['intent', 'add-webhook'],
      ['url', receiver.url()],
      ['description', 'The app'],
      ['events', 'ticket.created'],
    ]);
    expect(added.statusCode).toBe(303);
    const endpointUrl = new URL(added.headers.location!, 'http://x').pathname;
    const shown = await post(endpointUrl, [['intent', 'secret']]);
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(shown.body)![0];
    receiver.setSecret(secret);

    const customer = await supportUser(t);
    await customer.createTicket('General', 'Hello from the page test');
    await t.app.webhooksWorker.run();
    expect(receiver.received.filter((r) => r.verified)).toHaveLength(1);
    const log = await page(endpointUrl);
    expect(log.body).toContain('ticket.created');
    expect(log.body).toContain('Delivered');
    expect(log.body).toContain(receiver.received[0]!.id);
    const endpointId = endpointUrl.split('/').pop()!;
    const deliveries = (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/webhooks/${endpointId}/deliveries`,
        headers: admin.headers,
      })
    ).json().deliveries as Array<{ id: number }>;
    const again = await post(endpointUrl, [
      ['intent', 'redeliver'],
      ['deliveryId', String(deliveries[0]!.id)],
    ]);
    expect(again.statusCode).toBe(303);
    await t.app.webhooksWorker.run();
    expect(receiver.received.map((r) => r.id)).toEqual([receiver.received[0]!.id, receiver.received[0]!.id]);
  });

  it('lets an auditor read, with no form to change anything', async () => {
    const read = await page('/admin/integrations', auditor);
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain(INTEGRATION_TEXT.keysTitle);
    expect(read.body).not.toContain('value="create-key"');
    expect(read.body).not.toContain('value="revoke"');
    const tried = await post(
      '/admin/integrations',
      [
        ['intent', 'create-key'],
        ['name', 'Sneaky'],
        ['scopes', 'tickets:read'],
      ],
      auditor,
    );
    expect(tried.body).not.toMatch(/bsk_[A-Za-z0-9_-]{43}/);
  });
});
