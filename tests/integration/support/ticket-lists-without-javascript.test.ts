// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The user's ticket list (/support) and the console's inbox (/admin/support) as a browser without
 * JavaScript gets them: one GET with the session cookie, the rows already in the page, the filters
 * and the search applied from the address. The console speaks to staff ('Waiting on customer'),
 * the user's pages to the user ('Waiting for you').
 */
let t: TestApp;
let alice: SupportUser;
let bob: SupportUser;
let admin: SupportUser;
type Created = { ticketId: string; ticketNo: number };
/** Alice's: waiting on us, waiting on her (answered, and assigned to the admin), closed; Bob's: waiting on us. */
let ours: Created;
let answered: Created;
let closed: Created;
let bobs: Created;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [alice, bob, admin] = await Promise.all([supportUser(t), supportUser(t), supportUser(t, { role: 'admin' })]);
  ours = await alice.createTicket('General', 'Where has my parcel gone?');
  answered = await alice.createTicket('Incident', 'The zip of my bag is broken.');
  closed = await alice.createTicket('General', 'An old question about kayaks.');
  bobs = await bob.createTicket('General', 'My tramping boots have not arrived.');
  expect(
    (await admin.post(`/api/admin/support/tickets/${answered.ticketId}/messages`, { messageBody: 'On its way.' }))
      .statusCode,
  ).toBe(200);
  expect(
    (await admin.post(`/api/admin/support/tickets/${answered.ticketId}/assign`, { assignee: 'me' })).statusCode,
  ).toBe(200);
  expect((await admin.post(`/api/admin/support/tickets/${closed.ticketId}/close`)).statusCode).toBe(200);
});
afterAll(() => t?.close());

/** The page as a browser without JavaScript receives it. */
async function page(who: SupportUser, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...who.headers } });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toContain('text/html');
  return res.body;
}

/** Markup as text a reader sees: tags, React's text separators and an address's hyphen marks gone, entities read, spaces folded. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->|<wbr\/>/g, '')
    .replace(/<span class="email__hyphen">-<\/span>/g, '-')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The list table's rows (not its header), by ticket number: the row's text and where its link goes. */
function rowsOf(html: string): Map<number, { text: string; href: string }> {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  const rows = new Map<number, { text: string; href: string }>();
  for (const [, row] of body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)) {
    const text = textOf(row!);
    const number = Number(/#(\d+)/.exec(text)?.[1]);
    rows.set(number, { text, href: /href="([^"]+)"/.exec(row!)?.[1] ?? '' });
  }
  return rows;
}

const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

/**
 * The switch of one filter (the buttons named `name`): the GET form it is, what it keeps of the
 * other filters, and each button's value, label and whether it is the one chosen.
 */
function switchOf(html: string, name: string) {
  for (const [, form, inner] of html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    const buttons = [...inner!.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].filter(([, tag]) =>
      tag!.includes(`name="${name}"`),
    );
    if (buttons.length === 0) continue;
    // A GET form's submission replaces the query of its action (HTML's form submission): its path is what counts.
    return {
      method: attribute(form!, 'method'),
      action: new URL(attribute(form!, 'action') ?? '', 'http://localhost').pathname,
      keeps: Object.fromEntries(
        [...inner!.matchAll(/<input type="hidden"([^>]*)>/g)].map(([, tag]) => [
          attribute(tag!, 'name'),
          attribute(tag!, 'value'),
        ]),
      ),
      buttons: buttons.map(([, tag, label]) => ({
        value: attribute(tag!, 'value'),
        label,
        pressed: attribute(tag!, 'aria-pressed') === 'true',
      })),
    };
  }
  return null;
}

/** Where a browser goes when this switch's button `value` is pressed: the form's path, its hidden fields, the button. */
function choose(html: string, name: string, value: string) {
  const form = switchOf(html, name)!;
  expect(form.method).toBe('get');
  return `${form.action}?${new URLSearchParams({ ...form.keeps, [name]: value })}`;
}

/** The ticket numbers a list shows, smallest first. */
const numbersOf = (html: string) => [...rowsOf(html).keys()].sort((a, b) => a - b);

describe('the ticket lists without JavaScript', () => {
  it("/support has the user's own open tickets at once, with links and the user's words for who writes next", async () => {
    const html = await page(alice, '/support');
    expect(numbersOf(html)).toEqual([ours.ticketNo, answered.ticketNo]);
    const rows = rowsOf(html);
    expect(rows.get(ours.ticketNo)).toEqual({
      text: expect.stringContaining(SUPPORT_TEXT.waitingForUs),
      href: `/support/ticket/${ours.ticketId}`,
    });
    expect(rows.get(answered.ticketNo)).toEqual({
      text: expect.stringContaining(SUPPORT_TEXT.waitingForYou),
      href: `/support/ticket/${answered.ticketId}`,
    });
    // Nothing waits on a script: no 'Loading...', and no live status that would never connect.
    expect(html).not.toContain(SUPPORT_TEXT.loading);
    expect(html).not.toContain('Connecting…');
    // The console's words are for staff only.
    expect(html).not.toContain(SUPPORT_TEXT.waitingOnCustomer);
    expect(html).not.toContain(SUPPORT_TEXT.waitingOnUs);
    // The status switch is a GET form to this page: no script needed to change it.
    expect(switchOf(html, 'status')).toEqual({
      method: 'get',
      action: '/support',
      keeps: {},
      buttons: [
        { value: 'open', label: SUPPORT_TEXT.openTickets, pressed: true },
        { value: 'closed', label: SUPPORT_TEXT.closedTickets, pressed: false },
      ],
    });

    const closedList = await page(alice, choose(html, 'status', 'closed'));
    expect(numbersOf(closedList)).toEqual([closed.ticketNo]);
    expect(switchOf(closedList, 'status')!.buttons.find((button) => button.pressed)!.value).toBe('closed');
    expect(rowsOf(closedList).get(closed.ticketNo)!.href).toBe(`/support/ticket/${closed.ticketId}`);
    expect(textOf(closedList)).not.toContain(SUPPORT_TEXT.waitingForUs);

    // The ticket's own page says the same to the user.
    expect(textOf(await page(alice, `/support/ticket/${answered.ticketId}`))).toContain(SUPPORT_TEXT.waitingForYou);
  });

  it('/admin/support has every open ticket at once, with links and the staff words for who writes next', async () => {
    const html = await page(admin, '/admin/support');
    expect(numbersOf(html)).toEqual([ours.ticketNo, answered.ticketNo, bobs.ticketNo]);
    const rows = rowsOf(html);
    expect(rows.get(ours.ticketNo)).toEqual({
      text: expect.stringContaining(SUPPORT_TEXT.waitingOnUs),
      href: `/admin/support/${ours.ticketId}`,
    });
    expect(rows.get(bobs.ticketNo)!.text).toContain(bob.email);
    expect(rows.get(answered.ticketNo)!.text).toContain(SUPPORT_TEXT.waitingOnCustomer);
    expect(rows.get(answered.ticketNo)!.text).toContain(admin.email);
    expect(textOf(html)).toContain('3 open tickets, 2 waiting on us');
    expect(html).not.toContain('Loading...');
    expect(html).not.toContain('Connecting…');
    // The filter's options in staff words, a GET form; the user's words are nowhere in the console.
    expect(switchOf(html, 'waiting')).toEqual({
      method: 'get',
      action: '/admin/support',
      keeps: { status: 'open' },
      buttons: [
        { value: 'all', label: 'All open', pressed: true },
        { value: 'us', label: 'Waiting on us', pressed: false },
        { value: 'you', label: 'Waiting on customer', pressed: false },
        { value: 'third-party', label: 'Waiting on a third party', pressed: false },
      ],
    });
    expect(html).not.toContain(SUPPORT_TEXT.waitingForYou);
    expect(html).not.toContain(SUPPORT_TEXT.waitingForUs);

    // The ticket's page in the console says it to staff too.
    const ticketPage = textOf(await page(admin, `/admin/support/${answered.ticketId}`));
    expect(ticketPage).toContain(SUPPORT_TEXT.waitingOnCustomer);
    expect(ticketPage).not.toContain(SUPPORT_TEXT.waitingForYou);
  });

  it("/admin/support applies the address's filters: status, waiting, assigned", async () => {
    const inbox = await page(admin, '/admin/support');
    const waitingOnUs = await page(admin, choose(inbox, 'waiting', 'us'));
    expect(numbersOf(waitingOnUs)).toEqual([ours.ticketNo, bobs.ticketNo]);
    expect(switchOf(waitingOnUs, 'waiting')!.buttons.find((button) => button.pressed)!.value).toBe('us');
    // The other switches and the search keep this filter when they are used.
    expect(switchOf(waitingOnUs, 'assigned')!.keeps).toEqual({ status: 'open', waiting: 'us' });
    expect(waitingOnUs).toMatch(/<input type="hidden" name="waiting" value="us"\/><label[^>]*>Search tickets/);
    expect(textOf(waitingOnUs)).toContain('2 open tickets, waiting on us');

    const waitingOnCustomer = await page(admin, choose(inbox, 'waiting', 'you'));
    expect(numbersOf(waitingOnCustomer)).toEqual([answered.ticketNo]);
    expect(textOf(waitingOnCustomer)).toContain('1 open ticket, waiting on the customer');

    const closedList = await page(admin, choose(inbox, 'status', 'closed'));
    expect(numbersOf(closedList)).toEqual([closed.ticketNo]);
    expect(rowsOf(closedList).get(closed.ticketNo)).toEqual({
      text: expect.stringContaining('Closed'),
      href: `/admin/support/${closed.ticketId}`,
    });

    expect(numbersOf(await page(admin, '/admin/support?assigned=me'))).toEqual([answered.ticketNo]);
    // Pressing Unassigned on the waiting-on-us list keeps that filter.
    expect(numbersOf(await page(admin, choose(waitingOnUs, 'assigned', 'none')))).toEqual([
      ours.ticketNo,
      bobs.ticketNo,
    ]);
  });

  it('/admin/support?q= shows the matching tickets, open or closed, in staff words', async () => {
    const boots = await page(admin, '/admin/support?q=tramping+boots');
    expect(numbersOf(boots)).toEqual([bobs.ticketNo]);
    expect(rowsOf(boots).get(bobs.ticketNo)).toEqual({
      text: expect.stringContaining(SUPPORT_TEXT.waitingOnUs),
      href: `/admin/support/${bobs.ticketId}`,
    });
    const kayaks = await page(admin, '/admin/support?q=kayaks');
    expect(numbersOf(kayaks)).toEqual([closed.ticketNo]);
    expect(numbersOf(await page(admin, `/admin/support?q=${encodeURIComponent(alice.email)}`))).toEqual([
      ours.ticketNo,
      answered.ticketNo,
      closed.ticketNo,
    ]);
  });
});
