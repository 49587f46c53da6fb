// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
/**
 * AZ-01: deny by default. Every route the router knows is in the route table with a declared access
 * policy, and an app with a route that declares none (or an unknown one) refuses to start. The
 * matrix that fires every route as eleven principals is in matrix.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { ACCESS_POLICIES, UndeclaredAccessError } from '../../../src/server/plugins/access.ts';
import { routerPaths } from '../../helpers/authz-world.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  // The matrix's app (tests/helpers/authz-world.ts), without its principals and fixtures.
  t = await createTestApp({ env: { RATE_LIMITS: 'off' }, mailWorker: false });
});
afterAll(() => t?.close());

describe('AZ-01: deny by default', () => {
  it('every route the router knows is in the route table, with a declared policy', () => {
    const router = routerPaths(t.app.printRoutes({ commonPrefix: false }));
    const table = new Map<string, Set<string>>();
    for (const r of t.app.routeTable) {
      expect(ACCESS_POLICIES, `${r.methods} ${r.url}`).toContain(r.access);
      const methods = table.get(r.url) ?? new Set();
      r.methods.forEach((m) => methods.add(m));
      table.set(r.url, methods);
    }
    expect(router.size).toBeGreaterThanOrEqual(40);
    for (const [printed, methods] of router) {
      // find-my-way prints the /api/* catch-all as a bare `*`.
      const url = printed === '*' ? '/api/*' : printed;
      for (const method of methods)
        expect(table.get(url)?.has(method), `${method} ${url} is in the route table`).toBe(true);
    }
  });

  it('refuses to build an app with a route that declares no access policy, or an unknown one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-az01-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    const variants: Array<[string, (app: FastifyInstance) => unknown]> = [
      ['no config', (app) => app.get('/api/undeclared', async () => ({ leaked: true }))],
      ['config without access', (app) => app.post('/api/undeclared', { config: {} }, async () => ({ leaked: true }))],
      [
        'an unknown policy',
        (app) => app.get('/api/undeclared', { config: { access: 'owner' as never } }, async () => ({ leaked: true })),
      ],
      [
        'inside a plugin',
        (app) => app.register(async (child) => void child.put('/api/undeclared', async () => ({ leaked: true }))),
      ],
      [
        'public (control)',
        (app) => app.get('/api/declared', { config: { access: 'public' } }, async () => ({ ok: true })),
      ],
    ];
    try {
      for (const [label, addRoute] of variants) {
        const app = await buildApp({ config, database: t.database });
        let failure: unknown = null;
        try {
          await addRoute(app);
          await app.ready();
        } catch (error) {
          failure = error;
        } finally {
          await app.close().catch(() => undefined);
        }
        if (label.endsWith('(control)')) {
          expect(failure, label).toBeNull();
        } else {
          expect(failure, label).toBeInstanceOf(UndeclaredAccessError);
        }
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
