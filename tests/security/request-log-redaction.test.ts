// One database: what is tested is the request log's text, the same on PGlite and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/server/logging.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * LOG-02 for the partner status link (decision 131): the token in `/partners/status/<token>`
 * is a credential, and the request log never holds it, however the path is spelled: any letter
 * case, percent-encoded letters, doubled slashes, the API's path and the page's data request. The
 * app logs at info level into `logLines`, as a server does.
 */
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  t = await createTestApp({ logger: { ...(loggerOptions('info') as object), stream } as never });
});
afterAll(() => t?.close());

describe('the request log', () => {
  it('never holds a partner status token, whatever the letter case or spelling of the path', async () => {
    const spellings = [
      (token: string) => `/partners/status/${token}`,
      (token: string) => `/api/partners/status/${token}`,
      (token: string) => `/Partners/Status/${token}`,
      (token: string) => `/PARTNERS/STATUS/${token}?x=1`,
      (token: string) => `/API/Partners/status/${token}`,
      (token: string) => `/partners/St%61tus/${token}`,
      (token: string) => `//partners//status/${token}`,
      (token: string) => `/Partners/Status/${token}.data`,
    ];
    const tokens: string[] = [];
    for (const spell of spellings) {
      const token = randomBytes(24).toString('base64url');
      tokens.push(token);
      await t.app.inject({ method: 'GET', url: spell(token) });
    }
    const urls = logLines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter(Boolean);
    expect(urls.length).toBeGreaterThanOrEqual(spellings.length);
    const log = logLines.join('\n');
    for (const token of tokens) expect(log).not.toContain(token);
    expect(urls).toContain('/partners/status/[redacted]');
    expect(urls).toContain('/Partners/Status/[redacted]');
    expect(urls).toContain('/API/Partners/status/[redacted]');
    expect(urls).toContain('/PARTNERS/STATUS/[redacted]?x=1');
  });

  it('keeps other paths as they are, for tracing', async () => {
    await t.app.inject({ method: 'GET', url: '/Partners/Statusboard/visible-part' });
    await t.app.inject({ method: 'GET', url: '/faqs?type=sender' });
    const log = logLines.join('\n');
    expect(log).toContain('/Partners/Statusboard/visible-part');
    expect(log).toContain('/faqs?type=sender');
  });
});
