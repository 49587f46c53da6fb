/**
 * Response headers, error bodies and configuration under scrutiny (HDR-01..HDR-13 and CSRF-05,
 * docs/security-checks.md#headers-api-and-configuration-hdr). tests/integration/web/pages.test.ts
 * checks the baseline headers on a few pages; this file checks them everywhere, at volume, with two
 * external judges: Google's CSP Evaluator (csp_evaluator) and a local MDN HTTP Observatory scan of
 * the production server behind TLS (scripts/observatory.ts).
 *
 * One database: response headers and the CSP are set the same on every answer, whatever the database.
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { CspEvaluator } from 'csp_evaluator/dist/evaluator.js';
import { Severity } from 'csp_evaluator/dist/finding.js';
import { CspParser } from 'csp_evaluator/dist/parser.js';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLoopbackCertificate, runObservatoryScan, startTlsProxy } from '../../scripts/observatory.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createUser, signIn, withCookie } from '../helpers/accounts.ts';
import { recordFigure } from '../helpers/figures.ts';
import { startServer } from '../helpers/server-process.ts';
import { createTestApp, openTestDatabase, type TestApp, withMigratedDatabase } from '../helpers/test-app.ts';
import { productionPackages, unreviewedRenderers } from '../helpers/renderers.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

let t: TestApp;
let adminHeaders: Record<string, string>;
const figures = {
  observatoryGrade: '',
  observatoryScore: -1,
  observatoryTestsPassed: -1,
  distinctNonces: -1,
  responses: 0,
  cspEvaluatorFindings: -1,
  cspEvaluatorNotes: -1,
  cspViolations: 'see csp-browser (Chromium)',
};

beforeAll(async () => {
  t = await createTestApp({
    web: true,
    env: { PUBLIC_BASE_URL: 'https://bagspace.example.nz', REGISTRATIONS_PER_IP_PER_HOUR: '1000' },
  });
  const admin = await createUser(t, { role: 'admin' });
  adminHeaders = withCookie(t, await signIn(t, admin.email, admin.password));
});
afterAll(() => t?.close());

/** Every response this file looks at goes through here, so the per-response checks see them all. */
const seen: Array<{ label: string; res: LightMyRequestResponse }> = [];
async function request(options: InjectOptions, label?: string) {
  const res = await t.app.inject(options);
  seen.push({ label: label ?? `${options.method ?? 'GET'} ${options.url}`, res });
  figures.responses += 1;
  return res;
}
const html = (url: string, headers: Record<string, string> = {}) =>
  request({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

const PAGES = [
  '/',
  '/about',
  '/faqs',
  '/faqs?type=traveller',
  '/legal',
  '/legal?doc=privacy',
  '/register',
  '/support',
  '/signup',
  '/forgot-password',
  '/reset-password?token=abc',
  '/verify-email?token=abc',
  '/account/password',
  '/admin',
  '/no-such-page',
];

const nonceOf = (res: LightMyRequestResponse) =>
  /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];

describe('HDR-01: a fresh nonce on every response, carried by every script', () => {
  it('1,000 page loads give 1,000 distinct 128-bit nonces; every <script> and module preload carries the header’s', async () => {
    const nonces = new Set<string>();
    const problems: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const url = PAGES[i % PAGES.length]!;
      const res = await html(url);
      const nonce = nonceOf(res);
      if (!nonce) {
        problems.push(`${url}: no nonce`);
        continue;
      }
      nonces.add(nonce);
      if (Buffer.from(nonce, 'base64').length !== 16) problems.push(`${url}: nonce ${nonce} is not 128 bits`);
      // Pages are checked in full once each; after that only the nonce matters.
      if (i >= PAGES.length) continue;
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      const tags = [...res.body.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
      if (tags.length === 0) problems.push(`${url}: no script at all`);
      for (const tag of tags) {
        const dataBlock = /type="application\/ld\+json"/.test(tag) && !/\ssrc=/.test(tag);
        if (!dataBlock && !tag.includes(`nonce="${nonce}"`)) problems.push(`${url}: ${tag}`);
      }
      for (const tag of res.body.match(/<link\b[^>]*rel="modulepreload"[^>]*>/gi) ?? []) {
        if (!tag.includes(`nonce="${nonce}"`)) problems.push(`${url}: ${tag}`);
      }
      // Inline handlers and style attributes would need 'unsafe-inline'; javascript: URLs, 'unsafe-eval'-like help.
      const inline =
        res.body.match(/<[a-z][^>]*\s(on[a-z]+|style)\s*=\s*["'][^>]*>|href\s*=\s*["']\s*javascript:/gi) ?? [];
      for (const tag of inline) problems.push(`${url}: inline ${tag.slice(0, 120)}`);
    }
    figures.distinctNonces = nonces.size;
    expect(problems).toEqual([]);
    expect(nonces.size).toBe(1000);
  });

  it('the policy is strict: nonce + strict-dynamic, no unsafe sources, and CSP Evaluator finds nothing (HDR-01)', async () => {
    const pages = [await html('/'), await request({ method: 'GET', url: '/documents/terms' })];
    let findings = 0;
    let notes = 0;
    for (const res of pages) {
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map((words) => [words[0]!, words.slice(1)] as const),
      );
      const scriptSrc = directives.get('script-src') ?? [];
      expect(scriptSrc).toContain("'strict-dynamic'");
      expect(scriptSrc.some((v) => /^'nonce-[A-Za-z0-9+/]{22}==?'$/.test(v))).toBe(true);
      expect(csp).not.toMatch(
        /unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\bdata:[^;]*;?\s*$|script-src[^;]*(\*|https?:|data:)/,
      );
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('base-uri')).toEqual(["'none'"]);
      expect(directives.get('form-action')).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors')).toEqual([res === pages[0] ? "'none'" : "'self'"]);
      expect(directives.get('default-src')).toBeDefined();
      const evaluated = new CspEvaluator(new CspParser(csp).csp).evaluate();
      // Severity.NONE marks notes, not findings ("'self' is ignored under strict-dynamic in CSP3").
      const real = evaluated.filter((f) => f.severity !== Severity.NONE);
      expect(
        real.map((f) => `${f.directive} ${f.value ?? ''}: ${f.description}`),
        csp,
      ).toEqual([]);
      findings += real.length;
      notes += evaluated.length - real.length;
    }
    figures.cspEvaluatorFindings = findings;
    figures.cspEvaluatorNotes = notes;
  });

  it('the evaluator is not blind: the policy without strict-dynamic, or with unsafe-inline, is flagged', () => {
    const weak = [
      "script-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'",
      "script-src 'self' 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='; object-src 'none'; base-uri 'none'",
    ];
    for (const csp of weak) {
      const real = new CspEvaluator(new CspParser(csp).csp).evaluate().filter((f) => f.severity !== Severity.NONE);
      expect(real.length, csp).toBeGreaterThan(0);
    }
  });

  it('HDR-05: HTML isolates itself (COOP, CORP, Permissions-Policy, X-Frame-Options); only the legal documents may be framed, by us', async () => {
    for (const url of ['/', '/register', '/admin']) {
      const res = await html(url);
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(String(res.headers['permissions-policy']), url).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cache-control'] ?? 'no-store', url).not.toMatch(/public|s-maxage/);
    }
    for (const slug of ['terms', 'privacy']) {
      const res = await request({ method: 'GET', url: `/documents/${slug}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    }
  });
});

/** A placeholder for each route parameter, so the route itself answers (404 for unknown ids). */
function concreteUrl(url: string): string {
  return url
    .replace(/:slug/g, 'terms')
    .replace(/:(\w*[Ii]d)\b/g, '3b2f9d4e-8c1a-4e5b-9f7d-2a6c8e0b1d34')
    .replace(/:(\w+)/g, 'x')
    .replace(/\*$/, 'nope');
}

/** Text bodies that need a charset (SVG is XML, which declares its own and defaults to UTF-8). */
const TEXTUAL = /^(text\/|application\/(json|xml|javascript|manifest\+json|problem\+json))/;

describe('HDR-03, HDR-06, HDR-07: nosniff, a charset and no version on every kind of response', () => {
  it('holds for every route in the registry (anonymous and admin), 404s, errors, static files and downloads', async () => {
    // The sweep posts to every route, logout and change-password included: it gets its own session.
    const sweeper = await createUser(t, { role: 'admin' });
    const sweepHeaders = withCookie(t, await signIn(t, sweeper.email, sweeper.password));
    const routes = t.app.routeTable.filter((r) => !r.url.includes('*') || r.url === '/api/*');
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const url = concreteUrl(route.url);
      for (const method of route.methods.filter((m) => m !== 'HEAD')) {
        const body = method === 'GET' || method === 'OPTIONS' ? undefined : '{}';
        const headers = body ? { 'content-type': 'application/json' } : {};
        await request({ method: method as 'GET', url, payload: body, headers }, `${method} ${url} (anonymous)`);
        // Live streams never end; everything else is asked again as an admin.
        if (!url.endsWith('/stream'))
          await request(
            { method: method as 'GET', url, payload: body, headers: { ...headers, ...sweepHeaders } },
            `${method} ${url} (admin)`,
          );
      }
    }
    // /register hydrates, so its HTML names the app's scripts as well as the styles and icon.
    const html200 = await html('/register');
    const assets = [...html200.body.matchAll(/(?:href|src)="(\/(?:assets\/)?[^"]+\.(?:js|css|svg))"/g)].map(
      (m) => m[1]!,
    );
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of new Set(assets)) await request({ method: 'GET', url: asset });
    for (const url of [
      '/robots.txt',
      '/sitemap.xml',
      '/healthz',
      '/readyz',
      '/api/openapi.json',
      '/noscript.css',
      '/favicon.svg',
      '/documents/privacy',
      '/api/nope',
      '/nope',
      '/assets/nope.js',
    ]) {
      await request({ method: 'GET', url });
      await request({ method: 'HEAD', url });
    }
    // Errors of every kind.
    await request(
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: '{"email": "a@b.nz", "pass',
        headers: { 'content-type': 'application/json' },
      },
      'malformed JSON',
    );
    await request(
      { method: 'POST', url: '/api/auth/login', payload: 'email=a', headers: { 'content-type': 'text/plain' } },
      'text/plain to a JSON route',
    );
    await request(
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: JSON.stringify({ email: 'a@b.nz', password: 'x'.repeat(200_000) }),
        headers: { 'content-type': 'application/json' },
      },
      'body too large',
    );
    await request(
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: {},
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      },
      'cross-site POST',
    );
    await request({ method: 'GET', url: '/api/faqs?type=%00%ff' }, 'bad query');
    await request(
      { method: 'GET', url: '/api/admin/companies/not-a-uuid/license', headers: adminHeaders },
      'bad param',
    );
    // A licence download (binary: nosniff, no charset needed).
    const company = await request({
      method: 'POST',
      url: '/api/companies',
      headers: { 'content-type': 'multipart/form-data; boundary=X' },
      payload: Buffer.from(
        '--X\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nHeader Checks Ltd\r\n--X\r\nContent-Disposition: form-data; name="phoneNumber"\r\n\r\n0211234567\r\n' +
          '--X\r\nContent-Disposition: form-data; name="address"\r\n\r\n1 Queen Street, Auckland\r\n' +
          '--X\r\nContent-Disposition: form-data; name="commercialLicense"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n0000000000\r\n--X--\r\n',
        'latin1',
      ),
    });
    expect(company.statusCode, company.body).toBe(201);
    const download = await request({
      method: 'GET',
      url: company.json().company.commercialLicenseUrl,
      headers: adminHeaders,
    });
    expect(download.statusCode).toBe(200);

    const problems: string[] = [];
    const kinds = new Set<string>();
    for (const { label, res } of seen) {
      const type = res.headers['content-type'];
      kinds.add(`${res.statusCode} ${String(type ?? '-').split(';')[0]}`);
      if (res.headers['x-content-type-options'] !== 'nosniff')
        problems.push(`${label}: no nosniff (${res.statusCode})`);
      if (res.headers['x-powered-by'] !== undefined) problems.push(`${label}: X-Powered-By`);
      if (res.headers.server !== undefined && /\d/.test(String(res.headers.server)))
        problems.push(`${label}: Server ${res.headers.server}`);
      if (!res.headers['x-request-id']) problems.push(`${label}: no request id`);
      const hasBody =
        res.rawPayload.length > 0 ||
        (res.headers['content-length'] !== undefined && res.headers['content-length'] !== '0');
      if (!hasBody) continue;
      if (!type) problems.push(`${label}: a body without Content-Type (${res.statusCode})`);
      else if (TEXTUAL.test(String(type)) && !/;\s*charset=utf-8/i.test(String(type)))
        problems.push(`${label}: ${type} without charset`);
    }
    expect(problems).toEqual([]);
    // The sweep really covered the kinds it claims to.
    for (const kind of [
      '200 text/html',
      '404 text/html',
      '200 application/json',
      '400 application/json',
      '401 application/json',
      '403 application/json',
      '404 application/json',
      '413 application/json',
      '415 application/json',
      '200 image/png',
      '200 text/css',
    ]) {
      expect([...kinds], kind).toContain(kind);
    }
    expect([...kinds].some((k) => /^200 (text|application)\/javascript$/.test(k))).toBe(true);
  });
});

/** Sends raw bytes and returns everything the server answers until it closes. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.setTimeout(5000, () => socket.destroy());
    socket.write(text);
  });
}

describe('HDR-09: nothing of the source, the build or the data is served', () => {
  it('answers /.git, /.env, source maps, /src/, the server build and data paths with 404, and TRACE with 404/405', async () => {
    const clientDir = path.join(ROOT, 'build', 'client');
    const listed = (fs.readdirSync(clientDir, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/'));
    expect(listed.filter((f) => f.endsWith('.map'))).toEqual([]);
    const jsAssets = listed.filter((f) => f.endsWith('.js')).slice(0, 10);
    const probes = [
      '/.git/HEAD',
      '/.git/config',
      '/.env',
      '/.env.local',
      '/.npmrc',
      '/package.json',
      '/package-lock.json',
      '/src/',
      '/src/server/main.ts',
      '/src/server/config.ts',
      '/tests/',
      '/node_modules/fastify/package.json',
      '/build/server/index.js',
      '/server/index.js',
      '/assets/',
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/data/',
      '/files/',
      '/db/',
      '/.tmp/',
      '/docs/',
      ...jsAssets.map((f) => `/${f}.map`),
    ];
    const leaks: string[] = [];
    for (const url of probes) {
      const res = await request({ method: 'GET', url });
      if (res.statusCode !== 404) leaks.push(`${url} → ${res.statusCode}`);
      // Markers of the files themselves (the 404 page's own module script must not count).
      if (
        /"name":\s*"bagspace-web"|"lockfileVersion"|ref: refs\/|\[core\]|DATABASE_URL=|root:x:0:0|"mappings":|loadConfig\(|buildApp\(|registry\.npmjs/.test(
          res.body,
        )
      ) {
        leaks.push(`${url}: body leaks`);
      }
    }
    // Methods the injector refuses to send go over a real socket.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    for (const method of ['TRACE', 'TRACK', 'PROPFIND', 'DEBUG']) {
      const answer = await rawRequest(
        port,
        `${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: session=secret-cookie\r\nConnection: close\r\n\r\n`,
      );
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      if (![400, 404, 405].includes(status)) leaks.push(`${method} / → ${status}`);
      if (/secret-cookie/.test(answer)) leaks.push(`${method} / echoes the request`);
      if (!/x-content-type-options: nosniff/i.test(answer) && status !== 400) leaks.push(`${method} /: no nosniff`);
    }
    expect(leaks).toEqual([]);
  });
});

/** What must never be in an error body (catalogue HDR-08). */
const LEAK =
  /at \w+ \(|at file:|SELECT |INSERT |UPDATE |relation "|\/home\/|\/work\/|\/tmp\/|node_modules|\.ts:\d+|stack|hunter2|secret-in-message/i;

describe('HDR-08: errors are generic and carry a correlation id', () => {
  it('malformed and hostile bodies get readable 4xx bodies with no internals', async () => {
    const cases = [
      { url: '/api/auth/login', payload: '{"email":"a@b.nz","password":"hunter2"', type: 'application/json' },
      {
        url: '/api/auth/login',
        payload: '{"__proto__":{"x":1},"email":"a@b.nz","password":"hunter2"}',
        type: 'application/json',
      },
      { url: '/api/auth/login', payload: '{"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
      {
        url: '/api/auth/signup',
        payload: `{"email":"${'a'.repeat(300)}@b.nz","password":1e309}`,
        type: 'application/json',
      },
      { url: '/api/auth/login', payload: '\u0000\u0001\u0002', type: 'application/json' },
      { url: '/api/auth/login', payload: 'password=hunter2', type: 'application/x-www-form-urlencoded' },
      {
        url: '/api/companies',
        payload: '--X\r\nContent-Disposition: form-data; name="a"\r\n\r\nhunter2',
        type: 'multipart/form-data; boundary=X',
      },
    ];
    for (const c of cases) {
      const res = await request({
        method: 'POST',
        url: c.url,
        payload: c.payload,
        headers: { 'content-type': c.type },
      });
      expect(res.statusCode, `${c.payload}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error.status, res.body).toMatch(/^[A-Z_]+$/);
      expect(res.body, res.body).not.toMatch(LEAK);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A page without a form takes no writes: 405 with Allow, naming no route: to a browser as a page
    // of the site (never JSON), to any other client in the error shape.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const page = await request({ method, url: '/about', headers: { accept: 'text/html' } });
      expect(page.statusCode, method).toBe(405);
      expect(page.headers.allow).toBe('GET, HEAD');
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('This page can only be read.');
      expect(page.body).not.toMatch(LEAK);
      // Route ids travel in every page's hydration data; what must not show is an error or a stack.
      expect(page.body).not.toMatch(/\bat [^\s]+\.(ts|tsx|js):\d+|Error: /);
      const api = await request({ method, url: '/about', headers: { accept: 'application/json' } });
      expect(api.statusCode, method).toBe(405);
      expect(api.json().error.status).toBe('INVALID_ARGUMENT');
      expect(api.body).not.toContain('routes/');
    }
    // /register's form posts to its page (multipart); anything else sent there is refused as a page.
    const notAForm = await request({
      method: 'POST',
      url: '/register',
      payload: '{"name":"x"}',
      headers: { accept: 'text/html', 'content-type': 'application/json' },
    });
    expect(notAForm.statusCode).toBeGreaterThanOrEqual(400);
    expect(notAForm.statusCode).toBeLessThan(500);
    expect(notAForm.headers['content-type']).toContain('text/html');
    expect(notAForm.body).not.toMatch(LEAK);
  });

  it('a handler that throws, and a database that is gone, answer a generic 500 and log the cause', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-hdr08-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'error' });
    const db = await openTestDatabase();
    const app = await buildApp({ config, database: db.database, logger: { level: 'error', stream } });
    app.get('/api/test-only/boom', { config: { access: 'public' } }, async () => {
      throw new Error(`SELECT password FROM users WHERE email = 'x' -- secret-in-message at /work/main/src/x.ts:1`);
    });
    await app.ready();
    try {
      const boom = await app.inject({ method: 'GET', url: '/api/test-only/boom' });
      expect(boom.statusCode).toBe(500);
      expect(boom.json()).toEqual({ error: { status: 'INTERNAL', message: expect.any(String) } });
      expect(boom.body).not.toMatch(LEAK);
      expect(boom.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(boom.headers['x-content-type-options']).toBe('nosniff');
      // The log has the cause, under the same id the client got.
      const logged = lines.find((l) => l.includes('secret-in-message'));
      expect(logged).toBeDefined();
      expect(logged).toContain(String(boom.headers['x-request-id']));

      await db.database.close();
      for (const url of ['/api/faqs?type=general', '/api/legal/links']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(500);
        expect(res.body).not.toMatch(LEAK);
        expect(res.json().error.status).toBe('INTERNAL');
      }
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.body).not.toMatch(LEAK);
    } finally {
      // Closing hooks still talk to the database that is gone.
      await app.close().catch(() => {});
      await db.close().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('HDR-11: proxy headers are not believed without a configured proxy', () => {
  const SPOOFED = {
    'x-forwarded-for': '198.51.100.77',
    'x-real-ip': '198.51.100.78',
    'cf-connecting-ip': '198.51.100.79',
    'true-client-ip': '198.51.100.80',
    forwarded: 'for=198.51.100.81',
    'x-request-id': 'spoofed-request-id-123',
  };

  async function appWithLog(env: Record<string, string>) {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-hdr11-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...env });
    const db = await openTestDatabase();
    const app = await buildApp({ config, database: db.database, logger: { level: 'info', stream } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, requestId: res.headers.get('x-request-id') };
    };
    return {
      post,
      lines,
      async close() {
        await app.close();
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  it('logs the socket’s address and keys the per-address limit on it, whatever the headers say', async () => {
    const app = await appWithLog({ ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '3' });
    try {
      const failed = await app.post(
        '/api/auth/login',
        { email: 'nobody@example.nz', password: 'Wrong-password-1' },
        SPOOFED,
      );
      expect(failed.status).toBe(401);
      expect(failed.requestId).not.toBe(SPOOFED['x-request-id']);
      const signInLog = app.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'sign-in failed');
      expect(signInLog?.ip).toBe('127.0.0.1');
      expect(app.lines.join('\n')).not.toMatch(/198\.51\.100\.|spoofed-request-id/);
      // ACCOUNT_REQUESTS_PER_IP_PER_HOUR=3: a fresh spoofed address on every request changes nothing.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await app.post(
          '/api/auth/forgot-password',
          { email: `nobody${i}@example.nz` },
          { 'x-forwarded-for': `203.0.113.${i}`, 'x-real-ip': `203.0.113.${i}` },
        );
        statuses.push(r.status);
      }
      expect(statuses.slice(0, 3).every((s) => s < 300)).toBe(true);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await app.close();
    }
  });

  it('control: with TRUST_PROXY=true the same headers do name the client, so the check above can fail', async () => {
    const app = await appWithLog({ TRUST_PROXY: 'true' });
    try {
      const failed = await app.post(
        '/api/auth/login',
        { email: 'nobody@example.nz', password: 'Wrong-password-1' },
        SPOOFED,
      );
      expect(failed.status).toBe(401);
      expect(failed.requestId).toBe(SPOOFED['x-request-id']);
      const signInLog = app.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'sign-in failed');
      expect(signInLog?.ip).toBe('198.51.100.77');
    } finally {
      await app.close();
    }
  });
});

describe('CSRF-05: no CORS for anyone else', () => {
  it('never answers Access-Control-Allow-Origin to a foreign or null origin, on preflights or requests', async () => {
    const urls = [
      '/',
      '/api/faqs?type=general',
      '/api/auth/session',
      '/api/openapi.json',
      '/api/companies',
      '/api/auth/login',
      '/api/admin/users',
    ];
    const problems: string[] = [];
    for (const url of urls) {
      for (const origin of [
        'https://evil.example',
        'null',
        'https://bagspace.example.nz.evil.example',
        'http://bagspace.example.nz',
      ]) {
        const preflight = await request({
          method: 'OPTIONS',
          url,
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
        const get = await request({ method: 'GET', url, headers: { origin, ...adminHeaders } });
        const post = await request({
          method: 'POST',
          url,
          headers: { origin, 'content-type': 'application/json' },
          payload: '{}',
        });
        for (const [kind, res] of [
          ['OPTIONS', preflight],
          ['GET', get],
          ['POST', post],
        ] as const) {
          for (const header of [
            'access-control-allow-origin',
            'access-control-allow-credentials',
            'access-control-allow-methods',
            'access-control-allow-headers',
          ]) {
            if (res.headers[header] !== undefined)
              problems.push(`${kind} ${url} from ${origin}: ${header}: ${res.headers[header]}`);
          }
        }
        if (post.statusCode !== 403) problems.push(`POST ${url} from ${origin} → ${post.statusCode}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('HDR-12, HDR-13: the server fetches nothing and renders no documents', () => {
  it('has no outbound HTTP in its code beyond the storage and mail clients the operator configures', () => {
    const files = (fs.readdirSync(path.join(ROOT, 'src', 'server'), { recursive: true }) as string[])
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => path.join('src', 'server', f));
    const outbound =
      /\bfetch\s*\(|\bhttps?\.(request|get)\s*\(|from ['"](axios|undici|got|node-fetch|superagent|needle)['"]|\bnet\.connect\s*\(|\btls\.connect\s*\(|new WebSocket\s*\(/;
    const hits = files.filter((f) => outbound.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    // The clients of services the operator or an admin configures by address: the NZBN register
    // (docs/decisions/114-nzbn-lookup.md: the host is NZBN_API_URL's, and only a stored NZBN, 13 digits
    // checked at registration, goes in its path); the app's delivery card (DELIVERY_CONTEXT_URL, decision
    // 151: one URL, the reference in the signed body); webhook endpoints an admin adds (decision 150:
    // the endpoint's URL as stored, no redirect followed).
    expect(hits).toEqual([
      'src/server/modules/desk/delivery-context.ts',
      'src/server/modules/integrations/webhooks.worker.ts',
      'src/server/modules/partners/nzbn-lookup.client.ts',
    ]);
    const calls: Record<string, string> = {
      'src/server/modules/partners/nzbn-lookup.client.ts':
        'fetch(`${options.baseUrl}/entities/${encodeURIComponent(nzbn)}`',
      'src/server/modules/desk/delivery-context.ts': 'fetch(options.url, {',
      'src/server/modules/integrations/webhooks.worker.ts': 'fetch(delivery.url, {',
    };
    for (const file of hits) {
      const client = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect(client.match(/\bfetch\s*\(/g), file).toHaveLength(1);
      expect(client).toContain(calls[file]);
    }
    expect(fs.readFileSync(path.join(ROOT, 'src/server/modules/integrations/webhooks.worker.ts'), 'utf8')).toContain(
      "redirect: 'manual'",
    );
  });

  it('does not follow an admin-chosen legal link itself: a listener at that address sees no request', async () => {
    const certificate = makeLoopbackCertificate();
    let hits = 0;
    const listener = https.createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => {
      hits += 1;
      res.end('<h1>Terms</h1>');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    try {
      const link = `https://127.0.0.1:${port}/terms`;
      const saved = await request({
        method: 'PUT',
        url: '/api/admin/settings/legal-links',
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        payload: JSON.stringify({ terms: link, privacy: `https://127.0.0.1:${port}/privacy` }),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const page = await html('/legal');
      expect(page.body).toContain(`127.0.0.1:${port}/terms`);
      await html('/legal?doc=privacy');
      await request({ method: 'GET', url: '/api/legal/links' });
      // Time is the subject: a server that followed the link would connect within moments of the
      // answers; nothing else marks the moment it did not.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hits).toBe(0);
    } finally {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
      certificate.remove();
    }
  });

  it('ships no HTML/PDF/image renderer as a production dependency (review gate)', () => {
    // Reviewed and allowed in production: REVIEWED_RENDERERS, each with its decision record.
    expect(productionPackages(ROOT).length).toBeGreaterThan(0);
    expect(unreviewedRenderers(ROOT)).toEqual([]);
  });
});

describe('HDR-02, HDR-10: the production server behind TLS, as the MDN HTTP Observatory sees it', () => {
  it('scores A+ (HDR-10), with HSTS on every https response', async () => {
    const certificate = makeLoopbackCertificate();
    const proxy = await startTlsProxy(certificate);
    const dataDir = withMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-observatory-')));
    const server = startServer({
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: proxy.origin,
    });
    try {
      const base = await server.ready;
      proxy.target = new URL(base.replace('localhost', '127.0.0.1'));
      const direct = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        https
          .get(`${proxy.origin}/`, { ca: certificate.cert }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
          })
          .on('error', reject);
      });
      expect(direct.status).toBe(200);
      expect(direct.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
      expect(String(direct.headers['content-security-policy'])).toContain('upgrade-insecure-requests');

      const result = await runObservatoryScan(`127.0.0.1:${proxy.port}`, certificate.certFile);
      figures.observatoryGrade = result.scan.grade;
      figures.observatoryScore = result.scan.score;
      figures.observatoryTestsPassed = result.scan.testsPassed;
      const failed = Object.entries(result.tests)
        .filter(([, test]) => !test.pass)
        .map(([name, test]) => `${name}: ${test.result}`);
      expect(failed).toEqual([]);
      expect(result.scan.grade).toBe('A+');
      expect(result.scan.score).toBeGreaterThanOrEqual(100);
      expect(result.tests['strict-transport-security']?.result).toBe('hsts-implemented-max-age-at-least-six-months');
      expect(result.tests['content-security-policy']?.pass).toBe(true);
    } finally {
      await server.stop();
      await proxy.close();
      certificate.remove();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('figures', () => {
  it('records the header checks', () => {
    recordFigure('headers', {
      checks: [
        'HDR-01',
        'HDR-02',
        'HDR-03',
        'HDR-05',
        'HDR-06',
        'HDR-07',
        'HDR-08',
        'HDR-09',
        'HDR-10',
        'HDR-11',
        'HDR-12',
        'HDR-13',
        'CSRF-05',
      ],
      label: 'Headers',
      values: { ...figures },
    });
    expect(figures.distinctNonces).toBe(1000);
  });
});
