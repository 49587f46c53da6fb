import type { ServerBuild } from 'react-router';
import type { RouteHandle } from '../../contracts/web-context.ts';

/**
 * What the pages need of the server, read from the route modules of the build: which take a POST
 * (those exporting an `action`), how large a form each takes (`handle.formBytes`), and which are the
 * same for every anonymous visitor (`handle.cacheForAnonymous`). Nothing is listed twice.
 */
export interface RouteNeeds {
  /** The largest form a POST to this path may send, or null when no page here takes one. */
  formLimit(pathname: string): number | null;
  /** Paths of pages kept whole for anonymous visitors. */
  cachedPaths: ReadonlySet<string>;
  /** Whether the page at this path streams a slow part after its first bytes (`handle.streams`). */
  streams(pathname: string): boolean;
}

/** A form post to a page is small unless the page says otherwise. */
export const PAGE_FORM_LIMIT = 100_000;

const known = new WeakMap<ServerBuild, RouteNeeds>();

export function routeNeeds(build: ServerBuild): RouteNeeds {
  const found = known.get(build);
  if (found) return found;
  const routes = build.routes;
  const fullPath = (id: string): string => {
    const route = routes[id];
    if (!route) return '';
    const parent = route.parentId ? fullPath(route.parentId) : '';
    const own = route.path ?? '';
    return [parent, own].filter(Boolean).join('/').replace(/\/+/g, '/');
  };
  const forms: Array<{ path: RegExp; maxBytes: number }> = [];
  const streamed: RegExp[] = [];
  const cachedPaths = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const path = `/${fullPath(route.id)}`.replace(/\/+$/, '') || '/';
    const handle = (route.module.handle ?? {}) as RouteHandle;
    if (handle.cacheForAnonymous && !path.includes(':') && !path.includes('*')) cachedPaths.add(path);
    const pattern = path
      .split('/')
      .map((part) =>
        part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    if (handle.streams) streamed.push(new RegExp(`^${pattern}$`));
    if (route.module.action && route.id !== 'root') {
      forms.push({ path: new RegExp(`^${pattern}$`), maxBytes: handle.formBytes ?? PAGE_FORM_LIMIT });
    }
  }
  // The most specific path first: /support/ticket/:id before /support/:mode/:id.
  forms.sort(
    (a, b) => b.path.source.replace(/\[\^\/\]\+/g, '').length - a.path.source.replace(/\[\^\/\]\+/g, '').length,
  );
  const needs: RouteNeeds = {
    formLimit: (pathname) => {
      const path = pathname.replace(/\.data$/, '').replace(/\/+$/, '') || '/';
      return forms.find((form) => form.path.test(path))?.maxBytes ?? null;
    },
    cachedPaths,
    streams: (pathname) => {
      const path = pathname.replace(/\/+$/, '') || '/';
      return streamed.some((pattern) => pattern.test(path));
    },
  };
  known.set(build, needs);
  return needs;
}
