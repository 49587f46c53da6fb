import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConsoleMessage, expect, type Page, test } from '@playwright/test';
import { recordFigure } from '../helpers/figures.ts';
import { hydrated, signIn, verifiedAccount } from './fixtures.ts';
import { PUBLIC_PAGES, recordCspViolations } from './support.ts';

/**
 * The CSP as Chromium enforces it (HDR-01, docs/design.md §5): every page a visitor, a signed-in user
 * and an admin can open runs with zero `securitypolicyviolation` events and no CSP console error,
 * and a page on another loopback origin cannot frame any of them (frame-ancestors), while our own
 * /legal page can frame our legal documents. Records the figure 'csp-browser'.
 */

const VISITOR_PAGES = [
  ...PUBLIC_PAGES,
  '/register',
  '/support',
  '/signup',
  '/forgot-password',
  '/reset-password?token=not-a-real-token',
  '/verify-email?token=not-a-real-token',
  '/account/password',
  '/admin',
  '/documents/terms',
  '/documents/privacy',
];

const figure = {
  pagesVisited: 0,
  cspViolations: 0,
  consoleCspErrors: 0,
  framingAttempts: 0,
  framingBlocked: 0,
  ownFramingWorks: false,
};

const isCspMessage = (msg: ConsoleMessage) =>
  /Content Security Policy|Content-Security-Policy|Refused to (load|execute|apply|frame|connect)/i.test(msg.text());

/** Visits each path in one tab, collecting CSP violation events and CSP console messages. */
async function sweep(page: Page, paths: string[]): Promise<string[]> {
  await recordCspViolations(page);
  const problems: string[] = [];
  let current = '';
  const onConsole = (msg: ConsoleMessage) => {
    if (isCspMessage(msg)) {
      figure.consoleCspErrors += 1;
      problems.push(`${current}: console: ${msg.text()}`);
    }
  };
  page.on('console', onConsole);
  for (const path of paths) {
    current = path;
    const response = await page.goto(path, { waitUntil: 'load' });
    expect(response, path).not.toBeNull();
    expect(response!.status(), path).toBeLessThan(500);
    // Hydration, route modules and their dynamic imports run after load: on a page with the app
    // (React Router's hand-off is in the page), wait until it has taken over (its header says so).
    // Pages without the app (home, about, FAQs, legal, the documents) and those with a small
    // script of their own (register) have run their scripts by load. A refused script, style or
    // request queues its violation event when it is refused, so two frames later every refusal of
    // the page's start is in the list.
    if (await page.evaluate(() => '__reactRouterContext' in window)) await hydrated(page);
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    const violations = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
    figure.cspViolations += violations.length;
    for (const v of violations) problems.push(`${path}: ${v}`);
    figure.pagesVisited += 1;
  }
  page.off('console', onConsole);
  return problems;
}

test.describe.configure({ mode: 'serial' });

test('visitor pages run under the CSP without a single violation', async ({ page }) => {
  expect(await sweep(page, VISITOR_PAGES)).toEqual([]);
});

test('control: the sweep does see a violation when one happens (an image from another origin)', async ({ page }) => {
  await recordCspViolations(page);
  await page.goto('/', { waitUntil: 'load' });
  await page.evaluate(() => {
    const image = new Image();
    image.src = 'https://evil.example/pixel.png';
    document.body.append(image);
  });
  // The refusal's event, whenever the browser gets to it.
  await page.waitForFunction(() => ((window as unknown as { __csp?: string[] }).__csp ?? []).length > 0);
  const violations = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
  expect(violations).toEqual(['img-src https://evil.example/pixel.png']);
});

test('signed-in support pages run under the CSP without a single violation', async ({ page, request }) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const created = await page.request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Checking the CSP on my ticket.' } },
  });
  expect(created.status()).toBe(200);
  const { ticketId } = (await created.json()).result as { ticketId: string };
  expect(
    await sweep(page, [
      '/support',
      '/support/create-ticket',
      `/support/ticket/${ticketId}`,
      '/support/closed',
      '/account/password',
      '/',
    ]),
  ).toEqual([]);
});

test('admin pages run under the CSP without a single violation', async ({ page }) => {
  await signIn(page, process.env.E2E_ADMIN_EMAIL!, process.env.E2E_ADMIN_PASSWORD!);
  const tag = Date.now().toString(36);
  const digits = String(Date.now()).slice(-8);
  const applied = await page.request.post('/api/companies', {
    multipart: {
      companyName: `CSP Couriers ${tag}`,
      phoneNumber: `021${digits}`,
      address: '5 Willis Street, Wellington',
      commercialLicense: {
        name: 'licence.png',
        mimeType: 'image/png',
        buffer: Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
      },
    },
  });
  expect(applied.status(), await applied.text()).toBe(201);
  const companyId = (await applied.json()).id as string;
  const ticket = await page.request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Admin CSP sweep.' } },
  });
  const ticketId = ticket.ok() ? ((await ticket.json()).result as { ticketId: string }).ticketId : null;
  const paths = [
    '/admin',
    '/admin/support',
    '/admin/partners',
    `/admin/partners/${companyId}`,
    '/admin/faqs',
    '/admin/legal',
    '/admin/users',
    '/admin/audit',
    '/legal',
  ];
  if (ticketId) paths.push(`/admin/support/${ticketId}`);
  expect(await sweep(page, paths)).toEqual([]);
});

test('another origin cannot frame our pages; our /legal page can frame our documents', async ({
  page,
  browser,
  baseURL,
}) => {
  const framed = ['/', '/register', '/support', '/admin', '/documents/terms', '/documents/privacy'];
  // A second loopback origin (another port, another host name) with a page that frames them all.
  const hostile = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>framer</title>${framed.map((p, i) => `<iframe id="f${i}" src="${baseURL}${p}"></iframe>`).join('')}`,
    );
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  const { port } = hostile.address() as AddressInfo;
  const context = await browser.newContext();
  const framer = await context.newPage();
  const refusals: string[] = [];
  framer.on('console', (msg) => {
    // Chromium: "Framing '…' violates the following Content Security Policy directive: "frame-ancestors 'none'"…"
    const directive = /directive: "(frame-ancestors [^"]+)"/.exec(msg.text())?.[1];
    if (directive) refusals.push(directive);
  });
  try {
    await framer.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
    // Each refused frame says so in the console: wait for as many refusals as frames (a frame that
    // was let in sends none, and the checks below name it).
    await expect
      .poll(() => refusals.length, { message: 'a frame-ancestors refusal for every framed page', timeout: 15_000 })
      .toBeGreaterThanOrEqual(framed.length)
      .catch(() => undefined);
    for (const [i, path] of framed.entries()) {
      figure.framingAttempts += 1;
      const frame = await framer
        .locator(`#f${i}`)
        .elementHandle()
        .then((h) => h!.contentFrame());
      // A blocked frame shows Chromium's error page (chrome-error://…), never our document.
      const text = frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '';
      const blocked =
        !frame ||
        (!frame.url().startsWith(baseURL!) &&
          !/Bagspace|Send anything|Terms and Conditions|Privacy Policy/i.test(text));
      expect(blocked, `${path} was framed by http://127.0.0.1:${port}`).toBe(true);
      if (blocked) figure.framingBlocked += 1;
    }
    // Pages refuse every framer; the legal documents allow only their own origin.
    expect(refusals.sort()).toEqual([
      ...Array(4).fill("frame-ancestors 'none'"),
      ...Array(2).fill("frame-ancestors 'self'"),
    ]);

    // Control: the same kind of check sees a frame that is allowed, on our own /legal page.
    await recordCspViolations(page);
    await page.goto('/legal', { waitUntil: 'load' });
    const legalFrame = page.frameLocator('iframe').first();
    await expect(legalFrame.getByRole('heading', { name: 'Terms and Conditions' })).toBeVisible({ timeout: 15_000 });
    figure.ownFramingWorks = true;
    expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
  } finally {
    await context.close();
    hostile.closeAllConnections();
    await new Promise((resolve) => hostile.close(resolve));
  }
});

test.afterAll(() => {
  recordFigure('csp-browser', {
    checks: ['HDR-01', 'HDR-05'],
    label: 'CSP in Chromium',
    values: { ...figure },
  });
});
