/**
 * The multipart limits of the licence upload (UP-06) and the 10 MB limit counted while the file
 * streams in (UP-01): too many files, fields, parts and headers are refused and store nothing; a
 * drip-fed body is closed by the request time-out; 20 MB sent chunked is refused at the 10 MB mark
 * without being buffered. How fast a refusal comes is the bench's to measure, not a wall-clock
 * bound here (one took 5.2 s on a machine loaded six times over).
 *
 * One database: multipart limits and time-outs act on the request before the database is asked.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { companies } from '../../../src/server/db/schema.ts';
import { storedFiles } from '../../helpers/registration.ts';
import { openTestDatabase, type TestApp } from '../../helpers/test-app.ts';
import { JPEG_SEED, PNG_SEED } from '../../helpers/upload-corpus.ts';
import { DEFAULT_WAIT_MS } from '../../helpers/wait.ts';
import {
  fieldParts,
  licencePart,
  multipart,
  type RawPart,
  send,
  startUploadApp,
  uniqueCompany,
} from '../../helpers/upload-requests.ts';

let t: TestApp;
beforeAll(async () => {
  ({ t } = await startUploadApp());
});
afterAll(() => t?.close());

describe('multipart limits (UP-06) and streaming (UP-01)', () => {
  it('refuses two files under different names, ten thousand fields, and thirty parts, storing nothing', async () => {
    const filesBefore = storedFiles(t);
    const before = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0]!.n;
    const cases: Array<[string, RawPart[]]> = [
      [
        'two files (licence, then another field)',
        [
          licencePart(PNG_SEED),
          { name: 'commercialLicense2', filename: 'b.png', contentType: 'image/png', body: PNG_SEED },
        ],
      ],
      [
        'two files (another field, then licence)',
        [{ name: 'avatar', filename: 'b.jpg', contentType: 'image/jpeg', body: JPEG_SEED }, licencePart(PNG_SEED)],
      ],
      ['10,000 fields', Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, body: 'x' }))],
      [
        '10,000 empty fields named like the licence',
        Array.from({ length: 10_000 }, () => ({ name: 'commercialLicense', body: '' })),
      ],
      [
        '30 tiny files',
        Array.from({ length: 30 }, (_, i) => ({
          name: `file${i}`,
          filename: `${i}.png`,
          contentType: 'image/png',
          body: 'x',
        })),
      ],
    ];
    for (const [label, parts] of cases) {
      const res = await send(parts);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      expect(res.json().error.status).toBe('INVALID_ARGUMENT');
    }
    const after = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0]!.n;
    expect(after).toBe(before);
    expect(storedFiles(t)).toEqual(filesBefore);
  });

  it('bounds part headers and field names: 300 headers, a 20 kB header, a 10 kB field name; no 5xx, no stray file', async () => {
    const disposition = 'Content-Disposition: form-data; name="commercialLicense"; filename="a.png"';
    const cases: Array<[string, RawPart, number[]]> = [
      // The parser keeps the first 20 header pairs and drops the rest: the licence is still read.
      [
        '300 headers after the disposition',
        {
          name: '',
          disposition: `${disposition}${Array.from({ length: 300 }, (_, i) => `\r\nX-H${i}: v`).join('')}`,
          contentType: 'image/png',
          body: PNG_SEED,
        },
        [201, 400],
      ],
      // …so a disposition after 300 headers is never seen: a nameless part, skipped without being stored.
      [
        '300 headers before the disposition',
        {
          name: '',
          disposition: `${Array.from({ length: 300 }, (_, i) => `X-H${i}: v\r\n`).join('')}${disposition}`,
          contentType: 'image/png',
          body: PNG_SEED,
        },
        [201, 400],
      ],
      [
        'one 20 kB header line',
        {
          name: '',
          disposition: `${disposition}\r\nX-Long: ${'v'.repeat(20_000)}`,
          contentType: 'image/png',
          body: PNG_SEED,
        },
        [201, 400],
      ],
      ['a 10 kB field name', { name: 'n'.repeat(10_000), body: 'x' }, [400]],
    ];
    for (const [label, part, allowed] of cases) {
      const filesBefore = storedFiles(t);
      const res = await send(part);
      expect(allowed, `${label}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      const added = storedFiles(t).filter((f) => !filesBefore.includes(f));
      const kept = res.statusCode === 201 && res.json().company.commercialLicenseUrl !== null;
      expect(added, label).toEqual(kept ? [`commercialLicenses/${res.json().id}.png`] : []);
    }
  });

  it('sets a finite request timeout in production (Fastify’s default is none)', () => {
    expect(t.app.server.requestTimeout).toBeGreaterThan(0);
    expect(t.app.server.requestTimeout).toBeLessThanOrEqual(300_000);
  });

  it('closes a body drip-fed a byte at a time within the request timeout, and leaves no file behind', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    });
    const db = await openTestDatabase();
    const requestTimeoutMs = 1500;
    const app = await buildApp({ config, database: db.database, requestTimeoutMs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as AddressInfo;
      const { payload, headers } = multipart([
        ...fieldParts(uniqueCompany()),
        licencePart(Buffer.concat([PNG_SEED, Buffer.alloc(100_000)])),
      ]);
      const cut = payload.indexOf(PNG_SEED) + 64; // well into the file, so a partial upload exists
      const filesBefore = storedFiles(t);
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', () => {});
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
      const started = performance.now();
      socket.write(
        `POST /api/companies HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
      );
      socket.write(payload.subarray(0, cut));
      let offset = cut;
      const drip = setInterval(() => {
        if (!socket.destroyed && offset < payload.length) socket.write(payload.subarray(offset, ++offset));
      }, 100);
      const closedAt = await Promise.race([
        closed,
        // Time is the subject: the server's request timeout is what is tested; this bounds the wait.
        new Promise<number>((resolve) => setTimeout(() => resolve(-1), 10_000)),
      ]);
      clearInterval(drip);
      socket.destroy();
      expect(closedAt, 'the connection was still open after 10 s').toBeGreaterThan(0);
      const elapsed = closedAt - started;
      expect(elapsed).toBeGreaterThanOrEqual(requestTimeoutMs - 100);
      expect(elapsed).toBeLessThan(requestTimeoutMs * 2 + 1000);
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
      // The interrupted upload is removed once the parser notices the body is gone.
      await expect.poll(() => storedFiles(t), { timeout: DEFAULT_WAIT_MS }).toEqual(filesBefore);
      const partial = path.join(t.dataDir, 'files', '.partial');
      await expect
        .poll(() => (fs.existsSync(partial) ? fs.readdirSync(partial) : []), { timeout: DEFAULT_WAIT_MS })
        .toEqual([]);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('refuses 20 MB sent chunked without a length at the 10 MB mark, without buffering it (UP-01)', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const { payload, headers } = multipart([
      ...fieldParts(uniqueCompany()),
      licencePart(Buffer.concat([PNG_SEED, Buffer.alloc(20 * 1024 * 1024, 0x2a)])),
    ]);
    const filesBefore = storedFiles(t);
    const rssBefore = process.memoryUsage().rss;
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/companies', headers }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      // No Content-Length: Node sends Transfer-Encoding: chunked.
      for (let i = 0; i < payload.length; i += 256 * 1024) req.write(payload.subarray(i, i + 256 * 1024));
      req.end();
    });
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    expect(status.status, status.body).toBe(400);
    expect(JSON.parse(status.body).error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileTooLarge });
    expect(storedFiles(t)).toEqual(filesBefore);
    // The test process holds the 20 MB body itself; the server side must not add a copy of it.
    expect(rssGrowth).toBeLessThan(2 * 20 * 1024 * 1024);
  });
});
