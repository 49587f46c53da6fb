import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryApp, type PayoutLedger, startDeliveryApp } from '../../../scripts/delivery-app.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { signedHeaders } from '../../../src/server/security/standard-webhooks.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The app holds and releases payouts on `claim.decided` (docs/integrations.md, "Holding and releasing
 * payouts"): the app's stand-in (scripts/delivery-app.ts) takes our signed webhooks into its payout
 * ledger, one entry per claim version; a delivery sent again ("Deliver again", the same webhook-id)
 * or the same version under another webhook-id changes nothing; the appeal's decision, made by a
 * second admin, is the claim's next version and its own entry.
 */
// Thursday 9 July 2026, 10:00 in Auckland.
const clock = movableClock(new Date('2026-07-08T22:00:00Z'));
let t: TestApp;
let sender: SupportUser;
let agent: ApiClient;
let lead: ApiClient;
let fixture: DeliveryApp;
let endpointId: string;
let webhookSecret: string;

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, clock, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [sender, agent, lead] = await Promise.all([
    supportUser(t),
    apiClient(t, { role: 'admin' }),
    apiClient(t, { role: 'admin' }),
  ]);
  fixture = await startDeliveryApp({ secret: `whsec_${randomBytes(32).toString('base64')}` });
  // ticket.created too: the ledger takes it and changes nothing (it does not say a ticket is a claim).
  const res = await agent.post('/api/admin/webhooks', {
    url: fixture.webhookUrl,
    events: ['claim.decided', 'ticket.created'],
  });
  expect(res.statusCode, res.body).toBe(201);
  endpointId = res.json().endpoint.id;
  webhookSecret = res.json().secret;
  fixture.setWebhookSecret(webhookSecret);
});
afterAll(async () => {
  await t.close();
  await fixture.close();
});

const claimPath = (ticketId: string) => `/api/admin/support/tickets/${ticketId}/claim`;
const deliver = () => t.app.webhooksWorker.run();
const ledger = async (): Promise<PayoutLedger> => (await fetch(fixture.payoutsUrl)).json() as Promise<PayoutLedger>;
const webhooksTo = () => fixture.received.filter((r) => r.path === '/webhooks/bagspace');

async function newClaim(reference: string): Promise<{ ticketId: string; claimId: string }> {
  const res = await sender.post('/api/support/tickets', {
    reason: 'Incident',
    message: 'The jacket never came.',
    claimKind: 'lost',
    deliveryReference: reference,
    itemValue: 150,
    deliveredOn: '2026-07-07',
  });
  expect(res.statusCode, res.body).toBe(201);
  const { ticketId } = res.json();
  return { ticketId, claimId: (await agent.get(claimPath(ticketId))).json().claim.id };
}

describe('the payout ledger', () => {
  let first: { ticketId: string; claimId: string };

  it('pays the sender and holds the traveller’s payout once, however often the decision is delivered', async () => {
    first = await newClaim('BGS-8001');
    const decided = await agent.post(`${claimPath(first.ticketId)}/decision`, {
      outcome: 'part',
      amount: '45.50',
      seenVersion: 1,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await deliver();
    expect(webhooksTo().length).toBeGreaterThanOrEqual(2);
    expect(webhooksTo().every((r) => r.verified)).toBe(true);
    const once = await ledger();
    expect(once.entries).toEqual([
      {
        claimId: first.claimId,
        version: 2,
        ticketId: first.ticketId,
        deliveryReference: 'BGS-8001',
        outcome: 'part',
        amount: 4550,
        currency: 'NZD',
        appeal: false,
        sender: 'pay',
        traveller: 'hold',
        effect: "Pay the sender 45.50 NZD; hold the traveller's payout for BGS-8001.",
        webhookId: expect.stringMatching(/^msg_/),
      },
    ]);
    expect(once.travellerPayouts).toEqual({ 'BGS-8001': 'held' });
    expect(once.repeats).toBe(0);

    // "Deliver again": the same event with the same webhook-id reaches the app, which changes nothing.
    const list = await agent.get(`/api/admin/webhooks/${endpointId}/deliveries`);
    const delivery = (list.json().deliveries as Array<{ id: number; type: string; webhookId: string }>).find(
      (d) => d.type === 'claim.decided',
    )!;
    expect(delivery.webhookId).toBe(once.entries[0]!.webhookId);
    const again = await agent.post(`/api/admin/webhooks/deliveries/${delivery.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    await deliver();
    const told = webhooksTo().filter((r) => r.headers['webhook-id'] === delivery.webhookId);
    expect(told.map((r) => r.verified)).toEqual([true, true]);
    const replayed = await ledger();
    expect(replayed.entries).toEqual(once.entries);
    expect(replayed.repeats).toBe(1);
    const state = (await agent.get(`/api/admin/webhooks/${endpointId}/deliveries`)).json().deliveries;
    expect(state.find((d: { id: number }) => d.id === delivery.id).state).toBe('delivered');

    // The same version under another webhook-id (a replay by hand): still one entry for it.
    const body = told[0]!.body;
    const copy = await fetch(fixture.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(webhookSecret, `msg_${randomBytes(16).toString('hex')}`, new Date(), body),
      },
      body,
    });
    expect(copy.status).toBe(200);
    // Signed with another secret: refused, and nothing taken.
    const forged = await fetch(fixture.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(`whsec_${randomBytes(32).toString('base64')}`, 'msg_forged', new Date(), body),
      },
      body,
    });
    expect(forged.status).toBe(401);
    const after = await ledger();
    expect(after.entries).toEqual(once.entries);
    expect(after.repeats).toBe(2);
  });

  it('releases the traveller’s payout on a decline; the appeal, decided by a second admin, is its own entry', async () => {
    const claim = await newClaim('BGS-8002');
    const declined = await agent.post(`${claimPath(claim.ticketId)}/decision`, {
      outcome: 'declined',
      reason: 'The traveller handed it over whole.',
      seenVersion: 1,
    });
    expect(declined.statusCode, declined.body).toBe(200);
    await deliver();
    const declinedEntry = (await ledger()).entries.filter((e) => e.claimId === claim.claimId);
    expect(declinedEntry).toEqual([
      expect.objectContaining({
        version: 2,
        outcome: 'declined',
        amount: 0,
        appeal: false,
        sender: 'nothing',
        traveller: 'release',
        effect: "Release the traveller's payout for BGS-8002.",
      }),
    ]);
    expect((await ledger()).travellerPayouts['BGS-8002']).toBe('released');

    const appealed = await sender.post(`/api/support/tickets/${claim.ticketId}/claim/appeal`, {
      reason: 'The photo shows the torn bag.',
    });
    expect(appealed.statusCode, appealed.body).toBe(200);
    const seenVersion = (await lead.get(claimPath(claim.ticketId))).json().claim.version;
    const upheld = await lead.post(`${claimPath(claim.ticketId)}/decision`, { outcome: 'upheld', seenVersion });
    expect(upheld.statusCode, upheld.body).toBe(200);
    await deliver();
    await deliver();
    const final = await ledger();
    const entries = final.entries.filter((e) => e.claimId === claim.claimId);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      version: seenVersion + 1,
      outcome: 'upheld',
      amount: 15000,
      appeal: true,
      sender: 'pay',
      traveller: 'hold',
      effect: "Pay the sender 150.00 NZD; hold the traveller's payout for BGS-8002.",
    });
    // One entry per claim version, across both claims; the appeal overrules the release.
    const versions = final.entries.map((e) => `${e.claimId}:${e.version}`);
    expect(new Set(versions).size).toBe(versions.length);
    expect(final.entries.filter((e) => e.claimId === first.claimId)).toHaveLength(1);
    expect(final.travellerPayouts).toEqual({ 'BGS-8001': 'held', 'BGS-8002': 'held' });
  });
});
