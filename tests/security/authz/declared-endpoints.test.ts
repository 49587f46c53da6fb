/**
 * Each endpoint is declared once (src/contracts/api) and the server registers its route from that
 * declaration: every /api route the app has came from a declaration with the same method and path,
 * and every declaration is registered, once. A route written by hand, or a declaration the server
 * forgot, fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../../src/contracts/api/index.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Routes that are not endpoints of the API: the API's own description, and the catch-all that answers 404 in JSON. */
const NOT_ENDPOINTS = new Set(['/api/openapi.json', '/api/*']);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' }, mailWorker: false });
}, 60_000);
afterAll(() => t?.close());

describe('one declaration per endpoint', () => {
  it('every /api route was registered from its declaration, with the same method, path and access', () => {
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/api/') && !NOT_ENDPOINTS.has(r.url));
    expect(routes.length).toBeGreaterThanOrEqual(80);
    for (const r of routes) {
      expect(r.declared, `${r.methods.join(',')} ${r.url} is registered from a declaration`).toBeDefined();
      expect([r.declared!.method, 'HEAD']).toEqual(expect.arrayContaining(r.methods));
      expect(r.url).toBe(r.declared!.path);
      expect(r.access).toBe(r.declared!.access);
    }
  });

  it('every declaration is registered exactly once', () => {
    // Fastify adds a HEAD route beside each GET, from the same options: only the declared method counts.
    const registered = t.app.routeTable
      .filter((r) => r.declared && r.methods.includes(r.declared.method))
      .map((r) => r.declared);
    const declarations = allEndpoints();
    for (const declaration of declarations) {
      const times = registered.filter((d) => d === declaration).length;
      expect(times, `${declaration.method} ${declaration.path} is registered once`).toBe(1);
    }
    const keys = declarations.map((d) => `${d.method} ${d.path}`);
    expect(new Set(keys).size, 'no two declarations name the same method and path').toBe(keys.length);
  });
});
