import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faqs, settings } from '../../../src/server/db/schema.ts';
import { CONTENT_CHANNEL } from '../../../src/server/modules/content/content.cache.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/faqs', () => {
  it('lists the entries of one type, in their order', async () => {
    await t.database.db.insert(faqs).values([
      { type: 'sender', title: 'Second sender question', content: 'B', position: 200 },
      { type: 'sender', title: 'First sender question', content: 'A', position: -1 },
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/api/faqs?type=sender' });
    expect(res.statusCode).toBe(200);
    const titles = res.json().faqs.map((f: { title: string }) => f.title);
    expect(titles[0]).toBe('First sender question');
    expect(titles.at(-1)).toBe('Second sender question');
    expect(res.json().faqs.every((f: { type: string }) => f.type === 'sender')).toBe(true);
  });

  it.each(['general', 'traveller'])('serves the seeded %s entries', async (type) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/faqs?type=${type}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().faqs.length).toBeGreaterThan(2);
    expect(res.json().faqs[0]).toEqual({
      id: expect.any(Number),
      type,
      title: expect.any(String),
      content: expect.any(String),
    });
  });

  it('refuses an unknown or missing type with the error shape', async () => {
    for (const url of ['/api/faqs?type=pilot', '/api/faqs']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.status).toBe('INVALID_ARGUMENT');
      expect(res.json().error.fields).toHaveProperty('type');
    }
  });
});

describe('GET /api/legal/links', () => {
  it('answers the seeded links to our own documents', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/legal/links' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ terms: '/documents/terms', privacy: '/documents/privacy' });
  });

  it('serves both documents as readable HTML, framable by our own origin only', async () => {
    for (const [slug, title] of [
      ['terms', 'Terms and Conditions'],
      ['privacy', 'Privacy Policy'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/documents/${slug}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(`<h1>${title}</h1>`);
      expect(res.body).toContain('New Zealand');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    }
    expect((await t.app.inject({ method: 'GET', url: '/documents/cookies' })).statusCode).toBe(400);
  });

  it('answers not-found when the settings document is missing', async () => {
    const { eq, sql } = await import('drizzle-orm');
    // Removed behind the admin API's back: the kept answer goes when content changes are announced
    // (as an admin edit on any instance announces them) or after a minute at most.
    await t.database.db.delete(settings).where(eq(settings.key, 'legal/links'));
    await t.database.db.execute(sql`select pg_notify(${CONTENT_CHANNEL}, '')`);
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/legal/links' })).statusCode)
      .toBe(404);
    const res = await t.app.inject({ method: 'GET', url: '/api/legal/links' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.status).toBe('NOT_FOUND');
  });
});

describe('operations', () => {
  it('reports health and readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('publishes an OpenAPI 3.1 document generated from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const faqsOp = doc.paths['/api/faqs'].get;
    expect(faqsOp.parameters[0]).toMatchObject({ name: 'type', in: 'query', required: true });
    expect(faqsOp.parameters[0].schema.enum).toEqual(['general', 'sender', 'traveller']);
    expect(doc.paths['/api/legal/links'].get.responses['200']).toBeDefined();
  });

  it('answers unknown API paths with a JSON not-found error', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { status: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('answers malformed JSON with a 400 in the error shape, not a crash', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/nothing',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.status).toBe('INVALID_ARGUMENT');
  });
});
