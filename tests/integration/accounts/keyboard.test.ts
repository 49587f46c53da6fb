import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, withCookie } from '../../helpers/accounts.ts';
import { supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The console's single-key shortcuts are a staff member's own choice, kept on their account
 * (docs/decisions/146-console-keyboard.md): on until they turn them off, and off wherever they sign
 * in then. Who may call it at all is the access matrix's (tests/helpers/authz-routes.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/api/admin/me/keyboard', () => {
  it('is on until the staff member turns it off, then off in their other sessions too; a colleague’s stays on', async () => {
    const [aroha, colleague] = await Promise.all([
      supportUser(t, { role: 'admin' }),
      supportUser(t, { role: 'admin' }),
    ]);
    expect((await aroha.get('/api/admin/me/keyboard')).json()).toEqual({ keyboardShortcuts: true });

    const put = (on: unknown, headers = aroha.headers) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/me/keyboard',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ keyboardShortcuts: on }),
      });
    const off = await put(false);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ keyboardShortcuts: false });

    // Another browser: a new session of the same person reads their choice.
    const elsewhere = withCookie(t, await signIn(t, aroha.email, aroha.password));
    const read = await t.app.inject({ method: 'GET', url: '/api/admin/me/keyboard', headers: elsewhere });
    expect(read.json()).toEqual({ keyboardShortcuts: false });
    expect((await colleague.get('/api/admin/me/keyboard')).json()).toEqual({ keyboardShortcuts: true });

    // Anything but true or false is refused in words and changes nothing.
    const wrong = await put('no');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.keyboardShortcuts).toBeTruthy();
    expect((await aroha.get('/api/admin/me/keyboard')).json()).toEqual({ keyboardShortcuts: false });

    expect((await put(true, elsewhere)).json()).toEqual({ keyboardShortcuts: true });
    expect((await aroha.get('/api/admin/me/keyboard')).json()).toEqual({ keyboardShortcuts: true });
  });
});
