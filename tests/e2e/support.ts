import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/faqs',
  '/faqs?type=traveller',
  '/legal',
  '/legal?doc=privacy',
  '/no-such-page',
];
export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

/** Collects what a careful reviewer watches in DevTools: errors, CSP violations, foreign requests. */
export function watchPage(page: Page, origin: string) {
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (msg) => {
    const text = msg.text();
    // A 404 page legitimately logs its own 404 response.
    if (msg.type() === 'error' && !text.includes('status of 404')) problems.push(`console error: ${text}`);
    if (/Content Security Policy|Content-Security-Policy/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('about:')) foreign.push(url);
  });
  return { problems, foreign };
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

/** Registers a listener for CSP violation events before any page script runs. */
export async function recordCspViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/**
 * Axe's WCAG 2.2 checks on the page as it opens, read from its top: a page that jumps to its end on
 * arrival (a ticket's thread) would otherwise be judged with whatever its content's height put under
 * the phone's sticky header, where a button half hidden by the header counts as a target too small.
 */
export async function expectNoAxeViolations(page: Page) {
  // To the top, then two frames for the layout to settle (a page may hold itself a few pixels down,
  // as /register does with an error in view, so the test does not ask for exactly 0).
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        window.scrollTo({ top: 0, behavior: 'instant' });
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
  const results = await new AxeBuilder({ page })
    // Every rule still runs on the whole page and every violation is reported in full; only the
    // passes and the incomplete checks, which are not asserted, are cut to one example each.
    // (options() replaces the options, so it goes before withTags.)
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Nothing on the page is wider than the screen: it never scrolls sideways. On a phone also at
 * 320 px, the narrowest width WCAG's reflow criterion (1.4.10) asks a page to fit.
 */
export async function expectFitsScreen(page: Page, what: string) {
  const viewport = page.viewportSize()!;
  for (const width of viewport.width <= 480 ? [viewport.width, 320] : [viewport.width]) {
    await page.setViewportSize({ width, height: viewport.height });
    const used = await page.evaluate(() => document.documentElement.scrollWidth);
    expect.soft(used, `${what} fits a ${width} px screen`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize(viewport);
}
