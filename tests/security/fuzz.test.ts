import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedLegalLink } from '../../src/contracts/content-admin.ts';
import { LegalLinksInputSchema } from '../../src/contracts/content-admin.schemas.ts';
import { RejectCompanySchema } from '../../src/contracts/partner-review.schemas.ts';
import { EmailSchema, NewPasswordSchema, PasswordSchema, TokenSchema } from '../../src/contracts/auth.schemas.ts';
import { ALPHABETIC_PATTERN, PHONE_PATTERN } from '../../src/contracts/companies.ts';
import { CompanyRegistrationSchema } from '../../src/contracts/companies.schemas.ts';
import { ErrorBodySchema } from '../../src/contracts/errors.ts';
import { isPermission } from '../../src/contracts/endpoint.ts';
import { ReplySchema } from '../../src/contracts/support.schemas.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { emailKey, nameKey, phoneKey } from '../../src/server/modules/partners/company-keys.ts';
import { UNSTORABLE_TEXT_MESSAGE } from '../../src/server/plugins/errors.ts';
import { runs } from '../helpers/figures.ts';
import { supportUser, type SupportUser } from '../helpers/support.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ApiClient, apiClient } from '../helpers/admin-client.ts';
import { register, storedFiles, validCompany } from '../helpers/registration.ts';
import { hugeString, REDOS_UNITS } from './fuzz-arbitraries.ts';
import {
  BASE_SEED,
  changesSince,
  FUZZ_ENV,
  invalidRows,
  leftoverChanges,
  prototypePollution,
  recordFuzzPart,
  snapshot,
  countUnhandledFromHere,
  unhandled,
} from './fuzz-harness.ts';
import { FUZZ_OPERATIONS, fuzzTableProblems } from './fuzz-operations.ts';

/**
 * The fuzz's own guarantees (IN-01, IN-07, IN-08, LOG-04), next to the per-area fuzz files
 * (fuzz-public, fuzz-support, fuzz-admin):
 * - every operation of the live route table has a fuzz entry, so a new route cannot skip it;
 * - JSON bodies over 100 kB get 413, duplicated query keys 400, prototype keys 400;
 * - the contracts' validators stay fast on 10k–100k character adversarial strings (ReDoS);
 * - every bug the fuzz found stays fixed (named regression cases);
 * - the harness really sees writes and invalid rows (negative controls).
 */

let t: TestApp;
let user: SupportUser;
let admin: ApiClient;
let ownTicket: string;
let pendingCompany: string;
let webhookEndpoint: string;
/** The app's service key (every scope): the caller of /api/app. */
let keyHeaders: Record<string, string>;
let httpInputs = 0;
let maxValidatorMs = 0;
let validatorInputs = 0;

beforeAll(async () => {
  countUnhandledFromHere();
  t = await createTestApp({ env: FUZZ_ENV, mailWorker: false });
  user = await supportUser(t);
  admin = await apiClient(t, { role: 'admin' });
  ownTicket = (await user.createTicket()).ticketId;
  const registered = await register(t, validCompany());
  pendingCompany = registered.json().id as string;
  // A webhook endpoint whose delivery log the duplicate-query samples read (?before=).
  const hook = await admin.post('/api/admin/webhooks', { url: 'http://127.0.0.1:9/fuzz', events: ['ticket.created'] });
  webhookEndpoint = hook.json().endpoint.id as string;
  const key = await admin.post('/api/admin/api-keys', {
    name: 'Fuzz app',
    scopes: ['tickets:read', 'tickets:write', 'partners:read', 'webhooks:manage'],
  });
  keyHeaders = { authorization: `Bearer ${key.json().secret as string}` };
  // The labels the duplicate-query samples name (?label=): a report refuses a label that does not exist.
  await t.database.db.execute(sql`insert into labels (id, name) values
    ('7d9e3b6a-4f5c-4a0d-9e8f-3c4d5e6f7081', 'Fuzz label one'), ('8eaf4c7b-5a6d-4b1e-8f90-4d5e6f708192', 'Fuzz label two')`);
});

afterAll(async () => {
  recordFuzzPart('core', {
    operations: [],
    inputs: 0,
    targetedInputs: httpInputs,
    validatorInputs,
    reachedHandler: 0,
    throttled: 0,
    fiveHundreds: 0,
    unhandled: unhandled.rejections.length + unhandled.exceptions.length,
    invalidRowsStored: t ? (await invalidRows(t)).length : 0,
    dbChangedOn4xx: 0,
    maxValidatorMs: Math.round(maxValidatorMs * 100) / 100,
  });
  console.log(
    `[fuzz core] seed ${BASE_SEED}; validators: ${validatorInputs} inputs, slowest ${maxValidatorMs.toFixed(2)} ms`,
  );
  await t?.close();
});

const headersOf = (principal: string): Record<string, string> =>
  principal === 'admin'
    ? admin.headers
    : principal === 'anonymous'
      ? {}
      : principal === 'key'
        ? keyHeaders
        : user.headers;

/** A concrete URL for a route: real ids where the route needs one. */
function concrete(url: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'ticketId') return ownTicket;
    if (name === 'companyId') return pendingCompany;
    if (name === 'faqId') return '1';
    if (name === 'slug') return 'terms';
    if (name === 'userId') return randomUUID();
    // Not found is fine here: the checks are about the body and the query, read before the object.
    if (
      name === 'savedReplyId' ||
      name === 'attachmentId' ||
      name === 'sideId' ||
      name === 'labelId' ||
      name === 'bulkId' ||
      name === 'keyId' ||
      name === 'claimId'
    )
      return randomUUID();
    if (name === 'endpointId') return webhookEndpoint;
    if (name === 'messageId' || name === 'deliveryId') return '1';
    throw new Error(`no sample value for :${name} in ${url}`);
  });
}

async function inject(options: InjectOptions): Promise<LightMyRequestResponse> {
  httpInputs++;
  return t.app.inject(options);
}

function expectErrorShape(res: LightMyRequestResponse, status: number, code = 'INVALID_ARGUMENT') {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(ErrorBodySchema.parse(res.json()).error.status).toBe(code);
}

/** Sends a request and checks the database is as it was (no row added, removed or changed but a session's). */
async function withoutChanges(send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const before = await snapshot(t);
  const res = await send();
  const after = await changesSince(t, before);
  expect(await leftoverChanges(t, before, after)).toEqual([]);
  return res;
}

// --- Coverage --------------------------------------------------------------------------------------

describe('the fuzz covers the live route table', () => {
  it('has an entry in FUZZ for every endpoint declaration, and none that names no declaration', () => {
    expect(fuzzTableProblems()).toEqual([]);
  });

  it('has an entry for every operation of the route table, and none for a route that is gone', () => {
    const missing: string[] = [];
    const table = t.app.routeTable;
    for (const route of table) {
      for (const method of route.methods) {
        // HEAD is Fastify's automatic twin of a GET route: same handler, no body.
        if (method === 'HEAD') continue;
        if (!FUZZ_OPERATIONS.some((op) => op.url === route.url && op.methods.includes(method)))
          missing.push(`${method} ${route.url}`);
      }
    }
    expect(missing, 'routes that are neither a declaration nor a page of tests/security/fuzz-operations.ts').toEqual(
      [],
    );
    const stale = FUZZ_OPERATIONS.flatMap((op) =>
      op.methods
        .filter((m) => !table.some((r) => r.url === op.url && r.methods.includes(m)))
        .map((m) => `${m} ${op.url}`),
    );
    expect(stale, 'fuzz entries for routes that no longer exist').toEqual([]);
    expect(table.length).toBeGreaterThan(40);
  });

  it('calls each operation as a principal that reaches its handler', () => {
    for (const op of FUZZ_OPERATIONS) {
      const route = t.app.routeTable.find((r) => r.url === op.url)!;
      const access = route.access!;
      const wanted = isPermission(access)
        ? ['admin']
        : {
            public: ['anonymous', 'user'],
            user: ['user', 'passwordUser'],
            verified: ['user', 'passwordUser', 'admin'],
            key: ['key'],
          }[access];
      for (const principal of op.principals) expect(wanted, `${op.url} as ${principal}`).toContain(principal);
    }
  });

  it('generates every path parameter, and input for every operation whose contract reads some', async () => {
    const doc = (await inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>
      >;
    };
    for (const op of FUZZ_OPERATIONS) {
      for (const match of op.url.matchAll(/:(\w+)/g))
        expect(op.params?.[match[1]!], `${op.url}: generator for :${match[1]}`).toBeDefined();
      const documented = doc.paths[op.url.replace(/:(\w+)/g, '{$1}')];
      for (const method of op.methods) {
        const spec = documented?.[method.toLowerCase()];
        if (!spec) continue;
        if (spec.parameters?.some((p) => p.in === 'query'))
          expect(op.query, `${method} ${op.url}: query generator`).toBeDefined();
        if (spec.requestBody) expect(op.body ?? op.requests, `${method} ${op.url}: body generator`).toBeDefined();
        if (op.noInput) expect(spec.parameters ?? [], `${method} ${op.url} is marked as reading no input`).toEqual([]);
      }
    }
  });
});

// --- IN-07 -----------------------------------------------------------------------------------------

describe('IN-07: body size, duplicate query keys, prototype keys', () => {
  const jsonOperations = FUZZ_OPERATIONS.filter(
    (op) => op.body !== undefined && op.url !== '/api/admin/documents/:slug',
  );

  it('answers 413, in the error shape, to a 101 kB JSON body on every JSON route', async () => {
    expect(jsonOperations.length).toBeGreaterThanOrEqual(15);
    const payload = JSON.stringify({ padding: 'x'.repeat(101 * 1024) });
    for (const op of jsonOperations) {
      const res = await withoutChanges(() =>
        inject({
          method: op.methods[0] as 'POST',
          url: concrete(op.url),
          payload,
          headers: { ...headersOf(op.principals[0]!), 'content-type': 'application/json' },
        }),
      );
      expectErrorShape(res, 413);
    }
  });

  it('lets a legal document be as long as its contract allows, and refuses more than 1 MB of JSON', async () => {
    const body = `## Terms\n\n${'Fair and clear terms. '.repeat(9000)}`.slice(0, 200_000);
    const ok = await admin.put('/api/admin/documents/terms', { title: 'Terms and Conditions', body });
    expect(ok.statusCode, ok.body.slice(0, 200)).toBe(200);
    expect(Buffer.byteLength(JSON.stringify({ title: 'T', body }))).toBeGreaterThan(101 * 1024);
    const tooLarge = await withoutChanges(() =>
      inject({
        method: 'PUT',
        url: '/api/admin/documents/terms',
        payload: JSON.stringify({ title: 'T', body: 'x'.repeat(1024 * 1024) }),
        headers: { ...admin.headers, 'content-type': 'application/json' },
      }),
    );
    expectErrorShape(tooLarge, 413);
    httpInputs++;
  });

  it('refuses a duplicated query key with 400 on every operation that reads a query', async () => {
    const doc = (await inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
    };
    const SAMPLE: Record<string, [string, string]> = {
      type: ['general', 'sender'],
      open: ['true', 'false'],
      after: ['1', '2'],
      q: ['harbour', 'kiwi'],
      status: ['pending', 'verified'],
      page: ['1', '2'],
      before: ['5', '6'],
      targetType: ['faq', 'user'],
      targetId: ['a', 'b'],
      state: ['failed', 'sent'],
      waiting: ['us', 'you'],
      thirdParty: ['waiting', 'someone'],
      assigned: ['me', 'none'],
      privacy: ['due', 'overdue'],
      sort: ['due', 'recent'],
      due: ['late', 'today'],
      actor: ['ops@example.nz', 'desk@example.nz'],
      action: ['faq.create', 'faq.delete'],
      from: ['2026-11-01', '2026-11-02'],
      to: ['2026-11-27', '2026-11-28'],
      figure: ['created', 'first-response'],
      bucket: ['lt1h', 'gt24h'],
      day: ['2026-11-02', '2026-11-03'],
      weekday: ['1', '7'],
      hour: ['0', '23'],
      admin: ['5b7c1f4e-2d3a-4e8b-9c6d-1a2b3c4d5e6f', '6c8d2a5f-3e4b-4f9c-8d7e-2b3c4d5e6f70'],
      label: ['7d9e3b6a-4f5c-4a0d-9e8f-3c4d5e6f7081', '8eaf4c7b-5a6d-4b1e-8f90-4d5e6f708192'],
      reason: ['General', 'Incident'],
      // A report refuses an assignee who is nobody: the fuzz's own accounts.
      agent: [admin.id, user.id],
      seenVersion: ['1', '2'],
      claimKind: ['lost', 'damaged'],
      claimOutcome: ['upheld', 'declined'],
      userEmail: [user.email, 'nobody-else@example.nz'],
      userId: [user.id, '6c8d2a5f-3e4b-4f9c-8d7e-2b3c4d5e6f70'],
    };
    // What a route needs beside the key under test (the app's list names one user).
    const BESIDE: Record<string, (key: string) => string> = {
      '/api/app/tickets': (key) => (key === 'userEmail' || key === 'userId' ? '' : `userId=${user.id}&`),
    };
    // Where one key takes other values on another route.
    const SAMPLE_OF: Record<string, Record<string, [string, string]>> = {
      '/api/admin/mail/incoming': {
        state: ['held', 'posted'],
        ticketId: ['7d9e3b6a-4f5c-4a0d-9e8f-3c4d5e6f7081', '8eaf4c7b-5a6d-4b1e-8f90-4d5e6f708192'],
      },
      '/api/admin/companies': { due: ['late', 'all'], sort: ['due', 'submitted'] },
    };
    let checked = 0;
    for (const op of FUZZ_OPERATIONS.filter((o) => o.query && o.methods.includes('GET'))) {
      const keys = (doc.paths[op.url.replace(/:(\w+)/g, '{$1}')]?.get?.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name);
      expect(keys.length, `${op.url} documents its query`).toBeGreaterThan(0);
      for (const key of keys) {
        const sample = SAMPLE_OF[op.url]?.[key] ?? SAMPLE[key];
        expect(sample, `a sample value for ?${key}=`).toBeDefined();
        const [a, b] = sample!;
        for (const query of [`${key}=${a}&${key}=${b}`, `${key}=${a}&${key}=${a}`]) {
          // ?status=open&status=closed: which one would count? Neither: the request is refused.
          const res = await inject({
            method: 'GET',
            url: `${concrete(op.url)}?${BESIDE[op.url]?.(key) ?? ''}${query}`,
            headers: headersOf(op.principals[0]!),
          });
          expectErrorShape(res, 400);
          checked++;
        }
        if (!op.stream) {
          const single = await inject({
            method: 'GET',
            url: `${concrete(op.url)}?${BESIDE[op.url]?.(key) ?? ''}${key}=${a}`,
            headers: headersOf(op.principals[0]!),
          });
          expect(single.statusCode, `${op.url}?${key}=${a} alone is accepted`).toBeLessThan(400);
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('refuses __proto__ and constructor keys in JSON bodies, and leaves Object.prototype alone', async () => {
    const payloads = [
      '{"__proto__":{"isAdmin":true},"email":"a@example.nz","password":"x"}',
      '{"constructor":{"prototype":{"isAdmin":true}},"email":"a@example.nz"}',
      '{"data":{"__proto__":{"isAdmin":true},"reason":"General","message":"Hello there"}}',
    ];
    for (const op of jsonOperations) {
      for (const payload of payloads) {
        const res = await withoutChanges(() =>
          inject({
            method: op.methods[0] as 'POST',
            url: concrete(op.url),
            payload,
            headers: { ...headersOf(op.principals[0]!), 'content-type': 'application/json' },
          }),
        );
        expectErrorShape(res, 400);
      }
    }
    // In a query string the keys are plain data: ignored by the contracts, never merged into objects.
    for (const query of [
      '__proto__[isAdmin]=true',
      'constructor[prototype][isAdmin]=true',
      '__proto__=x&type=general',
    ]) {
      const res = await inject({ method: 'GET', url: `/api/faqs?type=general&${query}` });
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(prototypePollution()).toEqual([]);
  });
});

// --- IN-08 -----------------------------------------------------------------------------------------

describe('IN-08: validators on adversarial 10k–100k character strings', () => {
  const company = CompanyRegistrationSchema.shape;
  const VALIDATORS: Record<string, (s: string) => unknown> = {
    'EmailSchema (sign-in, sign-up)': (s) => EmailSchema.safeParse(s),
    'company contact email': (s) => company.contactPersonEmail.safeParse(s),
    'company phone (PHONE_PATTERN)': (s) => company.phoneNumber.safeParse(s),
    'contact phone': (s) => company.contactPersonPhoneNumber.safeParse(s),
    'contact name (ALPHABETIC_PATTERN)': (s) => company.contactPersonName.safeParse(s),
    'job title': (s) => company.contactPersonJobTitle.safeParse(s),
    'company name': (s) => company.companyName.safeParse(s),
    address: (s) => company.address.safeParse(s),
    'whole registration': (s) =>
      CompanyRegistrationSchema.safeParse({
        companyName: s,
        phoneNumber: s,
        address: s,
        street: s,
        contactPersonName: s,
        contactPersonJobTitle: s,
        contactPersonPhoneNumber: s,
        contactPersonEmail: s,
      }),
    'PHONE_PATTERN.test': (s) => PHONE_PATTERN.test(s),
    'ALPHABETIC_PATTERN.test': (s) => ALPHABETIC_PATTERN.test(s),
    emailKey: (s) => emailKey(s),
    nameKey: (s) => nameKey(s),
    phoneKey: (s) => phoneKey(s),
    'legal link': (s) => isAllowedLegalLink(s),
    'legal links schema': (s) => LegalLinksInputSchema.safeParse({ terms: s, privacy: s }),
    token: (s) => TokenSchema.safeParse(s),
    'new password (code points)': (s) => NewPasswordSchema.safeParse(s),
    password: (s) => PasswordSchema.safeParse(s),
    'message body': (s) => ReplySchema.safeParse({ messageBody: s, clientId: s }),
    'rejection reason': (s) => RejectCompanySchema.safeParse({ reason: s }),
  };

  it(
    'each call finishes fast (the target is under 50 ms; asserted < 200 ms on this shared machine)',
    { timeout: 300_000 },
    () => {
      const slowest: Record<string, number> = {};
      // Warm up: the first call compiles the schema.
      for (const validate of Object.values(VALIDATORS)) validate('warm-up@example.nz');
      const adversarial = fc.oneof(
        hugeString(),
        fc
          .record({ unit: fc.constantFrom(...REDOS_UNITS), n: fc.integer({ min: 10_000, max: 100_000 }) })
          .map(({ unit, n }) => `${unit.repeat(n).slice(0, n)}\u0000!`),
        fc.integer({ min: 5_000, max: 50_000 }).map((n) => `${'a.'.repeat(n)}@${'b-'.repeat(n)}`),
        fc.integer({ min: 10_000, max: 100_000 }).map((n) => `${'a '.repeat(n / 2)}1`),
        fc.integer({ min: 10_000, max: 100_000 }).map((n) => `${'1'.repeat(n)}x`),
        fc.integer({ min: 10_000, max: 100_000 }).map((n) => `https://${'a.'.repeat(n / 2)}/`),
      );
      fc.assert(
        fc.property(adversarial, (input) => {
          expect(input.length).toBeGreaterThanOrEqual(10_000);
          for (const [name, validate] of Object.entries(VALIDATORS)) {
            const timed = () => {
              const started = performance.now();
              validate(input);
              return performance.now() - started;
            };
            // A slow call is timed twice more and the fastest kept: backtracking is slow every time,
            // a garbage collection or another process taking the core happens once.
            let ms = timed();
            if (ms >= 200) ms = Math.min(ms, timed(), timed());
            validatorInputs++;
            slowest[name] = Math.max(slowest[name] ?? 0, ms);
            maxValidatorMs = Math.max(maxValidatorMs, ms);
            expect(ms, `${name} on ${input.length} characters (${JSON.stringify(input.slice(0, 20))}…)`).toBeLessThan(
              200,
            );
          }
        }),
        { numRuns: runs(40, 400), seed: BASE_SEED },
      );
      console.log(
        `[fuzz core] slowest validator calls (ms): ${JSON.stringify(Object.fromEntries(Object.entries(slowest).map(([k, v]) => [k, Math.round(v * 100) / 100])))}`,
      );
    },
  );
});

// --- Regressions -----------------------------------------------------------------------------------

describe('regressions: inputs the fuzz found', () => {
  const NUL = 'a\u0000b';
  const json = (method: 'POST' | 'PUT', url: string, payload: unknown, headers: Record<string, string>) =>
    inject({
      method,
      url,
      payload: JSON.stringify(payload),
      headers: { ...headers, 'content-type': 'application/json' },
    });

  // PostgreSQL cannot store U+0000 (SQLSTATE 22021); it answered 500 before src/server/plugins/errors.ts mapped it.
  const nulCases: Array<[string, () => Promise<LightMyRequestResponse>]> = [
    [
      'NUL in a ticket message',
      () =>
        json(
          'POST',
          '/api/functions/createSupportTicket',
          { data: { reason: 'General', message: `Hello ${NUL}` } },
          user.headers,
        ),
    ],
    [
      'NUL in a reply',
      () => json('POST', `/api/support/tickets/${ownTicket}/messages`, { messageBody: `Hello ${NUL}` }, user.headers),
    ],
    [
      'NUL in an admin answer',
      () =>
        json(
          'POST',
          `/api/admin/support/tickets/${ownTicket}/messages`,
          { messageBody: `Hello ${NUL}` },
          admin.headers,
        ),
    ],
    [
      'NUL in the admin inbox search',
      () => inject({ method: 'GET', url: '/api/admin/support/tickets?q=a%00b', headers: admin.headers }),
    ],
    [
      'NUL in the partner search',
      () => inject({ method: 'GET', url: '/api/admin/companies?q=a%00b', headers: admin.headers }),
    ],
    [
      'NUL in the user search',
      () => inject({ method: 'GET', url: '/api/admin/users?q=a%00b', headers: admin.headers }),
    ],
    [
      'NUL in the audit filter',
      () => inject({ method: 'GET', url: '/api/admin/audit?targetId=a%00b', headers: admin.headers }),
    ],
    [
      'NUL in a FAQ title',
      () => json('POST', '/api/admin/faqs', { type: 'general', title: `Q ${NUL}`, content: 'A' }, admin.headers),
    ],
    [
      'NUL in a legal document',
      () => json('PUT', '/api/admin/documents/privacy', { title: 'Privacy', body: `Text ${NUL}` }, admin.headers),
    ],
    [
      'NUL in a rejection reason',
      () => json('POST', `/api/admin/companies/${pendingCompany}/reject`, { reason: `No ${NUL}` }, admin.headers),
    ],
  ];
  for (const [name, send] of nulCases) {
    it(`${name}: 400, nothing stored`, async () => {
      const res = await withoutChanges(send);
      expectErrorShape(res, 400);
      expect(res.json().error.message).toBe(UNSTORABLE_TEXT_MESSAGE);
    });
  }

  it('NUL in a registration field (multipart): 400, no company and no licence file left', async () => {
    const files = storedFiles(t);
    const res = await withoutChanges(async () => {
      httpInputs++;
      return register(
        t,
        { ...validCompany(), address: `12 Quay ${NUL} Street` },
        { bytes: Buffer.from('89504e470d0a1a0a0000000d494844520000', 'hex'), name: 'l.png', type: 'image/png' },
      );
    });
    expectErrorShape(res, 400);
    expect(storedFiles(t)).toEqual(files);
  });

  it('a lone surrogate in a rejection reason: the decision and its audit entry are both stored (was 500 after the commit)', async () => {
    const company = (await register(t, validCompany())).json().id as string;
    const res = await admin.post(`/api/admin/companies/${company}/reject`, { reason: 'Unreadable \uD83D' });
    httpInputs++;
    expect(res.statusCode, res.body).toBe(200);
    const entries = await queryRows<{ details: { reason: string } }>(
      t.database.db,
      sql`select details from audit_log where target_id = ${company} and action = 'company.reject'`,
    );
    expect(entries.map((e) => e.details.reason)).toEqual(['Unreadable \uFFFD']);
  });

  it('a lone surrogate in a legal link: 400 (jsonb cannot store it; was 500)', async () => {
    const res = await withoutChanges(() =>
      json(
        'PUT',
        '/api/admin/settings/legal-links',
        { terms: 'https://example.com/\uD83D', privacy: '/documents/privacy' },
        admin.headers,
      ),
    );
    expectErrorShape(res, 400);
  });

  it('an over-long path parameter: 414 in the error shape (was Fastify’s own body)', async () => {
    expectErrorShape(await inject({ method: 'GET', url: `/documents/${'a'.repeat(201)}` }), 414);
  });

  it('a malformed percent-encoding in a path: 400 in the error shape (was Fastify’s own body)', async () => {
    expectErrorShape(await inject({ method: 'GET', url: '/documents/%E0%A4%A' }), 400);
  });

  it('415 and 413 are client errors, not labelled INTERNAL', async () => {
    expectErrorShape(
      await inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
    );
    expectErrorShape(
      await inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: JSON.stringify({ email: 'x'.repeat(200_000) }),
        headers: { 'content-type': 'application/json' },
      }),
      413,
    );
  });

  it('a request line too large for the HTTP parser: 431 in the error shape (was Fastify’s own body)', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/api/faqs?type=${'a'.repeat(20_000)}`);
    httpInputs++;
    expect(res.status).toBe(431);
    expect(ErrorBodySchema.parse(await res.json()).error.status).toBe('INVALID_ARGUMENT');
  });
});

// --- Negative controls -----------------------------------------------------------------------------

describe('the harness itself', () => {
  it('sees the rows a request wrote, and flags a stored row that breaks its contract', async () => {
    const before = await snapshot(t);
    const res = await admin.post('/api/admin/faqs', {
      type: 'sender',
      title: 'Control',
      content: 'Written by the harness test',
    });
    httpInputs++;
    expect(res.statusCode).toBe(201);
    const after = await changesSince(t, before);
    expect(after.faqs).toEqual({ inserted: 1, updated: 0, deleted: 0 });
    expect(after.audit_log).toEqual({ inserted: 1, updated: 0, deleted: 0 });
    expect(after.users).toEqual({ inserted: 0, updated: 0, deleted: 0 });
    expect(await invalidRows(t, before.tx)).toEqual([]);

    // A row no contract allows, written behind the API's back, must be reported.
    const control = await snapshot(t);
    await t.database.db.execute(sql`insert into faqs (type, title, content) values ('general', '  padded  ', '')`);
    expect((await invalidRows(t, control.tx)).length).toBe(1);
    await t.database.db.execute(sql`delete from faqs where title = '  padded  '`);
    expect(await invalidRows(t)).toEqual([]);
    // Added and removed again is no change; one row removed and another added is, with the counts equal.
    const pair = await snapshot(t);
    await t.database.db.execute(sql`insert into faqs (type, title, content) values ('general', 'Gone', 'Again')`);
    await t.database.db.execute(sql`delete from faqs where title = 'Gone'`);
    expect(await leftoverChanges(t, pair, await changesSince(t, pair))).toEqual([]);
    const swap = await snapshot(t);
    await t.database.db.execute(sql`delete from faqs where title = 'Control'`);
    await t.database.db.execute(sql`insert into faqs (type, title, content) values ('sender', 'Swapped', 'In')`);
    expect(await leftoverChanges(t, swap, await changesSince(t, swap))).toEqual(['1 faqs row(s) replaced']);
  });

  it('raised nothing unhandled and polluted no prototype', () => {
    expect([...unhandled.rejections, ...unhandled.exceptions]).toEqual([]);
    expect(prototypePollution()).toEqual([]);
  });
});
