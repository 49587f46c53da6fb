import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccountAdmin } from '../../../src/server/modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from '../../../src/server/modules/accounts/accounts.repository.ts';
import { strongPassword, uniqueEmail } from '../../helpers/accounts.ts';
import { enrolTestTotp, nextOtp } from '../../helpers/second-factor.ts';
import { startServer, type ServerProcess } from '../../helpers/server-process.ts';
import type { TicketPresence } from '../../../src/contracts/support.schemas.ts';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { openTestDatabase, testDatabaseKind } from '../../helpers/test-app.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, otp: await nextOtp(email) }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

describe.runIf(testDatabaseKind === 'postgres')('two app instances on one PostgreSQL', () => {
  it('delivers a message posted through one instance to a stream opened on the other', async () => {
    const db = await openTestDatabase();
    cleanups.push(() => db.close());
    const accounts = createAccountAdmin(createAccountsRepository(db.database.db));
    const user = { email: uniqueEmail(), password: strongPassword() };
    const admin = { email: uniqueEmail('admin'), password: strongPassword() };
    await accounts.createUser({ ...user, verified: true, role: 'user' });
    await enrolTestTotp(db.database.db, await accounts.createUser({ ...admin, verified: true, role: 'admin' }));

    const servers: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bagspace-instance-${i}-`));
      const server = startServer({ DATABASE_URL: db.url!, DATA_DIR: dataDir, PORT: '0' });
      servers.push(server);
      cleanups.push(async () => {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
    }
    const [baseA, baseB] = await Promise.all(servers.map((s) => s.ready));

    const userCookie = await signIn(baseA!, user.email, user.password);
    const adminCookie = await signIn(baseB!, admin.email, admin.password);
    const created = await fetch(`${baseA}/api/functions/createSupportTicket`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: userCookie },
      body: JSON.stringify({ data: { reason: 'General', message: 'Hello from instance A' } }),
    });
    const { ticketId } = (await created.json()).result;

    // The user watches on instance A; the admin answers through instance B.
    const stream = await openSse(`${baseA}/api/support/tickets/${ticketId}/messages/stream`, { cookie: userCookie });
    await stream.waitFor((e) => e.filter((x) => x.event === 'message').length === 1);
    const answer = await fetch(`${baseB}/api/admin/support/tickets/${ticketId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify({ messageBody: 'Answered from instance B' }),
    });
    expect(answer.status).toBe(200);
    await stream.waitFor(
      (e) => e.some((x) => (x.data as { messageBody?: string }).messageBody === 'Answered from instance B'),
      // Sooner than the 10 s sweep: the database's notification carried it.
      5000,
    );

    // And the other way round: the admin watches on B, the user replies on A.
    const adminStream = await openSse(`${baseB}/api/support/tickets/${ticketId}/messages/stream`, {
      cookie: adminCookie,
    });
    await adminStream.waitFor((e) => e.filter((x) => x.event === 'message').length === 2);
    await fetch(`${baseA}/api/support/tickets/${ticketId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: userCookie },
      body: JSON.stringify({ messageBody: 'Thanks, seen on A' }),
    });
    await adminStream.waitFor(
      (e) => e.some((x) => (x.data as { messageBody?: string }).messageBody === 'Thanks, seen on A'),
      5000,
    );

    // Presence crosses instances too: a colleague's inbox on A hears that the admin, on B, has the
    // ticket open (told when the inbox opens) and then types.
    const colleague = { email: uniqueEmail('admin'), password: strongPassword() };
    await enrolTestTotp(db.database.db, await accounts.createUser({ ...colleague, verified: true, role: 'admin' }));
    const colleagueCookie = await signIn(baseA!, colleague.email, colleague.password);
    const inbox = await openSse(`${baseA}/api/admin/support/tickets/stream`, { cookie: colleagueCookie });
    const row = (events: SseEvent[]) =>
      events
        .filter((x) => x.event === 'presence')
        .map((x) => (x.data as { tickets: Record<string, TicketPresence> }).tickets[ticketId])
        .findLast((presence) => presence !== undefined);
    await inbox.waitFor((e) => row(e)?.viewers.includes(admin.email) === true);
    const beat = await fetch(`${baseB}/api/admin/support/tickets/${ticketId}/presence`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify({ typing: true }),
    });
    expect(beat.status).toBe(200);
    await inbox.waitFor((e) => row(e)?.typing.includes(admin.email) === true);
    adminStream.close();
    await inbox.waitFor((e) => row(e)?.viewers.length === 0);
    inbox.close();

    // Instance A stops while the user's page still streams from it: the stream ends at once (the
    // page reconnects, to B behind a balancer) and A exits cleanly, not after its 10 s forced exit.
    expect(await servers[0]!.stop('SIGTERM')).toBe(0);
    await stream.ended;
    const resumed = await openSse(`${baseB}/api/support/tickets/${ticketId}/messages/stream`, {
      cookie: userCookie,
    });
    await resumed.waitFor((e) => e.filter((x) => x.event === 'message').length === 3);
    resumed.close();
  });
});
