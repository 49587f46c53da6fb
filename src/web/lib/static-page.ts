import { createContext, useContext } from 'react';
import type { RouteHandle } from '../../contracts/web-context.ts';
import type { EnhancementName } from './enhancements.ts';

/**
 * Pages that need no React in the browser are served as plain server-rendered HTML without the
 * app's JavaScript (docs/decisions/080-static-public-pages.md): a route opts in with
 * `export const handle = STATIC_PAGE` (home, about, FAQs, legal), or with `enhancedPage(name)`
 * when a small script of its own does what the page needs (the register form). This holds for
 * signed-in visitors too: the header's Sign Out is a form.
 *
 * What the static pages do in the browser, the menu button and the FAQ answers, is a disclosure: a
 * button with `aria-expanded` and `aria-controls`. DISCLOSURE_SCRIPT (disclosure-script.ts, inline,
 * with the response's CSP nonce) toggles them; without JavaScript noscript.css shows everything.
 */
export interface PageHandle extends RouteHandle {
  hydrate: false;
}

/** Static public pages are the same for every anonymous visitor: the server keeps them whole until content changes. */
export const STATIC_PAGE: PageHandle = { hydrate: false, cacheForAnonymous: true };

export const enhancedPage = (
  enhance: EnhancementName,
  needs: Omit<RouteHandle, 'hydrate' | 'enhance'> = {},
): PageHandle => ({
  hydrate: false,
  enhance,
  cacheForAnonymous: true,
  ...needs,
});

/** The handle of the first matched route that opts out of hydration, if any. */
export function staticPageHandle(handles: unknown[]): PageHandle | null {
  const found = handles.find((handle) => (handle as { hydrate?: unknown } | undefined)?.hydrate === false);
  return (found as PageHandle | undefined) ?? null;
}

/**
 * DISCLOSURE_SCRIPT, for the root layout of a page that does not hydrate: given by the server's
 * entry (entry.server.tsx), so the app's bundle, which never draws such a page, goes without it.
 */
export const DisclosureScriptContext = createContext('');
export const useDisclosureScript = () => useContext(DisclosureScriptContext);
