import { expect, test } from '@playwright/test';
import { hydrated, openTicketByCallable, signInAt, verifiedAccount } from './fixtures.ts';

/**
 * A customer's ticket on a phone does not move as its script takes over: the first paint can come
 * before the page hydrates (its document is small, compressed), so whatever the script draws in
 * place of the server's controls (the reply box's paperclip, the live status) must take the same
 * room. Measured with the browser's own layout-shift entries, as Lighthouse's CLS is.
 */
test('the customer’s ticket keeps its layout as the page hydrates, on a phone', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  await signInAt(page, '/support', user);
  await expect(page.getByRole('link', { name: 'New Ticket' })).toBeVisible();
  const { ticketId } = await openTicketByCallable(page, 'Incident', 'Where is my parcel?');
  for (let i = 0; i < 8; i++) {
    const sent = await page.request.post(`/api/support/tickets/${ticketId}/messages`, {
      data: { messageBody: `Another detail, number ${i + 1}.` },
    });
    expect(sent.status()).toBe(200);
  }
  await page.addInitScript(() => {
    const shifts: Array<{ value: number; nodes: string[] }> = [];
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; sources?: Array<{ node?: Node }> }
      >)
        shifts.push({
          value: entry.value,
          nodes: (entry.sources ?? []).map((source) => (source.node as Element | undefined)?.className ?? '?'),
        });
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/support/ticket/${ticketId}`);
  await hydrated(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  // The shifts so far, read once the page has settled (the next frame after it went live).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifts = await page.evaluate(
    () => (window as unknown as { shifts: Array<{ value: number; nodes: string[] }> }).shifts,
  );
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  // Lighthouse calls under 0.1 good; the page should not come near: nothing of size moves at all.
  expect(total, JSON.stringify(shifts)).toBeLessThan(0.001);
  await context.close();
});
