import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAQ_MESSAGES, LEGAL_MESSAGES } from '../../../src/contracts/content-admin.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';

/** FAQs, legal links and our hosted documents, edited through the admin API and seen by the public. */

let t: TestApp;
let admin: ApiClient;
beforeAll(async () => {
  // The real pages (production build), so "visible publicly" means the HTML a visitor gets.
  t = await createTestApp({ web: true });
  admin = await apiClient(t);
});
afterAll(() => t.close());

const page = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
const publicFaqs = async (type: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/faqs?type=${type}` })).json().faqs as Array<{
    id: number;
    title: string;
    content: string;
  }>;

async function addFaq(type: string, title: string, content = `Answer to ${title}`) {
  const res = await admin.post('/api/admin/faqs', { type, title, content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().faq as { id: number; type: string; title: string; content: string };
}

describe('FAQ entries', () => {
  it('a new entry goes to the end of its type and shows on the public FAQ page at once', async () => {
    const faq = await addFaq('sender', 'Can I send a surfboard?', 'Yes, if the traveller has room for it.');
    expect(faq).toEqual({
      id: expect.any(Number),
      type: 'sender',
      title: 'Can I send a surfboard?',
      content: 'Yes, if the traveller has room for it.',
    });
    expect((await publicFaqs('sender')).at(-1)).toMatchObject({ id: faq.id, title: 'Can I send a surfboard?' });
    const html = await page('/faqs?type=sender');
    expect(html).toContain('Can I send a surfboard?');
    expect(html).toContain('Yes, if the traveller has room for it.');
    expect((await auditOf(admin, 'faq', faq.id))[0]).toMatchObject({
      action: 'faq.create',
      actorEmail: admin.email,
      details: { type: 'sender', title: faq.title },
    });
  });

  it('an edit replaces the public text at once; a new type moves the entry to the end of that list', async () => {
    const faq = await addFaq('general', 'How long does delivery take?');
    const edit = await admin.put(`/api/admin/faqs/${faq.id}`, {
      type: 'general',
      title: 'How long does a delivery take?',
      content: 'Usually the same day.',
    });
    expect(edit.statusCode).toBe(200);
    let html = await page('/faqs');
    expect(html).toContain('How long does a delivery take?');
    expect(html).toContain('Usually the same day.');
    expect(html).not.toContain('How long does delivery take?');
    const [entry] = await auditOf(admin, 'faq', faq.id);
    expect(entry).toMatchObject({
      action: 'faq.update',
      details: { changed: ['title', 'content'], before: { title: 'How long does delivery take?' } },
    });

    await admin.put(`/api/admin/faqs/${faq.id}`, {
      type: 'traveller',
      title: 'How long does a delivery take?',
      content: 'Usually the same day.',
    });
    expect((await publicFaqs('general')).map((f) => f.id)).not.toContain(faq.id);
    expect((await publicFaqs('traveller')).at(-1)!.id).toBe(faq.id);
    html = await page('/faqs?type=traveller');
    expect(html).toContain('How long does a delivery take?');
  });

  it('a deleted entry is gone from the public page, and the log keeps its text', async () => {
    const faq = await addFaq('traveller', 'Do I need insurance?', 'We cover items up to $500.');
    const res = await admin.del(`/api/admin/faqs/${faq.id}`);
    expect(res.statusCode).toBe(200);
    expect(await page('/faqs?type=traveller')).not.toContain('Do I need insurance?');
    expect((await admin.del(`/api/admin/faqs/${faq.id}`)).statusCode).toBe(404);
    expect((await auditOf(admin, 'faq', faq.id))[0]).toMatchObject({
      action: 'faq.delete',
      details: { title: 'Do I need insurance?', content: 'We cover items up to $500.' },
    });
  });

  it('reorders a type exactly as given, and refuses an order made from a stale list', async () => {
    const current = (await admin.get('/api/admin/faqs?type=sender')).json().faqs as Array<{ id: number }>;
    const reversed = current.map((f) => f.id).reverse();
    const res = await admin.post('/api/admin/faqs/reorder', { type: 'sender', ids: reversed });
    expect(res.statusCode).toBe(200);
    expect(res.json().faqs.map((f: { id: number }) => f.id)).toEqual(reversed);
    expect((await publicFaqs('sender')).map((f) => f.id)).toEqual(reversed);
    const html = await page('/faqs?type=sender');
    const positions = (await publicFaqs('sender')).map((f) => html.indexOf(f.title.replaceAll("'", '&#x27;')));
    expect(positions.every((p, i) => p > 0 && (i === 0 || p > positions[i - 1]!))).toBe(true);

    const added = await addFaq('sender', 'Added meanwhile');
    for (const ids of [reversed, [...reversed, added.id, added.id], [...reversed, 999_999]]) {
      const stale = await admin.post('/api/admin/faqs/reorder', { type: 'sender', ids });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.message).toBe(FAQ_MESSAGES.orderChanged);
    }
    expect((await publicFaqs('sender')).map((f) => f.id)).toEqual([...reversed, added.id]);
    expect(
      (await admin.get('/api/admin/audit?targetType=faq'))
        .json()
        .entries.some((e: { action: string }) => e.action === 'faq.reorder'),
    ).toBe(true);
  });

  it('refuses a missing type, title or content with the message under each field', async () => {
    const res = await admin.post('/api/admin/faqs', { type: 'pilot', title: '  ', content: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      type: FAQ_MESSAGES.typeRequired,
      title: FAQ_MESSAGES.titleRequired,
      content: FAQ_MESSAGES.contentRequired,
    });
    expect((await admin.put('/api/admin/faqs/999999', { type: 'general', title: 'A', content: 'B' })).statusCode).toBe(
      404,
    );
  });

  it('shows what an admin typed as text, never as markup (IN-03)', async () => {
    await addFaq('general', '<img src=x onerror="window.__xss=1">Markup?', '<script>window.__xss=1</script>');
    const html = await page('/faqs');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>window.__xss');
    expect(html).toContain('&lt;img src=x');
  });
});

describe('legal links', () => {
  const links = async () => (await t.app.inject({ method: 'GET', url: '/api/legal/links' })).json();

  it('accepts https addresses and paths on this site; the legal page frames them', async () => {
    const res = await admin.put('/api/admin/settings/legal-links', {
      terms: ' https://legal.example.nz/terms?v=2 ',
      privacy: '/documents/privacy',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await links()).toEqual({ terms: 'https://legal.example.nz/terms?v=2', privacy: '/documents/privacy' });
    expect(await page('/legal')).toContain('src="https://legal.example.nz/terms?v=2"');
    const [entry] = await auditOf(admin, 'settings', 'legal/links');
    expect(entry).toMatchObject({
      action: 'legal.links',
      details: { terms: 'https://legal.example.nz/terms?v=2', before: { terms: '/documents/terms' } },
    });
    await admin.put('/api/admin/settings/legal-links', { terms: '/documents/terms', privacy: '/documents/privacy' });
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'http://legal.example.nz/terms',
    '//evil.example/terms',
    '/\\evil.example/terms',
    'documents/terms',
    'https://user:secret@evil.example/',
    'https:///nohost',
    'ftp://legal.example.nz/terms',
  ])('refuses %j and keeps the links as they were', async (bad) => {
    const before = await links();
    const res = await admin.put('/api/admin/settings/legal-links', { terms: bad, privacy: '/documents/privacy' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.terms).toBe(LEGAL_MESSAGES.linkInvalid);
    expect(await links()).toEqual(before);
  });

  it('requires both links', async () => {
    const res = await admin.put('/api/admin/settings/legal-links', { terms: '', privacy: undefined });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      terms: LEGAL_MESSAGES.linkRequired,
      privacy: LEGAL_MESSAGES.linkRequired,
    });
  });
});

describe('our hosted documents', () => {
  it('lists both with their text, and an edit is what /documents/{slug} serves next, escaped', async () => {
    const legal = (await admin.get('/api/admin/legal')).json();
    expect(legal.documents.map((d: { slug: string }) => d.slug)).toEqual(['privacy', 'terms']);
    expect(legal.documents[1]).toMatchObject({
      slug: 'terms',
      title: 'Terms and Conditions',
      path: '/documents/terms',
    });

    const body = 'Welcome.\n\n## 1. Carrying items\nTravellers carry <b>only</b> legal goods.';
    const res = await admin.put('/api/admin/documents/terms', { title: 'Terms of Carriage', body });
    expect(res.statusCode).toBe(200);
    expect(res.json().document).toMatchObject({ slug: 'terms', title: 'Terms of Carriage', body });
    const served = await page('/documents/terms');
    expect(served).toContain('<h1>Terms of Carriage</h1>');
    expect(served).toContain('<h2>1. Carrying items</h2>');
    expect(served).toContain('Travellers carry &lt;b&gt;only&lt;/b&gt; legal goods.');
    expect((await auditOf(admin, 'document', 'terms'))[0]).toMatchObject({
      action: 'document.update',
      details: { title: 'Terms of Carriage' },
    });
  });

  it('refuses an empty text or an unknown document', async () => {
    const empty = await admin.put('/api/admin/documents/privacy', { title: 'Privacy Policy', body: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.body).toBe(LEGAL_MESSAGES.bodyRequired);
    expect((await admin.put('/api/admin/documents/cookies', { title: 'Cookies', body: 'Text' })).statusCode).toBe(400);
  });
});
