import type { ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAGE_FORM_LIMIT, routeNeeds } from './route-needs.ts';

/** A build's route table as React Router writes it: flat, each route naming its parent. */
function buildOf(
  routes: Array<{ id: string; parentId?: string; path?: string; index?: boolean; action?: boolean; handle?: object }>,
) {
  return {
    routes: Object.fromEntries(
      routes.map((r) => [
        r.id,
        {
          id: r.id,
          parentId: r.parentId,
          path: r.path,
          index: r.index,
          module: { default: () => null, ...(r.action ? { action: async () => null } : {}), handle: r.handle },
        },
      ]),
    ),
  } as unknown as ServerBuild;
}

const build = buildOf([
  { id: 'root', path: '' },
  { id: 'routes/home', parentId: 'root', index: true, handle: { hydrate: false, cacheForAnonymous: true } },
  { id: 'routes/faqs', parentId: 'root', path: 'faqs', handle: { hydrate: false, cacheForAnonymous: true } },
  {
    id: 'routes/register',
    parentId: 'root',
    path: 'register',
    action: true,
    handle: { cacheForAnonymous: true, formBytes: 11_000_000 },
  },
  { id: 'routes/support', parentId: 'root', path: 'support', action: true },
  { id: 'routes/support-index', parentId: 'routes/support', index: true },
  {
    id: 'routes/support-ticket',
    parentId: 'routes/support',
    path: 'ticket/:ticketId',
    action: true,
    handle: { formBytes: 52_000_000 },
  },
  { id: 'routes/support-mode', parentId: 'routes/support', path: ':mode/:ticketId' },
  { id: 'routes/admin', parentId: 'root', path: 'admin', action: true },
  { id: 'routes/admin-faqs', parentId: 'routes/admin', path: 'faqs', action: true },
  { id: 'routes/admin-users', parentId: 'routes/admin', path: 'users' },
  {
    id: 'routes/admin-ticket',
    parentId: 'routes/admin',
    path: 'support/:ticketId',
    action: true,
    handle: { streams: true },
  },
  { id: 'routes/unsubscribe', parentId: 'root', path: 'unsubscribe/:token', action: true },
  { id: 'routes/not-found', parentId: 'root', path: '*' },
]);

describe('what the pages need of the server, read from their route modules', () => {
  const needs = routeNeeds(build);

  it('a page takes a POST when its module has an action, up to its handle’s formBytes', () => {
    expect(needs.formLimit('/admin/faqs')).toBe(PAGE_FORM_LIMIT);
    expect(needs.formLimit('/admin/faqs.data')).toBe(PAGE_FORM_LIMIT);
    expect(needs.formLimit('/admin')).toBe(PAGE_FORM_LIMIT);
    expect(needs.formLimit('/register')).toBe(11_000_000);
    expect(needs.formLimit('/support/ticket/abc')).toBe(52_000_000);
    expect(needs.formLimit('/unsubscribe/some-token')).toBe(PAGE_FORM_LIMIT);
  });

  it('a page without an action takes no POST, whatever its parent takes', () => {
    expect(needs.formLimit('/admin/users')).toBeNull();
    expect(needs.formLimit('/faqs')).toBeNull();
    expect(needs.formLimit('/support/open/abc')).toBeNull();
    expect(needs.formLimit('/nowhere')).toBeNull();
    expect(needs.formLimit('/unsubscribe/a/b')).toBeNull();
  });

  it('the pages kept whole for anonymous visitors are those whose handle says so', () => {
    expect([...needs.cachedPaths].sort()).toEqual(['/', '/faqs', '/register']);
  });

  it('the pages that stream a slow part are those whose handle says so (decision 151)', () => {
    expect(needs.streams('/admin/support/3f1c2a4e')).toBe(true);
    expect(needs.streams('/admin/support/3f1c2a4e/')).toBe(true);
    expect(needs.streams('/admin/support/3f1c2a4e/mail/1')).toBe(false);
    expect(needs.streams('/admin/users')).toBe(false);
    expect(needs.streams('/support/ticket/abc')).toBe(false);
  });

  it('reads a build once', () => {
    expect(routeNeeds(build)).toBe(needs);
  });
});
