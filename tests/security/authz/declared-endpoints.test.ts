// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
/**
 * Each endpoint is declared once (src/contracts/api) and the server registers its route from that
 * declaration. Both directions, against the index (src/contracts/api/index.ts): every /api route the
 * app has came from a declaration the index lists, with the same method, path and access, and every
 * declaration the index lists is registered, once. A route written by hand, a declaration the index
 * forgot, or a declaration the server forgot, fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../../src/contracts/api/index.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The /api routes that are not endpoints of the API, each on purpose: the API's own description
 * (generated from the declarations), and the catch-all that answers 404 in JSON to any other /api
 * address. Everything else under /api must be a declaration of the index.
 */
const NOT_ENDPOINTS = new Set(['/api/openapi.json', '/api/*']);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' }, mailWorker: false });
});
afterAll(() => t?.close());

describe('one declaration per endpoint', () => {
  it('every /api route was registered from a declaration of the index, with the same method, path and access', () => {
    const listed = new Set(allEndpoints());
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/api/') && !NOT_ENDPOINTS.has(r.url));
    expect(routes.length).toBeGreaterThanOrEqual(80);
    for (const r of routes) {
      const name = `${r.methods.join(',')} ${r.url}`;
      expect(r.declared, `${name} is registered from a declaration`).toBeDefined();
      expect(listed.has(r.declared!), `${name}: its declaration is listed in src/contracts/api/index.ts`).toBe(true);
      expect([r.declared!.method, 'HEAD']).toEqual(expect.arrayContaining(r.methods));
      expect(r.url).toBe(r.declared!.path);
      expect(r.access).toBe(r.declared!.access);
    }
  });

  it('every declaration of the index is registered exactly once', () => {
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
    expect(new Set(declarations).size, 'no declaration is listed twice').toBe(declarations.length);
  });
});
