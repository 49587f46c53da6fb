/**
 * The world of the authorization matrix (tests/security/authz/): eleven principals, the fixtures a
 * route's path and body point at, and the tools to fire one cell and see what it changed. What each
 * route must answer is in tests/helpers/authz-routes.ts.
 *
 * One world per test file, on a fresh database: `createAuthzWorld()` builds it (and keeps it here
 * for the helpers), `resetWorld` puts principals and fixtures back before each cell, `snapshot`
 * hashes every table a route can write, `fireStream` opens a live stream over a real connection.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { queryRows } from '../../src/server/db/sql.ts';
import type { StaffRole } from '../../src/contracts/roles.ts';
import {
  companies,
  faqs,
  savedReplies,
  sessions,
  staffRoles,
  supportTickets,
  users,
} from '../../src/server/db/schema.ts';
import { createToken, hashToken } from '../../src/server/security/tokens.ts';
import { encodeForm, pngOf, validCompany } from './registration.ts';
import { createUser, postJson, signIn, uniqueEmail, withCookie } from './accounts.ts';
import { deliverDueMail } from './mail.ts';
import { png, postFiles } from './attachment-files.ts';
import { recordFigurePart } from './figure-parts.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// --- Principals ----------------------------------------------------------------------------------

export const PRINCIPALS = [
  'anonymous',
  'unverified',
  'owner',
  'other',
  'admin',
  'lead',
  'agent',
  'reviewer',
  'auditor',
  'disabled',
  'expired',
] as const;
export type PrincipalName = (typeof PRINCIPALS)[number];

/** The staff principals, each holding one role (docs/decisions/147-roles-and-permissions.md). */
export const STAFF_PRINCIPALS = {
  admin: 'admin',
  lead: 'lead',
  agent: 'agent',
  reviewer: 'partner-reviewer',
  auditor: 'auditor',
} as const satisfies Record<string, StaffRole>;
export type StaffRoleName = keyof typeof STAFF_PRINCIPALS;

export interface Actor {
  name: PrincipalName;
  userId?: string;
  email?: string;
  password?: string;
  token?: string;
  tokenHash?: string;
  /** The session row as it must be before each cell. */
  expiresAt?: Date;
  /** When the session passed the second factor (the admin's, docs/product.md §2.15). */
  secondFactorAt?: Date | null;
}

// --- Fixtures ------------------------------------------------------------------------------------

/** What the paths and bodies of the matrix point at (the owner's objects, mostly). */
export interface Fixtures {
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
  /** A received mail (ignored), and the owner's message posted from it. */
  inboundId: number;
  mailMessageId: number;
  /** A photo on a message of the owner's ticket. */
  attachmentId: string;
}

let t: TestApp;
let base: string;
let fx: Fixtures;
export const db = () => t.database.db;
/** The site's address (a passkey's origin). */
export const publicBaseUrl = () => t.config.publicBaseUrl;

/** The saved reply the matrix edits and deletes (put back before each cell). */
export const SAVED_REPLY_ID = '5a7ed000-0000-4000-8000-000000000001';

// --- The world before each cell ------------------------------------------------------------------

/** Puts principals and fixtures back as the matrix defines them (an allowed cell may change them). */
export async function resetWorld(f: Fixtures) {
  const a = f.actors;
  const plain = [a.owner.userId!, a.other.userId!, a.expired.userId!];
  await db()
    .update(users)
    .set({ role: 'user', disabledAt: null, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(inArray(users.id, plain));
  const staff = Object.keys(STAFF_PRINCIPALS).map((name) => a[name as StaffRoleName].userId!);
  await db()
    .update(users)
    .set({ role: 'admin', disabledAt: null, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(inArray(users.id, staff));
  // Each staff principal holds exactly its one role.
  await db().delete(staffRoles).where(inArray(staffRoles.userId, staff));
  await db()
    .insert(staffRoles)
    .values(
      Object.entries(STAFF_PRINCIPALS).map(([name, role]) => ({ userId: a[name as StaffRoleName].userId!, role })),
    );
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
    .map((actor) => ({
      tokenHash: actor.tokenHash!,
      userId: actor.userId!,
      expiresAt: actor.expiresAt!,
      secondFactorAt: actor.secondFactorAt ?? null,
    }));
  await db()
    .insert(sessions)
    .values(rows)
    .onConflictDoUpdate({
      target: sessions.tokenHash,
      set: {
        expiresAt: sql`excluded.expires_at`,
        userId: sql`excluded.user_id`,
        lastSeenAt: sql`now()`,
        secondFactorAt: sql`excluded.second_factor_at`,
      },
    });
  await db()
    .update(supportTickets)
    .set({ open: true, closedAt: null, privacyRequest: false })
    .where(eq(supportTickets.id, f.ownerTicket.ticketId));
  await db()
    .insert(savedReplies)
    .values({ id: SAVED_REPLY_ID, title: 'Matrix saved reply', body: 'Matrix text' })
    .onConflictDoNothing();
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
export async function snapshot(f: Fixtures): Promise<Record<string, string>> {
  const expired = f.actors.expired.tokenHash!;
  const part = (name: string, from: string) =>
    `select '${name}' as name, count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '-') as h from (${from}) x`;
  const query = [
    part('users', 'select id, email, password_hash, email_verified_at, role, disabled_at from users'),
    part('staff_roles', 'select user_id, role from staff_roles'),
    part('sessions', `select token_hash, user_id, expires_at from sessions where token_hash <> '${expired}'`),
    part('email_tokens', 'select * from email_tokens'),
    // owner_seen_message_id moves when the owner's allowed stream received an answer (no mail for it).
    part(
      'support_tickets',
      'select id, user_id, ticket_no, reason, open, creation_date, last_message, client_id, assigned_to, closed_at, privacy_request from support_tickets',
    ),
    part('ticket_ratings', 'select * from ticket_ratings'),
    part('saved_replies', 'select * from saved_replies'),
    part('ticket_messages', 'select * from ticket_messages'),
    part('ticket_attachments', 'select * from ticket_attachments'),
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
 * Lets mail from earlier (allowed) cells settle: the account mail recorded after an answer, in the
 * background (enumeration-safe answers), is finished (`accounts.drain()` waits for exactly that
 * work), then the worker (which runs only when asked, here) delivers what is due.
 */
export async function settleOutbox() {
  await deliverDueMail(t.app);
}

function outboxCount(): number {
  const dir = path.join(t.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
}

// --- Firing one cell -------------------------------------------------------------------------------

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

export const cookieOf = (actor: Actor): Record<string, string> => (actor.token ? withCookie(t, actor.token) : {});

/** Opens a stream over a real connection; an event stream is read up to its first event, then closed. */
export async function fireStream(url: string, headers: Record<string, string>): Promise<Answer> {
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

/** The route table as matrix rows: method × url, HEAD copies of GET routes left out. */
export function matrixRoutes(app: FastifyInstance) {
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
export function routerPaths(tree: string): Map<string, string[]> {
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

async function signedInActor(
  name: PrincipalName,
  options: { role?: 'user' | 'admin'; roles?: StaffRole[] } = {},
): Promise<Actor> {
  const user = await createUser(t, { email: uniqueEmail(`matrix-${name}`), role: options.role, roles: options.roles });
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
    secondFactorAt: row!.secondFactorAt,
  };
}

export const OWNER_TICKET_TEXT = `Owner: my parcel is late (${createToken().slice(0, 8)})`;
export const OTHER_TICKET_TEXT = `Other: a private question (${createToken().slice(0, 8)})`;

const sessionStatus = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: withCookie(t, token) })).statusCode;

/**
 * Builds the matrix's world on a fresh database: the eleven principals with their sessions, a ticket
 * for the owner and one for the other user, a registered company, a FAQ, users to sign in, verify
 * and reset, and a failed mail.
 */
export async function createAuthzWorld(): Promise<{ t: TestApp; base: string; fx: Fixtures }> {
  // Rate limits off: the matrix signs up, registers and opens tickets many times from one address.
  // The mail worker runs only when settleOutbox asks, so a delivery never lands inside another cell.
  t = await createTestApp({ env: { RATE_LIMITS: 'off' }, mailWorker: false });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });

  const [owner, other, admin, lead, agent, reviewer, auditor, unverified, disabled, expired] = [
    await signedInActor('owner'),
    await signedInActor('other'),
    await signedInActor('admin', { role: 'admin' }),
    await signedInActor('lead', { roles: ['lead'] }),
    await signedInActor('agent', { roles: ['agent'] }),
    await signedInActor('reviewer', { roles: ['partner-reviewer'] }),
    await signedInActor('auditor', { roles: ['auditor'] }),
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
  const photo = await postFiles(
    t,
    `/api/support/tickets/${ownerTicket.ticketId}/messages`,
    withCookie(t, owner.token!),
    { messageBody: 'Owner: a photo of the parcel' },
    [{ name: 'parcel.png', data: await png() }],
  );
  expect(photo.statusCode, photo.body).toBe(200);

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
    actors: {
      anonymous: { name: 'anonymous' },
      owner,
      other,
      admin,
      lead,
      agent,
      reviewer,
      auditor,
      unverified,
      disabled,
      expired,
    },
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
    attachmentId: photo.json().message.attachments[0].id,
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
    ...(await receivedMail(ownerTicket.ticketId, owner.userId!)),
  };
  return { t, base, fx };
}

/** A mail received from the owner (decision 105) and the message in their ticket posted from it. */
async function receivedMail(ticketId: string, ownerId: string) {
  const raw = 'From: owner@example.nz\r\nSubject: Re: ticket\r\nMessage-ID: <matrix-in@example.nz>\r\n\r\nBy mail.\r\n';
  const [inbound] = await queryRows<{ id: unknown }>(
    db(),
    sql`insert into inbound_mail (message_id, raw_hash, raw, size, via, state, reason)
        values ('<matrix-in@example.nz>', 'matrix', convert_to(${raw}, 'UTF8'), ${raw.length}, 'smtp', 'ignored', 'automatic')
        returning id`,
  );
  const [message] = await queryRows<{ id: unknown }>(
    db(),
    sql`insert into ticket_messages (ticket_id, message_body, user_id, inbound_mail_id)
        values (${ticketId}, 'By mail.', ${ownerId}, ${Number(inbound!.id)}) returning id`,
  );
  return { inboundId: Number(inbound!.id), mailMessageId: Number(message!.id) };
}

// --- The figure ------------------------------------------------------------------------------------

/** The files of tests/security/authz/ that measure a part of the 'authz-matrix' figure. */
export const AUTHZ_PARTS = ['matrix', 'streams-and-files', 'foreign-tickets'] as const;

/**
 * Records what one file measured; the last of the three files of a run writes the figure (only
 * when the matrix itself ran).
 */
export function recordAuthzPart(part: (typeof AUTHZ_PARTS)[number], values: Record<string, number>) {
  recordFigurePart('authz-matrix', part, AUTHZ_PARTS, values, (parts) => {
    const figures: Record<string, number | undefined> = Object.assign({}, ...Object.values(parts));
    if (figures.cells === undefined) return null;
    return {
      checks: ['AZ-01', 'AZ-02', 'AZ-03', 'AZ-06', 'AZ-07', 'SES-10'],
      label:
        'Authorization matrix: every route of the live route table × 11 principals (5 staff roles), plus random IDOR pairs',
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
    };
  });
}
