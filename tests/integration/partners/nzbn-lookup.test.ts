import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NZBN_TEXT } from '../../../src/contracts/companies.ts';
import { buildApp } from '../../../src/server/app.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { openDatabase } from '../../../src/server/db/connection.ts';
import { companies } from '../../../src/server/db/schema.ts';
import { loggerOptions } from '../../../src/server/logging.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { register, validCompany } from '../../helpers/registration.ts';
import { createTestApp, type TestApp, testDatabaseKind } from '../../helpers/test-app.ts';

/**
 * The NZBN register lookup (docs/decisions/114-nzbn-lookup.md), against a local server that answers
 * as MBIE's NZBN API v5 does: GET /entities/{nzbn} with the key in Ocp-Apim-Subscription-Key, 200
 * with the entity, 404 for a number no entity has. The worker runs its rounds in the background (at
 * start and when a registration wakes it); the tests ask for a round with `run()`, which resolves
 * once a round that started after the call has ended, and move the app clock to reach retries.
 */
const KEY = `nzbn-key-${randomInt(1e9)}`;
const TIMEOUT_MS = 2000;
const MAX_ATTEMPTS = 3;

interface Answer {
  status: number;
  entity?: Record<string, unknown>;
  /** Answers this late (past the app's timeout). */
  delayMs?: number;
  /** Called when the request arrives; the answer waits for `release` to resolve. */
  arrived?: () => void;
  release?: Promise<void>;
}

/** The local register: each number answers the next of its answers (the last one repeats). */
const answers = new Map<string, Answer[]>();
const requests: Array<{ url: string; key: string | undefined }> = [];
const register_ = http.createServer((req, res) => {
  requests.push({ url: req.url ?? '', key: req.headers['ocp-apim-subscription-key'] as string | undefined });
  const match = /^\/gateway\/nzbn\/v5\/entities\/(\d{13})$/.exec(req.url ?? '');
  const queue = match ? answers.get(match[1]!) : undefined;
  const answer: Answer = (queue && (queue.length > 1 ? queue.shift() : queue[0])) ?? { status: 404 };
  const send = () => {
    if (res.destroyed) return;
    if (req.headers['ocp-apim-subscription-key'] !== KEY) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 401, message: 'Access denied due to invalid subscription key.' }));
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(
      answer.entity
        ? JSON.stringify(answer.entity)
        : JSON.stringify({ errorDescription: answer.status === 404 ? 'Entity not found' : 'Server error' }),
    );
  };
  answer.arrived?.();
  if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
  else if (answer.release) void answer.release.then(send);
  else send();
});

/** An entity in the v5 answer's shape (the fields we read, and a few we do not). */
const entity = (nzbn: string, entityName: string, entityStatusDescription = 'Registered', entityStatusCode = '50') => ({
  nzbn,
  entityName,
  entityStatusCode,
  entityStatusDescription,
  entityTypeCode: 'LTD',
  entityTypeDescription: 'NZ Limited Company',
  registrationDate: '2015-03-02T00:00:00.000+13:00',
  sourceRegister: 'COMPANY',
  tradingNames: [],
});

/** A fresh number with the GS1 check digit worked out here (weights 1, 3, 1, 3, … from the left). */
function newNzbn(): string {
  const body = `9429${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const clock = movableClock();
const logLines: string[] = [];
let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => register_.listen(0, '127.0.0.1', resolve));
  const { port } = register_.address() as AddressInfo;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  t = await createTestApp({
    web: true,
    clock,
    env: {
      LOG_LEVEL: 'info',
      REGISTRATIONS_PER_IP_PER_HOUR: '10000',
      NZBN_API_KEY: KEY,
      NZBN_API_URL: `http://127.0.0.1:${port}/gateway/nzbn/v5/`,
      NZBN_LOOKUP_TIMEOUT_MS: String(TIMEOUT_MS),
      // Rounds come from start, registrations and the tests; never from the timer during a test.
      NZBN_LOOKUP_CHECK_MS: '3600000',
      NZBN_LOOKUP_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    },
    logger: { ...(loggerOptions('info') as object), stream } as never,
  });
  admin = await apiClient(t);
});
afterAll(async () => {
  await t?.close();
  register_.closeAllConnections();
  await new Promise((resolve) => register_.close(resolve));
});

/** Registers a company with this NZBN (the register's answers set first); returns its id. */
async function applyWith(nzbn: string, companyName: string, ...queue: Answer[]): Promise<string> {
  answers.set(nzbn, queue);
  const res = await register(t, { ...validCompany(), companyName, nzbn });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

const round = () => t.app.nzbnLookupWorker!.run();
const checkOf = async (id: string) => {
  const res = await admin.get(`/api/admin/companies/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().company.nzbnCheck;
};
/** The admin's application page, as text: the NZBN rows read 'label value'. */
const pageText = async (id: string) => {
  const res = await admin.get(`/admin/partners/${id}`);
  expect(res.statusCode).toBe(200);
  return res.body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
};
const requestsFor = (nzbn: string) => requests.filter((r) => r.url.endsWith(`/entities/${nzbn}`));
const tag = () => randomInt(1e6).toString(36);

describe('a number the register knows', () => {
  it('shows the registered name, its status and that the names match (case, punctuation, Limited = Ltd)', async () => {
    const nzbn = newNzbn();
    const name = `Kiwi Couriers (${tag()})`;
    const id = await applyWith(nzbn, `${name} Ltd`, {
      status: 200,
      entity: entity(nzbn, `${name.toUpperCase().replace(/[()]/g, '')} LIMITED`),
    });
    await round();
    const check = await checkOf(id);
    expect(check).toMatchObject({ result: 'found', status: 'Registered' });
    expect(check.registeredName).toBe(`${name.toUpperCase().replace(/[()]/g, '')} LIMITED`);
    // The key went in the v5 header, to the v5 path (the base's trailing slash dropped).
    expect(requestsFor(nzbn)).toEqual([{ url: `/gateway/nzbn/v5/entities/${nzbn}`, key: KEY }]);
    const text = await pageText(id);
    expect(text).toContain(`${NZBN_TEXT.checkLabel} ${NZBN_TEXT.namesMatch}`);
    expect(text).toContain(`${NZBN_TEXT.registeredNameLabel} ${check.registeredName}`);
    expect(text).toContain(`${NZBN_TEXT.registerStatusLabel} Registered (looked up`);
    // Done: another round does not ask again.
    await round();
    expect(requestsFor(nzbn)).toHaveLength(1);
  });

  it('says when the names differ, with the register’s name, and shows a status like In Liquidation', async () => {
    const nzbn = newNzbn();
    const registered = `Southern Haulage ${tag()} Limited`;
    const id = await applyWith(nzbn, `Harbour Freight ${tag()}`, {
      status: 200,
      entity: entity(nzbn, registered, 'In Liquidation', '90'),
    });
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'found', registeredName: registered, status: 'In Liquidation' });
    const text = await pageText(id);
    expect(text).toContain(`${NZBN_TEXT.checkLabel} ${NZBN_TEXT.namesDiffer(registered)}`);
    expect(text).toContain(`${NZBN_TEXT.registerStatusLabel} In Liquidation`);
  });
});

describe('while the register has not answered', () => {
  it('the admin sees waiting', async () => {
    const nzbn = newNzbn();
    const name = `Harbour Freight ${tag()}`;
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const id = await applyWith(nzbn, name, {
      status: 200,
      entity: entity(nzbn, name),
      arrived,
      release: new Promise<void>((resolve) => (release = resolve)),
    });
    // The registration woke the worker, whose request the register holds (within the timeout).
    await asked;
    expect(await checkOf(id)).toEqual({ result: 'waiting' });
    expect(await pageText(id)).toContain(`${NZBN_TEXT.checkLabel} ${NZBN_TEXT.waiting}`);
    release();
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'found' });
  });
});

describe('a number the register does not know (404)', () => {
  it('is shown as not found, and not asked again', async () => {
    const nzbn = newNzbn();
    const id = await applyWith(nzbn, `Harbour Freight ${tag()}`, { status: 404 });
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'not-found' });
    expect(await pageText(id)).toContain(`${NZBN_TEXT.checkLabel} no company has this NZBN in the register`);
    clock.advance(24 * 3_600_000);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(1);
  });
});

describe('failures are tried again later, and the admin reads why meanwhile', () => {
  it('a 500 then a 200: failed and retrying, nothing asked before the minute is up, then found', async () => {
    const nzbn = newNzbn();
    const name = `Harbour Freight ${tag()}`;
    const id = await applyWith(nzbn, name, { status: 500 }, { status: 200, entity: entity(nzbn, name) });
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'failed', error: 'unavailable', retrying: true });
    expect(await pageText(id)).toContain(`${NZBN_TEXT.checkLabel} failed: ${NZBN_TEXT.errors.unavailable} (`);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(1);
    clock.advance(61_000);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(2);
    expect(await checkOf(id)).toMatchObject({ result: 'found', registeredName: name, status: 'Registered' });
  });

  it('a 429 counts as the register being busy: tried again', async () => {
    const nzbn = newNzbn();
    const name = `Harbour Freight ${tag()}`;
    const id = await applyWith(nzbn, name, { status: 429 }, { status: 200, entity: entity(nzbn, name) });
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'failed', error: 'unavailable', retrying: true });
    clock.advance(61_000);
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'found' });
  });

  it('an answer slower than NZBN_LOOKUP_TIMEOUT_MS is a timeout, and does not hold up registration', async () => {
    const nzbn = newNzbn();
    const name = `Harbour Freight ${tag()}`;
    const started = Date.now();
    const id = await applyWith(
      nzbn,
      name,
      { status: 200, entity: entity(nzbn, name), delayMs: TIMEOUT_MS * 10 },
      { status: 200, entity: entity(nzbn, name) },
    );
    // The registration answered without waiting for the register (it answers 10 timeouts late).
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 10);
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'failed', error: 'timeout', retrying: true });
    expect(await pageText(id)).toContain(NZBN_TEXT.errors.timeout);
  });

  it('a refused key (401) is said in plain words and tried again later', async () => {
    const nzbn = newNzbn();
    const name = `Harbour Freight ${tag()}`;
    const id = await applyWith(nzbn, name, { status: 401 }, { status: 200, entity: entity(nzbn, name) });
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'failed', error: 'refused', retrying: true });
    const text = await pageText(id);
    expect(text).toContain(`failed: ${NZBN_TEXT.errors.refused}`);
    expect(text).toContain('trying again later');
    clock.advance(61_000);
    await round();
    expect(await checkOf(id)).toMatchObject({ result: 'found' });
  });

  it(`gives up after NZBN_LOOKUP_MAX_ATTEMPTS (${MAX_ATTEMPTS}) failures in a row, 1 then 5 minutes apart`, async () => {
    const nzbn = newNzbn();
    const id = await applyWith(nzbn, `Harbour Freight ${tag()}`, { status: 503 });
    await round();
    clock.advance(61_000);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(2);
    // The second wait is five minutes: four and a half is not enough.
    clock.advance(270_000);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(2);
    clock.advance(31_000);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(MAX_ATTEMPTS);
    expect(await checkOf(id)).toMatchObject({ result: 'failed', error: 'unavailable', retrying: false });
    expect(await pageText(id)).toContain('no more tries');
    clock.advance(7 * 24 * 3_600_000);
    await round();
    expect(requestsFor(nzbn)).toHaveLength(MAX_ATTEMPTS);
  });

  it('never writes the key into the log, though failures are logged', async () => {
    expect(logLines.some((line) => line.includes('NZBN lookup failed'))).toBe(true);
    expect(logLines.filter((line) => line.includes(KEY))).toEqual([]);
  });
});

describe('registration is unchanged by the lookup', () => {
  it('answers as before; without an NZBN nothing is looked up and the admin sees not checked', async () => {
    const before = requests.length;
    const res = await register(t, validCompany());
    expect(res.statusCode).toBe(201);
    const { id, company } = res.json() as { id: string; company: Record<string, unknown> };
    expect(company).not.toHaveProperty('nzbnCheck');
    await round();
    expect(requests.length).toBe(before);
    expect(await checkOf(id)).toBeNull();
    expect(await pageText(id)).toContain(`${NZBN_TEXT.checkLabel} ${NZBN_TEXT.notChecked}`);
  });
});

describe('without NZBN_API_KEY', () => {
  it('looks nothing up: no worker, no request, and the admin sees not checked', async () => {
    const keyless = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
    try {
      expect(keyless.app.nzbnLookupWorker).toBeNull();
      const before = requests.length;
      const nzbn = newNzbn();
      const res = await register(keyless, { ...validCompany(), nzbn });
      expect(res.statusCode, res.body).toBe(201);
      const { id, company } = res.json() as { id: string; company: Record<string, unknown> };
      expect(company.nzbn).toBe(nzbn);
      expect(company).not.toHaveProperty('nzbnCheck');
      const keylessAdmin = await apiClient(keyless);
      const read = await keylessAdmin.get(`/api/admin/companies/${id}`);
      expect(read.json().company.nzbnCheck).toBeNull();
      expect(requests.length).toBe(before);
    } finally {
      await keyless.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'postgres')('two app instances on one database', () => {
  it('share the lookups due: each number is asked once', async () => {
    const second = await openDatabase({ kind: 'postgres', url: t.databaseUrl! });
    const other = await buildApp({ config: t.config, database: second, startMailWorker: false, clock });
    await other.ready();
    try {
      const numbers: string[] = [];
      const ids: string[] = [];
      for (let i = 0; i < 14; i++) {
        const nzbn = newNzbn();
        const name = `Harbour Freight ${tag()}`;
        ids.push(await applyWith(nzbn, name, { status: 200, entity: entity(nzbn, name), delayMs: 30 }));
        numbers.push(nzbn);
      }
      await round();
      // Due again, all at once (as after a restart with a backlog): both instances' rounds race for them.
      await t.database.db
        .update(companies)
        .set({ nzbnLookup: null, nzbnLookupDueAt: sql`now() - interval '1 minute'`, nzbnLookupAttempts: 0 })
        .where(inArray(companies.id, ids));
      await Promise.all([round(), other.nzbnLookupWorker!.run(), other.nzbnLookupWorker!.run()]);
      for (const [i, nzbn] of numbers.entries()) {
        expect(requestsFor(nzbn), nzbn).toHaveLength(2);
        expect(await checkOf(ids[i]!)).toMatchObject({ result: 'found' });
      }
    } finally {
      await other.close();
      await second.close();
    }
  });
});
