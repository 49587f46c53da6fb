// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/** 'Contact us' sent the way a browser sends it without JavaScript: to its own page. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true });
});
afterAll(() => t.close());

const post = (fields: Record<string, string>, headers: Record<string, string>) =>
  postPageForm(t, '/support/create-ticket', fields, { 'sec-fetch-site': 'same-origin', ...headers });

describe('creating a ticket without JavaScript', () => {
  it('opens the new ticket, and a resent form (same id) makes no second ticket', async () => {
    const user = await supportUser(t);
    const page = await t.app.inject({
      method: 'GET',
      url: '/support/create-ticket',
      headers: { accept: 'text/html', ...user.headers },
    });
    const clientId = /name="clientId" value="([^"]+)"/.exec(page.body)?.[1];
    expect(clientId).toBeTruthy();
    expect(page.body).toMatch(/<form[^>]*method="post"/);

    const fields = { reason: 'Incident', message: 'My bag arrived wet, without JavaScript.', clientId: clientId! };
    const res = await post(fields, user.headers);
    expect(res.statusCode).toBe(303);
    const ticketId = /^\/support\/ticket\/([0-9a-f-]{36})$/.exec(String(res.headers.location))?.[1];
    expect(ticketId).toBeTruthy();
    const again = await post(fields, user.headers);
    expect(again.headers.location).toBe(res.headers.location);
    const rows = await queryRows<{ n: unknown }>(
      t.database.db,
      sql`select count(*) as n from support_tickets where user_id = ${user.id}`,
    );
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('comes back with Field Required and what was typed', async () => {
    const user = await supportUser(t);
    const res = await post({ reason: '', message: 'Only a message here.', clientId: 'abcdefgh-1234' }, user.headers);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(SUPPORT_TEXT.fieldRequired);
    expect(res.body).toContain('Only a message here.');
  });

  it('asks a visitor to sign in first', async () => {
    const res = await post({ reason: 'General', message: 'Hello from nobody.' }, {});
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
