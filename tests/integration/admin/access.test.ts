import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPermission } from '../../../src/contracts/endpoint.ts';
import { createUser, signIn, withCookie } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * AZ-06: every admin route, read and write verbs alike, answers 401 to anonymous callers and 403 to
 * signed-in users who are not admins. The list comes from the live route table, so a route added
 * tomorrow is checked tomorrow; one that needs a sample body fails here until it gets one.
 */

/**
 * Bodies that pass each route's schema: the refusal must come from the access check whichever runs
 * first, it or validation (an anonymous caller learns nothing about an admin route's input).
 */
const SAMPLE_BODIES: Record<string, unknown> = {
  'POST /api/admin/support/tickets/:ticketId/messages': { messageBody: 'Hello from nowhere' },
  'POST /api/admin/companies/:companyId/reject': { reason: 'Licence unreadable' },
  'POST /api/admin/faqs': { type: 'general', title: 'A question', content: 'An answer' },
  'PUT /api/admin/faqs/:faqId': { type: 'general', title: 'A question', content: 'An answer' },
  'POST /api/admin/faqs/reorder': { type: 'general', ids: [] },
  'PUT /api/admin/settings/legal-links': { terms: '/documents/terms', privacy: '/documents/privacy' },
  'PUT /api/admin/documents/:slug': { title: 'Terms', body: 'Text' },
  'POST /api/admin/users/:userId/roles': { roles: ['admin'] },
  'PUT /api/admin/role-options': { auditorReadsHeldMail: false },
  'POST /api/admin/invitations': { email: 'invitee@example.nz', roles: ['agent'] },
};

function concreteUrl(url: string): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => {
    if (name === 'faqId') return '1';
    if (name === 'slug') return 'terms';
    if (name === 'fileIndex') return '0';
    if (name.endsWith('Id')) return randomUUID();
    throw new Error(`access test: no sample value for the path parameter :${name} of ${url}`);
  });
}

/** Full paths with their methods, read from Fastify's own router (independent of the route table). */
function routerPaths(tree: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round(at / 4);
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3))!;
    const path = (stack[depth - 1] ?? '') + match[1];
    stack[depth] = path;
    stack.length = depth + 1;
    if (match[2] && match[2] !== '-') found.set(path, match[2].split(', '));
  }
  return found;
}

let t: TestApp;
let userCookie: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t);
  userCookie = withCookie(t, await signIn(t, user.email, user.password));
});
afterAll(() => t.close());

describe('the admin route table', () => {
  it('holds every route the router knows, and every /api/admin route is admin-only', () => {
    const router = routerPaths(t.app.printRoutes({ commonPrefix: false }));
    const table = new Map(t.app.routeTable.map((r) => [r.url, r]));
    const adminPaths = [...router.keys()].filter((path) => path.startsWith('/api/admin'));
    expect(adminPaths.length).toBeGreaterThanOrEqual(15);
    for (const path of adminPaths) {
      const access = table.get(path)?.access;
      expect(access !== undefined && isPermission(access), `${path} in the route table needs a staff permission`).toBe(
        true,
      );
    }
    for (const route of t.app.routeTable.filter((r) => r.access !== undefined && isPermission(r.access))) {
      expect(
        route.url.startsWith('/api/admin/') || route.url === '/api/admin',
        `${route.url} lives under /api/admin`,
      ).toBe(true);
      expect(router.has(route.url), `${route.url} is routed`).toBe(true);
    }
  });
});

describe('every admin route and verb', () => {
  const cases = () =>
    t.app.routeTable
      .filter((r) => r.access !== undefined && isPermission(r.access))
      .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, url: r.url })));

  it('covers the console: support, companies, FAQs, legal, documents, users and audit', () => {
    const urls = new Set(cases().map((c) => `${c.method} ${c.url}`));
    for (const expected of [
      'GET /api/admin/support/tickets',
      'GET /api/admin/support/tickets/stream',
      'POST /api/admin/support/tickets/:ticketId/close',
      'GET /api/admin/companies',
      'POST /api/admin/companies/:companyId/approve',
      'GET /api/admin/companies/:companyId/license',
      'DELETE /api/admin/faqs/:faqId',
      'PUT /api/admin/settings/legal-links',
      'PUT /api/admin/documents/:slug',
      'POST /api/admin/users/:userId/disable',
      'GET /api/admin/audit',
    ]) {
      expect(urls.has(expected), expected).toBe(true);
    }
  });

  it('answers 401 to anonymous callers and 403 to signed-in users who are not admins', async () => {
    const list = cases();
    expect(list.length).toBeGreaterThanOrEqual(25);
    for (const { method, url } of list) {
      const key = `${method} ${url}`;
      const target = concreteUrl(url);
      const payload = SAMPLE_BODIES[key];
      const send = (headers: Record<string, string>) =>
        t.app.inject({
          method: method as 'GET',
          url: target,
          headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
      const anonymous = await send({});
      expect(anonymous.statusCode, `${key} anonymous: ${anonymous.body}`).toBe(401);
      expect(anonymous.json().error.status).toBe('UNAUTHENTICATED');
      const member = await send(userCookie);
      expect(member.statusCode, `${key} as a user: ${member.body}`).toBe(403);
      expect(member.json().error.status).toBe('PERMISSION_DENIED');
      // Nothing of the admin's data leaks into a refusal.
      expect(Object.keys(member.json())).toEqual(['error']);
    }
  });
});
