/**
 * Advisory regressions (docs/security-checks.md#advisory-regressions): what the server renders,
 * sends or fetches. Stored text escaped in pages and mails, the CSP, no CORS grant, no server-side
 * fetch of an admin's link, no HTML-to-PDF renderer.
 * Each test is a short scenario on the real app (real requests, a fresh database) asserting what a
 * client observes; the exhaustive versions live in the matrix, IDOR, fuzz and upload suites. The
 * table of advisories and where each is tested: tests/helpers/advisories.ts.
 *
 * One database: escaping, the CSP and fetches are the renderer's, whatever stored the text.
 */
import net from 'node:net';
import { beforeAll, describe, expect } from 'vitest';
import type { ApiClient } from '../../helpers/admin-client.ts';
import { pngOf, validCompany } from '../../helpers/registration.ts';
import { strongPassword, uniqueEmail } from '../../helpers/accounts.ts';
import { advisory } from '../../helpers/advisories.ts';
import {
  freshIp,
  headerBlock,
  html,
  injectedMarkup,
  post,
  registerCompany,
  send,
  withAdvisoryApp,
  XSS,
} from '../../helpers/advisory-app.ts';
import { waitForMail, waitForMails } from '../../helpers/mail.ts';
import { productionPackages, unreviewedRenderers } from '../../helpers/renderers.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let admin: ApiClient;
withAdvisoryApp('rendering', (app) => ({ t, admin } = app));

describe('support-desk advisories (docs/security-checks.md#advisory-regressions)', () => {
  let alice: SupportUser;
  beforeAll(async () => {
    alice = await supportUser(t);
  });

  advisory(
    10,
    'stored text an admin or user wrote is escaped in the server-rendered HTML (FAQ page, its JSON-LD and its page data)',
    async () => {
      const title = `Parcel sizes ${XSS.script}`;
      const content = Object.values(XSS).join(' | ');
      const created = await admin.post('/api/admin/faqs', { type: 'sender', title, content });
      expect(created.statusCode).toBe(201);
      // What the API keeps is the text as written: escaping is the renderer's job, not a lossy filter.
      expect(created.json().faq).toMatchObject({ title, content });

      // Control: the detector does see each payload when it is not escaped.
      for (const payload of [XSS.script, XSS.img, XSS.svg, XSS.breakout, '<a href="javascript:x()">x</a>']) {
        expect(injectedMarkup(`<p>${payload}</p>`), payload).not.toEqual([]);
      }
      const res = await html('/faqs?type=sender');
      expect(res.statusCode).toBe(200);
      expect(injectedMarkup(res.body)).toEqual([]);
      expect(res.body).toContain('Parcel sizes &lt;script&gt;window.__xss=1&lt;/script&gt;');
      expect(res.body).toContain('&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;');
      // The JSON-LD block and the hydration data carry the text with < and > escaped.
      const ldJson = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(res.body)?.[1] ?? '';
      expect(ldJson).toContain('\\u003cscript\\u003ewindow.__xss=1');
      expect(ldJson).not.toContain('<');
      // Nothing can close a script element early: every </script> closes a script we opened.
      expect(res.body.match(/<script\b/g)!.length).toBe(res.body.match(/<\/script>/g)!.length);
      expect(res.body).not.toContain('</noscript><img');
    },
  );

  advisory(
    13,
    'another origin (or null) gets no CORS grant: no Access-Control-Allow-Origin or -Credentials on GET or preflight',
    async () => {
      for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example']) {
        const answers = [
          await send('GET', '/api/auth/session', { headers: { origin, ...alice.headers } }),
          await send('GET', '/api/support/tickets', { headers: { origin, ...alice.headers } }),
          await send('OPTIONS', '/api/support/tickets', {
            headers: {
              origin,
              'access-control-request-method': 'GET',
              'access-control-request-headers': 'content-type',
            },
          }),
          await send('OPTIONS', '/api/auth/login', {
            headers: {
              origin,
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'content-type',
            },
          }),
        ];
        for (const res of answers) {
          expect(res.headers['access-control-allow-origin']).toBeUndefined();
          expect(res.headers['access-control-allow-credentials']).toBeUndefined();
          expect(res.headers['access-control-allow-methods']).toBeUndefined();
        }
        // A state change from that origin is refused outright (CSRF), so no read is needed to do harm.
        const write = await post(
          '/api/support/tickets/00000000-0000-4000-8000-000000000000/messages',
          { messageBody: 'cross-site' },
          { headers: { origin, ...alice.headers } },
        );
        expect(write.statusCode).toBe(403);
      }
    },
  );

  advisory(
    14,
    'text from an applicant or admin is escaped in the HTML of the decision mails (approval and rejection)',
    async () => {
      const approved = { ...validCompany(), companyName: `Kiwi ${XSS.img} Freight`, street: XSS.script };
      const { id: approvedId } = await registerCompany(approved);
      expect((await admin.post(`/api/admin/companies/${approvedId}/approve`)).json().mail).toBe('queued');
      const approval = await waitForMail(
        t.dataDir,
        approved.contactPersonEmail,
        `Your ${t.config.companyName} partner application is approved`,
      );
      expect(approval!.html).toContain('Kiwi &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt; Freight');
      expect(injectedMarkup(approval!.html)).toEqual([]);
      // The plain-text part is text: the name reads as written.
      expect(approval!.text).toContain(approved.companyName);

      const rejected = validCompany();
      const { id: rejectedId } = await registerCompany(rejected);
      const reason = `Licence unreadable ${XSS.breakout} ${XSS.svg} <a href="javascript:alert(1)">fix it</a>`;
      expect((await admin.post(`/api/admin/companies/${rejectedId}/reject`, { reason })).json().mail).toBe('queued');
      const rejection = await waitForMail(
        t.dataDir,
        rejected.contactPersonEmail,
        `About your ${t.config.companyName} partner application`,
      );
      expect(rejection!.html).toContain(
        'Licence unreadable &quot;&gt;&lt;/p&gt;&lt;/script&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;',
      );
      expect(injectedMarkup(rejection!.html)).toEqual([]);
      expect(rejection!.html).not.toContain('<a href="javascript:');
    },
  );

  advisory(
    21,
    'HTML answers carry a fresh-nonce CSP with no unsafe script source; uploads can never be a same-origin script',
    async () => {
      const [first, second] = [await html('/'), await html('/faqs')];
      const policies = [first, second].map((res) => String(res.headers['content-security-policy']));
      const directives = (policy: string) =>
        new Map(
          policy
            .split(';')
            .map((d) => d.trim().split(/\s+/))
            .map(([name, ...values]) => [name!, values]),
        );
      const nonces = policies.map((p) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(p)?.[1]);
      expect(nonces[0]).toBeDefined();
      expect(Buffer.from(nonces[0]!, 'base64')).toHaveLength(16);
      expect(nonces[0]).not.toBe(nonces[1]);

      for (const [i, res] of [first, second].entries()) {
        const csp = directives(policies[i]!);
        const scriptSrc = csp.get('script-src') ?? csp.get('default-src')!;
        for (const unsafe of [
          "'unsafe-inline'",
          "'unsafe-eval'",
          "'unsafe-hashes'",
          '*',
          'https:',
          'http:',
          'data:',
          'blob:',
        ]) {
          expect(scriptSrc).not.toContain(unsafe);
        }
        expect(csp.get('object-src')).toEqual(["'none'"]);
        expect(csp.get('base-uri')).toEqual(["'none'"]);
        expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
        // Every executable script in the page carries this response's nonce.
        const scripts = [...res.body.matchAll(/<script\b([^>]*)>/g)]
          .map((m) => m[1]!)
          .filter((attrs) => !/type="application\/(ld\+)?json"/.test(attrs));
        expect(scripts.length).toBeGreaterThan(0);
        for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonces[i]}"`);
      }

      // The FreeScout bypass loaded an uploaded file as a same-origin script. 'strict-dynamic' makes
      // CSP3 browsers ignore 'self', so only nonce'd scripts (and what they load) run …
      expect(directives(policies[0]!).get('script-src')).toContain("'strict-dynamic'");
      // … and, for browsers that still honour 'self', the one route that returns uploaded bytes cannot
      // be a script: an image type with nosniff (browsers refuse to run it), sandboxed, an attachment.
      const polyglot = Buffer.concat([pngOf(64), Buffer.from('*/alert(document.domain)//')]);
      const { id } = await registerCompany(validCompany(), { bytes: polyglot, name: 'x.js', type: 'text/javascript' });
      const licence = await admin.get(`/api/admin/companies/${id}/license`);
      expect(licence.headers['content-type']).toBe('image/png');
      expect(licence.headers['x-content-type-options']).toBe('nosniff');
      expect(licence.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(licence.headers['content-disposition']).toMatch(/^attachment;/);
      expect(licence.headers['cross-origin-resource-policy']).toBe('same-origin');
    },
  );

  advisory(
    23,
    'legal links accept only https or our own paths, and the server never fetches an admin-given URL',
    async () => {
      let connections = 0;
      const listener = net.createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const port = (listener.address() as net.AddressInfo).port;
      try {
        const original = (await admin.get('/api/admin/legal')).json().links;
        for (const link of [
          `http://127.0.0.1:${port}/terms`,
          `//127.0.0.1:${port}/terms`,
          `file:///etc/passwd`,
          `gopher://127.0.0.1:${port}/`,
          `ftp://127.0.0.1:${port}/`,
        ]) {
          const res = await admin.put('/api/admin/settings/legal-links', {
            terms: link,
            privacy: '/documents/privacy',
          });
          expect(res.statusCode, link).toBe(400);
        }
        const saved = await admin.put('/api/admin/settings/legal-links', {
          terms: `https://127.0.0.1:${port}/terms`,
          privacy: `https://127.0.0.1:${port}/privacy`,
        });
        expect(saved.statusCode).toBe(200);
        for (const url of ['/legal', '/legal?doc=privacy']) {
          const page = await html(url);
          expect(page.statusCode).toBe(200);
          // The browser is given the link; the server does not follow it.
          expect(page.body).toContain(`src="https://127.0.0.1:${port}/`);
        }
        expect((await send('GET', '/api/legal/links')).statusCode).toBe(200);
        // Time is the subject: a server that followed the link would connect within moments of the
        // answers; nothing else marks the moment it did not.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(connections).toBe(0);
        if (original) expect((await admin.put('/api/admin/settings/legal-links', original)).statusCode).toBe(200);
      } finally {
        await new Promise((resolve) => listener.close(resolve));
      }
    },
  );

  advisory(25, 'review gate: no HTML-to-PDF or headless-browser renderer is a runtime dependency', async () => {
    expect(productionPackages().length).toBeGreaterThan(0);
    // sharp (photo metadata removal) is reviewed: it decodes only bytes already known to be JPEG, PNG or WebP.
    expect(unreviewedRenderers()).toEqual([]);
  });

  advisory(
    28,
    'admin- and operator-configured identifiers are escaped where shown: document titles and text, dangerous links refused, the company name',
    async () => {
      const title = `Terms ${XSS.img}`;
      const body = `## Intro ${XSS.script}\n\n${XSS.mxss}\n\n${XSS.breakout}`;
      const saved = await admin.put('/api/admin/documents/terms', { title, body });
      expect(saved.statusCode).toBe(200);
      const page = await html('/documents/terms');
      expect(page.statusCode).toBe(200);
      expect(injectedMarkup(page.body)).toEqual([]);
      expect(page.body).not.toMatch(/<script\b/);
      expect(page.body).toContain('<h1>Terms &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</h1>');
      expect(page.body).toContain('<h2>Intro &lt;script&gt;window.__xss=1&lt;/script&gt;</h2>');

      for (const link of [
        'javascript:alert(1)',
        ' JavaScript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'vbscript:msgbox(1)',
        'java\tscript:alert(1)',
        '/\\evil.example',
      ]) {
        expect(
          (await admin.put('/api/admin/settings/legal-links', { terms: link, privacy: '/documents/privacy' }))
            .statusCode,
          link,
        ).toBe(400);
      }

      // The operator's company name (it names the mailer and every page) is text everywhere it appears.
      const branded = await createTestApp({ web: true, env: { COMPANY_NAME: `Kiwi ${XSS.img} Carry` } });
      try {
        const home = await branded.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
        expect(home.statusCode).toBe(200);
        expect(injectedMarkup(home.body)).toEqual([]);
        expect(home.body).toContain('Kiwi &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt; Carry');
        const email = uniqueEmail('brand');
        const signup = await branded.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email, password: strongPassword() },
          remoteAddress: freshIp(),
        });
        expect(signup.statusCode).toBe(202);
        const [mail] = await waitForMails(branded.dataDir, email);
        expect(injectedMarkup(mail!.html)).toEqual([]);
        expect(mail!.html).toContain('Kiwi &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt; Carry');
        expect(mail!.to).toBe(email);
        // The name stays a quoted display name: the sender address is still ours.
        expect(mail!.from).toMatch(/<no-reply@localhost>$/);
        expect(headerBlock(mail!.file).match(/^to:/gim)).toHaveLength(1);
      } finally {
        await branded.close();
      }
    },
    60_000,
  );
});
