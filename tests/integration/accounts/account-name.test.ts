import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../src/contracts/account.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { postJson } from '../../helpers/accounts.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * An account's name: optional at sign-up, set, changed and removed through /api/account/name,
 * shown by the profile, part of "Download my data", and erased with the account.
 */
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ env: { ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '100' } });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const nameOf = async (email: string) =>
  (await queryRows<{ name: string | null }>(t.database.db, sql`select name from users where email = ${email}`))[0]
    ?.name;

const setName = (user: SupportUser, name: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/account/name',
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ name }),
  });

describe('sign-up', () => {
  it('keeps a name given (trimmed), and an account without one has none', async () => {
    const named = `named-${Date.now()}@example.com`;
    const res = await postJson(t, '/api/auth/signup', {
      email: named,
      password: 'correct horse battery staple',
      name: '  Aroha Ngata ',
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(await nameOf(named)).toBe('Aroha Ngata');

    const plain = `plain-${Date.now()}@example.com`;
    expect(
      (await postJson(t, '/api/auth/signup', { email: plain, password: 'correct horse battery staple' })).statusCode,
    ).toBe(202);
    expect(await nameOf(plain)).toBeNull();
  });

  it('refuses a name too long or with control characters, saying why', async () => {
    const long = await postJson(t, '/api/auth/signup', {
      email: `long-${Date.now()}@example.com`,
      password: 'correct horse battery staple',
      name: 'a'.repeat(81),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.name).toBe(ACCOUNT_MESSAGES.nameTooLong);
    const control = await postJson(t, '/api/auth/signup', {
      email: `control-${Date.now()}@example.com`,
      password: 'correct horse battery staple',
      name: 'Aroha\nBcc: someone@example.com',
    });
    expect(control.statusCode).toBe(400);
    expect(control.json().error.fields.name).toBe(ACCOUNT_MESSAGES.nameControl);
  });
});

describe('the account’s name', () => {
  it('is set, shown by the profile, changed and removed', async () => {
    const user = await supportUser(t);
    expect((await user.get('/api/account')).json().name).toBeNull();

    const set = await setName(user, '  Tūī Rangi  ');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ message: ACCOUNT_MESSAGES.nameSaved, name: 'Tūī Rangi' });
    expect((await user.get('/api/account')).json().name).toBe('Tūī Rangi');

    const cleared = await setName(user, '   ');
    expect(cleared.json()).toEqual({ message: ACCOUNT_MESSAGES.nameCleared, name: null });
    expect((await user.get('/api/account')).json().name).toBeNull();
  });

  it('takes 80 characters but not 81, nor a tab, and keeps the old name on a refusal', async () => {
    const user = await supportUser(t);
    expect((await setName(user, 'x'.repeat(80))).statusCode).toBe(200);
    const long = await setName(user, 'y'.repeat(81));
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.name).toBe(ACCOUNT_MESSAGES.nameTooLong);
    const tab = await setName(user, 'Sam\tSmith');
    expect(tab.statusCode).toBe(400);
    expect(tab.json().error.fields.name).toBe(ACCOUNT_MESSAGES.nameControl);
    expect(await nameOf(user.email)).toBe('x'.repeat(80));
  });

  it('needs a signed-in person', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/account/name',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Nobody' }),
    });
    expect(res.statusCode).toBe(401);
  });

  it('is in the data export and erased with the account', async () => {
    const user = await supportUser(t);
    expect((await setName(user, 'Hemi Walker')).statusCode).toBe(200);
    const exported = (await user.get('/api/account/export')).json();
    expect(exported.account.name).toBe('Hemi Walker');

    expect((await user.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/users/${user.id}/erase`)).statusCode).toBe(200);
    await t.app.erasureWorker.runOnce();
    const [row] = await queryRows<{ name: string | null; erased: unknown }>(
      t.database.db,
      sql`select name, erased_at as erased from users where id = ${user.id}`,
    );
    expect(row?.erased).not.toBeNull();
    expect(row?.name).toBeNull();
  });
});
