import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../src/contracts/claims.ts';
import { CALENDAR_TEXT, DEFAULT_CALENDAR, DEFAULT_TARGETS, TARGETS_TEXT } from '../../src/contracts/service-levels.ts';
import type { ServiceLevelSettings } from '../../src/contracts/service-levels.schemas.ts';
import { adminApi, hydrated, signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectFitsScreen, expectNoAxeViolations, VIEWPORTS } from './support.ts';

/**
 * The Business hours page as a team lead uses it, in Chromium: Monday's hours, a target, an
 * exception added and removed, with JavaScript and without; axe and the widths of the console.
 * The calendar and targets are the server's own, shared with the other specs: these tests run one
 * after the other and put the defaults back at the end.
 */
const ADMIN = teamAdmin('hours');
const PAGE = '/admin/business-hours';
const WIDTHS = [
  { width: 1024, height: 800 },
  { width: 1280, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;
const nextYear = new Date().getFullYear() + 1;

test.describe.configure({ mode: 'serial' });

test.afterAll(async ({ baseURL }) => {
  const api = await adminApi(baseURL!);
  expect((await api.put('/api/admin/service-levels/calendar', { data: DEFAULT_CALENDAR })).status()).toBe(200);
  expect((await api.put('/api/admin/service-levels/targets', { data: DEFAULT_TARGETS })).status()).toBe(200);
  expect((await api.put('/api/admin/claims/periods', { data: CLAIM_PERIODS })).status()).toBe(200);
  await api.dispose();
});

async function settingsOf(request: APIRequestContext): Promise<ServiceLevelSettings> {
  const res = await request.get('/api/admin/service-levels');
  expect(res.status()).toBe(200);
  return (await res.json()) as ServiceLevelSettings;
}

async function openPage(page: Page) {
  await signInAt(page, PAGE, ADMIN);
  await expect(page.getByRole('heading', { level: 1, name: CALENDAR_TEXT.title })).toBeVisible();
}

/** The status region of a saved form, in view (the page does not jump away from the form). */
const saved = async (page: Page, text: string) => {
  const notice = page.getByRole('status').filter({ hasText: text });
  await expect(notice).toBeVisible();
  await expect(notice).toBeInViewport();
};

test('with JavaScript: Monday’s hours, a target, an exception added and removed; axe and every width', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(VIEWPORTS.desktop);
  await openPage(page);
  await hydrated(page);
  const monday = page.getByRole('rowheader', { name: /^Monday/ });
  await expect(monday).toContainText('Open 8 h');
  await expect(page.getByRole('rowheader', { name: /^Saturday/ })).toContainText('Closed');

  // Spans that overlap are refused in the browser, in words, the focus on the day's first time.
  await page.getByLabel('Monday, span 1 closes').fill('12:30');
  await page.getByLabel('Monday, span 2 opens').fill('12:00');
  await page.getByLabel('Monday, span 2 closes').fill('17:00');
  await page.getByRole('button', { name: 'Save opening hours' }).click();
  await expect(page.getByText(CALENDAR_TEXT.spansOverlap)).toBeVisible();
  await expect(page.getByLabel('Monday, span 1 opens')).toBeFocused();
  await expect(page.getByLabel('Monday, span 2 opens')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);

  // A lunch break: 08:30–12:00 and 13:00–17:00; the day says what it comes to as it is typed.
  await page.getByLabel('Monday, span 1 opens').fill('08:30');
  await page.getByLabel('Monday, span 1 closes').fill('12:00');
  await page.getByLabel('Monday, span 2 opens').fill('13:00');
  await expect(monday).toContainText('Open 7 h 30 min');
  await page.getByRole('button', { name: 'Save opening hours' }).click();
  await saved(page, CALENDAR_TEXT.saved);
  await expect(page.getByText(CALENDAR_TEXT.spansOverlap)).toBeHidden();
  expect((await settingsOf(page.request)).calendar.hours.mon).toEqual([
    { start: '08:30', end: '12:00' },
    { start: '13:00', end: '17:00' },
  ]);

  // A target: refused in words under its field, then saved.
  const incident = page.getByLabel('Incident Report, first response');
  await incident.fill('soon');
  await page.getByRole('button', { name: 'Save targets' }).click();
  await expect(page.locator('#targets').getByText(TARGETS_TEXT.minutesInvalid)).toBeVisible();
  await expect(incident).toBeFocused();
  await incident.fill('1:30');
  await page.getByRole('button', { name: 'Save targets' }).click();
  await saved(page, TARGETS_TEXT.saved);
  expect((await settingsOf(page.request)).targets.Incident.firstResponse).toBe(90);

  // A claim period: refused in words under its field, then saved; the note says what a change moves.
  await expect(page.getByText(CLAIM_TEXT.periodsNote)).toBeVisible();
  const decision = page.getByLabel('Decision (working days)', { exact: true });
  await decision.fill('0');
  await page.getByRole('button', { name: CLAIM_TEXT.savePeriods }).click();
  await expect(page.locator('#claim-periods').getByText(CLAIM_TEXT.periodInvalid(30))).toBeVisible();
  await expect(decision).toBeFocused();
  await decision.fill('8');
  await page.getByRole('button', { name: CLAIM_TEXT.savePeriods }).click();
  await saved(page, CLAIM_TEXT.periodsSaved);
  const periods = await page.request.get('/api/admin/claims/periods');
  expect((await periods.json()).periods).toEqual({ ...CLAIM_PERIODS, decisionDays: 8 });

  // An exception: closed all day, listed with the holidays ahead; then removed.
  await page.getByLabel('Date', { exact: true }).fill(`${nextYear}-12-24`);
  await page.getByLabel('Closed all day').check();
  await page.getByLabel('Note').fill('Team day');
  await page.getByRole('button', { name: 'Add exception' }).click();
  await saved(page, CALENDAR_TEXT.saved);
  const exceptions = page.getByRole('table', { name: /^Exceptions/ });
  await expect(exceptions.getByRole('row', { name: /24 Dec .* Closed Team day/ })).toBeVisible();
  await expect(page.getByLabel('Date', { exact: true })).toHaveValue('');
  expect((await settingsOf(page.request)).calendar.overrides).toEqual([
    { date: `${nextYear}-12-24`, spans: [], note: 'Team day' },
  ]);
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    await expectFitsScreen(page, `${PAGE} at ${viewport.width} px`);
    if (viewport.width === 390 || viewport.width === 1280) await expectNoAxeViolations(page);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await exceptions.getByRole('button', { name: /Remove the exception on \w+ 24 Dec/ }).click();
  await saved(page, CALENDAR_TEXT.saved);
  await expect(page.getByRole('status').filter({ hasText: CALENDAR_TEXT.saved })).toBeFocused();
  await expect(page.getByRole('table', { name: /^Exceptions/ })).toBeHidden();
  expect((await settingsOf(page.request)).calendar.overrides).toEqual([]);
});

test('without JavaScript: the same edits are real form posts, answered with the page', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.phone, javaScriptEnabled: false });
  const page = await context.newPage();
  await openPage(page);

  // Overlapping spans: the page comes back with the message under the day and what was typed.
  await page.getByLabel('Monday, span 1 opens').fill('09:00');
  await page.getByLabel('Monday, span 1 closes').fill('13:00');
  await page.getByLabel('Monday, span 2 opens').fill('12:00');
  await page.getByLabel('Monday, span 2 closes').fill('17:00');
  await page.getByRole('button', { name: 'Save opening hours' }).click();
  await expect(page.getByText(CALENDAR_TEXT.spansOverlap)).toBeVisible();
  await expect(page.getByLabel('Monday, span 2 opens')).toHaveValue('12:00');

  await page.getByLabel('Monday, span 1 closes').fill('12:00');
  await page.getByLabel('Monday, span 2 opens').fill('13:00');
  await page.getByRole('button', { name: 'Save opening hours' }).click();
  await saved(page, CALENDAR_TEXT.saved);
  await expect(page.getByRole('rowheader', { name: /^Monday/ })).toContainText('Open 7 h');
  expect((await settingsOf(page.request)).calendar.hours.mon).toEqual([
    { start: '09:00', end: '12:00' },
    { start: '13:00', end: '17:00' },
  ]);

  await page.getByLabel('Incident Report, first response').fill('3:00');
  await page.getByRole('button', { name: 'Save targets' }).click();
  await saved(page, TARGETS_TEXT.saved);
  await expect(page.getByLabel('Incident Report, first response')).toHaveValue('3:00');
  expect((await settingsOf(page.request)).targets.Incident.firstResponse).toBe(180);

  await page.getByLabel('Date', { exact: true }).fill(`${nextYear}-12-31`);
  await page.getByLabel('Span 1 opens', { exact: true }).fill('09:00');
  await page.getByLabel('Span 1 closes', { exact: true }).fill('12:00');
  await page.getByRole('button', { name: 'Add exception' }).click();
  await saved(page, CALENDAR_TEXT.saved);
  const row = page.getByRole('table', { name: /^Exceptions/ }).getByRole('row', { name: /31 Dec .* 09:00–12:00/ });
  await expect(row).toBeVisible();
  // (axe runs with JavaScript, in the test above: the page's markup is the same.)
  await expectFitsScreen(page, `${PAGE} without JavaScript`);
  // The page before this post says 'saved' too (the exception was just added): wait for what the
  // Remove itself changes, the table going, then read the notice of the page it loaded.
  await row.getByRole('button', { name: /^Remove/ }).click();
  await expect(page.getByRole('table', { name: /^Exceptions/ })).toBeHidden();
  await saved(page, CALENDAR_TEXT.saved);
  expect((await settingsOf(page.request)).calendar.overrides).toEqual([]);
  await context.close();
});
