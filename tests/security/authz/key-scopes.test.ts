import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointKey } from '../../../src/contracts/api/index.ts';
import { API_SCOPES, type ApiScope, INTEGRATION_TEXT } from '../../../src/contracts/integrations.ts';
import { recordFigure } from '../../helpers/figures.ts';
import { concreteUrl, matrixRows, MUTATING } from '../../helpers/authz-routes.ts';
import { cookieOf, createAuthzWorld, type Fixtures, resetWorld } from '../../helpers/authz-world.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/**
 * The key scope matrix (docs/decisions/149-service-api-keys.md): every endpoint declaration and every
 * other route, called with a service API key of each scope and with a revoked key. Which scopes may
 * call what is written here by hand, never read from the declarations: a declaration that opens to a
 * scope it should not fails a cell. A refused key gets 403 with the key's message before any handler
 * runs; a revoked one 401; an allowed one gets past the access check (whatever its handler answers
 * then: 404 for an id that names nothing is fine, 401 and 403 are not).
 */
const ALLOWED: Partial<Record<EndpointKey, readonly ApiScope[]>> = {
  'app.openTicket': ['tickets:write'],
  'app.postMessage': ['tickets:write'],
  'app.tickets': ['tickets:read', 'tickets:write'],
  'app.ticket': ['tickets:read', 'tickets:write'],
  'app.partners': ['partners:read'],
  'webhooks.list': ['webhooks:manage'],
  'webhooks.create': ['webhooks:manage'],
  'webhooks.update': ['webhooks:manage'],
  'webhooks.remove': ['webhooks:manage'],
  'webhooks.secret': ['webhooks:manage'],
  'webhooks.deliveries': ['webhooks:manage'],
  'webhooks.redeliver': ['webhooks:manage'],
};
/** Queries an allowed cell needs to be valid. */
const QUERIES: Partial<Record<EndpointKey, string>> = {
  'app.tickets': '?userEmail=owner-of-nothing@example.nz',
  'content.faqs': '?type=general',
};

let t: TestApp;
let fx: Fixtures;
const keys = new Map<ApiScope | 'revoked', string>();

beforeAll(async () => {
  ({ t, fx } = await createAuthzWorld());
  const admin = cookieOf(fx.actors.admin);
  const make = async (name: string, scopes: ApiScope[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name, scopes }),
    });
    if (res.statusCode !== 201) throw new Error(`key: ${res.statusCode} ${res.body}`);
    return res.json() as { key: { id: string }; secret: string };
  };
  for (const scope of API_SCOPES) keys.set(scope, (await make(`Matrix ${scope}`, [scope])).secret);
  const revoked = await make('Matrix revoked', [...API_SCOPES]);
  await t.app.inject({ method: 'POST', url: `/api/admin/api-keys/${revoked.key.id}/revoke`, headers: admin });
  keys.set('revoked', revoked.secret);
});
afterAll(() => t?.close());

describe('the key scope matrix: every route × every scope, and a revoked key', () => {
  it('opens each route to exactly the scopes written here', { timeout: 300_000 }, async () => {
    const mismatches: string[] = [];
    let cells = 0;
    let allowed = 0;
    for (const row of matrixRows()) {
      for (const [scope, secret] of keys) {
        await resetWorld(fx);
        const target = concreteUrl(row.url, fx) + (QUERIES[row.name as EndpointKey] ?? '');
        const may = scope !== 'revoked' && (ALLOWED[row.name as EndpointKey] ?? []).includes(scope);
        // A refusal comes before the body is read: a valid body only where the key may call.
        const request = !MUTATING(row.method)
          ? {}
          : may
            ? await row.body!(fx.actors.admin, fx)
            : { headers: { 'content-type': 'application/json' }, payload: '{}' };
        const res = await t.app.inject({
          method: row.method as 'GET',
          url: target,
          headers: { ...request.headers, authorization: `Bearer ${secret}` },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        cells++;
        const cell = `${row.name} with ${scope}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (scope === 'revoked') {
          if (res.statusCode !== 401 || res.json().error.message !== INTEGRATION_TEXT.keyInvalid) mismatches.push(cell);
        } else if (may) {
          allowed++;
          if ([401, 403].includes(res.statusCode) || res.statusCode >= 500) mismatches.push(cell);
        } else if (res.statusCode !== 403 || res.json().error.message !== INTEGRATION_TEXT.keyNotAllowed) {
          mismatches.push(cell);
        }
      }
    }
    recordFigure('key-scope-matrix', {
      checks: ['AZ-01', 'AZ-02'],
      label: 'every route called with a key of each scope and a revoked key',
      values: { cells, allowed, mismatches: mismatches.length },
    });
    expect(mismatches).toEqual([]);
    expect(allowed).toBeGreaterThan(0);
  });
});
