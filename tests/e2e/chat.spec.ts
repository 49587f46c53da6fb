import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminApi, HYDRATED_HEADER, hydrated, signInToTickets, verifiedAccount } from './fixtures.ts';
import { expectNoAxeViolations, VIEWPORTS } from './support.ts';

/** The ticket page as a chat: the reply box stays in reach, the newest message in view. */

async function ticketWithMessages(request: APIRequestContext, count: number) {
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const created = await request.post('/api/functions/createSupportTicket', {
    data: { data: { reason: 'General', message: 'Message 1 of the thread.' } },
  });
  expect(created.status()).toBe(200);
  const { ticketId } = (await created.json()).result as { ticketId: string };
  for (let i = 2; i <= count; i++) {
    const res = await request.post(`/api/support/tickets/${ticketId}/messages`, {
      data: { messageBody: `Message ${i} of the thread.` },
    });
    expect(res.status()).toBe(200);
  }
  return { user, ticketId };
}

/** The element lies wholly inside the browser's viewport. */
async function expectInViewport(page: Page, selector: ReturnType<Page['locator']>) {
  const box = await selector.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, 'on the page').not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 1);
}

/** The newest message is visible inside the thread's scrolled area and on the screen. */
async function expectNewestInView(page: Page, text: string) {
  const last = page.getByRole('log', { name: 'Messages' }).getByRole('listitem').last();
  await expect(last).toContainText(text);
  await expect(last).toBeInViewport();
  await expectInViewport(page, last);
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`with 30 messages the reply box and the newest message are on screen (${label}), also with a keyboard-sized viewport`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const { user, ticketId } = await ticketWithMessages(request, 30);
    await signInToTickets(page, user);
    // Where the newest message is the moment the app has taken over the page: a chat opens at its
    // end, it does not glide there (a smooth scroll left it below the screen for a third of a second).
    await page.addInitScript((hydratedHeader) => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(hydratedHeader)) return;
        observer.disconnect();
        const last = document.querySelector('[role="log"] li:last-child');
        Object.assign(window, { newestBottom: last?.getBoundingClientRect().bottom });
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
    }, HYDRATED_HEADER);
    await page.goto(`/support/ticket/${ticketId}`);
    await hydrated(page);
    const atHydration = await page.evaluate(() => (window as { newestBottom?: number }).newestBottom);
    expect(atHydration, 'the newest message on screen when the page is ready').toBeLessThanOrEqual(viewport.height + 1);
    const box = page.getByLabel('Your message');
    await expectInViewport(page, box);
    await expectNewestInView(page, 'Message 30 of the thread.');

    // An on-screen keyboard takes about 45 % of a phone's height.
    await box.focus();
    await page.setViewportSize({ width: viewport.width, height: Math.round(viewport.height * 0.55) });
    await expectInViewport(page, box);
    await expectNewestInView(page, 'Message 30 of the thread.');
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
  });
}

test('on a phone the thread does not move when the status changes from Connecting… to Live', async ({
  page,
  request,
}) => {
  await page.setViewportSize(VIEWPORTS.phone);
  const { user, ticketId } = await ticketWithMessages(request, 3);
  await signInToTickets(page, user);
  const threadTop = () =>
    page.getByRole('log', { name: 'Messages' }).evaluate((element) => element.getBoundingClientRect().top + scrollY);

  // The stream held open without an answer: the page stays on Connecting….
  await page.route('**/messages/stream**', () => {});
  await page.goto(`/support/ticket/${ticketId}`);
  await expect(page.getByText('Connecting…', { exact: true })).toBeVisible();
  const connecting = await threadTop();

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  expect(await threadTop()).toBe(connecting);
});

/** A user on a phone, on a live ticket of 20 messages, scrolled up to its first one. */
async function readerScrolledUp(page: Page, request: APIRequestContext, baseURL: string) {
  await page.setViewportSize(VIEWPORTS.phone);
  const { user, ticketId } = await ticketWithMessages(request, 20);
  const admin = await adminApi(baseURL);
  await signInToTickets(page, user);
  await page.goto(`/support/ticket/${ticketId}`);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const thread = page.getByRole('log', { name: 'Messages' });
  const fromEnd = () => thread.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
  await thread.evaluate((element) => element.scrollTo({ top: 0, behavior: 'instant' }));
  await expect.poll(fromEnd).toBeGreaterThan(200);
  return { admin, ticketId, fromEnd };
}

test('for a reader who asked for less motion the marker jumps to the end instead of gliding', async ({
  page,
  request,
  baseURL,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const { admin, ticketId, fromEnd } = await readerScrolledUp(page, request, baseURL!);
  const posted = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { data: { messageBody: 'Hi.' } });
  expect(posted.status()).toBe(200);
  await page.getByRole('button', { name: /^New messages \(1\)$/ }).click();
  // At the end the moment the click is handled, not a few frames later.
  expect(await fromEnd()).toBeLessThan(48);
  await admin.dispose();
});

test('a reader who scrolled up is told of new messages, and the marker takes them there', async ({
  page,
  request,
  baseURL,
}) => {
  const { admin, ticketId, fromEnd } = await readerScrolledUp(page, request, baseURL!);
  expect(
    (
      await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
        data: { messageBody: 'An answer from us.' },
      })
    ).status(),
  ).toBe(200);
  const marker = page.getByRole('button', { name: /^New messages \(1\)$/ });
  await expect(marker).toBeVisible();
  // The reader's place is kept until they ask.
  expect(await fromEnd()).toBeGreaterThan(200);
  // A message that arrives while the thread glides to the end is followed too, not announced.
  await marker.click();
  expect(
    (
      await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { data: { messageBody: 'Sent mid-glide.' } })
    ).status(),
  ).toBe(200);
  await expectNewestInView(page, 'Sent mid-glide.');
  await expect(marker).toBeHidden();

  // At the end already, a new message simply shows.
  expect(
    (
      await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { data: { messageBody: 'And one more.' } })
    ).status(),
  ).toBe(200);
  await expectNewestInView(page, 'And one more.');
  await expect(marker).toBeHidden();
  await admin.dispose();
});

test('words typed while a message is on its way stay in the box, and Enter then sends them once it is answered', async ({
  page,
  request,
}) => {
  const { user, ticketId } = await ticketWithMessages(request, 1);
  await signInToTickets(page, user);
  await page.goto(`/support/ticket/${ticketId}`);
  await hydrated(page);
  const box = page.getByLabel('Your message');
  const thread = page.getByRole('log', { name: 'Messages' }).getByRole('listitem');

  // The first message's answer is held back (a slow network, a busy server) until the next is typed.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let posts = 0;
  await page.route(
    (url) => url.pathname.startsWith(`/support/ticket/${ticketId}`),
    async (route) => {
      if (route.request().method() === 'POST' && posts++ === 0) await held;
      await route.continue();
    },
  );
  await box.fill('The first thing I wanted to say.');
  await box.press('Enter');
  await expect.poll(() => posts).toBe(1);
  await box.fill('And the second, typed while the first was on its way.');
  await box.press('Enter');
  release();

  // Both reach the thread, once each, in order; the box is empty after the second.
  await expect(thread.filter({ hasText: 'The first thing I wanted to say.' })).toHaveCount(1);
  await expect(thread.filter({ hasText: 'And the second, typed while the first was on its way.' })).toHaveCount(1);
  await expect(thread.last()).toContainText('And the second');
  await expect(box).toHaveValue('');
  const stored = await request.get(`/api/support/tickets/${ticketId}`);
  expect(JSON.stringify(await stored.json())).toContain('And the second, typed while the first was on its way.');
});
