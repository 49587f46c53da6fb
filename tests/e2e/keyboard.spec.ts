import { expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { DESK_TEXT } from '../../src/contracts/desk.ts';
import { SHORTCUT_TEXT } from '../../src/contracts/shortcuts.ts';
import { customerTicket, hydrated, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * The console's keyboard (docs/decisions/146-console-keyboard.md): a morning's work without the
 * mouse. Every step below is a key press; the sign-in before it is the suite's usual one.
 */
const AGENT = teamAdmin('keyboard');

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Presses `key` until the focus is on the element whose text is `text` (at most `limit` presses). */
async function pressUntilFocused(page: Page, key: string, text: string, limit = 200) {
  for (let i = 0; i < limit; i++) {
    if ((await focusedText(page)) === text) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${text} never took the focus after ${limit} presses of ${key}`);
}

test('a morning at the desk from the keyboard alone: open, assign, answer, note, close, next, the palette, the help and its switch', async ({
  page,
  request,
}) => {
  // The older one first: the inbox lists the newest first, so j from ours finds one after it.
  await customerTicket(request, 'Keyboard: an older question');
  const first = await customerTicket(request, 'Keyboard: where is my parcel?');
  await signInAt(page, '/admin/support', AGENT);

  // / is the search; Esc leaves it, and single keys work again.
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox').first()).toBeFocused();
  await page.keyboard.press('Escape');

  // j along the inbox's rows to the ticket, Enter opens it.
  await pressUntilFocused(page, 'j', `#${first.ticketNo}`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: `Ticket #${first.ticketNo}` })).toBeVisible();
  await expect(page.locator('.live-indicator, [class*="live"]').first()).toBeVisible();

  // a assigns it to me.
  await page.keyboard.press('a');
  const assigned = page.locator('dt', { hasText: DESK_TEXT.assignedTo }).locator('+ dd');
  await expect(assigned).toHaveText('me');

  // r enters the reply box; the letters typed there are words, not shortcuts (a, n, c among them).
  await page.keyboard.press('r');
  const reply = page.getByPlaceholder('Write a message');
  await expect(reply).toBeFocused();
  await page.keyboard.type('An answer: it is on its way, courier confirmed.');
  await page.keyboard.press('Enter');
  await expect(page.locator('.bubble__body', { hasText: 'An answer: it is on its way' })).toBeVisible();
  await expect(assigned).toHaveText('me');
  await page.keyboard.press('Escape');

  // n enters the note box.
  await page.keyboard.press('n');
  await expect(page.getByPlaceholder(DESK_TEXT.notePlaceholder)).toBeFocused();
  await page.keyboard.type('Checked with the courier.');
  await page.keyboard.press('Enter');
  await expect(page.locator('.bubble__body', { hasText: 'Checked with the courier.' })).toBeVisible();
  await page.keyboard.press('Escape');

  // c closes it.
  await page.keyboard.press('c');
  await expect(page.getByText('This ticket is closed. Reopen it to answer.')).toBeVisible();

  // j goes on to the next ticket the inbox showed.
  await page.keyboard.press('j');
  await expect(page).not.toHaveURL(new RegExp(`/admin/support/${first.ticketId}$`));
  await expect(page.getByRole('heading', { name: /^Ticket #\d+$/ })).toBeVisible();

  // Ctrl+K: the palette, found by typing, run with Enter.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('combobox', { name: SHORTCUT_TEXT.palette });
  await expect(palette).toBeFocused();
  await expectNoAxeViolations(page);
  await page.keyboard.type(ADMIN_TEXT.nav.savedReplies);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/saved-replies$/);

  // ? lists the shortcuts; its switch turns single keys off, and then i does nothing.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: SHORTCUT_TEXT.help });
  await expect(help).toBeVisible();
  await expectNoAxeViolations(page);
  const toggle = help.getByRole('switch', { name: new RegExp(SHORTCUT_TEXT.toggle) });
  await pressUntilFocused(page, 'Tab', `${SHORTCUT_TEXT.toggle}: ${SHORTCUT_TEXT.on}`, 10);
  // The choice goes to the account (the console layout's action).
  const kept = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/admin'),
  );
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect((await kept).ok()).toBe(true);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.keyboard.press('i');
  await expect(page).toHaveURL(/\/admin\/saved-replies$/);
  // It is the account's, not this browser's: with the browser's storage emptied and the page read
  // again, single keys stay off.
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.reload();
  await hydrated(page);
  await page.keyboard.press('i');
  await expect(page).toHaveURL(/\/admin\/saved-replies$/);
  // Ctrl+K still works: it offers to turn them on (the account's choice), and does.
  await page.keyboard.press('Control+k');
  await expect(palette).toBeFocused();
  await page.keyboard.type(SHORTCUT_TEXT.turnOn);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: SHORTCUT_TEXT.turnOff })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  await page.keyboard.press('i');
  await expect(page).toHaveURL(/\/admin\/support$/);
});
