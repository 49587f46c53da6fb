// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
/**
 * Advisory regressions (docs/security-checks.md#advisory-regressions): who reaches what. Another
 * user's ticket, stream or data, the admin routes, identity headers, the verified flag, ids
 * smuggled in a body.
 * Each test is a short scenario on the real app (real requests, a fresh database) asserting what a
 * client observes; the exhaustive versions live in the matrix, IDOR, fuzz and upload suites. The
 * table of advisories and where each is tested: tests/helpers/advisories.ts.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect } from 'vitest';
import { AUTH_MESSAGES } from '../../../src/contracts/auth.ts';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { validCompany } from '../../helpers/registration.ts';
import { withCookie } from '../../helpers/accounts.ts';
import { advisory } from '../../helpers/advisories.ts';
import {
  cookieOf,
  login,
  loginCookie,
  registerCompany,
  rows,
  send,
  settle,
  withAdvisoryApp,
  uniquePng,
} from '../../helpers/advisory-app.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import type { TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let base: string;
let admin: ApiClient;
withAdvisoryApp('access', (app) => ({ t, base, admin } = app));

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
      const savedReply = (
        await admin.post('/api/admin/support/saved-replies', { title: 'Probe reply', body: 'Probe text' })
      ).json().savedReply as { id: string };
      const side = (
        await admin.post(`/api/admin/support/tickets/${ticketId}/side-conversations`, {
          to: 'depot@partner.example.nz',
          subject: 'Probe question',
          messageBody: 'Probe words',
        })
      ).json().conversation as { id: string };
      const params: Record<string, string[]> = {
        ticketId: [ticketId],
        sideId: [side.id],
        // A real label: renaming or removing it is an admin's write.
        labelId: [(await admin.post('/api/admin/labels', { name: 'Probe label' })).json().label.id as string],
        companyId: [companyId],
        faqId: [String(faq.id)],
        savedReplyId: [savedReply.id],
        // No merge to undo is needed: the user is refused before the handler looks.
        mergeId: ['999999999'],
        // Nobody's bulk action: the user is refused before the handler looks.
        bulkId: ['00000000-0000-4000-8000-0000000b0003'],
        // A real API key and webhook endpoint: revoking, rotating or changing them is an admin's write.
        keyId: [
          (await admin.post('/api/admin/api-keys', { name: 'Probe key', scopes: ['tickets:read'] })).json().key
            .id as string,
        ],
        endpointId: [
          (
            await admin.post('/api/admin/webhooks', { url: 'http://127.0.0.1:9/probe', events: ['ticket.created'] })
          ).json().endpoint.id as string,
        ],
        // Nobody's delivery: the user is refused before the handler looks.
        deliveryId: ['999999999'],
        userId: [user.id, admin.id],
        slug: ['terms'],
        // The admin's own authenticator app (their only factor, so even the admin could not remove it).
        factorId: (await rows<{ id: string }>(sql`select id from second_factors where user_id = ${admin.id}`)).map(
          (row) => row.id,
        ),
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
        // A held mail (decision 105): posting or discarding it is an admin's write.
        inboundId: [
          String(
            (
              await rows<{ id: unknown }>(
                sql`insert into inbound_mail (message_id, raw_hash, raw, size, via, state, reason, ticket_id)
                    values ('<probe-in@example.nz>', 'probe', convert_to('Subject: x', 'UTF8'), 10, 'smtp', 'held', 'not-authenticated', ${ticketId})
                    returning id`,
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
        [/\/saved-replies(\/:savedReplyId)?$/, { title: 'Hijacked', body: 'Hijacked text' }],
        [/\/labels(\/:labelId)?$/, { name: 'Hijacked' }],
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
        'saved_replies',
        'labels',
        'ticket_labels',
        'audit_log',
        'email_tokens',
        'second_factors',
        'recovery_codes',
        'inbound_mail',
        'api_keys',
        'webhook_endpoints',
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
