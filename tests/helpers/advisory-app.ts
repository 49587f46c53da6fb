/**
 * The app the advisory regressions (tests/security/advisories/) run against, and the small helpers
 * they share: requests as a client sends them, database reads, mailed links, stored-XSS payloads and
 * a detector for markup they managed to inject. One app per test file, on a fresh database.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { queryRows } from '../../src/server/db/sql.ts';
import { apiClient, type ApiClient } from './admin-client.ts';
import { pngOf, register, validCompany } from './registration.ts';
import { type AdvisoryFile, recordAdvisoryPart } from './advisories.ts';
import { deliverDueMail, tokenFrom, waitForMails } from './mail.ts';
import type { SseConnection } from './sse-client.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { DEFAULT_WAIT_MS } from './wait.ts';

let t: TestApp;

/** Starts the app of one advisory file (listening, for the live streams) with an admin to call it. */
async function startAdvisoryApp(): Promise<{ t: TestApp; base: string; admin: ApiClient }> {
  // Registrations come from one test address here; their per-address limit has its own suite (UP-08).
  // Every other limit keeps its default, and the throttling tests read them from the config.
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '1000' } });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await apiClient(t, { role: 'admin' });
  return { t, base, admin };
}

/**
 * One advisory file's app: started before its tests (handed to `started`), and when the file ends
 * its part of the advisory figure recorded and the app closed.
 */
export function withAdvisoryApp(
  part: AdvisoryFile,
  started: (app: { t: TestApp; base: string; admin: ApiClient }) => void,
) {
  beforeAll(async () => started(await startAdvisoryApp()));
  afterAll(async () => {
    recordAdvisoryPart(part);
    await t?.close();
  });
}

/** Addresses from TEST-NET-2, a fresh one per call, so one test's throttling never touches another's. */
let lastIp = 0;
export const freshIp = () => `198.51.100.${++lastIp}`;

export function send(
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
export const post = (url: string, body: unknown, options: { headers?: Record<string, string>; ip?: string } = {}) =>
  send('POST', url, { ...options, body });
export const login = (email: string, password: string, ip?: string, extra: Record<string, unknown> = {}) =>
  post('/api/auth/login', { email, password, ...extra }, { ip });
export const html = (url: string, headers: Record<string, string> = {}) =>
  send('GET', url, { headers: { accept: 'text/html', ...headers } });

export const rows = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<T>(t.database.db, query);
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const cookieOf = (u: { headers: { cookie: string } }) => ({ cookie: u.headers.cookie });

/** Waits for a live stream to end; 'still open' if it has not after `ms` (a deadline, generous by default). */
export async function endsWithin(stream: SseConnection, ms = DEFAULT_WAIT_MS) {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    stream.ended.then(() => 'ended'),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still open'), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}

/**
 * Waits until mail and tokens written in the background (after earlier answers) are written, so a
 * before/after comparison sees only what the requests in between did: the account mail recorded
 * after an answer (`accounts.drain()` waits for exactly that work), then the mail worker's round
 * for what it recorded.
 */
export async function settle() {
  await deliverDueMail(t.app);
}

/** The token of the newest mailed link to `email` starting with `prefix` that is not in `used`. */
export async function newLink(email: string, count: number, prefix: string, used: Set<string>): Promise<string> {
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
export function headerBlock(file: string): string {
  const raw = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  return raw.slice(0, raw.indexOf('\n\n'));
}

export async function registerCompany(
  fields = validCompany(),
  file?: { bytes: Uint8Array; name: string; type: string },
) {
  const res = await register(t, fields, file);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, fields, res };
}

export const uniquePng = (size = 4096) => {
  const bytes = pngOf(size);
  bytes.write(`${Date.now()}-${Math.random()}`, 64, 'latin1');
  return bytes;
};
export const licenceFile = (id: string, ext = 'png') =>
  path.join(t.dataDir, 'files', 'commercialLicenses', `${id}.${ext}`);

/** Stored-XSS payloads (XSS Filter Evasion CS, SVG, javascript:, a mutation-XSS sample). */
export const XSS = {
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
export function injectedMarkup(text: string): string[] {
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

/** Signs in with the default test address and returns the cookie value. */
export async function loginCookie(email: string, password: string): Promise<string> {
  const res = await login(email, password);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === t.config.sessions.cookieName);
  return cookie!.value;
}
