import { sql } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { FAQ_TYPES } from '../../src/contracts/content.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { createAccountAdmin } from '../../src/server/modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { createUser } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { apiClient } from '../helpers/admin-client.ts';
import { pngOf, register, validCompany } from '../helpers/registration.ts';
import {
  BASE_SEED,
  defineFuzzSuite,
  FUZZ_ENV,
  type FuzzContext,
  idsOf,
  newStats,
  RUNS_PER_OPERATION,
} from './fuzz-harness.ts';

/**
 * IN-01/IN-04/IN-05/IN-07, LOG-04: the admin console's operations under generated input: partner
 * review, FAQs, legal links and documents, users and the audit log.
 */

let t: TestApp;
let ctx: FuzzContext;
const stats = newStats();

beforeAll(async () => {
  t = await createTestApp({ env: FUZZ_ENV, mailWorker: false });
  const admin = await apiClient(t, { role: 'admin' });
  const accountAdmin = createAccountAdmin(createAccountsRepository(t.database.db));
  const victims = [
    await createUser(t, { verified: false }),
    await createUser(t, { verified: false }),
    await createUser(t),
    await createUser(t, { role: 'admin' }),
  ];
  const disabled = await createUser(t);
  await accountAdmin.disableUser({ email: disabled.email });
  victims.push(disabled);

  // Applications in every state, some with a licence on file, one without a contact email.
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const fields = { ...validCompany(), ...(i === 7 ? { contactPersonEmail: '' } : {}) };
    const res = await register(
      t,
      fields,
      i % 2 === 0 ? { bytes: pngOf(200), name: 'licence.png', type: 'image/png' } : undefined,
    );
    if (res.statusCode !== 201) throw new Error(`registration failed: ${res.statusCode} ${res.body}`);
    ids.push(res.json().id as string);
  }
  await admin.post(`/api/admin/companies/${ids[1]}/approve`);
  await admin.post(`/api/admin/companies/${ids[2]}/reject`, { reason: 'Licence unreadable' });
  await admin.post(`/api/admin/companies/${ids[3]}/ban`);

  const faqOrders = (type: string) => async () => {
    const rows = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from faqs where type = ${type} order by position, id`,
    );
    const current = rows.map((r) => r.id);
    return [
      current,
      [...current].reverse(),
      [...current.slice(1), ...current.slice(0, 1)],
      current.length > 1 ? [current[1]!, current[0]!, ...current.slice(2)] : current,
    ];
  };
  // Saved replies to edit and delete.
  for (let i = 0; i < 3; i++) {
    const res = await admin.post('/api/admin/support/saved-replies', {
      title: `Fuzz seed ${i}`,
      body: 'Hello {{user.email}}',
    });
    if (res.statusCode !== 200) throw new Error(`saved reply failed: ${res.statusCode} ${res.body}`);
  }
  // Failed mail, so 'Retry' has something to send again (the worker does not run here).
  for (let i = 0; i < 5; i++) {
    await t.database.db.execute(
      sql`insert into mail_outbox (message_id, kind, recipient, subject, text_body, html_body, state, give_up_at)
          values (${`<fuzz-${i}@example.nz>`}, 'team-new-ticket', ${`fuzz-${i}@example.nz`}, 'Fuzz mail', 'Text', '<p>Text</p>', 'failed', now())`,
    );
  }
  // API keys and a webhook endpoint (on a port nobody listens on) with a delivery to redeliver.
  for (const name of ['Fuzz app', 'Fuzz reports']) {
    const res = await admin.post('/api/admin/api-keys', { name, scopes: ['tickets:read'] });
    if (res.statusCode !== 201) throw new Error(`api key failed: ${res.statusCode} ${res.body}`);
  }
  const hook = await admin.post('/api/admin/webhooks', { url: 'http://127.0.0.1:9/fuzz', events: ['partner.decided'] });
  if (hook.statusCode !== 201) throw new Error(`webhook failed: ${hook.statusCode} ${hook.body}`);
  await admin.post(`/api/admin/companies/${ids[4]}/approve`);
  ctx = {
    t,
    principals: { admin: { name: 'admin', headers: admin.headers, userId: admin.id } },
    state: {},
    pools: {
      company: idsOf(t, sql`select id from companies order by created_at`),
      licensedCompany: idsOf(
        t,
        sql`select id from companies where commercial_license_key is not null order by created_at`,
      ),
      faq: idsOf(t, sql`select id::text as id from faqs order by id`),
      ...Object.fromEntries(FAQ_TYPES.map((type) => [`faqOrder:${type}`, faqOrders(type)])),
      victim: () => victims.map((v) => v.id),
      self: () => [admin.id],
      auditId: idsOf(t, sql`select id::text as id from audit_log order by id`),
      mailId: idsOf(t, sql`select id::text as id from mail_outbox order by id`),
      savedReply: idsOf(t, sql`select id from saved_replies order by created_at`),
      secondFactor: idsOf(t, sql`select id from second_factors where user_id = ${admin.id} order by created_at`),
      apiKey: idsOf(t, sql`select id from api_keys order by created_at`),
      webhook: idsOf(t, sql`select id from webhook_endpoints order by created_at`),
      delivery: idsOf(t, sql`select id::text as id from webhook_deliveries order by id`),
    },
  };
  console.log(`[fuzz admin] seed ${BASE_SEED}, ${RUNS_PER_OPERATION} runs per operation and principal`);
});

defineFuzzSuite('admin', 'fuzz: admin console operations', () => ({ t, ctx }), stats);
