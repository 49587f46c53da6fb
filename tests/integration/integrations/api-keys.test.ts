import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../../src/contracts/claims.ts';
import { DELIVERY_TEXT } from '../../../src/contracts/delivery-card.ts';
import { INTEGRATION_TEXT } from '../../../src/contracts/integrations.ts';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { BusinessCalendar, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Service API keys (docs/decisions/149-service-api-keys.md) and what the app does with one
 * (docs/integrations.md): shown once and stored as a hash, listed by name and last four characters,
 * revoked at once, rotated with an overlap, ended at expiry on the app's clock, limited per key,
 * audited under the key's name; tickets opened for an app user are that user's own, and an Incident
 * with the Contact us form's incident fields opens a claim, checked as the form checks it.
 */
const clock = movableClock();
let t: TestApp;
let admin: ApiClient;
let customer: SupportUser;

beforeAll(async () => {
  t = await createTestApp({
    mailWorker: false,
    clock,
    env: { RATE_LIMITS: 'on', API_KEY_REQUESTS_PER_MINUTE: '40', TICKETS_PER_USER_PER_HOUR: '100' },
  });
  admin = await apiClient(t, { role: 'admin' });
  customer = await supportUser(t);
});
afterAll(() => t.close());

interface MadeKey {
  key: { id: string; name: string; lastFour: string; scopes: string[]; expiresAt: string; live: boolean };
  secret: string;
}

async function makeKey(name: string, scopes: string[], expiresInDays?: number): Promise<MadeKey> {
  const res = await admin.post('/api/admin/api-keys', { name, scopes, ...(expiresInDays ? { expiresInDays } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const withKey = (secret: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

describe('a key is shown once, kept as a hash, listed by name and last four', () => {
  it('answers the secret on creation only; the database holds its SHA-256', async () => {
    const made = await makeKey('Bagspace app', ['tickets:write', 'tickets:read']);
    expect(made.secret).toMatch(/^bsk_[A-Za-z0-9_-]{43}$/);
    expect(made.key.lastFour).toBe(made.secret.slice(-4));
    const listed = (await admin.get('/api/admin/api-keys')).json().keys as MadeKey['key'][];
    const row = listed.find((k) => k.id === made.key.id)!;
    expect(row).toMatchObject({ name: 'Bagspace app', lastFour: made.secret.slice(-4), live: true });
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    const stored = await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select * from api_keys where id = ${made.key.id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(made.secret.slice(4));
    const [hash] = await queryRows<{ ok: boolean }>(
      t.database.db,
      sql`select token_hash = encode(sha256(convert_to(${made.secret}, 'UTF8')), 'hex') as ok from api_keys where id = ${made.key.id}`,
    );
    expect(hash!.ok).toBe(true);
    const audit = await auditOf(admin, 'api-key', made.key.id);
    expect(audit[0]).toMatchObject({ action: 'api-key.create', actorEmail: admin.email });
  });

  it('refuses a key without a name or scopes, or one unknown scope, in words', async () => {
    const none = await admin.post('/api/admin/api-keys', { name: ' ', scopes: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields).toMatchObject({
      name: INTEGRATION_TEXT.nameRequired,
      scopes: INTEGRATION_TEXT.scopesRequired,
    });
    const unknown = await admin.post('/api/admin/api-keys', { name: 'x', scopes: ['tickets:delete'] });
    expect(unknown.statusCode).toBe(400);
    const long = await admin.post('/api/admin/api-keys', { name: 'x', scopes: ['tickets:read'], expiresInDays: 731 });
    expect(long.json().error.fields.expiresInDays).toBe(INTEGRATION_TEXT.expiryRange);
  });
});

describe('what a key may call', () => {
  it('calls what its scopes open, and nothing else (403); a session cannot call the app routes', async () => {
    const reader = await makeKey('Reader', ['partners:read']);
    expect((await withKey(reader.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
    const refused = await withKey(reader.secret, 'POST', '/api/app/tickets', {
      userEmail: customer.email,
      reason: 'General',
      message: 'Hello',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(INTEGRATION_TEXT.keyNotAllowed);
    // Nothing staff or customers call opens to a key, not even what anyone may read.
    expect((await withKey(reader.secret, 'GET', '/api/admin/support/tickets')).statusCode).toBe(403);
    expect((await withKey(reader.secret, 'GET', '/api/support/tickets')).statusCode).toBe(403);
    expect((await withKey(reader.secret, 'GET', '/api/faqs?type=general')).statusCode).toBe(403);
    const asStaff = await admin.get('/api/app/partners');
    expect(asStaff.statusCode).toBe(403);
    expect(asStaff.json().error.message).toBe(INTEGRATION_TEXT.keyOnly);
  });

  it('refuses a made-up key with 401, whatever it calls', async () => {
    const res = await withKey(`bsk_${'A'.repeat(43)}`, 'GET', '/api/app/partners');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(INTEGRATION_TEXT.keyInvalid);
  });
});

describe('the app opens and follows tickets for its users', () => {
  let app: MadeKey;
  let ticketId: string;
  beforeAll(async () => {
    app = await makeKey('Bagspace app (tickets)', ['tickets:write']);
  });

  it('opens a ticket with a delivery reference that the user sees as their own', async () => {
    const res = await withKey(app.secret, 'POST', '/api/app/tickets', {
      // In another case, with a space and a line break around it: the same account.
      userEmail: ` ${customer.email.toUpperCase()}\n`,
      reason: 'Incident',
      message: 'My bag never arrived in Dunedin.',
      deliveryReference: 'BGS-1001',
      clientId: 'app-ticket-0001',
    });
    expect(res.statusCode, res.body).toBe(201);
    ticketId = res.json().ticketId;
    // A retry with the same clientId is the same ticket.
    const again = await withKey(app.secret, 'POST', '/api/app/tickets', {
      userId: customer.id,
      reason: 'Incident',
      message: 'My bag never arrived in Dunedin.',
      clientId: 'app-ticket-0001',
    });
    expect(again.json().ticketId).toBe(ticketId);
    const own = await customer.get(`/api/support/tickets/${ticketId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().messages[0].messageBody).toBe('My bag never arrived in Dunedin.');
    const read = await withKey(app.secret, 'GET', `/api/app/tickets/${ticketId}`);
    expect(read.json().ticket).toMatchObject({
      userId: customer.id,
      deliveryReference: 'BGS-1001',
      reason: 'Incident',
    });
    const audit = await auditOf(admin, 'ticket', ticketId);
    expect(audit.map((e) => [e.action, e.actorEmail])).toContainEqual([
      'app.ticket.open',
      'API key “Bagspace app (tickets)”',
    ]);
    // An Incident without a kind is a ticket as before: no claim.
    expect((await admin.get(`/api/admin/support/tickets/${ticketId}/claim`)).json().claim).toBeNull();
  });

  it("posts the user's later messages, never on a closed ticket, and lists the user's tickets", async () => {
    const posted = await withKey(app.secret, 'POST', `/api/app/tickets/${ticketId}/messages`, {
      messageBody: 'The traveller says it was left at the desk.',
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().message).toMatchObject({ mine: true, admin: false });
    const staffView = await admin.get(`/api/admin/support/tickets/${ticketId}`);
    expect(staffView.json().messages.map((m: { messageBody: string }) => m.messageBody)).toContain(
      'The traveller says it was left at the desk.',
    );
    // A team note never reaches the app.
    await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Internal: check CCTV' });
    const list = await withKey(app.secret, 'GET', `/api/app/tickets?userEmail=${encodeURIComponent(customer.email)}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().tickets.map((x: { id: string }) => x.id)).toContain(ticketId);
    const thread = await withKey(app.secret, 'GET', `/api/app/tickets/${ticketId}`);
    expect(thread.body).not.toContain('CCTV');
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    const late = await withKey(app.secret, 'POST', `/api/app/tickets/${ticketId}/messages`, { messageBody: 'Hello?' });
    expect(late.statusCode).toBe(409);
  });

  it('names an unknown or disabled user, and asks for exactly one of email and id', async () => {
    const unknown = await withKey(app.secret, 'POST', '/api/app/tickets', {
      userEmail: 'nobody@example.nz',
      reason: 'General',
      message: 'Hi',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(INTEGRATION_TEXT.userMissing);
    const both = await withKey(app.secret, 'POST', '/api/app/tickets', {
      userEmail: customer.email,
      userId: customer.id,
      reason: 'General',
      message: 'Hi',
    });
    expect(both.statusCode).toBe(400);
    const badReference = await withKey(app.secret, 'POST', '/api/app/tickets', {
      userEmail: customer.email,
      reason: 'General',
      message: 'Hi',
      deliveryReference: 'no spaces allowed',
    });
    expect(badReference.json().error.fields.deliveryReference).toBe(DELIVERY_TEXT.referenceCharacters);
  });
});

describe('the app opens claims with the Contact us form’s incident fields', () => {
  let app: MadeKey;
  const lost = (fields: Record<string, unknown> = {}) => ({
    userEmail: customer.email,
    reason: 'Incident',
    message: 'The jacket never arrived in Nelson.',
    claimKind: 'lost',
    deliveryReference: 'BGS-2001',
    itemValue: '$1,250.50',
    deliveredOn: newZealandDate(clock.now()),
    ...fields,
  });
  const ticketCount = async () =>
    (await withKey(app.secret, 'GET', `/api/app/tickets?userId=${customer.id}`)).json().tickets.length as number;
  beforeAll(async () => {
    app = await makeKey('Bagspace app (claims)', ['tickets:write']);
  });

  it('a lost item opens a claim on the ticket, its decision due in 5 working days', async () => {
    const res = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ clientId: 'app-claim-0001' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(Object.keys(res.json()).sort()).toEqual(['ticketId', 'ticketNo']);
    const { ticketId } = res.json();
    const staff = await admin.get(`/api/admin/support/tickets/${ticketId}/claim`);
    expect(staff.statusCode, staff.body).toBe(200);
    const claim = staff.json().claim;
    expect(claim).toMatchObject({
      ticketId,
      kind: 'lost',
      deliveryReference: 'BGS-2001',
      itemValueCents: 125050,
      deliveredOn: newZealandDate(clock.now()),
      state: 'submitted',
      version: 1,
      evidence: 0,
      decision: null,
    });
    expect(claim.dueAt).toBe(
      new BusinessCalendar(DEFAULT_CALENDAR)
        .addWorkingDays(new Date(claim.stateSince), CLAIM_PERIODS.decisionDays)
        .toISOString(),
    );
    // The claim's delivery is the ticket's (its delivery card), and the user sees the ticket as theirs.
    const read = await withKey(app.secret, 'GET', `/api/app/tickets/${ticketId}`);
    expect(read.json().ticket).toMatchObject({ deliveryReference: 'BGS-2001', reason: 'Incident' });
    expect((await customer.get(`/api/support/tickets/${ticketId}/claim`)).json().claim).toMatchObject({
      kind: 'lost',
      state: 'submitted',
    });
    // A retry with the same clientId is the same ticket and the same one claim.
    const again = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ clientId: 'app-claim-0001' }));
    expect(again.json().ticketId).toBe(ticketId);
    const [claims] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from incident_claims where ticket_id = ${ticketId}::uuid`,
    );
    expect(claims!.n).toBe(1);
    const audit = await auditOf(admin, 'ticket', ticketId);
    expect(audit.find((e) => e.action === 'app.ticket.open')?.details).toMatchObject({ claimKind: 'lost' });
  });

  it('refuses a claim without its delivery, with a bad value or day, in the form’s words, all at once', async () => {
    const before = await ticketCount();
    const missing = await withKey(
      app.secret,
      'POST',
      '/api/app/tickets',
      lost({ deliveryReference: '', itemValue: 'a lot', deliveredOn: '1 December' }),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({
      deliveryReference: CLAIM_TEXT.deliveryRequired,
      itemValue: CLAIM_TEXT.valueInvalid,
      deliveredOn: CLAIM_TEXT.deliveredOnInvalid,
    });
    const noValue = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ itemValue: undefined }));
    expect(noValue.json().error.fields).toEqual({ itemValue: CLAIM_TEXT.valueRequired });
    const tooMuch = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ itemValue: 100_000.01 }));
    expect(tooMuch.json().error.fields).toEqual({ itemValue: CLAIM_TEXT.valueTooLarge });
    // A ticket's reference may have a dot; a claim's may not (the form's rule).
    const dotted = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ deliveryReference: 'BGS.2001' }));
    expect(dotted.json().error.fields).toEqual({ deliveryReference: CLAIM_TEXT.deliveryInvalid });
    const notIncident = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ reason: 'General' }));
    expect(notIncident.json().error.fields).toEqual({ claimKind: CLAIM_TEXT.kindWithoutIncident });
    const unknownKind = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ claimKind: 'stolen' }));
    expect(unknownKind.json().error.fields).toEqual({ claimKind: CLAIM_TEXT.chooseKind });
    const tomorrow = newZealandDate(new Date(clock.now().getTime() + 36 * 60 * 60 * 1000));
    const future = await withKey(app.secret, 'POST', '/api/app/tickets', lost({ deliveredOn: tomorrow }));
    expect(future.statusCode).toBe(400);
    expect(future.json().error.fields).toEqual({ deliveredOn: CLAIM_TEXT.deliveredOnFuture });
    expect(await ticketCount()).toBe(before);
  });

  it('refuses a damaged item (it needs a photo) with the Contact us link that takes one', async () => {
    const before = await ticketCount();
    const res = await withKey(
      app.secret,
      'POST',
      '/api/app/tickets',
      lost({ claimKind: 'damaged', deliveryReference: 'BGS-2002', message: 'The vase arrived in pieces.' }),
    );
    expect(res.statusCode).toBe(400);
    const link = `${t.config.publicBaseUrl}/support/create-ticket?reason=Incident&delivery=BGS-2002`;
    expect(res.json().error.message).toBe(CLAIM_TEXT.photoRequiredOnPage(link));
    expect(res.json().error.message).toContain('/support/create-ticket?reason=Incident&delivery=BGS-2002');
    expect(res.json().error.fields).toEqual({ claimKind: CLAIM_TEXT.photoRequiredOnPage(link) });
    expect(await ticketCount()).toBe(before);
  });

  it('a key without tickets:write cannot open a claim', async () => {
    const reader = await makeKey('Reader (claims)', ['tickets:read']);
    const refused = await withKey(reader.secret, 'POST', '/api/app/tickets', lost());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(INTEGRATION_TEXT.keyNotAllowed);
  });
});

describe('revoke, rotate, expire, limit', () => {
  it('a revoked key is refused on its next request', async () => {
    const made = await makeKey('Revoked', ['partners:read']);
    expect((await withKey(made.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
    const revoked = await admin.post(`/api/admin/api-keys/${made.key.id}/revoke`);
    expect(revoked.json().key.live).toBe(false);
    expect((await withKey(made.secret, 'GET', '/api/app/partners')).statusCode).toBe(401);
    expect((await auditOf(admin, 'api-key', made.key.id))[0]!.action).toBe('api-key.revoke');
  });

  it('rotating gives a new key; both work until the overlap ends, then only the new one', async () => {
    const old = await makeKey('Rotated', ['partners:read']);
    const res = await admin.post(`/api/admin/api-keys/${old.key.id}/rotate`, { overlapHours: 2 });
    expect(res.statusCode, res.body).toBe(201);
    const fresh = res.json() as MadeKey;
    expect(fresh.secret).not.toBe(old.secret);
    expect(fresh.key).toMatchObject({ name: 'Rotated', scopes: ['partners:read'], rotatedFrom: old.key.id });
    expect((await withKey(old.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
    expect((await withKey(fresh.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
    clock.advance(2 * 60 * 60 * 1000 + 1000);
    expect((await withKey(old.secret, 'GET', '/api/app/partners')).statusCode).toBe(401);
    expect((await withKey(fresh.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
    // An ended key cannot be rotated again.
    const ended = await admin.post(`/api/admin/api-keys/${old.key.id}/rotate`, {});
    expect(ended.statusCode).toBe(409);
    expect(ended.json().error.message).toBe(INTEGRATION_TEXT.keyEnded);
  });

  it('a key ends at its expiry on the app clock', async () => {
    const made = await makeKey('Short', ['partners:read'], 1);
    expect((await withKey(made.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await withKey(made.secret, 'GET', '/api/app/partners')).statusCode).toBe(401);
  });

  it('limits each key on its own: past the limit 429 with Retry-After, another key unaffected', async () => {
    const busy = await makeKey('Busy', ['partners:read']);
    const calm = await makeKey('Calm', ['partners:read']);
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await withKey(busy.secret, 'GET', '/api/app/partners')).statusCode);
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    const limited = await withKey(busy.secret, 'GET', '/api/app/partners');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().error.message).toBe(INTEGRATION_TEXT.tooManyRequests);
    expect((await withKey(calm.secret, 'GET', '/api/app/partners')).statusCode).toBe(200);
  });
});

describe('the API description', () => {
  it('lists every endpoint a key may call, with the scopes that open it', async () => {
    const { namedEndpoints } = await import('../../../src/contracts/api/index.ts');
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    const callable = namedEndpoints().filter(([, declaration]) => declaration.keyScopes);
    expect(callable.length).toBeGreaterThanOrEqual(12);
    for (const [name, declaration] of callable) {
      const operation = doc.paths[declaration.path.replace(/:(\w+)/g, '{$1}')]?.[declaration.method.toLowerCase()];
      expect(operation, name).toBeDefined();
      for (const scope of declaration.keyScopes!) expect(operation!.description, name).toContain(scope);
    }
  });
});
