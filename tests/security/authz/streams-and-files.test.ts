/**
 * What the matrix (matrix.test.ts) does not fire: live streams opened from another site with a
 * valid cookie (SES-10), and licence files asked for by path instead of through the admin download
 * (AZ-07). The world is the matrix's (tests/helpers/authz-world.ts).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../../src/server/db/schema.ts';
import { concreteUrl, expectedOutcome, matrixRows } from '../../helpers/authz-routes.ts';
import {
  cookieOf,
  createAuthzWorld,
  db,
  type Fixtures,
  fireStream,
  PRINCIPALS,
  recordAuthzPart,
  resetWorld,
  snapshot,
} from '../../helpers/authz-world.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/** What the tests below measured: this file's part of the 'authz-matrix' figure. */
const figures: Record<string, number> = {};

let t: TestApp;
let base: string;
let fx: Fixtures;
beforeAll(async () => {
  ({ t, base, fx } = await createAuthzWorld());
});
afterAll(async () => {
  recordAuthzPart('streams-and-files', figures);
  await t?.close();
});

// --- SES-10: streams refuse other sites ------------------------------------------------------------

describe('SES-10: live streams', () => {
  it('refuse another site (Origin or Fetch Metadata) even with a valid cookie, before anything is sent', async () => {
    const streamRoutes = matrixRows().filter((r) => r.stream);
    expect(streamRoutes.length).toBe(3);
    let checked = 0;
    for (const row of streamRoutes) {
      const spec = row.spec!;
      const allowed = PRINCIPALS.filter((who) => expectedOutcome(spec, who).allow);
      expect(allowed.length).toBeGreaterThan(0);
      for (const who of allowed) {
        await resetWorld(fx);
        const url = concreteUrl(row.url, fx) + (spec.query ?? '');
        const cookie = cookieOf(fx.actors[who]);
        const before = await snapshot(fx);
        const crossSites: Array<Record<string, string>> = [
          { origin: 'https://evil.example' },
          { 'sec-fetch-site': 'cross-site' },
          { origin: 'null' },
        ];
        for (const crossSite of crossSites) {
          const answer = await fireStream(url, { ...cookie, ...crossSite });
          const label = `${row.url} as ${who} with ${JSON.stringify(crossSite)}`;
          expect(answer.status, label).toBe(403);
          expect(answer.contentType, label).toMatch(/^application\/json/);
          expect(JSON.parse(answer.body).error.status, label).toBe('PERMISSION_DENIED');
          checked++;
        }
        expect(await snapshot(fx)).toEqual(before);
        // Control: the site's own origin is let through.
        const own = await fireStream(url, { ...cookie, origin: base });
        expect(own.status, `${row.url} as ${who} from our own origin`).toBe(200);
        expect(own.contentType).toMatch(/^text\/event-stream/);
      }
    }
    figures.streamCrossSiteRefusals = checked;
  });
});

// --- AZ-07: licence files are reachable only through the admin download --------------------------

describe('AZ-07: licence files', () => {
  it('are not served by path, to anyone, under any of the obvious addresses', async () => {
    const [row] = await db()
      .select({ key: companies.commercialLicenseKey })
      .from(companies)
      .where(eq(companies.id, fx.companyId));
    const key = row!.key!;
    expect(key).toMatch(/^commercialLicenses\//);
    for (const url of [
      `/${key}`,
      `/files/${key}`,
      `/api/${key}`,
      `/api/files/${key}`,
      `/documents/../files/${key}`,
      `/${key.replace('.png', '.jpg')}`,
    ]) {
      for (const who of ['anonymous', 'admin'] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers: cookieOf(fx.actors[who]) });
        expect(res.statusCode, `${url} as ${who}`).toBe(404);
        expect(String(res.headers['content-type'])).not.toMatch(/^image\//);
      }
    }
  });
});
