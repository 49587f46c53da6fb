// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { COMPANY_NAME: 'Kiwi Carry' } });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

describe('GET /register', () => {
  it('sends the whole form in the first HTML, with its title, canonical link and no inline styles', async () => {
    const res = await get('/register');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Logistic Company Partner Registration | Kiwi Carry</title>');
    expect(res.body).toContain('<h1 id="register-title">Logistic Company Partner Registration</h1>');
    expect(res.body).toContain('Commercial licence (JPG, PNG or PDF)');
    expect(res.body).toContain('accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf"');
    expect(res.body).toMatch(/<link rel="canonical" href="[^"]*\/register"/);
    for (const label of [
      'Company name',
      'Phone number',
      'Address 1',
      'Address 2',
      'Contact person name',
      'Contact person job title',
      'Contact person phone number',
      'Contact person email',
    ]) {
      expect(res.body).toMatch(new RegExp(`<label class="field__label" for="register-[A-Za-z]+">${label}`));
    }
    expect(res.body).not.toMatch(/\sstyle="/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self' 'nonce-");
  });

  it('still renders when the companies/links document cannot be read (the failure is only logged)', async () => {
    await t.database.db.execute(sql`alter table settings rename to settings_unavailable`);
    try {
      const res = await get('/register');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Logistic Company Partner Registration');
      expect(res.body).toContain('name="companyName"');
    } finally {
      await t.database.db.execute(sql`alter table settings_unavailable rename to settings`);
    }
  });
});
