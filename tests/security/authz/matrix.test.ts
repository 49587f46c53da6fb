/**
 * AZ-02, AZ-06, AZ-08 and SES-10: the endpoint × principal matrix, on both databases: among the
 * principals are a member of staff for each role (docs/decisions/147-roles-and-permissions.md), and
 * the roles are rows and SQL of their own.
 *
 * The matrix's rows are the endpoint declarations (src/contracts/api/index.ts, streams included)
 * and the few routes that are not API declarations (PAGES in tests/helpers/authz-routes.ts); each is
 * fired as each of eleven principals, with a real object of the owner in the path and a valid body,
 * and the answer is compared with what that principal must get. What each must answer is a table
 * written by hand, keyed by the declaration's name (EXPECTED), never read from the declaration. A
 * refused cell must also change nothing in the database and send no mail. The principals, fixtures
 * and tools are in tests/helpers/authz-world.ts.
 *
 * What it guards: a declaration whose access is weakened (admin → user, verified → public...)
 * no longer matches its entry in EXPECTED and flips the cells of the principals it used to refuse
 * (unexpectedAllows > 0); an ownership check dropped from a ticket route turns the "other" cell from
 * 404 into 200; a new declaration, a new path parameter or a new body fails the table checks below
 * until it is given an expectation, a fixture and a valid body, and so does a route of the route
 * table that is neither a declaration nor listed in PAGES.
 *
 * The rest of the matrix's checks: AZ-01 (deny by default) in deny-by-default.test.ts; streams
 * refusing other sites (SES-10) and licence files (AZ-07) in streams-and-files.test.ts; AZ-03 (a
 * foreign ticket id in the path, property-based) in foreign-tickets.test.ts. AZ-04 (mass
 * assignment, foreign ids in bodies) is in tests/security/idor.test.ts. The web catch-all (`/*`,
 * public, server-rendered pages) is not in the matrix: the test app is built without the web bundle.
 *
 * Counted in the figure: unexpectedAllows (a principal that must be refused was not: 2xx or any
 * non-refusal), unexpectedDenies (an allowed principal did not get the route's expected status),
 * wrongDenials (refused, but with the wrong code, e.g. 403 where another's ticket must look 404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  concreteUrl,
  declaredFor,
  expectedOutcome,
  matrixRows,
  MUTATING,
  type RouteSpec,
  tableProblems,
} from '../../helpers/authz-routes.ts';
import {
  type Answer,
  cookieOf,
  createAuthzWorld,
  type Fixtures,
  fireStream,
  matrixRoutes,
  OTHER_TICKET_TEXT,
  OWNER_TICKET_TEXT,
  PRINCIPALS,
  type PrincipalName,
  recordAuthzPart,
  STAFF_PRINCIPALS,
  resetWorld,
  settleOutbox,
  snapshot,
} from '../../helpers/authz-world.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { type AccessPolicy, isPermission } from '../../../src/contracts/endpoint.ts';

/**
 * The four one-role staff principals where they can differ: a console route (its roles), or a
 * ticket's route staff may read (owner-or-desk). On a public, user, verified or owner route a member
 * of staff is a verified user like `other`, which the admin's and the other user's cells cover.
 */
const ONE_ROLE = new Set<PrincipalName>(['lead', 'agent', 'reviewer', 'auditor']);
const principalsFor = (spec: RouteSpec) =>
  typeof spec.guard !== 'string' || spec.guard === 'owner-or-desk'
    ? PRINCIPALS
    : PRINCIPALS.filter((who) => !ONE_ROLE.has(who));

/** What the tests below measured: this file's part of the 'authz-matrix' figure. */
const figures: Record<string, number> = {};

let t: TestApp;
let fx: Fixtures;
beforeAll(async () => {
  ({ t, fx } = await createAuthzWorld());
});
afterAll(async () => {
  recordAuthzPart('matrix', figures);
  await t?.close();
});

describe('AZ-02: every route × 11 principals (5 of them staff, one role each)', () => {
  it('has an expectation, a fixture for every path parameter and a valid body for every route, and nothing stale', () => {
    expect(tableProblems()).toEqual([]);
    const rows = matrixRows();
    // The route table as the server registered it: every row is there with the access its
    // expectation names, and the table holds nothing else.
    const table = new Map(matrixRoutes(t.app).map((r) => [`${r.method} ${r.url}`, r.access]));
    const keys = new Set(rows.map((r) => `${r.method} ${r.url}`));
    expect(
      [...table.keys()].filter((k) => !keys.has(k)),
      'routes that are neither a declaration of the index nor listed in PAGES',
    ).toEqual([]);
    for (const row of rows) {
      const key = `${row.method} ${row.url}`;
      expect(table.has(key), `${row.name}: ${key} is registered`).toBe(true);
      // A console route names a staff permission (which one is the declaration's business; what
      // each role then gets is checked cell by cell below).
      const declared = table.get(key);
      const wanted = declaredFor(row.spec!.guard);
      expect(
        wanted === 'staff' ? declared !== undefined && isPermission(declared as AccessPolicy) : declared === wanted,
        `${row.name}: the declared policy ${declared} matches the matrix's expectation (${wanted})`,
      ).toBe(true);
      expect(() => concreteUrl(row.url, fx)).not.toThrow();
      // Streams are named so and declared so (a stream fired through inject would never end).
      expect(row.stream, `${row.name}: stream`).toBe(row.url.endsWith('/stream'));
    }
  });

  it('answers every cell as the policy says, and a refused cell changes nothing', async () => {
    const rows = matrixRows();
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
      const key = row.name;
      const spec = row.spec!;
      if (row.stream) streams.add(key);
      for (const who of principalsFor(spec)) {
        const actor = fx.actors[who];
        await resetWorld(fx);
        await spec.prepare?.(fx);
        const target = concreteUrl(row.url, fx) + (spec.query ?? '');
        const request = MUTATING(row.method) ? await row.body!(actor, fx) : {};
        const expected = expectedOutcome(spec, who);
        if (!expected.allow && mailPending) {
          await settleOutbox();
          mailPending = false;
        }
        const before = expected.allow ? null : await snapshot(fx);

        let answer: Answer;
        if (row.stream) {
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
        if (row.stream) {
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
    // anywhere; no one but staff sees another account's or an applicant's email; a ticket's text
    // reaches its owner and the staff who read tickets only, an applicant's phone those who read
    // applications only.
    const everyone = PRINCIPALS.map((n) => fx.actors[n].email).filter((e): e is string => Boolean(e));
    const secrets = [...everyone, fx.loginUser.email, fx.verifyUser.email, fx.resetUser.email, fx.companyEmail];
    const leaks: string[] = [];
    for (const { who, key, request, answer } of answers) {
      if (/^image\//.test(answer.contentType)) continue;
      if (/argon2id|\$argon2/i.test(answer.body)) leaks.push(`${key} as ${who}: a password hash`);
      if (who === 'admin') continue;
      const readsTickets = ['lead', 'agent', 'auditor'].includes(who);
      // A ticket's text reaches its owner (and staff who read tickets) only.
      if (who !== 'owner' && !readsTickets && answer.body.includes(OWNER_TICKET_TEXT))
        leaks.push(`${key} as ${who}: the owner's ticket`);
      if (who !== 'other' && !readsTickets && answer.body.includes(OTHER_TICKET_TEXT))
        leaks.push(`${key} as ${who}: the other's ticket`);
      const readsApplications = ['reviewer', 'auditor'].includes(who);
      if (!readsApplications && answer.body.includes(fx.companyPhone) && !request.includes(fx.companyPhone))
        leaks.push(`${key} as ${who}: the applicant's phone`);
      // Staff see the addresses their work needs (a ticket's owner, an applicant, an account).
      if (who in STAFF_PRINCIPALS) continue;
      for (const email of secrets) {
        if (email === fx.actors[who].email || request.includes(email)) continue;
        if (answer.body.toLowerCase().includes(email.toLowerCase())) leaks.push(`${key} as ${who}: ${email}`);
      }
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
    expect(cells).toBe(rows.reduce((sum, row) => sum + principalsFor(row.spec!).length, 0));
    expect(rows.length).toBeGreaterThanOrEqual(55);
    expect(streams.size).toBe(3);
    expect(unexpectedAllows + unexpectedDenies + wrongDenials).toBe(0);
  });
});

describe('HEAD copies of GET routes', () => {
  it('are refused exactly like their GET (no policy bypass through HEAD)', async () => {
    const heads = t.app.routeTable.filter((r) => r.methods.includes('HEAD') && !r.url.endsWith('/stream'));
    expect(heads.length).toBeGreaterThanOrEqual(20);
    const gets = new Map(matrixRows().map((row) => [`${row.method} ${row.url}`, row.spec]));
    for (const route of heads) {
      const spec = gets.get(`GET ${route.url}`);
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
