/**
 * Public pages that need no React in the browser (home, about, FAQs, legal) are served as plain
 * server-rendered HTML without the app's JavaScript (docs/performance.md): a route opts in with
 * `export const handle = STATIC_PAGE`. Signed-in visitors still get the app (their header has a
 * Sign Out button), and so does every other page.
 *
 * What those pages do in the browser, the menu button and the FAQ answers, is a disclosure: a
 * button with `aria-expanded` and `aria-controls`. DISCLOSURE_SCRIPT (inline, with the response's
 * CSP nonce) toggles them; without JavaScript noscript.css shows everything.
 */
export const STATIC_PAGE = { hydrate: false } as const;

export function isStaticPage(handles: unknown[]): boolean {
  return handles.some((handle) => (handle as { hydrate?: unknown } | undefined)?.hydrate === false);
}

export const DISCLOSURE_SCRIPT = `document.addEventListener('click',function(e){var b=e.target instanceof Element&&e.target.closest('button[aria-expanded][aria-controls]');if(!b)return;var t=document.getElementById(b.getAttribute('aria-controls'));if(!t)return;var o=b.getAttribute('aria-expanded')!=='true';b.setAttribute('aria-expanded',String(o));if(t.id==='site-nav'){t.classList.toggle('site-nav--open',o);var l=b.querySelector('.visually-hidden');if(l)l.textContent=o?'Close menu':'Open menu'}else t.hidden=!o});`;
