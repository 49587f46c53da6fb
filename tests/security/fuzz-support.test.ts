import { sql } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { queryRows } from '../../src/server/db/sql.ts';
import { png, postFiles } from '../helpers/attachment-files.ts';
import { supportUser } from '../helpers/support.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
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
 * IN-01/IN-05/IN-07, LOG-04: support tickets under generated input, on both sides: the owner's
 * (create, list, read, reply with files, open a file, live streams) and the admin's (inbox, answer,
 * close, reopen).
 */

let t: TestApp;
let ctx: FuzzContext;
const stats = newStats();

beforeAll(async () => {
  t = await createTestApp({ env: FUZZ_ENV, mailWorker: false });
  const owner = await supportUser(t);
  const other = await supportUser(t);
  const admin = await supportUser(t, { role: 'admin' });
  for (let i = 0; i < 3; i++) {
    await owner.createTicket('General', `Where is my parcel number ${i}?`);
    await other.createTicket('Incident', `Someone else's ticket ${i}`);
  }
  // A photo on each side: the attachment routes' own and foreign ids.
  for (const who of [owner, other]) {
    const [first] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from support_tickets where user_id = ${who.id} order by ticket_no limit 1`,
    );
    const sent = await postFiles(
      t,
      `/api/support/tickets/${first!.id}/messages`,
      who.headers,
      { messageBody: 'Photo' },
      [{ name: 'photo.png', data: await png() }],
    );
    if (sent.statusCode !== 200) throw new Error(`fixture photo: ${sent.statusCode} ${sent.body}`);
  }
  const closed = await owner.createTicket('Deactivation', 'Please close my account.');
  await admin.post(`/api/admin/support/tickets/${closed.ticketId}/close`);
  const made = await admin.post('/api/admin/api-keys', {
    name: 'Fuzz app',
    scopes: ['tickets:read', 'tickets:write', 'partners:read', 'webhooks:manage'],
  });
  if (made.statusCode !== 201) throw new Error(`fixture key: ${made.statusCode} ${made.body}`);
  const appKey = (made.json() as { secret: string }).secret;
  // Streams need a socket: inject cannot hang up on a response that never ends.
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address() as { port: number };
  ctx = {
    t,
    baseUrl: `http://127.0.0.1:${address.port}`,
    principals: {
      user: { name: 'user', headers: owner.headers, userId: owner.id },
      admin: { name: 'admin', headers: admin.headers, userId: admin.id },
      // The app's service key, with every scope (docs/integrations.md).
      key: { name: 'key', headers: { authorization: `Bearer ${appKey}` }, userId: '' },
    },
    state: {},
    pools: {
      ownTicket: idsOf(t, sql`select id from support_tickets where user_id = ${owner.id} and open order by ticket_no`),
      ownClosedTicket: idsOf(
        t,
        sql`select id from support_tickets where user_id = ${owner.id} and not open order by ticket_no`,
      ),
      foreignTicket: idsOf(t, sql`select id from support_tickets where user_id = ${other.id} order by ticket_no`),
      messageId: idsOf(t, sql`select id::text as id from ticket_messages order by id`),
      clientId: idsOf(t, sql`select client_id as id from ticket_messages where client_id is not null order by id`),
      agent: idsOf(t, sql`select id from users where role = 'admin' order by created_at`),
      appUser: idsOf(t, sql`select id from users where id in (${owner.id}, ${other.id}) order by created_at`),
      appUserEmail: idsOf(
        t,
        sql`select email as id from users where id in (${owner.id}, ${other.id}) order by created_at`,
      ),
      attachment: idsOf(
        t,
        sql`select id from ticket_attachments where user_id = ${owner.id} and message_id is not null order by created_at`,
      ),
      foreignAttachment: idsOf(
        t,
        sql`select id from ticket_attachments where user_id = ${other.id} and message_id is not null order by created_at`,
      ),
    },
  };
  console.log(`[fuzz support] seed ${BASE_SEED}, ${RUNS_PER_OPERATION} runs per operation and principal`);
});

defineFuzzSuite('support', 'fuzz: support operations', () => ({ t, ctx }), stats);
