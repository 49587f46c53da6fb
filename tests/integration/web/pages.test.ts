// One database: the pages' markup and headers come from the renderer, not from the database kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faqs } from '../../../src/server/db/schema.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    web: true,
    env: { COMPANY_NAME: 'Kiwi Carry', PUBLIC_BASE_URL: 'https://kiwicarry.example.nz' },
  });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

function between(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  return from < 0 ? '' : html.slice(from, html.indexOf(end, from) + end.length);
}

describe('server-rendered public pages', () => {
  const pages = [
    {
      path: '/',
      title: 'Send anything across New Zealand with travellers | Kiwi Carry',
      text: [
        'Distance delivery',
        'Community based service',
        'Competitive pricing',
        'Easy to use app',
        'Environmentally friendly',
        'Earn as a traveller',
        'App Store',
      ],
    },
    {
      path: '/about',
      title: 'About us: how it works | Kiwi Carry',
      text: ['Our mission', 'For travellers', 'For senders'],
    },
    { path: '/faqs', title: 'General FAQ | Kiwi Carry', text: ['General FAQ', 'What is Kiwi Carry?'] },
    { path: '/legal', title: 'Terms and Conditions | Kiwi Carry', text: ['<iframe', 'src="/documents/terms"'] },
  ];

  it.each(pages)('$path sends its content, title, description and canonical link in the first HTML', async (page) => {
    const res = await get(page.path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(`<title>${page.title}</title>`);
    expect(res.body).toMatch(/<meta name="description" content="[^"]{40,}"\/>/);
    const canonical = page.path === '/' ? 'https://kiwicarry.example.nz/' : `https://kiwicarry.example.nz${page.path}`;
    expect(res.body).toContain(`<link rel="canonical" href="${canonical}"/>`);
    for (const text of page.text) expect(res.body).toContain(text);
    expect(res.body).toContain('Copyright 2025 <!-- -->Kiwi Carry');
  });

  it('lists the six navigation links in the header on every page', async () => {
    const nav = between((await get('/about')).body, '<nav id="site-nav"', '</nav>');
    const links = [...nav.matchAll(/href="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ['/', 'Home'],
      ['/about', 'About'],
      ['/faqs', 'FAQ&#x27;s'],
      ['/legal', 'Terms and Conditions'],
      ['/register', 'Registering Company'],
      ['/support', 'Support'],
    ]);
    expect(nav).not.toContain('Sign Out');
  });

  it('renders the chosen FAQ type from the URL, with entries read from the database', async () => {
    await t.database.db.insert(faqs).values({
      type: 'traveller',
      title: 'Can I carry items on the ferry?',
      content: 'Yes, on the Interislander too.',
      position: 99,
    });
    const html = (await get('/faqs?type=traveller')).body;
    expect(html).toContain('<title>Traveller FAQ | Kiwi Carry</title>');
    expect(html).toContain('Traveller FAQ</h2>');
    expect(html).toContain('Can I carry items on the ferry?');
    // The answer is in the HTML (readable without JavaScript), collapsed until a reader opens it.
    expect(html).toMatch(/aria-expanded="false"[^>]*>.*?Can I carry items on the ferry\?/s);
    expect(html).toContain('Yes, on the Interislander too.');
    expect(html).toMatch(/<button[^>]*value="traveller"[^>]*aria-pressed="true"[^>]*name="type"/);
    expect(html).not.toContain('What is Kiwi Carry?');
  });

  it('falls back to the General FAQ for an unknown type', async () => {
    const html = (await get('/faqs?type=pilots')).body;
    expect(html).toContain('General FAQ</h2>');
  });

  it('carries FAQPage structured data with every entry of the page', async () => {
    const html = (await get('/faqs?type=sender')).body;
    const json = between(html, '<script type="application/ld+json">', '</script>')
      .replace('<script type="application/ld+json">', '')
      .replace('</script>', '');
    const data = JSON.parse(json);
    expect(data['@type']).toBe('FAQPage');
    expect(data.mainEntity.length).toBeGreaterThan(2);
    expect(data.mainEntity[0]).toMatchObject({ '@type': 'Question', acceptedAnswer: { '@type': 'Answer' } });
  });

  it('shows the Privacy Policy when chosen, and the Terms by default', async () => {
    expect((await get('/legal')).body).toMatch(/<iframe[^>]*src="\/documents\/terms"[^>]*title="Terms and Conditions"/);
    expect((await get('/legal?doc=privacy')).body).toMatch(
      /<iframe[^>]*src="\/documents\/privacy"[^>]*title="Privacy Policy"/,
    );
  });

  it('answers unknown paths with a 404 page', async () => {
    const res = await get('/no/such/page');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Page not found');
    expect(res.body).toContain('<meta name="robots" content="noindex"/>');
  });
});

describe('security headers', () => {
  it('sends a fresh CSP nonce with every response, and the scripts carry it', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await get('/');
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
      expect(nonce).toBeTruthy();
      nonces.add(nonce!);
      const scripts = [...res.body.matchAll(/<script(?![^>]*type="application\/ld\+json")[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(5);
  });

  it.each(['/', '/faqs', '/api/faqs?type=general', '/nope', '/robots.txt'])(
    'sets the baseline headers on %s',
    async (url) => {
      const res = await get(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('serves hashed assets as immutable, from the build only', async () => {
    const html = (await get('/')).body;
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const res = await get(asset!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect((await get('/assets/../../package.json')).statusCode).toBe(404);
    expect((await get('/server/index.js')).statusCode).toBe(404);
  });
});

describe('sitemap and robots', () => {
  it('lists the public pages with absolute URLs', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    for (const p of ['/', '/about', '/faqs', '/legal', '/register']) {
      expect(res.body).toContain(`<loc>https://kiwicarry.example.nz${p}</loc>`);
    }
    expect(res.body).not.toContain('/support');
  });

  it('points crawlers at the sitemap and away from private areas', async () => {
    const res = await get('/robots.txt');
    expect(res.body).toContain('Sitemap: https://kiwicarry.example.nz/sitemap.xml');
    expect(res.body).toContain('Disallow: /support');
    expect(res.body).toContain('Disallow: /api/');
  });
});
