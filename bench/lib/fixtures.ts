/**
 * Bench data: a fresh PostgreSQL database per run (dropped afterwards), accounts made with the
 * same code the CLI uses, tickets made with the app's own repository, sessions from the real
 * sign-in route.
 */
import { randomBytes } from 'node:crypto';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/connection.ts';
import { createAccountAdmin } from '../../src/server/modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { enrolTestTotp, nextOtp } from '../../tests/helpers/second-factor.ts';
import {
  createDatabase,
  dropDatabase,
  isPostgresReachable,
  POSTGRES_ADMIN_URL,
  randomDatabaseName,
} from '../../tests/helpers/postgres.ts';

export { isPostgresReachable, POSTGRES_ADMIN_URL };

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = randomDatabaseName('bagspace_bench');
  const url = await createDatabase(name);
  return { name, url, drop: () => dropDatabase(name) };
}

export const PASSWORD = `Harbour-${randomBytes(4).toString('hex')}-bench-kite`;

export interface Account {
  email: string;
  id: string;
}

/** Opens the bench database in this process (the server has migrated it already). */
export async function openBenchDatabase(url: string): Promise<DatabaseHandle> {
  return openDatabase({ kind: 'postgres', url, poolSize: 4 });
}

export async function createAccounts(
  database: DatabaseHandle,
  prefix: string,
  count: number,
  role: 'user' | 'admin' = 'user',
): Promise<Account[]> {
  const admin = createAccountAdmin(createAccountsRepository(database.db));
  const accounts: Account[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${prefix}-${i}-${randomBytes(3).toString('hex')}@bench.example.nz`;
    const user = await admin.createUser({ email, password: PASSWORD, role, verified: true });
    // An admin signs in with a second factor (docs/product.md §2.15): an authenticator app whose codes signIn computes.
    if (role === 'admin') await enrolTestTotp(database.db, user);
    accounts.push({ email, id: user.id });
  }
  return accounts;
}

/** Opens tickets through the API (the callable the support page uses), a few at a time. */
export async function createTickets(
  base: string,
  token: string,
  count: number,
  message = 'My parcel has not arrived yet.',
): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const i = next++;
        const res = await fetch(`${base}/api/functions/createSupportTicket`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ data: { reason: 'General', message: `${message} (${i + 1})` } }),
        });
        if (res.status !== 200) throw new Error(`ticket creation failed: ${res.status} ${await res.text()}`);
        ids[i] = ((await res.json()) as { result: { ticketId: string } }).result.ticketId;
      }
    }),
  );
  return ids;
}

/** Signs in through the API; returns a bearer token (`session: "token"`) and the cookie form. */
export async function signIn(
  base: string,
  email: string,
): Promise<{ token: string; cookie: string; bearer: Record<string, string> }> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, session: 'token', otp: await nextOtp(email) }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { session: { token: string } };
  return {
    token: body.session.token,
    cookie: `session=${body.session.token}`,
    bearer: { authorization: `Bearer ${body.session.token}` },
  };
}

/**
 * Makes a conversation of `count` messages on the customer's ticket (the opening message counts):
 * the customer and the admin take turns, each through the API their page uses.
 */
export async function addConversation(
  base: string,
  ticketId: string,
  customer: Record<string, string>,
  admin: Record<string, string>,
  count: number,
): Promise<void> {
  for (let i = 1; i < count; i++) {
    const byAdmin = i % 2 === 1;
    const path = byAdmin
      ? `/api/admin/support/tickets/${ticketId}/messages`
      : `/api/support/tickets/${ticketId}/messages`;
    const messageBody = byAdmin
      ? `Thanks for waiting. We have asked the courier about your parcel and will write again soon (${i + 1}).`
      : `It still has not come. The tracking page says it left the depot two days ago (${i + 1}).`;
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(byAdmin ? admin : customer) },
      body: JSON.stringify({ messageBody }),
    });
    if (res.status !== 200)
      throw new Error(`message ${i + 1} on ${ticketId} failed: ${res.status} ${await res.text()}`);
  }
}

export interface ConversationTicket {
  ticketId: string;
  /** The customer's session: bearer for the API, cookie for a browser. */
  customer: Awaited<ReturnType<typeof signIn>>;
}

let conversation: Promise<ConversationTicket> | undefined;

/**
 * A customer of their own with one ticket of 30 messages, made once per bench run and shared by the
 * sections that load the ticket page (bytes, Lighthouse). Its own account, so the other sections'
 * lists and counts are not changed.
 */
export function conversationTicket(bench: {
  base: string;
  db: DatabaseHandle;
  adminSession: { bearer: Record<string, string> };
}): Promise<ConversationTicket> {
  conversation ??= (async () => {
    const [reader] = await createAccounts(bench.db, 'reader', 1);
    const customer = await signIn(bench.base, reader!.email);
    const [ticketId] = await createTickets(bench.base, customer.token, 1);
    await addConversation(bench.base, ticketId!, customer.bearer, bench.adminSession.bearer, 30);
    return { ticketId: ticketId!, customer };
  })();
  return conversation;
}
