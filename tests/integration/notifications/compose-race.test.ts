import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { untilWaitingOnALock } from '../../helpers/postgres.ts';
import { supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp, testDatabaseKind } from '../../helpers/test-app.ts';

/**
 * An answer that commits while the worker is composing the ticket's pending notice (PostgreSQL,
 * where the two run at once): it must not join a notice that has already read its answers. The
 * test plays the worker's part by hand: it holds the pending notice's row as the compose
 * transaction does, lets the answer arrive, and deletes the notice as a finished compose would.
 */
let t: TestApp;
beforeAll(async () => {
  if (testDatabaseKind !== 'postgres') return;
  t = await createTestApp({ env: { NOTIFY_DELAY_SECONDS: '0' }, mailWorker: false });
});
afterAll(() => t?.close());

describe.runIf(testDatabaseKind === 'postgres')(
  'an answer committed while its ticket’s notice is being composed',
  () => {
    it('waits for the compose and gets a notice of its own', async () => {
      const user = await supportUser(t);
      const admin = await supportUser(t, { role: 'admin' });
      const { ticketId } = await user.createTicket('General', 'Race me.');
      expect(
        (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'First answer.' }))
          .statusCode,
      ).toBe(200);

      const worker = new pg.Client({ connectionString: t.databaseUrl });
      await worker.connect();
      try {
        await worker.query('begin');
        const [event] = (
          await worker.query(
            `select id from notification_events where ticket_id = $1 and kind = 'ticket-reply' for update`,
            [ticketId],
          )
        ).rows;
        expect(event).toBeDefined();

        const second = admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
          messageBody: 'Second answer, mid-compose.',
        });
        // The answer's statement waits for the notice's row (checked, not slept).
        await untilWaitingOnALock(worker, 'the answer waiting for the notice being composed');
        await worker.query('delete from notification_events where id = $1', [event.id]);
        await worker.query('commit');
        const res = await second;
        expect(res.statusCode).toBe(200);
        const secondId = res.json().message.id as number;
        const pending = await queryRows<{ message_id: unknown }>(
          t.database.db,
          sql`select message_id from notification_events where ticket_id = ${ticketId} and kind = 'ticket-reply'`,
        );
        expect(pending.map((r) => Number(r.message_id))).toEqual([secondId]);
      } finally {
        await worker.end().catch(() => {});
      }
    });
  },
);
