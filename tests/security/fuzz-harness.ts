/**
 * The fuzz harness (IN-01, IN-02, IN-05, IN-07, LOG-04): sends generated requests to the real app
 * as the right principal and checks, for every single one:
 * - never a 5xx;
 * - a 4xx is JSON in the docs/design.md §4 error shape, with a code that fits its status, and leaves the
 *   database as it was (no row added, removed, changed or replaced: row triggers count the writes,
 *   PostgreSQL's xmin says which rows a later transaction wrote);
 * - a 2xx is one the operation documents, its body parses with the contract's response schema,
 *   and every row it wrote passes the contract's input schema (stored data is canonical);
 * and, for the whole run: no unhandled rejection or uncaught exception, no prototype pollution.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGETS } from '../../src/contracts/audit.ts';
import {
  DocumentInputSchema,
  FaqInputSchema,
  LegalLinksInputSchema,
} from '../../src/contracts/content-admin.schemas.ts';
import { RejectCompanySchema } from '../../src/contracts/partner-review.schemas.ts';
import { EmailSchema } from '../../src/contracts/auth.schemas.ts';
import { CompanyRegistrationSchema } from '../../src/contracts/companies.schemas.ts';
import { LEGAL_DOCUMENTS } from '../../src/contracts/content.ts';
import { ERROR_STATUS, ErrorBodySchema, GENERIC_MESSAGES } from '../../src/contracts/errors.ts';
import { TICKET_REASON_VALUES } from '../../src/contracts/support.ts';
import { ReplyFormSchema } from '../../src/contracts/support.schemas.ts';
import { DeliveryReferenceSchema } from '../../src/contracts/delivery-card.schemas.ts';
import { ATTACHMENT_LIMITS, type AttachmentKind, cleanFileName } from '../../src/contracts/attachments.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { emailKey, nameKey, phoneKey } from '../../src/server/modules/partners/company-keys.ts';
import { FIGURES_DIR, recordFigure, runs, soak } from '../helpers/figures.ts';
import { type TestApp, testDatabaseKind } from '../helpers/test-app.ts';
import { enc, type FieldRule, type FuzzBody, type FuzzRequest, isRef, junk, mutated } from './fuzz-arbitraries.ts';
import { operationsOf } from './fuzz-operations.ts';

// --- Process-wide watchers (LOG-04) -------------------------------------------------------------

export const unhandled = { rejections: [] as unknown[], exceptions: [] as unknown[] };
process.on('unhandledRejection', (reason) => unhandled.rejections.push(reason));
process.on('uncaughtException', (error) => unhandled.exceptions.push(error));
/**
 * The watchers above are registered once per test worker (its files share loaded modules), so each
 * fuzz file starts its own count: what an earlier file in the same worker left behind is not its own.
 */
export function countUnhandledFromHere(): void {
  unhandled.rejections.length = 0;
  unhandled.exceptions.length = 0;
}
const prototypeKeysAtStart = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

/** Prototype pollution: nothing new on Object.prototype, and `({}).isAdmin` is still undefined. */
export function prototypePollution(): string[] {
  const problems: string[] = [];
  if (({} as Record<string, unknown>).isAdmin !== undefined) problems.push('({}).isAdmin is defined');
  if (({} as Record<string, unknown>).role !== undefined) problems.push('({}).role is defined');
  const now = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  if (now !== prototypeKeysAtStart) problems.push(`Object.prototype changed: ${now}`);
  return problems;
}

// --- Seeds and runs -----------------------------------------------------------------------------

/**
 * Inputs per operation and principal on each database: 100, on a seed of that database's own (the
 * run id differs), so a run that has both sends 200 different inputs through the two drivers, as
 * 200 on each used to send (twice over, at twice the time: the fuzz files were a quarter of the
 * suite's file time). `npm run soak` sends 2,000 on each.
 */
export const RUNS_PER_OPERATION = runs(100, 2000);

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}

/** One id per test run (shared by every fuzz file of the run), from the global setup. */
export function runId(): string {
  const id = testDatabaseKind === 'postgres' ? inject('postgresRunPrefix') : inject('pgliteTemplate');
  return String(id ?? 'local');
}

/** FUZZ_SEED replays a run; otherwise a seed per run, the same in every fuzz file of that run. */
export const BASE_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : fnv1a(runId());
/** FUZZ_ONLY='POST /api/...' runs one operation (for replaying a failure). */
export const ONLY = process.env.FUZZ_ONLY;
/** FUZZ_SHOW_VALID=1 prints each valid input's body and answer (to see why valid inputs are refused). */
const SHOW_VALID = process.env.FUZZ_SHOW_VALID === '1';
export const seedFor = (key: string, principal: string) => fnv1a(`${BASE_SEED}:${key}:${principal}`);

// --- Operations ---------------------------------------------------------------------------------

export type Principal = { name: string; headers: Record<string, string>; userId?: string };

export interface OkSpec {
  status: number;
  /** The documented body; `stream`, `binary` (a licence), `file` (a chat attachment), `html` and `text` answers are checked by type. */
  schema?: z.ZodType;
  kind?: 'json' | 'stream' | 'binary' | 'file' | 'html' | 'text';
}

export interface FuzzContext {
  t: TestApp;
  principals: Record<string, Principal>;
  /** Named pools that `Ref`s index into, read when a request is sent. */
  pools: Record<string, () => unknown[] | Promise<unknown[]>>;
  /** Where live streams are opened (a listening server: inject cannot stop reading a stream). */
  baseUrl?: string;
  /** Mutable state an operation keeps between runs (e.g. the current password). */
  state: Record<string, unknown>;
}

export interface FuzzOperation {
  /** Methods and route, exactly as in the route table (HEAD is Fastify's automatic twin of GET). */
  methods: string[];
  url: string;
  group: 'public' | 'support' | 'admin';
  /** Who calls it: the principal(s) that reach its handler. */
  principals: string[];
  params?: Record<string, fc.Arbitrary<unknown>>;
  query?: fc.Arbitrary<Array<[string, unknown]>>;
  body?: fc.Arbitrary<unknown>;
  headers?: fc.Arbitrary<Record<string, string>>;
  /** String fields of the body with their length rules (boundary mutations). */
  fields?: FieldRule[];
  /** Replaces the generated requests entirely (multipart). */
  requests?: fc.Arbitrary<FuzzRequest>;
  ok: OkSpec[];
  stream?: boolean;
  /** Tables the operation writes after answering (mail tokens): not compared within its own runs. */
  background?: string[];
  /** Set when the operation reads no input at all: it is still sent junk. */
  noInput?: string;
  afterOk?: (ctx: FuzzContext, request: FuzzRequest, response: FuzzResponse) => Promise<void> | void;
}

export const opKey = (op: Pick<FuzzOperation, 'methods' | 'url'>) => `${op.methods.join(',')} ${op.url}`;

export function requestsFor(op: FuzzOperation): fc.Arbitrary<FuzzRequest> {
  if (op.requests) return op.requests;
  const paramNames = [...op.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const valid = fc
    .record({
      params: fc.record(op.params ?? {}),
      query: op.query ?? fc.constant([] as Array<[string, unknown]>),
      body: op.body
        ? op.body.map((value): FuzzBody => ({ kind: 'json', value }))
        : fc.constant<FuzzBody>({ kind: 'none' }),
      headers: op.headers ?? fc.constant({}),
    })
    .map((r): FuzzRequest => ({ label: 'valid', ...r }));
  const shape = { params: paramNames.length > 0, query: op.query !== undefined, body: op.body !== undefined };
  const requests =
    !shape.params && !shape.query && !shape.body
      ? fc.oneof({ weight: 1, arbitrary: valid }, { weight: 3, arbitrary: junk(paramNames) })
      : fc.oneof(
          { weight: 3, arbitrary: valid },
          { weight: 5, arbitrary: mutated(valid, shape, op.fields ?? []) },
          { weight: 2, arbitrary: junk(paramNames) },
        );
  if (op.methods.length === 1) return requests;
  return fc
    .tuple(requests, fc.nat({ max: op.methods.length - 1 }))
    .map(([request, methodIndex]) => ({ ...request, methodIndex }));
}

// --- Sending ------------------------------------------------------------------------------------

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: unknown;
}

async function resolveRefs(ctx: FuzzContext, value: unknown): Promise<unknown> {
  if (isRef(value)) {
    // A mutation may rename the pool (even to "__proto__"): then the object is sent as it is.
    if (!Object.hasOwn(ctx.pools, value.$ref)) return value;
    const pool = ctx.pools[value.$ref]!;
    const items = await pool();
    return items.length ? items[value.index % items.length] : '00000000-0000-4000-8000-000000000000';
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolveRefs(ctx, v)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await resolveRefs(ctx, v);
    return out;
  }
  return value;
}

export async function resolveRequest(ctx: FuzzContext, request: FuzzRequest): Promise<FuzzRequest> {
  return {
    ...request,
    params: (await resolveRefs(ctx, request.params)) as Record<string, unknown>,
    query: Array.isArray(request.query)
      ? ((await resolveRefs(ctx, request.query)) as Array<[string, unknown]>)
      : request.query,
    body:
      request.body.kind === 'json'
        ? { ...request.body, value: await resolveRefs(ctx, request.body.value) }
        : request.body.kind === 'form'
          ? {
              ...request.body,
              fields: await Promise.all(
                request.body.fields.map(async ([k, v]): Promise<[string, unknown]> => [
                  k,
                  String(await resolveRefs(ctx, v)),
                ]),
              ),
            }
          : request.body,
  };
}

function urlOf(op: FuzzOperation, request: FuzzRequest): string {
  const pathname = op.url
    .replace(/\*$/, () => enc(String(request.params['*'] ?? 'nothing-here')))
    .replace(/:(\w+)/g, (_m, name: string) => enc(String(request.params[name] ?? '')));
  const query = Array.isArray(request.query)
    ? request.query.map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`).join('&')
    : request.query.raw;
  return query ? `${pathname}?${query}` : pathname;
}

async function payloadOf(body: FuzzBody): Promise<{ payload?: Buffer | string; contentType?: string }> {
  switch (body.kind) {
    case 'none':
      return {};
    case 'json':
      return { payload: JSON.stringify(body.value) ?? '', contentType: body.contentType ?? 'application/json' };
    case 'text':
      return { payload: body.text, contentType: body.contentType };
    case 'bytes':
      return { payload: Buffer.from(body.bytes), contentType: body.contentType };
    case 'form': {
      const form = new FormData();
      for (const [name, value] of body.fields) form.append(name, String(value));
      for (const file of body.files)
        form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
      const encoded = new Response(form);
      return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
    }
  }
}

export async function send(
  ctx: FuzzContext,
  op: FuzzOperation,
  method: string,
  principal: Principal,
  request: FuzzRequest,
): Promise<FuzzResponse> {
  const url = urlOf(op, request);
  const { payload, contentType } = await payloadOf(request.body);
  const headers: Record<string, string> = { ...principal.headers, ...request.headers };
  if (contentType !== undefined) headers['content-type'] = contentType;

  if (op.stream) {
    // A live stream never ends by itself: open it over a real socket and hang up once it answered.
    const controller = new AbortController();
    const res = await fetch(`${ctx.baseUrl}${url}`, {
      headers: { accept: 'text/event-stream', ...principal.headers },
      signal: controller.signal,
    });
    const out: FuzzResponse = { status: res.status, headers: Object.fromEntries(res.headers), body: '' };
    if (String(res.headers.get('content-type')).startsWith('text/event-stream')) {
      controller.abort();
      await res.body?.cancel().catch(() => {});
    } else {
      out.body = await res.text();
    }
    return parsed(out);
  }

  const res = await ctx.t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  return parsed({ status: res.statusCode, headers: res.headers as FuzzResponse['headers'], body: res.body });
}

function parsed(res: FuzzResponse): FuzzResponse {
  if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    try {
      res.json = JSON.parse(res.body);
    } catch {
      // left undefined: the checks report it
    }
  }
  return res;
}

// --- The database before and after ---------------------------------------------------------------

export const TABLES = [
  'users',
  'sessions',
  'email_tokens',
  'companies',
  'support_tickets',
  'ticket_messages',
  'ticket_attachments',
  'faqs',
  'settings',
  'documents',
  'audit_log',
] as const;
export type Table = (typeof TABLES)[number];

/** Rows inserted, updated and deleted in a table since the counters were installed. */
export interface TableChanges {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface Snapshot {
  /** Every transaction that writes after the snapshot has an id above this one (32-bit, as xmin). */
  tx: number;
  changes: Record<Table, TableChanges>;
}

/**
 * What a request changed is counted by row triggers the harness adds to the fuzz database: a
 * counter row per table, moved by every insert, update and delete. Reading the counters before and
 * after a request is one small query each, where counting and scanning eleven tables twice was
 * about 40 % of a fuzz file's time. The triggers live only in the fuzz files' own databases.
 */
const countedDatabases = new WeakSet<object>();

async function ensureChangeCounters(t: TestApp): Promise<void> {
  if (countedDatabases.has(t.database.db)) return;
  const statements = [
    `create table if not exists fuzz_changes (
       tbl text primary key,
       inserted bigint not null default 0,
       updated bigint not null default 0,
       deleted bigint not null default 0
     )`,
    `create or replace function fuzz_count_change() returns trigger language plpgsql as $$
     begin
       update fuzz_changes
          set inserted = inserted + (tg_op = 'INSERT')::int,
              updated = updated + (tg_op = 'UPDATE')::int,
              deleted = deleted + (tg_op = 'DELETE')::int
        where tbl = tg_table_name;
       return null;
     end $$`,
    `insert into fuzz_changes (tbl) values ${TABLES.map((table) => `('${table}')`).join(', ')} on conflict do nothing`,
    ...TABLES.map(
      (table) =>
        `create or replace trigger fuzz_count_change after insert or update or delete on "${table}" for each row execute function fuzz_count_change()`,
    ),
  ];
  // One statement at a time: the embedded database's driver sends each as a prepared statement.
  for (const statement of statements) await t.database.db.execute(sql.raw(statement));
  countedDatabases.add(t.database.db);
}

type CounterRow = { tx: number | string; tbl: Table } & Record<keyof TableChanges, number | string>;
const READ_COUNTERS = `select (pg_snapshot_xmax(pg_current_snapshot())::text::bigint - 1) % 4294967296 as tx,
                              tbl, inserted, updated, deleted
                         from fuzz_changes`;

/**
 * The counters, read twice per fuzz request. The embedded database runs a statement without
 * parameters about 3.5× cheaper over the simple query protocol (`exec`: 0.25 ms of CPU) than as a
 * prepared statement (`query`, what drizzle sends: 0.87 ms); those reads were about a fifth of a
 * fuzz file's time on PGlite (decision 100). node-postgres sends a statement without parameters
 * over the simple protocol already.
 */
async function counterRows(t: TestApp): Promise<CounterRow[]> {
  if (t.database.embedded) return (await t.database.embedded.exec(READ_COUNTERS))[0]!.rows as CounterRow[];
  return queryRows<CounterRow>(t.database.db, sql.raw(READ_COUNTERS));
}

export async function snapshot(t: TestApp): Promise<Snapshot> {
  await ensureChangeCounters(t);
  const rows = await counterRows(t);
  const changes = Object.fromEntries(
    rows.map((row) => [
      row.tbl,
      { inserted: Number(row.inserted), updated: Number(row.updated), deleted: Number(row.deleted) },
    ]),
  ) as Record<Table, TableChanges>;
  return { tx: Number(rows[0]!.tx), changes };
}

/** The rows of each table inserted, updated and deleted since `before`. */
export async function changesSince(t: TestApp, before: Snapshot): Promise<Record<Table, TableChanges>> {
  const now = await snapshot(t);
  return Object.fromEntries(
    TABLES.map((table) => {
      const [a, b] = [before.changes[table], now.changes[table]];
      return [
        table,
        { inserted: b.inserted - a.inserted, updated: b.updated - a.updated, deleted: b.deleted - a.deleted },
      ];
    }),
  ) as Record<Table, TableChanges>;
}

/**
 * What a refused request left changed in the database: rows added or removed, rows changed
 * (sessions excepted: reading a session moves its last_seen_at), or rows replaced. A row added and
 * removed again by the request itself is no change: a refused message discards the attachments it
 * had stored on the way in.
 */
export async function leftoverChanges(
  t: TestApp,
  before: Snapshot,
  after: Record<Table, TableChanges>,
  ignored: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const found: string[] = [];
  for (const table of TABLES.filter((name) => !ignored.has(name))) {
    const { inserted, updated, deleted } = after[table];
    if (inserted > deleted) found.push(`${inserted - deleted} ${table} row(s) added`);
    if (deleted > inserted) found.push(`${deleted - inserted} ${table} row(s) removed`);
    if (updated && table !== 'sessions') found.push(`${updated} ${table} row(s) changed`);
    if (inserted && inserted === deleted) {
      const [row] = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where xmin::text::bigint > ${before.tx}`,
      );
      if (row!.n) found.push(`${row!.n} ${table} row(s) replaced`);
    }
  }
  return found;
}

// --- Stored rows, checked against the contracts ---------------------------------------------------

type Row = Record<string, unknown>;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const TEXT_FIELDS = [
  'companyName',
  'nzbn',
  'phoneNumber',
  'address',
  'street',
  'contactPersonName',
  'contactPersonJobTitle',
  'contactPersonPhoneNumber',
  'contactPersonEmail',
] as const;
const COLUMN: Record<(typeof TEXT_FIELDS)[number], string> = {
  companyName: 'company_name',
  nzbn: 'nzbn',
  phoneNumber: 'phone_number',
  address: 'address',
  street: 'street',
  contactPersonName: 'contact_person_name',
  contactPersonJobTitle: 'contact_person_job_title',
  contactPersonPhoneNumber: 'contact_person_phone_number',
  contactPersonEmail: 'contact_person_email',
};

/** Parses with a schema and requires the stored value to be its own canonical form. */
function canonical(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (!result.success) return result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  return same(result.data, value)
    ? null
    : `not canonical: stored ${JSON.stringify(value).slice(-200)}, schema gives ${JSON.stringify(result.data).slice(-200)}`;
}

const ROW_CHECKS: Partial<Record<Table, (row: Row) => string | null>> = {
  users: (row) =>
    (['user', 'admin'].includes(String(row.role)) ? null : `role ${String(row.role)}`) ??
    canonical(EmailSchema, row.email),
  email_tokens: (row) => {
    // An email-change link carries the canonical address it changes to; the others carry none.
    if (row.purpose === 'change-email') return canonical(EmailSchema, row.new_email);
    if (row.new_email !== null) return `new_email on a ${String(row.purpose)} link`;
    return ['verify-email', 'reset-password'].includes(String(row.purpose)) ? null : `purpose ${String(row.purpose)}`;
  },
  companies: (row) => {
    const fields = Object.fromEntries(TEXT_FIELDS.map((f) => [f, row[COLUMN[f]] ?? undefined]));
    const result = CompanyRegistrationSchema.safeParse(fields);
    if (!result.success)
      return `company fields: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
    const stored = Object.fromEntries(TEXT_FIELDS.map((f) => [f, row[COLUMN[f]] ?? null]));
    if (!same(result.data, stored)) return `company fields not canonical: ${JSON.stringify(stored).slice(0, 300)}`;
    if (row.name_key !== nameKey(result.data.companyName))
      return `name_key ${String(row.name_key)} ≠ ${nameKey(result.data.companyName)}`;
    if (row.phone_key !== phoneKey(result.data.phoneNumber)) return `phone_key ${String(row.phone_key)}`;
    const email = result.data.contactPersonEmail === null ? null : emailKey(result.data.contactPersonEmail);
    if (row.email_key !== email) return `email_key ${String(row.email_key)} ≠ ${String(email)}`;
    if (![0, 1, 2].includes(Number(row.verified))) return `verified ${String(row.verified)}`;
    const reason = row.rejection_reason;
    const reasonProblem = reason === null ? null : canonical(RejectCompanySchema.shape.reason, reason);
    if (reasonProblem) return `rejection_reason (${String(reason).length} units): ${reasonProblem}`;
    return null;
  },
  support_tickets: (row) => {
    if (!(TICKET_REASON_VALUES as readonly string[]).includes(String(row.reason)))
      return `reason ${String(row.reason)}`;
    // A delivery reference is stored as its schema gives it: trimmed, never empty (docs/decisions/151-delivery-card.md).
    const reference = row.delivery_reference;
    const problem = reference === null ? null : canonical(DeliveryReferenceSchema, reference);
    return problem ? `delivery_reference: ${problem}` : null;
  },
  ticket_messages: (row) => {
    // An empty text is a message of files only (the API refuses one with neither).
    const problem = canonical(ReplyFormSchema.shape.messageBody, row.message_body);
    if (problem) return `message_body: ${problem}`;
    if (row.client_id !== null && !/^[A-Za-z0-9_-]{8,64}$/.test(String(row.client_id)))
      return `client_id ${String(row.client_id)}`;
    return null;
  },
  ticket_attachments: (row) => {
    if (row.message_id === null) return 'a pending attachment was left behind';
    const kind = String(row.kind) as AttachmentKind;
    if (!['jpg', 'png', 'webp', 'pdf'].includes(kind)) return `kind ${kind}`;
    if (row.name !== cleanFileName(String(row.name), kind)) return `name ${JSON.stringify(row.name)} is not clean`;
    if (kind === 'pdf' && Number(row.size) > ATTACHMENT_LIMITS.maxBytes) return `size ${String(row.size)}`;
    if (!/^ticketAttachments\/[0-9a-f-]{36}\.(jpg|png|webp|pdf)$/.test(String(row.storage_key)))
      return `storage_key ${String(row.storage_key)}`;
    return null;
  },
  faqs: (row) => canonical(FaqInputSchema, { type: row.type, title: row.title, content: row.content }),
  settings: (row) => (row.key === 'legal/links' ? canonical(LegalLinksInputSchema, row.value) : null),
  documents: (row) =>
    ((LEGAL_DOCUMENTS as readonly string[]).includes(String(row.slug)) ? null : `slug ${String(row.slug)}`) ??
    canonical(DocumentInputSchema, { title: row.title, body: row.body }),
  audit_log: (row) =>
    String(row.action) in AUDIT_ACTIONS && (AUDIT_TARGETS as readonly string[]).includes(String(row.target_type))
      ? null
      : `audit ${String(row.action)} ${String(row.target_type)}`,
};

/** Every stored row that breaks its contract: all rows, or those written after `tx` (in `tables`). */
export async function invalidRows(t: TestApp, tx?: number, tables?: readonly Table[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [table, check] of Object.entries(ROW_CHECKS) as Array<[Table, (row: Row) => string | null]>) {
    if (tables && !tables.includes(table)) continue;
    const where = tx === undefined ? sql`` : sql` where xmin::text::bigint > ${tx}`;
    const rows = await queryRows<Row>(t.database.db, sql`select * from ${sql.identifier(table)}${where}`);
    for (const row of rows) {
      const problem = check(row);
      if (problem) problems.push(`${table}: ${problem}`);
    }
  }
  return problems;
}

// --- Checking one answer --------------------------------------------------------------------------

const ERROR_CODES = new Set(Object.keys(ERROR_STATUS));
/** Statuses with exactly one meaning in docs/design.md §4: the code must say the same. */
const MAPPED = new Set([400, 401, 403, 404, 409, 429]);
const FRAMEWORK_MESSAGE =
  /JSON|content-type|media type|too large|prototype|Unexpected|Expected|position \d|Unterminated|control character|Body cannot be empty|boundary|Content-Length/i;
const ACCESS_MESSAGES = new Set([
  'Please sign in to continue.',
  'You do not have permission to do that.',
  'The email associated with this account has not been verified!',
  GENERIC_MESSAGES.crossSite,
]);

/**
 * Whether a request got past routing, access, body parsing and schema validation into the handler
 * (an estimate from the answer: the handler's own errors carry the module's messages).
 */
export function reachedHandler(op: FuzzOperation, res: FuzzResponse): boolean {
  if (res.status < 400) return true;
  if (res.status === 429 || res.status === 413 || res.status === 415) return false;
  const error = (res.json as { error?: { message?: string } } | undefined)?.error;
  const message = error?.message ?? '';
  if (ACCESS_MESSAGES.has(message) && (res.status === 401 || res.status === 403)) return false;
  if (op.url === '/api/*') return true;
  if (res.status === 404 && message === GENERIC_MESSAGES.notFound) return false;
  if (op.url === '/api/companies') return !FRAMEWORK_MESSAGE.test(message) || message.includes('form');
  if (message === 'Some fields are not valid.') return false;
  return !FRAMEWORK_MESSAGE.test(message);
}

export function checkAnswer(op: FuzzOperation, res: FuzzResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) return [`${res.status} answer: ${res.body.slice(0, 300)}`];
  if (res.status >= 400) {
    if (!String(res.headers['content-type'] ?? '').startsWith('application/json'))
      problems.push(`${res.status} is not JSON (${String(res.headers['content-type'])})`);
    const body = ErrorBodySchema.safeParse(res.json);
    if (!body.success) return [...problems, `${res.status} body is not the error shape: ${res.body.slice(0, 200)}`];
    const code = body.data.error.status;
    if (!ERROR_CODES.has(code)) problems.push(`unknown error code ${code}`);
    if (code === 'INTERNAL') problems.push(`${res.status} labelled INTERNAL`);
    if (MAPPED.has(res.status) && ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== res.status)
      problems.push(`${res.status} labelled ${code}`);
    return problems;
  }
  const spec = op.ok.find((o) => o.status === res.status);
  if (!spec) return [`undocumented ${res.status}: ${res.body.slice(0, 200)}`];
  const type = String(res.headers['content-type'] ?? '');
  switch (spec.kind ?? 'json') {
    case 'stream':
      if (!type.startsWith('text/event-stream')) problems.push(`stream answered ${type}`);
      break;
    case 'file': {
      // A chat attachment (docs/product.md §2.11): a photo shown inline or a PDF downloaded, never sniffed.
      const disposition = String(res.headers['content-disposition'] ?? '');
      if (!/^(image\/(png|jpeg|webp)|application\/pdf)$/.test(type)) problems.push(`file answered ${type}`);
      if (res.headers['x-content-type-options'] !== 'nosniff') problems.push('file without nosniff');
      if (!String(res.headers['content-security-policy'] ?? '').includes('sandbox'))
        problems.push('file not sandboxed');
      if (type === 'application/pdf' ? !disposition.startsWith('attachment') : !disposition.startsWith('inline'))
        problems.push(`file ${type} sent as ${disposition}`);
      break;
    }
    case 'binary': {
      // A licence (decision 130): an image or a PDF, downloaded; only the console's PDF preview is inline.
      const preview = op.url.endsWith('/license/preview');
      if (!(preview ? /^application\/pdf$/ : /^(image\/(png|jpeg)|application\/pdf)$/).test(type))
        problems.push(`download answered ${type}`);
      if (!String(res.headers['content-disposition'] ?? '').startsWith(preview ? 'inline' : 'attachment'))
        problems.push(`download is not ${preview ? 'inline' : 'an attachment'}`);
      if (res.headers['x-content-type-options'] !== 'nosniff') problems.push('download without nosniff');
      break;
    }
    case 'html':
      if (!type.startsWith('text/html')) problems.push(`page answered ${type}`);
      break;
    case 'text':
      if (!/^(text|application)\//.test(type)) problems.push(`text answered ${type}`);
      break;
    case 'json': {
      if (!type.startsWith('application/json')) problems.push(`${res.status} is not JSON`);
      const result = spec.schema?.safeParse(res.json);
      if (result && !result.success)
        problems.push(
          `${res.status} body does not match the contract: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
    }
  }
  return problems;
}

// --- Running an operation -------------------------------------------------------------------------

export interface OperationStats {
  key: string;
  principal: string;
  runs: number;
  reached: number;
  throttled: number;
  statuses: Record<number, number>;
  labels: Record<string, number>;
  ms: number;
}

export interface FuzzStats {
  operations: Set<string>;
  inputs: number;
  reached: number;
  throttled: number;
  fiveHundreds: number;
  invalidRowsStored: number;
  dbChangedOn4xx: number;
  perOperation: OperationStats[];
}

export const newStats = (): FuzzStats => ({
  operations: new Set(),
  inputs: 0,
  reached: 0,
  throttled: 0,
  fiveHundreds: 0,
  invalidRowsStored: 0,
  dbChangedOn4xx: 0,
  perOperation: [],
});

/** One generated request, sent and checked; returns what is wrong with it. */
export async function runOne(
  ctx: FuzzContext,
  op: FuzzOperation,
  principal: Principal,
  generated: FuzzRequest,
  stats: FuzzStats,
  opStats: OperationStats,
): Promise<string[]> {
  const request = await resolveRequest(ctx, generated);
  const method = op.methods[(generated.methodIndex ?? 0) % op.methods.length]!;
  const before = await snapshot(ctx.t);
  const res = await send(ctx, op, method, principal, request);
  stats.inputs++;
  opStats.runs++;
  opStats.statuses[res.status] = (opStats.statuses[res.status] ?? 0) + 1;
  opStats.labels[generated.label] = (opStats.labels[generated.label] ?? 0) + 1;
  if (res.status === 429) {
    stats.throttled++;
    opStats.throttled++;
  }
  if (SHOW_VALID && generated.label === 'valid')
    console.log(`valid ${JSON.stringify(request.body).slice(0, 400)} -> ${res.status} ${res.body.slice(0, 300)}`);
  if (reachedHandler(op, res)) {
    stats.reached++;
    opStats.reached++;
  }
  const problems = checkAnswer(op, res);
  if (res.status >= 500) stats.fiveHundreds++;

  if (res.status < 300 || res.status >= 400) {
    const ignored = new Set<string>(op.background ?? []);
    const after = await changesSince(ctx.t, before);
    if (res.status >= 400) {
      const changes = await leftoverChanges(ctx.t, before, after, ignored);
      if (changes.length) {
        stats.dbChangedOn4xx++;
        problems.push(`${res.status} changed the database: ${changes.join(', ')}`);
      }
    } else {
      const touched = TABLES.filter((table) => after[table].inserted + after[table].updated > 0);
      const invalid = touched.length ? await invalidRows(ctx.t, before.tx, touched) : [];
      stats.invalidRowsStored += invalid.length;
      problems.push(...invalid.map((p) => `stored invalid row: ${p}`));
      if (problems.length === 0) await op.afterOk?.(ctx, request, res);
    }
  }
  return problems.map(
    (p) => `${method} ${urlOf(op, request).slice(0, 300)} [${generated.label}] as ${principal.name}: ${p}`,
  );
}

/**
 * Waits until background writes (the account mail and tokens recorded after an answer) are done:
 * `accounts.drain()` waits for exactly that work. The fuzz apps run no mail worker.
 */
export async function settle(ctx: FuzzContext) {
  await ctx.t.app.accounts.drain();
}

/** Fuzzes one operation as one principal; throws (with the seed) on the first broken property. */
export async function fuzzOperation(
  ctx: FuzzContext,
  op: FuzzOperation,
  principalName: string,
  stats: FuzzStats,
  numRuns = RUNS_PER_OPERATION,
) {
  const principal = ctx.principals[principalName];
  if (!principal) throw new Error(`no principal ${principalName} for ${opKey(op)}`);
  const key = opKey(op);
  const seed = seedFor(key, principalName);
  const opStats: OperationStats = {
    key,
    principal: principalName,
    runs: 0,
    reached: 0,
    throttled: 0,
    statuses: {},
    labels: {},
    ms: 0,
  };
  stats.perOperation.push(opStats);
  stats.operations.add(key);
  const started = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(requestsFor(op), async (request) => {
        const problems = await runOne(ctx, op, principal, request, stats, opStats);
        if (problems.length) throw new Error(problems.join('\n'));
      }),
      { numRuns, seed, endOnFailure: process.env.FUZZ_SHRINK !== '1', includeErrorInReport: true },
    );
  } catch (error) {
    throw new Error(
      `fuzz of ${key} as ${principalName} failed (seed ${seed}; replay: FUZZ_SEED=${BASE_SEED} FUZZ_ONLY='${key}' with --project ${testDatabaseKind})\n${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    opStats.ms = Math.round(performance.now() - started);
  }
  if (op.background) await settle(ctx);
}

export function summary(stats: FuzzStats): string {
  return stats.perOperation
    .map(
      (o) =>
        `${o.key} as ${o.principal}: ${o.runs} runs, ${o.reached} reached the handler, ${o.throttled} throttled, ${o.ms} ms, statuses ${JSON.stringify(o.statuses)}`,
    )
    .join('\n');
}

// --- Figures --------------------------------------------------------------------------------------

const PARTS_DIR = path.join(FIGURES_DIR, '..', 'fuzz-parts');
export const FUZZ_PARTS = ['core', 'public', 'support', 'admin'] as const;
type Part = (typeof FUZZ_PARTS)[number];

export interface PartValues {
  operations: string[];
  inputs: number;
  reachedHandler: number;
  throttled: number;
  fiveHundreds: number;
  unhandled: number;
  invalidRowsStored: number;
  dbChangedOn4xx: number;
  maxValidatorMs?: number;
  /** IN-08: validator calls on 10k–100k character strings. */
  validatorInputs?: number;
  /** Hand-written requests (IN-07 checks, regression cases), not counted as fuzzed inputs. */
  targetedInputs?: number;
  minReachedShare?: number;
}

/**
 * Each fuzz file records its part; the last of a run to finish writes the `fuzz` figure over all
 * parts of that run (they share the run id and the seed).
 */
export function recordFuzzPart(part: Part, values: PartValues) {
  // A replay of one operation is not a run to report.
  if (ONLY) return false;
  const kind = process.env.TEST_DATABASE ?? 'none';
  fs.mkdirSync(PARTS_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(PARTS_DIR, `${part}.${kind}.json`),
    JSON.stringify({ runId: runId(), seed: BASE_SEED, soak, ...values }, null, 2),
  );
  const parts = FUZZ_PARTS.map((p) => {
    const file = path.join(PARTS_DIR, `${p}.${kind}.json`);
    if (!fs.existsSync(file)) return null;
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as PartValues & {
      runId: string;
      seed: number;
      soak: boolean;
    };
    return record.runId === runId() && record.seed === BASE_SEED && record.soak === soak ? record : null;
  });
  if (parts.some((p) => p === null)) return false;
  const all = parts as Array<PartValues & { seed: number }>;
  const sum = (pick: (p: PartValues) => number) => all.reduce((n, p) => n + pick(p), 0);
  recordFigure('fuzz', {
    checks: ['IN-01', 'IN-02', 'IN-04', 'IN-05', 'IN-07', 'IN-08', 'LOG-04'],
    label: 'Fuzzed inputs',
    values: {
      operations: new Set(all.flatMap((p) => p.operations)).size,
      inputs: sum((p) => p.inputs),
      runsPerOperation: RUNS_PER_OPERATION,
      reachedHandler: sum((p) => p.reachedHandler),
      throttled: sum((p) => p.throttled),
      fiveHundreds: sum((p) => p.fiveHundreds),
      unhandled: sum((p) => p.unhandled),
      invalidRowsStored: sum((p) => p.invalidRowsStored),
      dbChangedOn4xx: sum((p) => p.dbChangedOn4xx),
      seed: BASE_SEED,
      maxValidatorMs: Math.max(...all.map((p) => p.maxValidatorMs ?? 0)),
      validatorInputs: sum((p) => p.validatorInputs ?? 0),
      targetedInputs: sum((p) => p.targetedInputs ?? 0),
      minReachedShare: Math.round(Math.min(...all.map((p) => p.minReachedShare ?? 1)) * 1000) / 1000,
    },
  });
  return true;
}

// --- Shared set-up ---------------------------------------------------------------------------------

/**
 * Limits raised for the fuzz apps, so inputs reach validation and the handlers instead of a 429
 * (the limits themselves are tested in the accounts, partners and support suites).
 */
export const FUZZ_ENV: Record<string, string> = {
  LOGIN_FAILURES_PER_ACCOUNT: '1000000',
  LOGIN_FAILURES_PER_IP: '1000000',
  ACCOUNT_EMAILS_PER_HOUR: '1000000',
  ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
  TICKETS_PER_USER_PER_HOUR: '1000000',
  ATTACHMENTS_PER_USER_PER_HOUR: '1000000',
  REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
  PARTNER_STATUS_READS_PER_MIN: '1000000',
  STREAMS_PER_SESSION: '100000',
};

/**
 * The least share of an operation's inputs that must reach its handler. The inputs are random (a
 * new seed each run), so the share an operation reaches varies from run to run: the lowest
 * operations reach about 17 % on average and were seen at 13.5 % in one run of 200 inputs. Of 100
 * inputs, fewer than 3 reach the handler by chance with a probability of 2e-6 at 17 % and 7e-5 at
 * 13.5 % (binomial); 5 % (fewer than 5 of 100) would fail about once in 15,000 such operations and
 * runs at 17 %, once in 650 at 13.5 %. A fuzz that bounced off validation (0 %) still fails.
 */
export const MIN_REACHED_SHARE = 0.03;

/** A generous per-test timeout: every operation × principal runs RUNS_PER_OPERATION requests. */
export const FUZZ_TIMEOUT_MS = soak ? 3_600_000 : 600_000;

/** Ids in a table, read when a `Ref` is resolved. */
export const idsOf = (t: TestApp, query: ReturnType<typeof sql>) => async () =>
  (await queryRows<{ id: unknown }>(t.database.db, query)).map((r) => r.id);

/** The per-file end checks: every stored row valid, nothing unhandled, no pollution, and the figure part. */
export async function finishPart(part: Exclude<Part, 'core'>, t: TestApp, stats: FuzzStats) {
  const invalid = await invalidRows(t);
  stats.invalidRowsStored += invalid.length;
  const minReachedShare = Math.min(...stats.perOperation.map((o) => (o.runs ? o.reached / o.runs : 1)));
  recordFuzzPart(part, {
    operations: [...stats.operations],
    inputs: stats.inputs,
    reachedHandler: stats.reached,
    throttled: stats.throttled,
    fiveHundreds: stats.fiveHundreds,
    unhandled: unhandled.rejections.length + unhandled.exceptions.length,
    invalidRowsStored: stats.invalidRowsStored,
    dbChangedOn4xx: stats.dbChangedOn4xx,
    minReachedShare,
  });
  return { invalid, minReachedShare };
}

/**
 * The tests every fuzz part runs: each of its operations as each of its principals, then the
 * invariants over the whole part. `current` gives the part's app and context once beforeAll ran;
 * the app is closed after the part, with the summary printed.
 */
export function defineFuzzSuite(
  part: Exclude<Part, 'core'>,
  title: string,
  current: () => { t: TestApp; ctx: FuzzContext },
  stats: FuzzStats,
) {
  beforeAll(countUnhandledFromHere);
  afterAll(async () => {
    console.log(`[fuzz ${part}]\n${summary(stats)}`);
    await current().t?.close();
  });

  describe(title, () => {
    for (const op of operationsOf(part)) {
      for (const principal of op.principals) {
        it(`${opKey(op)} as ${principal}`, { timeout: FUZZ_TIMEOUT_MS }, async () => {
          await fuzzOperation(current().ctx, op, principal, stats);
          const mine = stats.perOperation.at(-1)!;
          // The fuzz must get past routing, access and validation, not only bounce off them.
          expect(
            mine.reached / mine.runs,
            `${opKey(op)}: share of inputs that reached the handler`,
          ).toBeGreaterThanOrEqual(MIN_REACHED_SHARE);
          expect(mine.throttled, `${opKey(op)}: 429s (limits are raised for the fuzz)`).toBe(0);
        });
      }
    }

    it('stored only valid rows, raised nothing unhandled and polluted no prototype', async () => {
      const { invalid } = await finishPart(part, current().t, stats);
      expect(invalid).toEqual([]);
      expect(stats.fiveHundreds).toBe(0);
      expect([...unhandled.rejections, ...unhandled.exceptions]).toEqual([]);
      expect(prototypePollution()).toEqual([]);
    });
  });
}
