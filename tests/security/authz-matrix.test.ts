import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { companies, faqs, sessions, supportTickets, users } from '../../src/server/db/schema.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { createToken, hashToken } from '../../src/server/security/tokens.ts';
import { ACCESS_POLICIES, UndeclaredAccessError } from '../../src/server/plugins/access.ts';
import { encodeForm, pngOf, validCompany } from '../integration/partners/registration-helpers.ts';
import { createUser, postJson, signIn, strongPassword, uniqueEmail, withCookie } from '../support/accounts.ts';
import { recordFigure } from '../support/figures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * AZ-01, AZ-02, AZ-06, AZ-07, AZ-08 and SES-10: the endpoint × principal matrix.
 *
 * The matrix is generated from the live route table (`app.routeTable`, streams included): every
 * method × url (HEAD copies of GET routes left out) is fired as each of seven principals, with a
 * real object of the owner in the path and a valid body, and the answer is compared with what the
 * route's policy says that principal must get. A refused cell must also change nothing in the
 * database and send no mail.
 *
 * What it guards: a route whose declared access is weakened (admin → user, verified → public...)
 * flips the cells of the principals it used to refuse (unexpectedAllows > 0), and its entry in
 * ROUTES no longer matches the table; an ownership check dropped from a ticket route turns the
 * "other" cell from 404 into 200; a new route, a new path parameter or a new mutating route fails
 * the table checks below until it is given an expectation, a fixture and a valid body.
 *
 * AZ-03 (a foreign ticket id in the path, property-based) is at the end of this file; AZ-04 (mass
 * assignment, foreign ids in bodies) is in idor.test.ts. The web catch-all (`/*`, public, server-
 * rendered pages) is not in the matrix: the test app is built without the web bundle.
 *
 * Counted in the figure: unexpectedAllows (a principal that must be refused was not: 2xx or any
 * non-refusal), unexpectedDenies (an allowed principal did not get the route's expected status),
 * wrongDenials (refused, but with the wrong code, e.g. 403 where another's ticket must look 404).
 */

// --- Principals ----------------------------------------------------------------------------------

const PRINCIPALS = ['anonymous', 'unverified', 'owner', 'other', 'admin', 'disabled', 'expired'] as const;
type PrincipalName = (typeof PRINCIPALS)[number];

interface Actor {
  name: PrincipalName;
  userId?: string;
  email?: string;
  password?: string;
  token?: string;
  tokenHash?: string;
  /** The session row as it must be before each cell. */
  expiresAt?: Date;
}

// --- What each route must answer -----------------------------------------------------------------

/**
 * `owner`: a verified user's route about one of their own objects (another user gets 404, like a
 * missing object). `owner-or-admin`: the same, but admins may use it too (the live ticket stream).
 */
type Guard = 'public' | 'user' | 'verified' | 'owner' | 'owner-or-admin' | 'admin';
const DECLARED: Record<Guard, string> = {
  public: 'public',
  user: 'user',
  verified: 'verified',
  owner: 'verified',
  'owner-or-admin': 'verified',
  admin: 'admin',
};

interface Fixtures {
  actors: Record<PrincipalName, Actor>;
  ownerTicket: { ticketId: string; ticketNo: number };
  otherTicket: { ticketId: string; ticketNo: number };
  companyId: string;
  companyEmail: string;
  companyPhone: string;
  faqId: number;
  loginUser: { email: string; password: string };
  verifyUser: { id: string; email: string };
  verifyToken: string;
  resetUser: { id: string; email: string };
  resetToken: string;
  /** A failed mail an admin may send again. */
  mailId: number;
}

interface RouteSpec {
  guard: Guard;
  /** The status every allowed principal gets (200 unless given). */
  ok?: number;
  /** A Server-Sent Events stream: fired over a real connection, not `inject`. */
  stream?: boolean;
  /** A query string the route needs to be valid. */
  query?: string;
  /** Sends mail in the background when allowed: refused cells after it wait for the outbox to settle. */
  mails?: boolean;
  /** Puts the fixtures in the state where the allowed call succeeds (after the common reset). */
  prepare?: (fx: Fixtures) => Promise<void>;
}

const R = (guard: Guard, extra: Omit<RouteSpec, 'guard'> = {}): RouteSpec => ({ guard, ...extra });

/** What the tests below measured, recorded as one figure at the end. */
const figures: Record<string, number> = {};

let t: TestApp;
let base: string;
let fx: Fixtures;
const db = () => t.database.db;

const setCompany = (values: Partial<typeof companies.$inferInsert>) => async (f: Fixtures) => {
  await db().update(companies).set(values).where(eq(companies.id, f.companyId));
};

async function issueEmailToken(userId: string, purpose: 'verify-email' | 'reset-password'): Promise<string> {
  const token = createToken();
  await createAccountsRepository(db()).replaceEmailToken({
    userId,
    purpose,
    tokenHash: hashToken(token),
    ttlMs: 3600_000,
  });
  return token;
}

const CATCH_ALL_METHODS = ['GET', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'];

/** One entry per method × url of the route table. A route missing here fails the test. */
const ROUTES: Record<string, RouteSpec> = {
  'GET /healthz': R('public'),
  'GET /readyz': R('public'),
  'GET /api/openapi.json': R('public'),
  'GET /api/faqs': R('public', { query: '?type=general' }),
  'GET /api/legal/links': R('public'),
  'GET /documents/:slug': R('public'),
  'GET /robots.txt': R('public'),
  'GET /sitemap.xml': R('public'),
  // The /api/* catch-all answers 404 to everyone, whatever the method.
  ...Object.fromEntries(CATCH_ALL_METHODS.map((m) => [`${m} /api/*`, R('public', { ok: 404 })])),

  'POST /api/companies': R('public', { ok: 201 }),
  'GET /api/admin/companies/:companyId/license': R('admin'),

  'POST /api/auth/login': R('public'),
  'POST /api/auth/logout': R('public'),
  'GET /api/auth/session': R('user'),
  'POST /api/auth/signup': R('public', { ok: 202, mails: true }),
  'POST /api/auth/verify-email': R('public', {
    prepare: async (f) => {
      await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, f.verifyUser.id));
      f.verifyToken = await issueEmailToken(f.verifyUser.id, 'verify-email');
    },
  }),
  'POST /api/auth/resend-verification': R('public', { ok: 202, mails: true }),
  'POST /api/auth/forgot-password': R('public', { ok: 202, mails: true }),
  'POST /api/auth/reset-password': R('public', {
    mails: true,
    prepare: async (f) => {
      f.resetToken = await issueEmailToken(f.resetUser.id, 'reset-password');
    },
  }),
  'POST /api/auth/change-password': R('user', { mails: true }),

  'POST /api/functions/createSupportTicket': R('verified'),
  'GET /api/support/tickets': R('verified'),
  'GET /api/support/tickets/stream': R('verified', { stream: true }),
  'GET /api/support/tickets/:ticketId': R('owner'),
  'GET /api/support/tickets/:ticketId/messages': R('owner'),
  'GET /api/support/tickets/:ticketId/messages/stream': R('owner-or-admin', { stream: true }),
  'POST /api/support/tickets/:ticketId/messages': R('owner'),

  'GET /api/admin/support/tickets': R('admin'),
  'GET /api/admin/support/tickets/stream': R('admin', { stream: true }),
  'GET /api/admin/support/tickets/:ticketId': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/messages': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/close': R('admin'),
  'POST /api/admin/support/tickets/:ticketId/reopen': R('admin', {
    prepare: async (f) => {
      await db().update(supportTickets).set({ open: false }).where(eq(supportTickets.id, f.ownerTicket.ticketId));
    },
  }),

  'GET /api/admin/companies': R('admin'),
  'GET /api/admin/companies/:companyId': R('admin'),
  'POST /api/admin/companies/:companyId/approve': R('admin'),
  'POST /api/admin/companies/:companyId/reject': R('admin'),
  'POST /api/admin/companies/:companyId/notify': R('admin', { prepare: setCompany({ verified: 1 }) }),
  'POST /api/admin/companies/:companyId/ban': R('admin'),
  'POST /api/admin/companies/:companyId/unban': R('admin', { prepare: setCompany({ isBanned: true }) }),

  'GET /api/admin/faqs': R('admin', { query: '?type=general' }),
  'POST /api/admin/faqs': R('admin', { ok: 201 }),
  'PUT /api/admin/faqs/:faqId': R('admin'),
  'DELETE /api/admin/faqs/:faqId': R('admin'),
  'POST /api/admin/faqs/reorder': R('admin'),
  'GET /api/admin/legal': R('admin'),
  'PUT /api/admin/settings/legal-links': R('admin'),
  'PUT /api/admin/documents/:slug': R('admin'),

  'GET /api/admin/users': R('admin'),
  // The target (the owner) is verified already: 409 means the admin got past the access check.
  'POST /api/admin/users/:userId/resend-verification': R('admin', { ok: 409 }),
  'POST /api/admin/users/:userId/disable': R('admin'),
  'POST /api/admin/users/:userId/enable': R('admin'),
  'POST /api/admin/users/:userId/role': R('admin'),
  'GET /api/admin/audit': R('admin'),

  'GET /api/account/notifications': R('user'),
  'PUT /api/account/notifications': R('user'),
  'GET /api/admin/mail': R('admin'),
  'POST /api/admin/mail/:mailId/retry': R('admin', {
    prepare: async (f) => {
      await db().execute(sql`update mail_outbox set state = 'failed' where id = ${f.mailId}`);
    },
  }),
};

/**
 * Path parameters: a real object of the owner wherever there is one. `userId` is the owner's own
 * account, so the owner's cells also try to make themselves admin (403). An unknown parameter fails.
 */
const PARAMS: Record<string, (f: Fixtures) => string> = {
  ticketId: (f) => f.ownerTicket.ticketId,
  companyId: (f) => f.companyId,
  faqId: (f) => String(f.faqId),
  slug: () => 'terms',
  userId: (f) => f.actors.owner.userId!,
  mailId: (f) => String(f.mailId),
  '*': () => 'no-such-endpoint',
};

// --- Valid bodies ----------------------------------------------------------------------------------

interface CellRequest {
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** Called with the response (e.g. to remember a changed password). */
  after?: (status: number) => void;
}
type BodyFor = (actor: Actor, f: Fixtures) => CellRequest | Promise<CellRequest>;

const json =
  (value: unknown | ((actor: Actor, f: Fixtures) => unknown)): BodyFor =>
  (actor, f) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(
      typeof value === 'function' ? (value as (a: Actor, f: Fixtures) => unknown)(actor, f) : value,
    ),
  });
const NO_BODY: BodyFor = () => ({});

const MUTATING = (method: string) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method);

/** A valid body for every mutating route, so a refusal comes from authorization, not validation. */
const BODIES: Record<string, BodyFor> = {
  ...Object.fromEntries(CATCH_ALL_METHODS.filter(MUTATING).map((m) => [`${m} /api/*`, json({})])),
  'POST /api/companies': async () => {
    const { payload, headers } = await encodeForm(validCompany());
    return { payload, headers };
  },
  'POST /api/auth/login': json((_a: Actor, f: Fixtures) => ({
    email: f.loginUser.email,
    password: f.loginUser.password,
  })),
  'POST /api/auth/logout': NO_BODY,
  'POST /api/auth/signup': json(() => ({ email: uniqueEmail('matrix-signup'), password: strongPassword() })),
  'POST /api/auth/verify-email': json((_a: Actor, f: Fixtures) => ({ token: f.verifyToken })),
  'POST /api/auth/resend-verification': json((_a: Actor, f: Fixtures) => ({ email: f.verifyUser.email })),
  'POST /api/auth/forgot-password': json((_a: Actor, f: Fixtures) => ({ email: f.resetUser.email })),
  'POST /api/auth/reset-password': json((_a: Actor, f: Fixtures) => ({
    token: f.resetToken,
    password: strongPassword(),
  })),
  'POST /api/auth/change-password': (actor) => {
    const newPassword = strongPassword();
    return {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ currentPassword: actor.password ?? 'not-signed-in-at-all', newPassword }),
      after: (status) => {
        if (status === 200) actor.password = newPassword;
      },
    };
  },
  'POST /api/functions/createSupportTicket': json({
    data: { reason: 'General', message: 'Matrix: where is my parcel?' },
  }),
  'POST /api/support/tickets/:ticketId/messages': json({ messageBody: 'Matrix: a reply from the user' }),
  'POST /api/admin/support/tickets/:ticketId/messages': json({ messageBody: 'Matrix: an answer from the team' }),
  'POST /api/admin/support/tickets/:ticketId/close': NO_BODY,
  'POST /api/admin/support/tickets/:ticketId/reopen': NO_BODY,
  'POST /api/admin/companies/:companyId/approve': NO_BODY,
  'POST /api/admin/companies/:companyId/reject': json({ reason: 'Licence unreadable' }),
  'POST /api/admin/companies/:companyId/notify': NO_BODY,
  'POST /api/admin/companies/:companyId/ban': NO_BODY,
  'POST /api/admin/companies/:companyId/unban': NO_BODY,
  'POST /api/admin/faqs': json({ type: 'general', title: 'Matrix question', content: 'Matrix answer' }),
  'PUT /api/admin/faqs/:faqId': json({
    type: 'sender',
    title: 'Matrix question (edited)',
    content: 'Matrix answer (edited)',
  }),
  'DELETE /api/admin/faqs/:faqId': NO_BODY,
  // Exactly the current entries of the type, in their current order (anything else is a 409).
  'POST /api/admin/faqs/reorder': async () => {
    const rows = await db()
      .select({ id: faqs.id })
      .from(faqs)
      .where(eq(faqs.type, 'traveller'))
      .orderBy(faqs.position, faqs.id);
    return json({ type: 'traveller', ids: rows.map((r) => r.id).reverse() })({ name: 'anonymous' }, fx);
  },
  'PUT /api/admin/settings/legal-links': json({ terms: '/documents/terms', privacy: '/documents/privacy' }),
  'PUT /api/admin/documents/:slug': json({
    title: 'Terms and Conditions',
    body: 'Matrix text.\n\n## Heading\n\nMore text.',
  }),
  'POST /api/admin/users/:userId/resend-verification': NO_BODY,
  'POST /api/admin/users/:userId/disable': NO_BODY,
  'POST /api/admin/users/:userId/enable': NO_BODY,
  'POST /api/admin/users/:userId/role': json({ role: 'admin' }),
  'PUT /api/account/notifications': json({ ticketClosed: false }),
  'POST /api/admin/mail/:mailId/retry': NO_BODY,
};

// --- Expected outcome of one cell ----------------------------------------------------------------

type Outcome = { allow: true; status: number } | { allow: false; status: 401 | 403 | 404 };

function expectedOutcome(spec: RouteSpec, who: PrincipalName): Outcome {
  const allow: Outcome = { allow: true, status: spec.ok ?? 200 };
  const { guard } = spec;
  if (guard === 'public') return allow;
  // No session (none sent, expired, or its user disabled): 401 before anything else.
  if (who === 'anonymous' || who === 'disabled' || who === 'expired') return { allow: false, status: 401 };
  if (who === 'unverified') return guard === 'user' ? allow : { allow: false, status: 403 };
  if (guard === 'admin') return who === 'admin' ? allow : { allow: false, status: 403 };
  if (guard === 'owner') return who === 'owner' ? allow : { allow: false, status: 404 };
  if (guard === 'owner-or-admin') return who === 'owner' || who === 'admin' ? allow : { allow: false, status: 404 };
  return allow; // user / verified: any signed-in (verified) user
}

// --- The world before each cell ------------------------------------------------------------------

/** Puts principals and fixtures back as the matrix defines them (an allowed cell may change them). */
async function resetWorld(f: Fixtures) {
  const a = f.actors;
  const plain = [a.owner.userId!, a.other.userId!, a.expired.userId!];
  await db()
    .update(users)
    .set({ role: 'user', disabledAt: null, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(inArray(users.id, plain));
  await db()
    .update(users)
    .set({ role: 'admin', disabledAt: null, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(eq(users.id, a.admin.userId!));
  await db()
    .update(users)
    .set({ role: 'user', disabledAt: null, emailVerifiedAt: null })
    .where(eq(users.id, a.unverified.userId!));
  await db()
    .update(users)
    .set({ role: 'user', disabledAt: sql`coalesce(${users.disabledAt}, now())` })
    .where(eq(users.id, a.disabled.userId!));
  const rows = PRINCIPALS.map((n) => a[n])
    .filter((actor) => actor.tokenHash)
    .map((actor) => ({ tokenHash: actor.tokenHash!, userId: actor.userId!, expiresAt: actor.expiresAt! }));
  await db()
    .insert(sessions)
    .values(rows)
    .onConflictDoUpdate({
      target: sessions.tokenHash,
      set: { expiresAt: sql`excluded.expires_at`, userId: sql`excluded.user_id`, lastSeenAt: sql`now()` },
    });
  await db().update(supportTickets).set({ open: true }).where(eq(supportTickets.id, f.ownerTicket.ticketId));
  await db().update(companies).set({ verified: 0, isBanned: false }).where(eq(companies.id, f.companyId));
  await db()
    .insert(faqs)
    .values({ id: f.faqId, type: 'sender', title: 'Matrix fixture', content: 'Matrix fixture answer', position: 999 })
    .onConflictDoNothing();
}

/**
 * What a refused cell must leave alone: row count and a hash of the rows of every table a route can
 * write. `last_seen_at` is left out (reading a session may touch it) and so is the expired
 * principal's session, which is deleted when presented (SES-06), as it should be.
 */
async function snapshot(f: Fixtures): Promise<Record<string, string>> {
  const expired = f.actors.expired.tokenHash!;
  const part = (name: string, from: string) =>
    `select '${name}' as name, count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '-') as h from (${from}) x`;
  const query = [
    part('users', 'select id, email, password_hash, email_verified_at, role, disabled_at from users'),
    part('sessions', `select token_hash, user_id, expires_at from sessions where token_hash <> '${expired}'`),
    part('email_tokens', 'select * from email_tokens'),
    // owner_seen_message_id moves when the owner's allowed stream received an answer (no mail for it).
    part(
      'support_tickets',
      'select id, user_id, ticket_no, reason, open, creation_date, last_message, client_id from support_tickets',
    ),
    part('ticket_messages', 'select * from ticket_messages'),
    part('companies', 'select * from companies'),
    part('faqs', 'select * from faqs'),
    part('settings', 'select * from settings'),
    part('documents', 'select * from documents'),
    part('audit_log', 'select * from audit_log'),
    part('mail_outbox', 'select id, message_id, recipient, state, attempts from mail_outbox'),
    part('notification_events', 'select * from notification_events'),
    part('notification_opt_outs', 'select * from notification_opt_outs'),
  ].join(' union all ');
  const rows = await queryRows<{ name: string; n: number; h: string }>(db(), sql.raw(query));
  const out: Record<string, string> = Object.fromEntries(rows.map((r) => [r.name, `${r.n}:${r.h}`]));
  out.outbox = String(outboxCount());
  return out;
}

/**
 * Lets mail from earlier (allowed) cells settle: background account mail is recorded (no new
 * outbox row for 300 ms), then the worker (which runs only when asked, here) delivers what is due.
 */
async function settleOutbox() {
  const recorded = async () =>
    Number((await queryRows<{ n: unknown }>(db(), sql`select count(*) as n from mail_outbox`))[0]!.n);
  let last = await recorded();
  let stableSince = Date.now();
  const deadline = Date.now() + 10_000;
  while (Date.now() - stableSince < 300 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = await recorded();
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    }
  }
  await t.app.mailWorker.runOnce();
}

function outboxCount(): number {
  const dir = path.join(t.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
}

// --- Firing one cell -------------------------------------------------------------------------------

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const cookieOf = (actor: Actor): Record<string, string> => (actor.token ? withCookie(t, actor.token) : {});

/** Opens a stream over a real connection; an event stream is read up to its first event, then closed. */
async function fireStream(url: string, headers: Record<string, string>): Promise<Answer> {
  const controller = new AbortController();
  const res = await fetch(`${base}${url}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream')) return { status: res.status, contentType, body: await res.text() };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let body = '';
  const timer = setTimeout(() => controller.abort(), 3000);
  try {
    while (!/(^|\n)data: [^\n]*\n\n/.test(body)) {
      const { value, done } = await reader.read();
      if (done) break;
      body += value;
    }
  } catch {
    // aborted after 3 s without an event: the body so far is the answer
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { status: res.status, contentType, body };
}

function concreteUrl(url: string, f: Fixtures): string {
  return url.replace(/:(\w+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? match;
    const value = PARAMS[key];
    if (!value) throw new Error(`authz matrix: no fixture for the path parameter ${key} of ${url}; add it to PARAMS`);
    return encodeURIComponent(value(f));
  });
}

/** The route table as matrix rows: method × url, HEAD copies of GET routes left out. */
function matrixRoutes(app: FastifyInstance) {
  const rows: Array<{ method: string; url: string; access: string | undefined }> = [];
  for (const route of app.routeTable) {
    for (const method of route.methods) {
      if (method === 'HEAD' && app.routeTable.some((r) => r.url === route.url && r.methods.includes('GET'))) continue;
      rows.push({ method, url: route.url, access: route.access });
    }
  }
  return rows;
}

/** Full paths with their methods, read from Fastify's own router (independently of the route table). */
function routerPaths(tree: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round(at / 4);
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3))!;
    const full = (stack[depth - 1] ?? '') + match[1];
    stack[depth] = full;
    stack.length = depth + 1;
    if (match[2] && match[2] !== '-') found.set(full, match[2].split(', '));
  }
  return found;
}

// --- Set-up --------------------------------------------------------------------------------------

async function signedInActor(name: PrincipalName, options: { role?: 'user' | 'admin' } = {}): Promise<Actor> {
  const user = await createUser(t, { email: uniqueEmail(`matrix-${name}`), role: options.role });
  const token = await signIn(t, user.email, user.password);
  const tokenHash = hashToken(token);
  const [row] = await db().select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
  return {
    name,
    userId: user.id,
    email: user.email,
    password: user.password,
    token,
    tokenHash,
    expiresAt: row!.expiresAt,
  };
}

const OWNER_TICKET_TEXT = `Owner: my parcel is late (${createToken().slice(0, 8)})`;
const OTHER_TICKET_TEXT = `Other: a private question (${createToken().slice(0, 8)})`;

const sessionStatus = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: withCookie(t, token) })).statusCode;

beforeAll(async () => {
  // Rate limits off: the matrix signs up, registers and opens tickets many times from one address.
  // The mail worker runs only when settleOutbox asks, so a delivery never lands inside another cell.
  t = await createTestApp({ env: { RATE_LIMITS: 'off' }, mailWorker: false });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });

  const [owner, other, admin, unverified, disabled, expired] = [
    await signedInActor('owner'),
    await signedInActor('other'),
    await signedInActor('admin', { role: 'admin' }),
    await signedInActor('unverified'),
    await signedInActor('disabled'),
    await signedInActor('expired'),
  ];

  // Unverified: signing in is refused to unverified accounts (docs/product.md §6), so this is a session whose
  // account lost its verified email afterwards; the flag is read from the database on every request.
  await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, unverified.userId!));

  // Disabled through the admin API, with a cookie from before. Disabling ends the sessions at once...
  const disabling = await postJson(t, `/api/admin/users/${disabled.userId}/disable`, {}, withCookie(t, admin.token!));
  expect(disabling.statusCode, disabling.body).toBe(200);
  expect(await db().select().from(sessions).where(eq(sessions.userId, disabled.userId!))).toEqual([]);
  expect(await sessionStatus(disabled.token!)).toBe(401);
  // ...and the matrix puts the row back before each cell (a session that survived, e.g. a sign-in
  // racing the disable), so every cell also proves the disabled flag itself is checked.

  // Expired: past its absolute expiry (SES-06). Presented, it is refused and deleted.
  await db()
    .update(sessions)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(sessions.tokenHash, expired.tokenHash!));
  expect(await sessionStatus(expired.token!)).toBe(401);
  expect(await db().select().from(sessions).where(eq(sessions.tokenHash, expired.tokenHash!))).toEqual([]);
  expired.expiresAt = new Date(Date.now() - 3600_000);

  const ticketOf = async (actor: Actor, message: string) => {
    const res = await postJson(
      t,
      '/api/functions/createSupportTicket',
      { data: { reason: 'General', message } },
      withCookie(t, actor.token!),
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { ticketId: string; ticketNo: number };
  };
  const ownerTicket = await ticketOf(owner, OWNER_TICKET_TEXT);
  const otherTicket = await ticketOf(other, OTHER_TICKET_TEXT);

  const company = validCompany();
  const form = await encodeForm(company, { bytes: pngOf(4096), name: 'licence.png', type: 'image/png' });
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/companies',
    payload: form.payload,
    headers: form.headers,
  });
  expect(registered.statusCode, registered.body).toBe(201);

  const faq = await t.app.inject({
    method: 'POST',
    url: '/api/admin/faqs',
    headers: { ...withCookie(t, admin.token!), 'content-type': 'application/json' },
    payload: { type: 'sender', title: 'Matrix fixture', content: 'Matrix fixture answer' },
  });
  expect(faq.statusCode, faq.body).toBe(201);

  const loginUser = await createUser(t, { email: uniqueEmail('matrix-login') });
  const verifyUser = await createUser(t, { email: uniqueEmail('matrix-verify'), verified: false });
  const resetUser = await createUser(t, { email: uniqueEmail('matrix-reset') });

  fx = {
    actors: { anonymous: { name: 'anonymous' }, owner, other, admin, unverified, disabled, expired },
    ownerTicket,
    otherTicket,
    companyId: registered.json().id,
    companyEmail: company.contactPersonEmail,
    companyPhone: company.contactPersonPhoneNumber,
    faqId: faq.json().faq.id,
    loginUser,
    verifyUser,
    verifyToken: '',
    resetUser,
    resetToken: '',
    mailId: Number(
      (
        await queryRows<{ id: unknown }>(
          db(),
          sql`insert into mail_outbox (message_id, kind, recipient, subject, text_body, html_body, state, give_up_at)
              values ('<matrix@example.nz>', 'team-new-ticket', 'matrix-mail@example.nz', 'Matrix mail', 'Text', '<p>Text</p>', 'failed', now())
              returning id`,
        )
      )[0]!.id,
    ),
  };
}, 60_000);
afterAll(() => t?.close());

// --- AZ-01 -----------------------------------------------------------------------------------------

describe('AZ-01: deny by default', () => {
  it('every route the router knows is in the route table, with a declared policy', () => {
    const router = routerPaths(t.app.printRoutes({ commonPrefix: false }));
    const table = new Map<string, Set<string>>();
    for (const r of t.app.routeTable) {
      expect(ACCESS_POLICIES, `${r.methods} ${r.url}`).toContain(r.access);
      const methods = table.get(r.url) ?? new Set();
      r.methods.forEach((m) => methods.add(m));
      table.set(r.url, methods);
    }
    expect(router.size).toBeGreaterThanOrEqual(40);
    for (const [printed, methods] of router) {
      // find-my-way prints the /api/* catch-all as a bare `*`.
      const url = printed === '*' ? '/api/*' : printed;
      for (const method of methods)
        expect(table.get(url)?.has(method), `${method} ${url} is in the route table`).toBe(true);
    }
  });

  it('refuses to build an app with a route that declares no access policy, or an unknown one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-az01-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    const variants: Array<[string, (app: FastifyInstance) => unknown]> = [
      ['no config', (app) => app.get('/api/undeclared', async () => ({ leaked: true }))],
      ['config without access', (app) => app.post('/api/undeclared', { config: {} }, async () => ({ leaked: true }))],
      [
        'an unknown policy',
        (app) => app.get('/api/undeclared', { config: { access: 'owner' as never } }, async () => ({ leaked: true })),
      ],
      [
        'inside a plugin',
        (app) => app.register(async (child) => void child.put('/api/undeclared', async () => ({ leaked: true }))),
      ],
      [
        'public (control)',
        (app) => app.get('/api/declared', { config: { access: 'public' } }, async () => ({ ok: true })),
      ],
    ];
    try {
      for (const [label, addRoute] of variants) {
        const app = await buildApp({ config, database: t.database });
        let failure: unknown = null;
        try {
          await addRoute(app);
          await app.ready();
        } catch (error) {
          failure = error;
        } finally {
          await app.close().catch(() => undefined);
        }
        if (label.endsWith('(control)')) {
          expect(failure, label).toBeNull();
        } else {
          expect(failure, label).toBeInstanceOf(UndeclaredAccessError);
        }
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// --- AZ-02 / AZ-06 / SES-10: the matrix ------------------------------------------------------------

describe('AZ-02: every route × 7 principals', () => {
  it('has an expectation, a fixture for every path parameter and a valid body for every route, and nothing stale', () => {
    const rows = matrixRoutes(t.app);
    const keys = new Set(rows.map((r) => `${r.method} ${r.url}`));
    const missing = [...keys].filter((k) => !(k in ROUTES));
    expect(missing, 'routes without an expectation in ROUTES').toEqual([]);
    expect(
      Object.keys(ROUTES).filter((k) => !keys.has(k)),
      'ROUTES entries for routes that do not exist',
    ).toEqual([]);
    for (const row of rows) {
      const key = `${row.method} ${row.url}`;
      expect(row.access, `${key}: the declared policy matches the matrix's expectation`).toBe(
        DECLARED[ROUTES[key]!.guard],
      );
      expect(() => concreteUrl(row.url, fx)).not.toThrow();
      if (MUTATING(row.method)) expect(BODIES[key], `${key} needs a valid body in BODIES`).toBeDefined();
      // Streams are named so and flagged so (a stream fired through inject would never end).
      expect(Boolean(ROUTES[key]!.stream), `${key}: stream flag`).toBe(row.url.endsWith('/stream'));
    }
    expect(
      Object.keys(BODIES).filter((k) => !keys.has(k)),
      'BODIES entries for routes that do not exist',
    ).toEqual([]);
  });

  it('answers every cell as the policy says, and a refused cell changes nothing', { timeout: 120_000 }, async () => {
    const rows = matrixRoutes(t.app);
    const mismatches: string[] = [];
    const sideEffects: string[] = [];
    const answers: Array<{ who: PrincipalName; key: string; request: string; answer: Answer }> = [];
    let cells = 0;
    let unexpectedAllows = 0;
    let unexpectedDenies = 0;
    let wrongDenials = 0;
    let refused = 0;
    let mailPending = false;
    const streams = new Set<string>();

    for (const row of rows) {
      const key = `${row.method} ${row.url}`;
      const spec = ROUTES[key]!;
      if (spec.stream) streams.add(key);
      for (const who of PRINCIPALS) {
        const actor = fx.actors[who];
        await resetWorld(fx);
        await spec.prepare?.(fx);
        const target = concreteUrl(row.url, fx) + (spec.query ?? '');
        const request = MUTATING(row.method) ? await BODIES[key]!(actor, fx) : {};
        const expected = expectedOutcome(spec, who);
        if (!expected.allow && mailPending) {
          await settleOutbox();
          mailPending = false;
        }
        const before = expected.allow ? null : await snapshot(fx);

        let answer: Answer;
        if (spec.stream) {
          answer = await fireStream(target, cookieOf(actor));
        } else {
          const res = await t.app.inject({
            method: row.method as 'GET',
            url: target,
            headers: { ...cookieOf(actor), ...request.headers },
            ...(request.payload === undefined ? {} : { payload: request.payload }),
          });
          answer = { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
        }
        request.after?.(answer.status);
        if (expected.allow && spec.mails) mailPending = true;
        cells++;
        answers.push({
          who,
          key,
          request: typeof request.payload === 'string' ? request.payload : (request.payload?.toString('latin1') ?? ''),
          answer,
        });

        const cell = `${key} as ${who}: expected ${expected.status}, got ${answer.status} ${answer.body.slice(0, 160)}`;
        if (answer.status !== expected.status) {
          mismatches.push(cell);
          if (!expected.allow && ![401, 403, 404].includes(answer.status)) unexpectedAllows++;
          else if (expected.allow) unexpectedDenies++;
          else wrongDenials++;
        }
        if (spec.stream) {
          const isStream = answer.contentType.startsWith('text/event-stream');
          if (isStream !== expected.allow)
            mismatches.push(`${key} as ${who}: event-stream ${isStream}, expected ${expected.allow}`);
          if (expected.allow && !/(^|\n)data: /.test(answer.body))
            mismatches.push(`${key} as ${who}: the stream sent no event`);
        }
        if (!expected.allow) {
          refused++;
          // A refusal is the plain error shape and nothing else (no data of the object rides along).
          const status = { 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' }[expected.status];
          const error = answer.contentType.startsWith('application/json')
            ? (JSON.parse(answer.body) as Record<string, unknown>)
            : null;
          const shapeOk =
            error !== null &&
            Object.keys(error).join() === 'error' &&
            (error.error as { status?: string }).status === status &&
            Object.keys(error.error as object)
              .sort()
              .join() === 'message,status';
          if (answer.status === expected.status && !shapeOk)
            mismatches.push(`${key} as ${who}: refusal body ${answer.body.slice(0, 160)}`);
          const after = await snapshot(fx);
          for (const table of Object.keys(before!)) {
            if (before![table] !== after[table]) sideEffects.push(`${key} as ${who} changed ${table}`);
          }
        }
      }
    }

    // AZ-08 over everything the matrix collected (JSON bodies and stream events): no password hash
    // anywhere, and no one but an admin sees another account's or an applicant's email.
    const everyone = PRINCIPALS.map((n) => fx.actors[n].email).filter((e): e is string => Boolean(e));
    const secrets = [...everyone, fx.loginUser.email, fx.verifyUser.email, fx.resetUser.email, fx.companyEmail];
    const leaks: string[] = [];
    for (const { who, key, request, answer } of answers) {
      if (/^image\//.test(answer.contentType)) continue;
      if (/argon2id|\$argon2/i.test(answer.body)) leaks.push(`${key} as ${who}: a password hash`);
      if (who === 'admin') continue;
      // A ticket's text reaches its owner (and admins) only.
      if (who !== 'owner' && answer.body.includes(OWNER_TICKET_TEXT))
        leaks.push(`${key} as ${who}: the owner's ticket`);
      if (who !== 'other' && answer.body.includes(OTHER_TICKET_TEXT))
        leaks.push(`${key} as ${who}: the other's ticket`);
      for (const email of secrets) {
        if (email === fx.actors[who].email || request.includes(email)) continue;
        if (answer.body.toLowerCase().includes(email.toLowerCase())) leaks.push(`${key} as ${who}: ${email}`);
      }
      if (answer.body.includes(fx.companyPhone) && !request.includes(fx.companyPhone))
        leaks.push(`${key} as ${who}: the applicant's phone`);
    }

    Object.assign(figures, {
      routes: rows.length,
      cells,
      refusedCells: refused,
      unexpectedAllows,
      unexpectedDenies,
      wrongDenials,
      sideEffects: sideEffects.length,
      responseLeaks: leaks.length,
      streamsCovered: streams.size,
    });

    expect(mismatches).toEqual([]);
    expect(sideEffects).toEqual([]);
    expect(leaks).toEqual([]);
    expect(cells).toBe(rows.length * PRINCIPALS.length);
    expect(rows.length).toBeGreaterThanOrEqual(55);
    expect(streams.size).toBe(3);
    expect(unexpectedAllows + unexpectedDenies + wrongDenials).toBe(0);
  });
});

describe('HEAD copies of GET routes', () => {
  it('are refused exactly like their GET (no policy bypass through HEAD)', async () => {
    const heads = t.app.routeTable.filter((r) => r.methods.includes('HEAD') && !r.url.endsWith('/stream'));
    expect(heads.length).toBeGreaterThanOrEqual(20);
    for (const route of heads) {
      const spec = ROUTES[`GET ${route.url}`];
      if (!spec) continue; // a HEAD-only route is a matrix row of its own
      for (const who of ['anonymous', 'unverified', 'other', 'expired'] as const) {
        await resetWorld(fx);
        const expected = expectedOutcome(spec, who);
        if (expected.allow) continue;
        const url = concreteUrl(route.url, fx) + (spec.query ?? '');
        const res = await t.app.inject({ method: 'HEAD', url, headers: cookieOf(fx.actors[who]) });
        expect(res.statusCode, `HEAD ${route.url} as ${who}`).toBe(expected.status);
        expect(res.body).toBe('');
      }
    }
  });
});

// --- SES-10: streams refuse other sites ------------------------------------------------------------

describe('SES-10: live streams', () => {
  it('refuse another site (Origin or Fetch Metadata) even with a valid cookie, before anything is sent', async () => {
    const streamRoutes = matrixRoutes(t.app).filter((r) => ROUTES[`${r.method} ${r.url}`]?.stream);
    expect(streamRoutes.length).toBe(3);
    let checked = 0;
    for (const row of streamRoutes) {
      const spec = ROUTES[`${row.method} ${row.url}`]!;
      const allowed = PRINCIPALS.filter((who) => expectedOutcome(spec, who).allow);
      expect(allowed.length).toBeGreaterThan(0);
      for (const who of allowed) {
        await resetWorld(fx);
        const url = concreteUrl(row.url, fx) + (spec.query ?? '');
        const cookie = cookieOf(fx.actors[who]);
        const before = await snapshot(fx);
        const crossSites: Array<Record<string, string>> = [
          { origin: 'https://evil.example' },
          { 'sec-fetch-site': 'cross-site' },
          { origin: 'null' },
        ];
        for (const crossSite of crossSites) {
          const answer = await fireStream(url, { ...cookie, ...crossSite });
          const label = `${row.url} as ${who} with ${JSON.stringify(crossSite)}`;
          expect(answer.status, label).toBe(403);
          expect(answer.contentType, label).toMatch(/^application\/json/);
          expect(JSON.parse(answer.body).error.status, label).toBe('PERMISSION_DENIED');
          checked++;
        }
        expect(await snapshot(fx)).toEqual(before);
        // Control: the site's own origin is let through.
        const own = await fireStream(url, { ...cookie, origin: base });
        expect(own.status, `${row.url} as ${who} from our own origin`).toBe(200);
        expect(own.contentType).toMatch(/^text\/event-stream/);
      }
    }
    figures.streamCrossSiteRefusals = checked;
  });
});

// --- AZ-07: licence files are reachable only through the admin download --------------------------

describe('AZ-07: licence files', () => {
  it('are not served by path, to anyone, under any of the obvious addresses', async () => {
    const [row] = await db()
      .select({ key: companies.commercialLicenseKey })
      .from(companies)
      .where(eq(companies.id, fx.companyId));
    const key = row!.key!;
    expect(key).toMatch(/^commercialLicenses\//);
    for (const url of [
      `/${key}`,
      `/files/${key}`,
      `/api/${key}`,
      `/api/files/${key}`,
      `/documents/../files/${key}`,
      `/${key.replace('.png', '.jpg')}`,
    ]) {
      for (const who of ['anonymous', 'admin'] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers: cookieOf(fx.actors[who]) });
        expect(res.statusCode, `${url} as ${who}`).toBe(404);
        expect(String(res.headers['content-type'])).not.toMatch(/^image\//);
      }
    }
  });
});

// --- AZ-03: object-level authorization, property-based ---------------------------------------------

interface PoolUser {
  id: string;
  email: string;
  token: string;
  tickets: Array<{ ticketId: string; ticketNo: number; open: boolean; text: string; clientId?: string }>;
}

describe('AZ-03: another user’s tickets (IDOR), property-based', () => {
  const pool: PoolUser[] = [];
  const POOL_USERS = 5;
  const TICKETS_EACH = 4;

  beforeAll(async () => {
    for (let u = 0; u < POOL_USERS; u++) {
      const user = await createUser(t, { email: uniqueEmail(`idor-${u}`) });
      const token = await signIn(t, user.email, user.password);
      const member: PoolUser = { id: user.id, email: user.email, token, tickets: [] };
      for (let k = 0; k < TICKETS_EACH; k++) {
        const text = `IDOR secret ${u}-${k} ${createToken().slice(0, 10)}`;
        const created = await postJson(
          t,
          '/api/functions/createSupportTicket',
          { data: { reason: 'Incident', message: text } },
          withCookie(t, token),
        );
        expect(created.statusCode, created.body).toBe(200);
        const ticket = {
          ...(created.json().result as { ticketId: string; ticketNo: number }),
          open: true,
          text,
          clientId: undefined as string | undefined,
        };
        if (k % 2 === 0) {
          // A reply with a clientId: an attacker replaying the same clientId must not get it back.
          ticket.clientId = `idor-${u}-${k}-${createToken().slice(0, 12)}`;
          const reply = await postJson(
            t,
            `/api/support/tickets/${ticket.ticketId}/messages`,
            { messageBody: `${text} (reply)`, clientId: ticket.clientId },
            withCookie(t, token),
          );
          expect(reply.statusCode, reply.body).toBe(200);
        }
        if (k >= 2) {
          // Half of them closed: a closed foreign ticket must look just as missing (404, not 409).
          await db().update(supportTickets).set({ open: false }).where(eq(supportTickets.id, ticket.ticketId));
          ticket.open = false;
        }
        member.tickets.push(ticket);
      }
      pool.push(member);
    }
  }, 60_000);

  it(
    'gives ≥1000 random (user, foreign ticket) pairs across every ticket route not-found or forbidden, with nothing leaked or changed',
    { timeout: 120_000 },
    async () => {
      const ROUTE_KINDS = [
        'read',
        'messages',
        'messages-after',
        'reply',
        'reply-same-client-id',
        'stream',
        'admin-read',
        'admin-answer',
        'close',
        'reopen',
      ] as const;
      type Kind = (typeof ROUTE_KINDS)[number];
      const ID_FORMS = ['id', 'upper-case id', 'ticket number'] as const;

      const requestFor = (
        kind: Kind,
        id: string,
        clientId: string | undefined,
      ): { method: 'GET' | 'POST'; url: string; body?: object; expect: 403 | 404 } => {
        const ticket = `/api/support/tickets/${encodeURIComponent(id)}`;
        const admin = `/api/admin/support/tickets/${encodeURIComponent(id)}`;
        switch (kind) {
          case 'read':
            return { method: 'GET', url: ticket, expect: 404 };
          case 'messages':
            return { method: 'GET', url: `${ticket}/messages`, expect: 404 };
          case 'messages-after':
            return { method: 'GET', url: `${ticket}/messages?after=0`, expect: 404 };
          case 'reply':
            return {
              method: 'POST',
              url: `${ticket}/messages`,
              body: { messageBody: 'IDOR probe: should never be stored' },
              expect: 404,
            };
          case 'reply-same-client-id':
            return {
              method: 'POST',
              url: `${ticket}/messages`,
              body: { messageBody: 'IDOR probe: should never be stored', clientId: clientId ?? 'idor-probe-client-1' },
              expect: 404,
            };
          case 'stream':
            return { method: 'GET', url: `${ticket}/messages/stream`, expect: 404 };
          case 'admin-read':
            return { method: 'GET', url: admin, expect: 403 };
          case 'admin-answer':
            return {
              method: 'POST',
              url: `${admin}/messages`,
              body: { messageBody: 'IDOR probe: should never be stored' },
              expect: 403,
            };
          case 'close':
            return { method: 'POST', url: `${admin}/close`, expect: 403 };
          case 'reopen':
            return { method: 'POST', url: `${admin}/reopen`, expect: 403 };
        }
      };

      const fire = async (token: string, req: ReturnType<typeof requestFor>, stream: boolean): Promise<Answer> => {
        const headers = withCookie(t, token);
        if (stream) return fireStream(req.url, headers);
        const res = await t.app.inject({
          method: req.method,
          url: req.url,
          headers: req.body ? { ...headers, 'content-type': 'application/json' } : headers,
          ...(req.body ? { payload: req.body } : {}),
        });
        return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
      };

      const ticketState = async (ticketId: string) => {
        const [row] = await queryRows<{ open: boolean; n: number; last: number | null }>(
          db(),
          sql`select t.open, count(m.id)::int as n, max(m.id)::int as last from support_tickets t left join ticket_messages m on m.ticket_id = t.id where t.id = ${ticketId} group by t.open`,
        );
        return JSON.stringify(row);
      };

      // What a ticket that does not exist looks like on each route: a foreign one must look the same.
      const missing = new Map<Kind, string>();
      for (const kind of ROUTE_KINDS) {
        const answer = await fire(
          pool[0]!.token,
          requestFor(kind, '00000000-0000-4000-8000-000000000000', undefined),
          kind === 'stream',
        );
        expect(answer.status, kind).toBe(requestFor(kind, 'x', undefined).expect);
        missing.set(kind, answer.body);
      }

      const before = await snapshot(fx);
      let pairs = 0;
      const leaks: string[] = [];
      const pairArb = fc.integer({ min: 0, max: POOL_USERS - 1 }).chain((attacker) =>
        fc.record({
          attacker: fc.constant(attacker),
          victim: fc.integer({ min: 0, max: POOL_USERS - 1 }).filter((v) => v !== attacker),
          ticket: fc.integer({ min: 0, max: TICKETS_EACH - 1 }),
          kind: fc.constantFrom(...ROUTE_KINDS),
          idForm: fc.constantFrom(...ID_FORMS),
        }),
      );
      try {
        await fc.assert(
          fc.asyncProperty(pairArb, async ({ attacker, victim, ticket, kind, idForm }) => {
            const target = pool[victim]!.tickets[ticket]!;
            const id =
              idForm === 'id'
                ? target.ticketId
                : idForm === 'upper-case id'
                  ? target.ticketId.toUpperCase()
                  : String(target.ticketNo);
            const req = requestFor(kind, id, target.clientId);
            const stateBefore = req.method === 'POST' ? await ticketState(target.ticketId) : null;
            const answer = await fire(pool[attacker]!.token, req, kind === 'stream');
            pairs++;
            // A refused write leaves the victim's ticket as it was (open flag, messages).
            const wrote = stateBefore !== null && (await ticketState(target.ticketId)) !== stateBefore;
            const label = `user ${attacker} → ticket ${victim}-${ticket} (${target.open ? 'open' : 'closed'}) ${kind} by ${idForm}`;
            const leaked =
              answer.status !== req.expect ||
              answer.contentType.startsWith('text/event-stream') ||
              answer.body.includes(target.text) ||
              answer.body.includes(pool[victim]!.email) ||
              answer.body.includes(target.ticketId) ||
              (answer.status === 404 && answer.body !== missing.get(kind)) ||
              wrote;
            if (leaked)
              leaks.push(
                `${label}: ${answer.status} ${wrote ? '(changed the ticket) ' : ''}${answer.body.slice(0, 200)}`,
              );
            return !leaked;
          }),
          { numRuns: 1000, endOnFailure: true },
        );
      } finally {
        figures.idorPairs = pairs;
        figures.idorLeaks = leaks.length;
      }
      expect(leaks).toEqual([]);
      expect(pairs).toBeGreaterThanOrEqual(1000);
      // Nothing stored, closed or reopened by any of them.
      expect(await snapshot(fx)).toEqual(before);
    },
  );

  it('lists (and the live list) return exactly the caller’s own tickets', async () => {
    for (const member of pool) {
      for (const open of [true, false]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/support/tickets?open=${open}`,
          headers: withCookie(t, member.token),
        });
        expect(res.statusCode).toBe(200);
        const ids = (res.json().tickets as Array<{ id: string }>).map((x) => x.id).sort();
        expect(ids).toEqual(
          member.tickets
            .filter((x) => x.open === open)
            .map((x) => x.ticketId)
            .sort(),
        );
        const live = await fireStream(`/api/support/tickets/stream?open=${open}`, withCookie(t, member.token));
        expect(live.contentType).toMatch(/^text\/event-stream/);
        const data = /(?:^|\n)data: ([^\n]*)\n\n/.exec(live.body);
        expect(data, 'the live list sends its first event at once').not.toBeNull();
        const streamed = (JSON.parse(data![1]!).tickets as Array<{ id: string }>).map((x) => x.id).sort();
        expect(streamed).toEqual(ids);
      }
    }
  });
});

// --- The figure ------------------------------------------------------------------------------------

afterAll(() => {
  if (figures.cells === undefined) return;
  recordFigure('authz-matrix', {
    checks: ['AZ-01', 'AZ-02', 'AZ-03', 'AZ-06', 'AZ-07', 'SES-10'],
    label: 'Authorization matrix: every route of the live route table × 7 principals, plus random IDOR pairs',
    values: {
      routes: figures.routes,
      principals: PRINCIPALS.length,
      cells: figures.cells,
      refusedCells: figures.refusedCells,
      unexpectedAllows: figures.unexpectedAllows,
      unexpectedDenies: figures.unexpectedDenies,
      wrongDenials: figures.wrongDenials,
      sideEffects: figures.sideEffects,
      responseLeaks: figures.responseLeaks,
      streamsCovered: figures.streamsCovered,
      streamCrossSiteRefusals: figures.streamCrossSiteRefusals ?? 0,
      idorPairs: figures.idorPairs ?? 0,
      idorLeaks: figures.idorLeaks ?? 0,
    },
  });
});
