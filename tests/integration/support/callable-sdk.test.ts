/**
 * The official Firebase JS SDK (`firebase/functions`) calls createSupportTicket
 * on the running app (a real port, Node's fetch), as the original clients did.
 *
 * How the SDK carries our session: it sends `Authorization: Bearer <token>` only with a Firebase
 * Auth ID token, and offers no option for other headers (HttpsCallableOptions has only `timeout`
 * and `limitedUseAppCheckTokens`). It calls the global `fetch` at each call
 * (`(...args) => fetch(...args)` in @firebase/functions), so the test puts a wrapper there that adds
 * our session token (from POST /api/auth/login with `session: 'token'`) as that same bearer header,
 * to this app's URL only: on the wire the request is exactly what a signed-in SDK sends.
 */
import { type FirebaseApp, deleteApp, initializeApp } from 'firebase/app';
import { type Functions, type FunctionsError, getFunctions, httpsCallableFromURL } from 'firebase/functions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { createUser, postJson } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

type TicketResult = { ticketId: string; ticketNo: number };
type CallData = { reason?: unknown; message?: unknown; clientId?: string };

/** Longest a single call may take here: no test can hang the suite, whatever the server does. */
const CALL_TIMEOUT_MS = 10_000;

let t: TestApp;
let url: string;
let firebase: FirebaseApp;
let functions: Functions;
/** The session the wrapped fetch presents; undefined: none (signed out). */
let bearer: string | undefined;
let token: string;

async function sessionToken(email: string, password: string): Promise<string> {
  const res = await postJson(t, '/api/auth/login', { email, password, session: 'token' });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.json().session.token as string;
}

beforeAll(async () => {
  t = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = new URL(address).origin;
  url = `${origin}/api/functions/createSupportTicket`;
  const user = await createUser(t, { verified: true });
  token = await sessionToken(user.email, user.password);

  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (bearer === undefined || !target.startsWith(`${origin}/`)) return realFetch(input, init);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${bearer}`);
    return realFetch(input, { ...init, headers });
  });

  firebase = initializeApp({ projectId: 'demo', apiKey: 'x', appId: 'x' }, `callable-sdk-${Date.now()}`);
  functions = getFunctions(firebase);
});

afterAll(async () => {
  vi.unstubAllGlobals();
  if (firebase) await deleteApp(firebase);
  await t?.close();
});

const createSupportTicket = () =>
  httpsCallableFromURL<CallData, TicketResult>(functions, url, { timeout: CALL_TIMEOUT_MS });

/** The SDK's error for a call that should fail. */
async function failure(call: Promise<unknown>): Promise<FunctionsError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected the call to fail, it answered ${JSON.stringify(outcome.value)}`);
  return outcome.error as FunctionsError;
}

/** `.stream()` with its result bounded: the signal cancels the request, the race bounds the wait. */
async function streamCall(data: CallData) {
  const signal = AbortSignal.timeout(CALL_TIMEOUT_MS);
  const { stream, data: result } = await createSupportTicket().stream(data, { signal });
  const chunks: unknown[] = [];
  const drained = (async () => {
    for await (const chunk of stream) chunks.push(chunk);
  })();
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the stream never resolved its result')), CALL_TIMEOUT_MS + 2_000);
  });
  try {
    const outcome = await Promise.race([
      result.then(
        (value) => ({ value: value as TicketResult }),
        (error: unknown) => ({ error: error as FunctionsError }),
      ),
      guard,
    ]);
    await Promise.race([drained.catch(() => undefined), guard]);
    return { ...outcome, chunks };
  } finally {
    clearTimeout(timer);
  }
}

async function ticketOf(ticketId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/support/tickets/${ticketId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    ticket: { id: string; ticketNo: number; reason: string; open: boolean };
    messages: Array<{ messageBody: string }>;
  };
}

describe('createSupportTicket through the official Firebase SDK', () => {
  it('creates a ticket: the result has ticketId and ticketNo', async () => {
    bearer = token;
    const { data } = await createSupportTicket()({
      reason: 'Incident',
      message: 'The parcel never arrived at the depot.',
    });
    expect(data).toEqual({ ticketId: expect.stringMatching(/^[0-9a-f-]{36}$/), ticketNo: expect.any(Number) });
    const { ticket, messages } = await ticketOf(data.ticketId);
    expect(ticket).toMatchObject({ id: data.ticketId, ticketNo: data.ticketNo, reason: 'Incident', open: true });
    expect(messages.map((m) => m.messageBody)).toEqual(['The parcel never arrived at the depot.']);
  });

  it('reports invalid fields in error.details.fields, keyed by the fields of data', async () => {
    bearer = token;
    const error = await failure(createSupportTicket()({ message: '   ' }));
    expect(error.code).toBe('functions/invalid-argument');
    expect(error.details).toEqual({
      fields: { reason: SUPPORT_TEXT.fieldRequired, message: SUPPORT_TEXT.fieldRequired },
    });
  });

  it('reports an unknown reason as an invalid reason, not as a missing one', async () => {
    bearer = token;
    const error = await failure(createSupportTicket()({ reason: 'Refund', message: 'Please give my money back.' }));
    expect(error.code).toBe('functions/invalid-argument');
    expect(error.details).toEqual({ fields: { reason: SUPPORT_TEXT.reasonInvalid } });
    expect(SUPPORT_TEXT.reasonInvalid).not.toBe(SUPPORT_TEXT.fieldRequired);
  });

  it('refuses a call without a session as unauthenticated', async () => {
    bearer = undefined;
    const error = await failure(createSupportTicket()({ reason: 'General', message: 'Hello there, I need help' }));
    expect(error.code).toBe('functions/unauthenticated');
    expect(error.message).toContain('Please sign in to continue.');
  });

  it('refuses a session token that is not (or no longer) valid as unauthenticated', async () => {
    bearer = 'not-a-session-token';
    const error = await failure(createSupportTicket()({ reason: 'General', message: 'Hello there, I need help' }));
    expect(error.code).toBe('functions/unauthenticated');
  });
});

describe('the streaming call (.stream(), Accept: text/event-stream)', () => {
  it('resolves its data with the result, and the stream ends', async () => {
    bearer = token;
    const outcome = await streamCall({ reason: 'General', message: 'Streaming clients need help too.' });
    if ('error' in outcome) throw outcome.error;
    expect(outcome.value).toEqual({ ticketId: expect.stringMatching(/^[0-9a-f-]{36}$/), ticketNo: expect.any(Number) });
    expect(outcome.chunks).toEqual([]);
    expect((await ticketOf(outcome.value.ticketId)).ticket.reason).toBe('General');
  });

  it('rejects its data with the error and its details', async () => {
    bearer = token;
    const invalid = await streamCall({ reason: 'Refund', message: '' });
    expect('error' in invalid && invalid.error.code).toBe('functions/invalid-argument');
    expect('error' in invalid && invalid.error.details).toEqual({
      fields: { reason: SUPPORT_TEXT.reasonInvalid, message: SUPPORT_TEXT.fieldRequired },
    });

    bearer = undefined;
    const anonymous = await streamCall({ reason: 'General', message: 'Hello there, I need help' });
    expect('error' in anonymous && anonymous.error.code).toBe('functions/unauthenticated');
  });

  it('answers on the wire with one data: event and ends the response', async () => {
    bearer = undefined;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ data: { reason: 'Deactivation', message: 'Please close my account.' } }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(/^data: \{"result":\{[^\n]*\}\}\n\n$/);
    expect(JSON.parse(text.slice('data: '.length)).result).toEqual({
      ticketId: expect.any(String),
      ticketNo: expect.any(Number),
    });
  });
});

describe('the plain JSON protocol is unchanged for other clients', () => {
  it('keeps error.fields (by body path) beside error.details.fields', async () => {
    const res = await postJson(
      t,
      '/api/functions/createSupportTicket',
      { data: { reason: 'Refund', message: '' } },
      { authorization: `Bearer ${token}` },
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      error: {
        status: 'INVALID_ARGUMENT',
        message: 'Some fields are not valid.',
        fields: { 'data.reason': SUPPORT_TEXT.reasonInvalid, 'data.message': SUPPORT_TEXT.fieldRequired },
        details: { fields: { reason: SUPPORT_TEXT.reasonInvalid, message: SUPPORT_TEXT.fieldRequired } },
      },
    });
  });
});
