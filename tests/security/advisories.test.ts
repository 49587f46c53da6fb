/**
 * A named regression test for each support-desk advisory of
 * docs/security-checks.md#advisory-regressions, each a short scenario on the real app
 * (real requests, a fresh database) asserting what a client observes. The exhaustive versions live
 * in the matrix, IDOR, fuzz and upload suites; these tests say "this advisory cannot happen here".
 *
 * Mapping of the 29 advisories (the same table is kept as data in ADVISORIES below and feeds the
 * 'advisories' figure; a test fails if the two disagree with the tests defined):
 *
 *  #1  CVE-2026-115725  Chatwoot   covered here (also idor.test.ts, authz-matrix.test.ts AZ-03)
 *  #2  CVE-2021-3740    Chatwoot   covered here
 *  #3  CVE-2021-3741    Chatwoot   covered here (corpus in uploads.test.ts)
 *  #4  CVE-2022-3741    Chatwoot   covered here (registration per-IP limit: uploads.test.ts UP-08)
 *  #5  CVE-2022-40816   Zammad     covered here (live streams as a channel of the matrix: authz-matrix.test.ts)
 *  #6  CVE-2022-40817   Zammad     covered here (every route × principal: authz-matrix.test.ts AZ-02)
 *  #7  CVE-2022-35490   Zammad     covered here
 *  #8  CVE-2024-33668   Zammad     covered here (also uploads.test.ts UP-09)
 *  #9  CVE-2020-26030   Zammad     covered here (we have no SSO; the test shows no header is an identity)
 *  #10 CVE-2018-1000154 Zammad     covered here (SSR) and tests/e2e/xss.spec.ts (Chromium)
 *  #11 CVE-2026-84458   Zammad     covered here (we have no SSO auto-link; the rule "verified comes from the DB" is tested)
 *  #12 CVE-2026-102489  Zammad     covered here (SSE is our live channel; there is no websocket)
 *  #13 GHSA-7f39-jjj6-7fwv Zammad  covered here
 *  #14 CVE-2026-32754   FreeScout  covered here (the partner decision mails are our templates with user text)
 *  #15 CVE-2026-40591   FreeScout  covered here
 *  #16 CVE-2026-40496   FreeScout  covered here
 *  #17 CVE-2026-41902   FreeScout  covered here (our invitation-like links: verification and reset)
 *  #18 CVE-2026-27637   FreeScout  covered here
 *  #19 CVE-2026-45294   FreeScout  covered here
 *  #20 CVE-2026-107393  FreeScout  covered here
 *  #21 GHSA-fffc-phh8-5h4v FreeScout covered here ('strict-dynamic' nonce CSP + uploads never scriptable; header details: the headers suite)
 *  #22 GHSA-7wcq-2qmv-mvcm FreeScout covered elsewhere: tests/security/log-secrets.test.ts (SMTP credentials never logged)
 *  #23 CVE-2020-24881   osTicket   covered here
 *  #24 CVE-2020-24917   osTicket   covered here
 *  #25 CVE-2026-22200   osTicket   covered here (review gate: we render nothing to PDF)
 *  #26 CVE-2004-0613    osTicket   covered here (no PHP here; nothing uploaded is ever served or executed)
 *  #27 CVE-2024-0916    UVdesk     covered here (also the anonymous row of authz-matrix.test.ts)
 *  #28 CVE-2025-71419   UVdesk     covered here (admin- and operator-configured identifiers)
 *  #29 CVE-2025-71420   UVdesk     covered here (also idor.test.ts, authz-matrix.test.ts)
 * Not applicable: none. Where we lack the vulnerable feature (SSO, websockets, PHP, PDF export),
 * the weakness behind it still has a surface here, and that surface is what the test checks.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth.ts';
import { COMPANY_MESSAGES } from '../../src/contracts/companies.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { apiClient, type ApiClient } from '../integration/admin/admin-client.ts';
import {
  encodeForm,
  pngOf,
  register,
  storedFiles,
  validCompany,
} from '../integration/partners/registration-helpers.ts';
import { createUser, sessionStatus, strongPassword, uniqueEmail, withCookie } from '../support/accounts.ts';
import { recordFigure } from '../support/figures.ts';
import { readOutbox, tokenFrom, waitForMail, waitForMails } from '../support/mail.ts';
import { openSse, type SseConnection } from '../support/sse-client.ts';
import { supportUser, type SupportUser } from '../support/support.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { productionPackages, SERVER_RENDERERS } from '../support/renderers.ts';

// --- The mapping, as data ---------------------------------------------------------------------------

type Coverage = { status: 'here' } | { status: 'elsewhere'; file: string } | { status: 'not-applicable'; why: string };
interface Advisory {
  n: number;
  id: string;
  product: string;
  coverage: Coverage;
}

const here = { status: 'here' } as const;
const ADVISORIES: Advisory[] = [
  { n: 1, id: 'CVE-2026-115725', product: 'Chatwoot', coverage: here },
  { n: 2, id: 'CVE-2021-3740', product: 'Chatwoot', coverage: here },
  { n: 3, id: 'CVE-2021-3741', product: 'Chatwoot', coverage: here },
  { n: 4, id: 'CVE-2022-3741', product: 'Chatwoot', coverage: here },
  { n: 5, id: 'CVE-2022-40816', product: 'Zammad', coverage: here },
  { n: 6, id: 'CVE-2022-40817', product: 'Zammad', coverage: here },
  { n: 7, id: 'CVE-2022-35490', product: 'Zammad', coverage: here },
  { n: 8, id: 'CVE-2024-33668', product: 'Zammad', coverage: here },
  { n: 9, id: 'CVE-2020-26030', product: 'Zammad', coverage: here },
  { n: 10, id: 'CVE-2018-1000154', product: 'Zammad', coverage: here },
  { n: 11, id: 'CVE-2026-84458', product: 'Zammad', coverage: here },
  { n: 12, id: 'CVE-2026-102489', product: 'Zammad', coverage: here },
  { n: 13, id: 'GHSA-7f39-jjj6-7fwv', product: 'Zammad', coverage: here },
  { n: 14, id: 'CVE-2026-32754', product: 'FreeScout', coverage: here },
  { n: 15, id: 'CVE-2026-40591', product: 'FreeScout', coverage: here },
  { n: 16, id: 'CVE-2026-40496', product: 'FreeScout', coverage: here },
  { n: 17, id: 'CVE-2026-41902', product: 'FreeScout', coverage: here },
  { n: 18, id: 'CVE-2026-27637', product: 'FreeScout', coverage: here },
  { n: 19, id: 'CVE-2026-45294', product: 'FreeScout', coverage: here },
  { n: 20, id: 'CVE-2026-107393', product: 'FreeScout', coverage: here },
  { n: 21, id: 'GHSA-fffc-phh8-5h4v', product: 'FreeScout', coverage: here },
  {
    n: 22,
    id: 'GHSA-7wcq-2qmv-mvcm',
    product: 'FreeScout',
    coverage: { status: 'elsewhere', file: 'tests/security/log-secrets.test.ts' },
  },
  { n: 23, id: 'CVE-2020-24881', product: 'osTicket', coverage: here },
  { n: 24, id: 'CVE-2020-24917', product: 'osTicket', coverage: here },
  { n: 25, id: 'CVE-2026-22200', product: 'osTicket', coverage: here },
  { n: 26, id: 'CVE-2004-0613', product: 'osTicket', coverage: here },
  { n: 27, id: 'CVE-2024-0916', product: 'UVdesk', coverage: here },
  { n: 28, id: 'CVE-2025-71419', product: 'UVdesk', coverage: here },
  { n: 29, id: 'CVE-2025-71420', product: 'UVdesk', coverage: here },
];

/** Advisories whose named test was defined, and whose test ran to its end. */
const defined = new Set<number>();
const passed = new Set<number>();

/** One named regression test: `<id> (<product>): <what a client observes>`. */
function advisory(n: number, title: string, body: () => Promise<void> | void, timeout?: number) {
  const entry = ADVISORIES.find((a) => a.n === n);
  if (!entry) throw new Error(`no advisory #${n} in the table`);
  defined.add(n);
  it(
    `${entry.id} (${entry.product}): ${title}`,
    async () => {
      await body();
      passed.add(n);
    },
    timeout,
  );
}

// --- The app and small helpers -----------------------------------------------------------------------

let t: TestApp;
let base: string;
let admin: ApiClient;
beforeAll(async () => {
  // Registrations come from one test address here; their per-address limit has its own suite (UP-08).
  // Every other limit keeps its default, and the throttling tests read them from the config.
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '1000' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await apiClient(t, { role: 'admin' });
}, 60_000);
afterAll(() => t?.close());

/** Addresses from TEST-NET-2, a fresh one per call, so one test's throttling never touches another's. */
let lastIp = 0;
const freshIp = () => `198.51.100.${++lastIp}`;

function send(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS',
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    remoteAddress: options.ip,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
}
const post = (url: string, body: unknown, options: { headers?: Record<string, string>; ip?: string } = {}) =>
  send('POST', url, { ...options, body });
const login = (email: string, password: string, ip?: string, extra: Record<string, unknown> = {}) =>
  post('/api/auth/login', { email, password, ...extra }, { ip });
const html = (url: string, headers: Record<string, string> = {}) =>
  send('GET', url, { headers: { accept: 'text/html', ...headers } });

const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<T>(t.database.db, query);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const cookieOf = (u: { headers: { cookie: string } }) => ({ cookie: u.headers.cookie });

/** Waits for a live stream to end, or fails after `ms`. */
async function endsWithin(stream: SseConnection, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    stream.ended.then(() => 'ended'),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still open'), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}

/**
 * Waits until mail and tokens written in the background (after earlier answers) have stopped
 * arriving, so a before/after comparison sees only what the requests in between did.
 */
async function settle() {
  let last = '';
  for (let i = 0; i < 50; i++) {
    const [count] = await rows<{ n: number }>(sql`select count(*)::int as n from email_tokens`);
    const now = `${(await readOutbox(t.dataDir)).length}/${count?.n}`;
    if (now === last) return;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The token of the newest mailed link to `email` starting with `prefix` that is not in `used`. */
async function newLink(email: string, count: number, prefix: string, used: Set<string>): Promise<string> {
  const mails = await waitForMails(t.dataDir, email, count);
  const tokens = mails.flatMap((m) =>
    (m.text.match(/https?:\/\/\S+/g) ?? []).filter((u) => u.startsWith(prefix)).map(tokenFrom),
  );
  const token = tokens.filter((x) => !used.has(x)).at(-1);
  if (!token) throw new Error(`no new ${prefix} link to ${email}`);
  used.add(token);
  return token;
}

/** The raw header block of an .eml file (before the first blank line). */
function headerBlock(file: string): string {
  const raw = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  return raw.slice(0, raw.indexOf('\n\n'));
}

async function registerCompany(fields = validCompany(), file?: { bytes: Uint8Array; name: string; type: string }) {
  const res = await register(t, fields, file);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, fields, res };
}

const uniquePng = (size = 4096) => {
  const bytes = pngOf(size);
  bytes.write(`${Date.now()}-${Math.random()}`, 64, 'latin1');
  return bytes;
};
const licenceFile = (id: string, ext = 'png') => path.join(t.dataDir, 'files', 'commercialLicenses', `${id}.${ext}`);

/** Stored-XSS payloads (XSS Filter Evasion CS, SVG, javascript:, a mutation-XSS sample). */
const XSS = {
  script: '<script>window.__xss=1</script>',
  img: '<img src=x onerror="window.__xss=1">',
  svg: '<svg onload="window.__xss=1">',
  breakout: '"></p></script><script>window.__xss=1</script>',
  js: 'javascript:window.__xss=1',
  mxss: '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">',
};
/**
 * Markup a payload managed to inject into HTML: an event-handler attribute or a javascript: URL on
 * any element, or a script element that runs the payload. Attribute values are read whole, so
 * escaped text inside one (aria-label="…onerror=…") is text, as a browser reads it.
 */
function injectedMarkup(text: string): string[] {
  const found: string[] = [];
  const attribute = /\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g;
  for (const tag of text.matchAll(
    /<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/g,
  )) {
    for (const [, name, raw = ''] of tag[2]!.matchAll(attribute)) {
      const value = raw.replace(/^["']|["']$/g, '').trim();
      if (
        /^on/i.test(name!) ||
        (/^(href|src|action|formaction|xlink:href)$/i.test(name!) && /^javascript:/i.test(value))
      ) {
        found.push(tag[0].slice(0, 160));
      }
    }
  }
  for (const match of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    if (/window\.__xss=1/.test(match[1]!) && !/\\u003c|&lt;/.test(match[1]!)) found.push(match[0].slice(0, 120));
  }
  return found;
}

// --- 1-29 ---------------------------------------------------------------------------------------------

describe('support-desk advisories (docs/security-checks.md#advisory-regressions)', () => {
  let alice: SupportUser;
  let bob: SupportUser;
  let staff: SupportUser;
  beforeAll(async () => {
    [alice, bob, staff] = await Promise.all([supportUser(t), supportUser(t), supportUser(t, { role: 'admin' })]);
  });

  advisory(
    1,
    'a foreign ticket id reaches nothing: read, messages, reply and live stream answer 404, nothing is stored',
    async () => {
      const { ticketId } = await alice.createTicket('General', 'Only Alice may read this.');
      const missing = '00000000-0000-4000-8000-000000000000';
      const messagesBefore = await rows(sql`select id from ticket_messages where ticket_id = ${ticketId}`);

      for (const url of [`/api/support/tickets/${ticketId}`, `/api/support/tickets/${ticketId}/messages`]) {
        const foreign = await bob.get(url);
        const none = await bob.get(url.replace(ticketId, missing));
        expect(foreign.statusCode).toBe(404);
        // Someone else's ticket and no ticket at all cannot be told apart.
        expect(foreign.json()).toEqual(none.json());
        expect(foreign.body).not.toContain('Only Alice');
      }
      const reply = await bob.post(`/api/support/tickets/${ticketId}/messages`, {
        messageBody: 'Bob writes into Alice’s ticket',
      });
      expect(reply.statusCode).toBe(404);
      expect(reply.json().error.message).toBe(SUPPORT_TEXT.ticketMissing);
      const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(bob));
      expect(stream.status).toBe(404);
      // The admin side is closed to a user whatever the id.
      expect((await bob.get(`/api/admin/support/tickets/${ticketId}`)).statusCode).toBe(403);

      expect(await rows(sql`select id from ticket_messages where ticket_id = ${ticketId}`)).toEqual(messagesBefore);
      expect(await rows(sql`select id from ticket_messages where user_id = ${bob.id}`)).toEqual([]);
    },
  );

  advisory(
    2,
    'changing the password ends every other session (cookie and bearer), keeps this one, and needs the current password',
    async () => {
      const user = await createUser(t);
      const [first, second] = [
        await loginCookie(user.email, user.password),
        await loginCookie(user.email, user.password),
      ];
      const bearer = (await login(user.email, user.password, undefined, { session: 'token' })).json().session
        .token as string;
      const newPassword = strongPassword();

      const wrong = await post(
        '/api/auth/change-password',
        { currentPassword: 'not-the-password', newPassword },
        { headers: withCookie(t, first) },
      );
      expect(wrong.statusCode).toBe(400);
      expect(await sessionStatus(t, second)).toBe(200);

      const changed = await post(
        '/api/auth/change-password',
        { currentPassword: user.password, newPassword },
        { headers: withCookie(t, first) },
      );
      expect(changed.statusCode).toBe(200);
      expect(await sessionStatus(t, first)).toBe(200);
      expect(await sessionStatus(t, second)).toBe(401);
      expect(
        (await send('GET', '/api/auth/session', { headers: { authorization: `Bearer ${bearer}` } })).statusCode,
      ).toBe(401);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      expect((await login(user.email, newPassword)).statusCode).toBe(200);
    },
  );

  advisory(
    3,
    'an SVG with a script is refused as a licence (Unsupported File Format), under any name or type, and nothing is stored',
    async () => {
      const svg = Buffer.from(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>',
      );
      const before = storedFiles(t);
      for (const file of [
        { bytes: svg, name: 'avatar.svg', type: 'image/svg+xml' },
        { bytes: svg, name: 'avatar.png', type: 'image/png' },
        { bytes: svg, name: 'avatar.jpg', type: 'image/jpeg' },
      ]) {
        const fields = validCompany();
        const res = await register(t, fields, file);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
        expect(await rows(sql`select id from companies where company_name = ${fields.companyName}`)).toEqual([]);
      }
      expect(storedFiles(t)).toEqual(before);
    },
  );

  advisory(
    4,
    'sign-in and sign-up attempts are limited: 429 with Retry-After past the limit, per address and per account',
    async () => {
      const { perIp, perAccount } = t.config.loginThrottle;
      const user = await createUser(t);

      // Per address: guesses at many accounts from one address.
      const ip = freshIp();
      for (let i = 0; i < perIp; i++)
        expect((await login(uniqueEmail('guess'), 'Wrong-password-1', ip)).statusCode).toBe(401);
      const blocked = await login(uniqueEmail('guess'), 'Wrong-password-1', ip);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Even the right password waits, from that address; from another it works.
      expect((await login(user.email, user.password, ip)).statusCode).toBe(429);
      expect((await login(user.email, user.password, freshIp())).statusCode).toBe(200);

      // Per account: guesses at one account from many addresses.
      const victim = await createUser(t);
      for (let i = 0; i < perAccount; i++)
        expect((await login(victim.email, `Wrong-${i}-password`, freshIp())).statusCode).toBe(401);
      const locked = await login(victim.email, 'Wrong-again-password', freshIp());
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

      // Sign-ups per address (account creation as a flood).
      const signupIp = freshIp();
      const limit = t.config.accountRequestsPerIpPerHour;
      for (let i = 0; i < limit; i++) {
        expect(
          (
            await post(
              '/api/auth/signup',
              { email: uniqueEmail('flood'), password: strongPassword() },
              { ip: signupIp },
            )
          ).statusCode,
        ).toBe(202);
      }
      const lastEmail = uniqueEmail('flood');
      const refused = await post(
        '/api/auth/signup',
        { email: lastEmail, password: strongPassword() },
        { ip: signupIp },
      );
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await rows(sql`select id from users where email = ${lastEmail}`)).toEqual([]);
    },
    120_000,
  );

  advisory(
    5,
    'a user’s live streams and support JSON never carry the admin’s email or another user’s data; another user’s stream is refused',
    async () => {
      const { ticketId } = await alice.createTicket('Incident', 'My parcel is lost.');
      const bobTicket = await bob.createTicket('General', 'Bob’s private question');
      expect(
        (
          await staff.post(`/api/admin/support/tickets/${ticketId}/messages`, {
            messageBody: 'We are looking into it.',
          })
        ).statusCode,
      ).toBe(200);

      const messages = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(alice));
      const list = await openSse(`${base}/api/support/tickets/stream`, cookieOf(alice));
      expect(messages.status).toBe(200);
      expect(list.status).toBe(200);
      await messages.waitFor((e) => e.filter((x) => x.event === 'message').length === 2);
      await list.waitFor((e) => e.some((x) => x.event === 'tickets'));
      // A live answer, sent while the streams are open.
      expect(
        (await staff.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Found it.' })).statusCode,
      ).toBe(200);
      await messages.waitFor((e) => e.filter((x) => x.event === 'message').length === 3);
      messages.close();
      list.close();

      const json = await Promise.all(
        [
          '/api/support/tickets',
          '/api/support/tickets?open=false',
          `/api/support/tickets/${ticketId}`,
          `/api/support/tickets/${ticketId}/messages`,
        ].map(async (url) => (await alice.get(url)).body),
      );
      const seen = [JSON.stringify(messages.events), JSON.stringify(list.events), ...json].join('\n');
      expect(seen).toContain('Found it.');
      for (const secret of [
        staff.email,
        staff.id,
        bob.email,
        bob.id,
        bobTicket.ticketId,
        'Bob’s private question',
        'authorEmail',
        'userEmail',
        'userId',
      ]) {
        expect(seen).not.toContain(secret);
      }
      // Control: the admin's own view does name authors, so the test could see a leak.
      expect((await staff.get(`/api/admin/support/tickets/${ticketId}`)).body).toContain(staff.email);

      const foreign = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(bob));
      expect(foreign.status).toBe(404);
      const inbox = await openSse(`${base}/api/admin/support/tickets/stream`, cookieOf(alice));
      expect(inbox.status).toBe(403);
    },
  );

  advisory(
    6,
    'a plain user gets 403 on every admin write verb (from the live route table), and nothing changes',
    async () => {
      const user = await apiClient(t, { role: 'user' });
      const { ticketId } = await alice.createTicket('General', 'A ticket for the admin routes');
      const { id: companyId } = await registerCompany(validCompany(), {
        bytes: uniquePng(),
        name: 'l.png',
        type: 'image/png',
      });
      const faq = (
        await admin.post('/api/admin/faqs', { type: 'general', title: 'Probe FAQ', content: 'Probe answer' })
      ).json().faq as { id: number };
      const params: Record<string, string[]> = {
        ticketId: [ticketId],
        companyId: [companyId],
        faqId: [String(faq.id)],
        userId: [user.id, admin.id],
        slug: ['terms'],
        mailId: [
          String(
            (
              await rows<{ id: unknown }>(
                sql`insert into mail_outbox (message_id, kind, recipient, subject, text_body, html_body, state, give_up_at)
                    values ('<probe@example.nz>', 'team-new-ticket', 'probe@example.nz', 'Probe', 'Text', '<p>Text</p>', 'failed', now()) returning id`,
              )
            )[0]!.id,
          ),
        ],
      };
      const bodies: Array<[RegExp, unknown]> = [
        [/\/faqs\/reorder$/, { type: 'general', ids: [faq.id] }],
        [/\/faqs(\/:faqId)?$/, { type: 'general', title: 'Hijacked', content: 'Hijacked answer' }],
        [/\/legal-links$/, { terms: 'https://evil.example/terms', privacy: 'https://evil.example/privacy' }],
        [/\/documents\/:slug$/, { title: 'Hijacked', body: 'Hijacked terms' }],
        [/\/reject$/, { reason: 'Hijacked' }],
        [/\/role$/, { role: 'admin' }],
        [/\/messages$/, { messageBody: 'Hijacked answer' }],
      ];

      const writes = t.app.routeTable
        .filter((r) => r.url.startsWith('/api/admin/'))
        .flatMap((r) =>
          r.methods.filter((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m)).map((method) => ({ method, url: r.url })),
        );
      expect(writes.length).toBeGreaterThanOrEqual(15);

      const tables = [
        'users',
        'faqs',
        'settings',
        'documents',
        'companies',
        'support_tickets',
        'ticket_messages',
        'audit_log',
        'email_tokens',
      ];
      const snapshot = async () =>
        Object.fromEntries(
          await Promise.all(
            tables.map(async (name) => [name, await rows(sql.raw(`select * from ${name} order by 1`))]),
          ),
        );
      await settle();
      const before = await snapshot();
      const outboxBefore = (await readOutbox(t.dataDir)).length;

      const answers: string[] = [];
      for (const route of writes) {
        const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
        let urls = [route.url];
        for (const name of names) {
          expect(params[name], `a value for :${name}`).toBeDefined();
          urls = urls.flatMap((u) => params[name]!.map((v) => u.replace(`:${name}`, v)));
        }
        const body = bodies.find(([pattern]) => pattern.test(route.url))?.[1] ?? {};
        for (const url of urls) {
          const res = await send(route.method as 'POST', url, { body, headers: user.headers });
          answers.push(`${route.method} ${url} ${res.statusCode}`);
          expect(res.statusCode, `${route.method} ${url}`).toBe(403);
        }
      }
      expect(await snapshot()).toEqual(before);
      expect((await readOutbox(t.dataDir)).length).toBe(outboxBefore);
      expect((await user.get('/api/auth/session')).json().user.role).toBe('user');
    },
  );

  advisory(
    7,
    '50 concurrent wrong passwords: at most the limit is evaluated, the rest 429, then even the right password waits out the window',
    async () => {
      const victim = await createUser(t);
      const limit = t.config.loginThrottle.perAccount;
      // Each guess from its own address: rotating addresses must not help either.
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => login(victim.email, `Wrong-guess-${i}-x`, freshIp())),
      );
      const statuses = answers.map((a) => a.statusCode);
      const evaluated = statuses.filter((s) => s === 401).length;
      expect(evaluated).toBeGreaterThan(0);
      expect(evaluated).toBeLessThanOrEqual(limit);
      expect(statuses.filter((s) => s === 429).length).toBe(50 - evaluated);
      for (const a of answers.filter((x) => x.statusCode === 429))
        expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);

      const right = await login(victim.email, victim.password, freshIp());
      expect(right.statusCode).toBe(429);
      expect(right.cookies).toEqual([]);

      // The window passes (its end moved into the past, as a clock would): the right password works.
      await t.database.db.execute(
        sql`update rate_limits set reset_at = now() - interval '1 second' where key like ${`%${victim.email}%`}`,
      );
      expect((await login(victim.email, victim.password, freshIp())).statusCode).toBe(200);
    },
  );

  advisory(
    8,
    'a registration carrying companyId, licence key or path cannot touch another company’s licence; the key is always server-chosen',
    async () => {
      const victim = await registerCompany(validCompany(), {
        bytes: uniquePng(),
        name: 'victim.png',
        type: 'image/png',
      });
      const victimFile = licenceFile(victim.id);
      const victimHash = sha256(fs.readFileSync(victimFile, 'latin1'));
      const attackerBytes = uniquePng(2048);

      // Extra form fields naming the victim: refused as fields that are not part of the form.
      const smuggled: Array<[string, string]> = [
        ['companyId', victim.id],
        ['id', victim.id],
        ['commercialLicenseKey', `commercialLicenses/${victim.id}.png`],
        ['commercialLicenseUrl', `/api/admin/companies/${victim.id}/license`],
        ['path', `commercialLicenses/${victim.id}.png`],
      ];
      const refused = await register(
        t,
        validCompany(),
        { bytes: attackerBytes, name: 'x.png', type: 'image/png' },
        { extra: smuggled },
      );
      expect(refused.statusCode).toBe(400);
      for (const [name] of smuggled) expect(refused.json().error.fields[name]).toBe(COMPANY_MESSAGES.unexpectedField);

      // The victim's id in the query and in the file name: ignored; the new company gets its own key.
      for (const name of [
        `${victim.id}.png`,
        `../commercialLicenses/${victim.id}.png`,
        `commercialLicenses/${victim.id}.png`,
      ]) {
        const fields = validCompany();
        const { payload, headers } = await encodeForm(fields, { bytes: attackerBytes, name, type: 'image/png' });
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/companies?companyId=${victim.id}&path=commercialLicenses/${victim.id}.png`,
          payload,
          headers,
        });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json().id as string;
        expect(id).not.toBe(victim.id);
        const [row] = await rows<{ commercial_license_key: string; commercial_license_url: string }>(
          sql`select commercial_license_key, commercial_license_url from companies where id = ${id}`,
        );
        expect(row).toEqual({
          commercial_license_key: `commercialLicenses/${id}.png`,
          commercial_license_url: `/api/admin/companies/${id}/license`,
        });
        expect(fs.readFileSync(licenceFile(id))).toEqual(attackerBytes);
      }
      expect(sha256(fs.readFileSync(victimFile, 'latin1'))).toBe(victimHash);
      const download = await admin.get(`/api/admin/companies/${victim.id}/license`);
      expect(sha256(download.rawPayload.toString('latin1'))).toBe(victimHash);
    },
  );

  advisory(
    9,
    'identity headers from a would-be SSO proxy (X-Forwarded-User, Remote-User, …) are no identity',
    async () => {
      const spoofed = {
        'x-forwarded-user': admin.email,
        'x-remote-user': admin.email,
        'remote-user': admin.email,
        'x-auth-request-email': admin.email,
        'x-auth-request-user': admin.email,
        'x-forwarded-email': admin.email,
        'x-user': admin.email,
        'x-auth-user': admin.email,
        'x-ms-client-principal-name': admin.email,
      };
      for (const url of ['/api/auth/session', '/api/admin/users', '/api/support/tickets']) {
        expect((await send('GET', url, { headers: spoofed })).statusCode, url).toBe(401);
      }
      // With a user's own session, the headers do not make them the admin either.
      const withSession = await send('GET', '/api/admin/users', { headers: { ...spoofed, ...alice.headers } });
      expect(withSession.statusCode).toBe(403);
      expect(
        (await send('GET', '/api/auth/session', { headers: { ...spoofed, ...alice.headers } })).json().user.email,
      ).toBe(alice.email);
    },
  );

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
    11,
    'only a verified email read from the database opens support: a body claiming emailVerified is ignored, a DB change applies at once',
    async () => {
      const user = await supportUser(t);
      const { ticketId } = await user.createTicket('General', 'Before the email was unverified');
      await t.database.db.execute(sql`update users set email_verified_at = null where id = ${user.id}`);

      const claim = { emailVerified: true, email_verified: true, verified: true };
      const attempts = [
        await user.get('/api/support/tickets'),
        await user.get(`/api/support/tickets/${ticketId}`),
        await user.post('/api/functions/createSupportTicket', {
          data: { reason: 'General', message: 'Let me in please', ...claim },
          ...claim,
        }),
        await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Let me in please', ...claim }),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.message).toBe(AUTH_MESSAGES.unverified);
      }
      expect((await openSse(`${base}/api/support/tickets/stream`, cookieOf(user))).status).toBe(403);
      expect(await rows(sql`select id from support_tickets where user_id = ${user.id}`)).toHaveLength(1);
      // Signing in claiming to be verified: refused, no session.
      const signIn = await login(user.email, user.password, undefined, claim);
      expect(signIn.statusCode).toBe(403);
      expect(signIn.cookies.filter((c) => c.value)).toEqual([]);

      // Verified in the database: the very next request is let in, on the same session and a new one.
      await t.database.db.execute(sql`update users set email_verified_at = now() where id = ${user.id}`);
      expect((await user.get('/api/support/tickets')).statusCode).toBe(200);
      const cookie = await loginCookie(user.email, user.password);
      expect((await send('GET', '/api/support/tickets', { headers: withCookie(t, cookie) })).statusCode).toBe(200);
    },
  );

  advisory(12, 'signing out ends the open live streams at once, and the old cookie cannot open a new one', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Live until I sign out');
    const list = await openSse(`${base}/api/support/tickets/stream`, cookieOf(user));
    const messages = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(user));
    await list.waitFor((e) => e.some((x) => x.event === 'tickets'));
    await messages.waitFor((e) => e.some((x) => x.event === 'message'));

    expect((await user.post('/api/auth/logout')).statusCode).toBe(200);
    // Heartbeats come every 15 s here: ending within 2 s is the sign-out itself closing them.
    expect(await endsWithin(list, 2000)).toBe('ended');
    expect(await endsWithin(messages, 2000)).toBe('ended');
    expect((await openSse(`${base}/api/support/tickets/stream`, cookieOf(user))).status).toBe(401);
    expect((await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookieOf(user))).status).toBe(401);
    expect(await sessionStatus(t, user.cookie)).toBe(401);
  });

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
    15,
    'ids and flags in a reply or ticket body (userId, ticketId, admin) are ignored: it is stored as the caller’s own user message',
    async () => {
      const aliceTicket = await alice.createTicket('General', 'Alice’s ticket');
      const bobTicket = await bob.createTicket('General', 'Bob’s ticket');
      const forged = {
        userId: alice.id,
        authorId: alice.id,
        ownerId: alice.id,
        ticketId: aliceTicket.ticketId,
        admin: true,
        mine: false,
        authorEmail: staff.email,
      };

      const reply = await bob.post(`/api/support/tickets/${bobTicket.ticketId}/messages`, {
        messageBody: 'Forged reply',
        ...forged,
      });
      expect(reply.statusCode).toBe(200);
      expect(reply.json().message).toMatchObject({ messageBody: 'Forged reply', admin: false, mine: true });
      const stored = await rows<{ ticket_id: string; user_id: string; admin: boolean }>(
        sql`select ticket_id, user_id, admin from ticket_messages where id = ${reply.json().message.id}`,
      );
      expect(stored).toEqual([{ ticket_id: bobTicket.ticketId, user_id: bob.id, admin: false }]);
      expect(await rows(sql`select id from ticket_messages where ticket_id = ${aliceTicket.ticketId}`)).toHaveLength(1);

      // A new ticket with someone else's id, a chosen number and a closed state: the server decides all three.
      const created = await bob.post('/api/functions/createSupportTicket', {
        data: {
          reason: 'General',
          message: 'Forged ticket',
          userId: alice.id,
          ticketNo: 1,
          open: false,
          id: aliceTicket.ticketId,
        },
        userId: alice.id,
      });
      expect(created.statusCode).toBe(200);
      const { ticketId, ticketNo } = created.json().result as { ticketId: string; ticketNo: number };
      expect(ticketId).not.toBe(aliceTicket.ticketId);
      expect(ticketNo).not.toBe(1);
      const [ticket] = await rows<{ user_id: string; open: boolean }>(
        sql`select user_id, open from support_tickets where id = ${ticketId}`,
      );
      expect(ticket).toEqual({ user_id: bob.id, open: true });
      expect(JSON.stringify((await alice.get('/api/support/tickets')).json())).not.toContain(ticketId);
    },
  );

  advisory(
    16,
    'a licence file is reachable by no path; the download API is 401 anonymous, 403 for a user, 200 (attachment) for an admin',
    async () => {
      const bytes = uniquePng();
      const { id } = await registerCompany(validCompany(), { bytes, name: 'licence.png', type: 'image/png' });
      const marker = bytes.subarray(64, 90).toString('latin1');
      for (const url of [
        `/commercialLicenses/${id}.png`,
        `/files/commercialLicenses/${id}.png`,
        `/data/files/commercialLicenses/${id}.png`,
        `/data/commercialLicenses/${id}.png`,
        `/uploads/commercialLicenses/${id}.png`,
        `/storage/commercialLicenses/${id}.png`,
        `/api/commercialLicenses/${id}.png`,
        `/api/files/commercialLicenses/${id}.png`,
        `/assets/../files/commercialLicenses/${id}.png`,
        `/%2e%2e/files/commercialLicenses/${id}.png`,
        `/api/companies/${id}/license`,
      ]) {
        for (const headers of [{}, admin.headers]) {
          const res = await send('GET', url, { headers });
          expect(res.statusCode, url).toBe(404);
          expect(res.rawPayload.toString('latin1')).not.toContain(marker);
        }
      }
      const download = `/api/admin/companies/${id}/license`;
      expect((await send('GET', download)).statusCode).toBe(401);
      expect((await alice.get(download)).statusCode).toBe(403);
      const ok = await admin.get(download);
      expect(ok.statusCode).toBe(200);
      expect(ok.rawPayload).toEqual(bytes);
      expect(ok.headers['content-disposition']).toBe(`attachment; filename="licence-${id}.png"`);
    },
  );

  advisory(17, 'verification and reset links expire and work once', async () => {
    const ip = freshIp();
    const email = uniqueEmail('links');
    const used = new Set<string>();
    const verifyLink = `${t.config.publicBaseUrl}/verify-email`;
    const resetLink = `${t.config.publicBaseUrl}/reset-password`;
    expect((await post('/api/auth/signup', { email, password: strongPassword() }, { ip })).statusCode).toBe(202);
    const expired = await newLink(email, 1, verifyLink, used);
    // The link's lifetime passes (its expiry moved into the past, as a clock would).
    await t.database.db.execute(
      sql`update email_tokens set expires_at = now() - interval '1 second' where user_id = (select id from users where email = ${email})`,
    );
    const late = await post('/api/auth/verify-email', { token: expired }, { ip });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);

    expect((await post('/api/auth/resend-verification', { email }, { ip })).statusCode).toBe(202);
    const fresh = await newLink(email, 2, verifyLink, used);
    expect((await post('/api/auth/verify-email', { token: fresh }, { ip })).statusCode).toBe(200);
    expect((await post('/api/auth/verify-email', { token: fresh }, { ip })).statusCode).toBe(400);
    expect((await post('/api/auth/verify-email', { token: expired }, { ip })).statusCode).toBe(400);

    expect((await post('/api/auth/forgot-password', { email }, { ip })).statusCode).toBe(202);
    const reset = await newLink(email, 3, resetLink, used);
    expect(
      (await post('/api/auth/reset-password', { token: reset, password: strongPassword() }, { ip })).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/auth/reset-password', { token: reset, password: strongPassword() }, { ip })).statusCode,
    ).toBe(400);

    expect((await post('/api/auth/forgot-password', { email }, { ip })).statusCode).toBe(202);
    // The mails so far: verification twice, reset, "password changed", and this reset.
    const lateReset = await newLink(email, 5, resetLink, used);
    await t.database.db.execute(
      sql`update email_tokens set expires_at = now() - interval '1 second' where purpose = 'reset-password' and user_id = (select id from users where email = ${email})`,
    );
    const refused = await post('/api/auth/reset-password', { token: lateReset, password: strongPassword() }, { ip });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(AUTH_MESSAGES.tokenInvalid);
  });

  advisory(
    18,
    '200 session tokens: distinct, 43-character base64url, no user id or email inside, and only their SHA-256 stored',
    async () => {
      const user = await createUser(t);
      const tokens: string[] = [];
      const ip = freshIp();
      for (let batch = 0; batch < 50; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => login(user.email, user.password, ip, { session: 'token' })),
        );
        for (const res of answers) {
          expect(res.statusCode).toBe(200);
          tokens.push(res.json().session.token as string);
        }
      }
      expect(new Set(tokens).size).toBe(200);
      const idForms = [
        user.id,
        user.id.replaceAll('-', ''),
        Buffer.from(user.id.replaceAll('-', ''), 'hex').toString('base64url'),
      ];
      const emailForms = [
        user.email,
        user.email.split('@')[0]!,
        Buffer.from(user.email).toString('base64url').slice(0, 12),
      ];
      for (const token of tokens) {
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(Buffer.from(token, 'base64url')).toHaveLength(32);
        for (const form of [...idForms, ...emailForms]) expect(token.toLowerCase()).not.toContain(form.toLowerCase());
      }
      const stored = await rows<{ token_hash: string }>(
        sql`select token_hash from sessions where user_id = ${user.id}`,
      );
      const hashes = new Set(stored.map((r) => r.token_hash));
      for (const token of tokens) {
        expect(hashes.has(token)).toBe(false);
        expect(hashes.has(sha256(token))).toBe(true);
      }
      const dump = JSON.stringify(await rows(sql`select * from sessions`));
      expect(tokens.filter((token) => dump.includes(token))).toEqual([]);
    },
    120_000,
  );

  advisory(19, 'forgot-password answers an unknown email exactly as a known one', async () => {
    const known = await createUser(t);
    const unknown = uniqueEmail('nobody');
    const ip = freshIp();
    const a = await post('/api/auth/forgot-password', { email: known.email }, { ip });
    const b = await post('/api/auth/forgot-password', { email: unknown }, { ip });
    const shape = (res: LightMyRequestResponse) => ({
      status: res.statusCode,
      body: res.body,
      cookies: res.cookies,
      headers: Object.keys(res.headers)
        .filter((h) => !['date', 'x-request-id', 'content-security-policy'].includes(h))
        .sort(),
      type: res.headers['content-type'],
      length: res.headers['content-length'],
      cache: res.headers['cache-control'],
    });
    expect(shape(a)).toEqual(shape(b));
    expect(a.statusCode).toBe(202);
    expect(a.json().message).toBe(AUTH_MESSAGES.resetRequested);
    // The difference is only in the mailboxes.
    expect(await waitForMails(t.dataDir, known.email, 1)).toHaveLength(1);
    expect((await readOutbox(t.dataDir)).filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  advisory(
    20,
    'spoofed CF-Connecting-IP / X-Forwarded-For do not reset the sign-in limit or name the client; CR/LF in names and reasons add no mail header',
    async () => {
      const ip = freshIp();
      const spoof = (i: number) => ({
        'cf-connecting-ip': `203.0.113.${i}`,
        'x-forwarded-for': `203.0.113.${i}`,
        'x-real-ip': `203.0.113.${i}`,
        'true-client-ip': `203.0.113.${i}`,
      });
      const perIp = t.config.loginThrottle.perIp;
      for (let i = 0; i < perIp; i++) {
        expect(
          (
            await post(
              '/api/auth/login',
              { email: uniqueEmail('g'), password: 'Wrong-password-1' },
              { ip, headers: spoof(i + 1) },
            )
          ).statusCode,
        ).toBe(401);
      }
      const next = await post(
        '/api/auth/login',
        { email: uniqueEmail('g'), password: 'Wrong-password-1' },
        { ip, headers: spoof(200) },
      );
      expect(next.statusCode).toBe(429);
      const keys = (await rows<{ key: string }>(sql`select key from rate_limits`)).map((r) => r.key);
      expect(keys).toContain(`login:ip:${ip}`);
      expect(keys.filter((k) => k.includes('203.0.113.'))).toEqual([]);

      // IN-06: line breaks in what an applicant or admin types never reach a header.
      const injected = '\r\nBcc: spy@evil.example\r\nSubject: hijacked\r\nX-Injected: 1';
      const company = { ...validCompany(), companyName: `Harbour${injected} Ltd`, street: `Level 1${injected}` };
      const { id } = await registerCompany(company);
      expect((await admin.post(`/api/admin/companies/${id}/approve`)).json().mail).toBe('queued');
      const other = validCompany();
      const { id: otherId } = await registerCompany(other);
      expect(
        (await admin.post(`/api/admin/companies/${otherId}/reject`, { reason: `Not approved.${injected}` })).json()
          .mail,
      ).toBe('queued');

      for (const [to, subject] of [
        [company.contactPersonEmail, `Your ${t.config.companyName} partner application is approved`],
        [other.contactPersonEmail, `About your ${t.config.companyName} partner application`],
      ] as const) {
        const mail = await waitForMail(t.dataDir, to, subject);
        const headers = headerBlock(mail.file);
        expect(mail!.to).toBe(to);
        expect(mail!.subject).toBe(subject);
        expect(headers).not.toMatch(/^(bcc|cc|x-injected):/im);
        expect(headers).not.toContain('spy@evil.example');
        expect(headers).not.toContain('hijacked');
        expect(headers.match(/^to:/gim)).toHaveLength(1);
        expect(headers.match(/^subject:/gim)).toHaveLength(1);
      }
      // An address with a line break in it is not an address at all.
      const bad = await register(t, { ...validCompany(), contactPersonEmail: 'a@example.nz\r\nBcc: spy@evil.example' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.contactPersonEmail).toBe(COMPANY_MESSAGES.emailInvalid);
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
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(connections).toBe(0);
        if (original) expect((await admin.put('/api/admin/settings/legal-links', original)).statusCode).toBe(200);
      } finally {
        await new Promise((resolve) => listener.close(resolve));
      }
    },
  );

  advisory(
    24,
    'a hostile file name is never stored or echoed: the key is commercialLicenses/{id}.png and no answer contains the name',
    async () => {
      for (const name of ['<img src=x onerror=alert(1)>.png', '../../x.png', '..\\..\\evil.png', 'a\u202egnp.js']) {
        const bytes = uniquePng();
        const { id, res, fields } = await registerCompany(validCompany(), { bytes, name, type: 'image/png' });
        const [row] = await rows<{ commercial_license_key: string }>(
          sql`select commercial_license_key from companies where id = ${id}`,
        );
        expect(row!.commercial_license_key).toBe(`commercialLicenses/${id}.png`);
        expect(fs.readFileSync(licenceFile(id))).toEqual(bytes);
        const answers = [
          res.body,
          (await admin.get(`/api/admin/companies/${id}`)).body,
          (await admin.get(`/api/admin/companies?status=pending&q=${encodeURIComponent(fields.companyName)}`)).body,
          JSON.stringify((await admin.get(`/api/admin/companies/${id}/license`)).headers),
        ];
        for (const body of answers) {
          expect(body).not.toContain('onerror');
          expect(body).not.toContain('../');
          expect(body).not.toContain('evil.png');
          expect(body).not.toContain('gnp');
        }
      }
      const names = storedFiles(t);
      expect(
        names.filter((f) => !/^commercialLicenses\/[0-9a-f-]{36}\.(png|jpg)$/.test(f.split(path.sep).join('/'))),
      ).toEqual([]);
      expect(fs.existsSync(path.join(t.dataDir, 'x.png'))).toBe(false);
      expect(fs.existsSync(path.join(t.dataDir, '..', 'x.png'))).toBe(false);
    },
  );

  advisory(25, 'review gate: no HTML-to-PDF or headless-browser renderer is a runtime dependency', async () => {
    const production = productionPackages();
    expect(production.length).toBeGreaterThan(0);
    expect(production.filter((name) => SERVER_RENDERERS.has(name))).toEqual([]);
  });

  advisory(26, 'a PHP script named .jpg is refused, and nothing under DATA_DIR is ever served as a file', async () => {
    const php = Buffer.from("<?php system($_GET['c']); ?>\n");
    for (const file of [
      { bytes: php, name: 'shell.jpg', type: 'image/jpeg' },
      { bytes: Buffer.concat([Buffer.from('GIF89a'), php]), name: 'shell.php.jpg', type: 'image/jpeg' },
      { bytes: php, name: 'shell.php', type: 'application/x-php' },
    ]) {
      const before = storedFiles(t);
      const res = await register(t, validCompany(), file);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
      expect(storedFiles(t)).toEqual(before);
    }
    // A kept licence and a written mail: neither is reachable under any prefix.
    await registerCompany(validCompany(), { bytes: uniquePng(), name: 'ok.png', type: 'image/png' });
    await post('/api/auth/forgot-password', { email: alice.email }, { ip: freshIp() });
    await waitForMails(t.dataDir, alice.email, 1);
    const everything = (fs.readdirSync(t.dataDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isFile())
      .map((e) => path.relative(t.dataDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    const sample = [
      ...everything.filter((f) => f.startsWith('files/')).slice(0, 5),
      ...everything.filter((f) => f.startsWith('outbox/')).slice(0, 5),
    ];
    expect(sample.length).toBeGreaterThanOrEqual(2);
    for (const file of sample) {
      for (const prefix of ['', '/data', `/${path.basename(t.dataDir)}`, '/static', '/public']) {
        const res = await send('GET', `${prefix}/${file}`);
        expect(res.statusCode, `${prefix}/${file}`).toBe(404);
        expect(res.headers['content-type']).not.toMatch(/^(image\/|message\/|application\/octet-stream)/);
      }
    }
  });

  advisory(
    27,
    'an anonymous upload is kept only as JPEG or PNG under the server’s name, whatever it is called or claims to be',
    async () => {
      const bytes = uniquePng();
      const { id } = await registerCompany(validCompany(), { bytes, name: 'shell.php', type: 'application/x-php' });
      const [row] = await rows<{ commercial_license_key: string }>(
        sql`select commercial_license_key from companies where id = ${id}`,
      );
      expect(row!.commercial_license_key).toBe(`commercialLicenses/${id}.png`);
      expect(fs.readFileSync(licenceFile(id))).toEqual(bytes);
      for (const file of [
        { bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'licence.png', type: 'image/png' },
        { bytes: Buffer.from('#!/bin/sh\nrm -rf /\n'), name: 'licence.jpg', type: 'image/jpeg' },
        { bytes: Buffer.from('PK\u0003\u0004 a zip', 'latin1'), name: 'licence.png', type: 'image/png' },
      ]) {
        const res = await register(t, validCompany(), file);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
      }
      const everything = (fs.readdirSync(t.dataDir, { recursive: true }) as string[]).map((f) =>
        f.split(path.sep).join('/'),
      );
      expect(everything.filter((f) => /\.(php|phtml|js|html?|sh)$/i.test(f))).toEqual([]);
      // The uploader cannot fetch it back either.
      expect((await send('GET', `/api/admin/companies/${id}/license`)).statusCode).toBe(401);
    },
  );

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

  advisory(29, 'a user’s list holds only their own tickets, and the admin-only lists are 403 for users', async () => {
    const carol = await supportUser(t);
    const dave = await supportUser(t);
    const carolTickets = [
      await carol.createTicket('General', 'Carol one'),
      await carol.createTicket('Incident', 'Carol two'),
    ];
    const daveTicket = await dave.createTicket('General', 'Dave one');
    expect((await admin.post(`/api/admin/support/tickets/${carolTickets[1]!.ticketId}/close`)).statusCode).toBe(200);

    const ids = async (u: SupportUser) =>
      [
        ...(await u.get('/api/support/tickets')).json().tickets,
        ...(await u.get('/api/support/tickets?open=false')).json().tickets,
      ]
        .map((x: { id: string }) => x.id)
        .sort();
    expect(await ids(carol)).toEqual(carolTickets.map((x) => x.ticketId).sort());
    expect(await ids(dave)).toEqual([daveTicket.ticketId]);

    for (const url of [
      '/api/admin/users',
      '/api/admin/audit',
      '/api/admin/companies',
      '/api/admin/support/tickets',
      '/api/admin/faqs?type=general',
      '/api/admin/legal',
    ]) {
      const res = await carol.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain(dave.email);
      // Control: the admin sees the list.
      expect((await admin.get(url)).statusCode, url).toBe(200);
    }
  });
});

/** Signs in with the default test address and returns the cookie value. */
async function loginCookie(email: string, password: string): Promise<string> {
  const res = await login(email, password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === t.config.sessions.cookieName);
  return cookie!.value;
}

describe('the mapping (figure: advisories)', () => {
  it('lists each of the 29 advisories once, and every one marked "here" has its named test, all passed', () => {
    expect(ADVISORIES.map((a) => a.n)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(new Set(ADVISORIES.map((a) => a.id)).size).toBe(29);
    const markedHere = ADVISORIES.filter((a) => a.coverage.status === 'here').map((a) => a.n);
    expect([...defined].sort((a, b) => a - b)).toEqual(markedHere);
    for (const a of ADVISORIES) {
      if (a.coverage.status === 'elsewhere')
        expect(fs.existsSync(path.resolve(import.meta.dirname, '..', '..', a.coverage.file)), a.coverage.file).toBe(
          true,
        );
    }

    const coveredHere = markedHere.filter((n) => passed.has(n)).length;
    const elsewhere = ADVISORIES.filter((a) => a.coverage.status === 'elsewhere').length;
    const notApplicable = ADVISORIES.filter((a) => a.coverage.status === 'not-applicable').length;
    recordFigure('advisories', {
      checks: ['advisories'],
      label: 'Advisory regressions',
      values: { advisories: ADVISORIES.length, covered: coveredHere + elsewhere, coveredHere, notApplicable },
    });
    expect(coveredHere).toBe(markedHere.length);
  });
});
