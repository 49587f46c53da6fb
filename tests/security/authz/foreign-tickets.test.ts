// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
/**
 * AZ-03: object-level authorization, property-based. Five users with four tickets each (half with a
 * reply carrying a clientId, half closed); random (user, foreign ticket) pairs across every ticket
 * route and three forms of the id must look exactly like a missing ticket, leak nothing and change
 * nothing; lists and the live list hold only the caller's own tickets. The world is the matrix's
 * (tests/helpers/authz-world.ts); mass assignment (AZ-04) is in tests/security/idor.test.ts.
 */
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { supportTickets } from '../../../src/server/db/schema.ts';
import { createToken } from '../../../src/server/security/tokens.ts';
import { createUser, postJson, signIn, uniqueEmail, withCookie } from '../../helpers/accounts.ts';
import {
  type Answer,
  createAuthzWorld,
  db,
  type Fixtures,
  fireStream,
  recordAuthzPart,
  snapshot,
} from '../../helpers/authz-world.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/** What the tests below measured: this file's part of the 'authz-matrix' figure. */
const figures: Record<string, number> = {};

let t: TestApp;
let fx: Fixtures;
beforeAll(async () => {
  ({ t, fx } = await createAuthzWorld());
});
afterAll(async () => {
  recordAuthzPart('foreign-tickets', figures);
  await t?.close();
});

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
  });

  it('gives ≥1000 random (user, foreign ticket) pairs across every ticket route not-found or forbidden, with nothing leaked or changed', async () => {
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
  });

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
