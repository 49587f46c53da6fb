// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAQ_MESSAGES, LEGAL_MESSAGES } from '../../../src/contracts/content-admin.ts';
import { COMPANY_REVIEW_MESSAGES } from '../../../src/contracts/partner-review.ts';
import { register, validCompany } from '../../helpers/registration.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The console's screens that used to work only with JavaScript (FAQs, legal links, users, partner
 * review) are real
 * forms: posted without JavaScript, as a browser sends them, each is checked, sent on to its
 * endpoint as this admin, and answered with a page (a 303 to the list, or the page with its
 * messages), never JSON.
 */
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

const post = (url: string, fields: Record<string, string>) =>
  postPageForm(t, url, fields, { origin: 'http://localhost:80', ...admin.headers });
const doneOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('done');
const senderTitles = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/faqs?type=sender' })).json().faqs as Array<{
    id: number;
    title: string;
  }>;

describe('console forms without JavaScript', () => {
  it('FAQ entries are added, refused with their messages, moved and deleted', async () => {
    const empty = await post('/admin/faqs', {
      intent: 'create',
      form: 'add',
      page: 'sender',
      type: 'sender',
      title: '',
      content: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.headers['content-type']).toContain('text/html');
    expect(empty.body).toContain(FAQ_MESSAGES.titleRequired);
    expect(empty.body).toContain(FAQ_MESSAGES.contentRequired);

    for (const title of ['Can I send jam?', 'Can I send a kite?']) {
      const added = await post('/admin/faqs', {
        intent: 'create',
        form: 'add',
        page: 'sender',
        type: 'sender',
        title,
        content: 'Yes.',
      });
      expect(added.statusCode).toBe(303);
      expect(doneOf(added.headers.location)).toBe(`Added “${title}”.`);
    }
    let titles = (await senderTitles()).map((f) => f.title);
    expect(titles.slice(-2)).toEqual(['Can I send jam?', 'Can I send a kite?']);

    const kite = (await senderTitles()).find((f) => f.title === 'Can I send a kite?')!;
    const moved = await post('/admin/faqs', { intent: 'up', page: 'sender', id: String(kite.id) });
    expect(doneOf(moved.headers.location)).toBe('Moved “Can I send a kite?” up.');
    titles = (await senderTitles()).map((f) => f.title);
    expect(titles.slice(-2)).toEqual(['Can I send a kite?', 'Can I send jam?']);

    const edited = await post('/admin/faqs', {
      intent: 'update',
      form: String(kite.id),
      id: String(kite.id),
      page: 'sender',
      type: 'traveller',
      title: 'Can I carry a kite?',
      content: 'If it fits.',
    });
    expect(doneOf(edited.headers.location)).toBe('Saved “Can I carry a kite?”. It is now under Traveller FAQ.');
    expect((await senderTitles()).map((f) => f.title)).not.toContain('Can I send a kite?');

    const page = await t.app.inject({
      method: 'GET',
      url: `/admin/faqs?type=sender&delete=${kite.id}`,
      headers: { accept: 'text/html', ...admin.headers },
    });
    expect(page.statusCode).toBe(200);
    const deleted = await post('/admin/faqs', { intent: 'delete', page: 'traveller', id: String(kite.id) });
    expect(doneOf(deleted.headers.location)).toBe('Deleted “Can I carry a kite?”.');
  });

  it('the legal links are checked and saved; the page says so', async () => {
    const bad = await post('/admin/legal', {
      form: 'links',
      terms: 'javascript:alert(1)',
      privacy: '/documents/privacy',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(LEGAL_MESSAGES.linkInvalid);
    const saved = await post('/admin/legal', {
      form: 'links',
      terms: 'https://example.com/terms',
      privacy: '/documents/privacy',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('Saved. The legal page shows these links now.');
    expect((await t.app.inject({ method: 'GET', url: '/api/legal/links' })).json()).toEqual({
      terms: 'https://example.com/terms',
      privacy: '/documents/privacy',
    });
  });

  it('an account is disabled and enabled again from the Users screen', async () => {
    const user = await supportUser(t);
    const disabled = await post('/admin/users', { intent: 'disable', userId: user.id, email: user.email });
    expect(disabled.statusCode).toBe(303);
    expect(disabled.headers.location).toMatch(/^\/admin\/users\?/);
    expect((await user.get('/api/support/tickets')).statusCode).toBe(401);
    const enabled = await post('/admin/users', { intent: 'enable', userId: user.id, email: user.email });
    expect(enabled.statusCode).toBe(303);
    const stale = await post('/admin/users', { intent: 'nonsense', userId: user.id });
    expect(stale.statusCode).toBe(400);
    expect(stale.body).toContain('This form is out of date. Please reload the page and try again.');
  });

  it('a partner application is rejected with a reason, then banned and unbanned', async () => {
    const applied = await register(t, validCompany());
    expect(applied.statusCode, applied.body).toBe(201);
    const page = `/admin/partners/${applied.json().id as string}`;
    const noReason = await post(page, { intent: 'reject', reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain(COMPANY_REVIEW_MESSAGES.reasonRequired);
    const rejected = await post(page, { intent: 'reject', reason: 'The licence photo is unreadable.' });
    expect(rejected.statusCode).toBe(303);
    expect(rejected.headers.location).toContain(page);
    const company = (await admin.get(`/api${page.replace('/admin/partners/', '/admin/companies/')}`)).json().company;
    expect(company).toMatchObject({ verified: 2, rejectionReason: 'The licence photo is unreadable.' });
    expect(doneOf((await post(page, { intent: 'ban' })).headers.location)).toBe('The company is banned.');
    expect(doneOf((await post(page, { intent: 'unban' })).headers.location)).toBe('The ban is lifted.');
  });
});
