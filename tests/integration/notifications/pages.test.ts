import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueMail, readOutbox } from '../../helpers/mail.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The pages of notification mail, as a browser without JavaScript and a mail program use them:
 * the settings form posts to its own page, and the unsubscribe address takes RFC 8058's one-click
 * POST with no cookie at all.
 */
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { NOTIFY_DELAY_SECONDS: '0' }, mailWorker: false });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const page = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
const postForm = (url: string, body: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

async function answeredTicket(user: SupportUser) {
  const { ticketId, ticketNo } = await user.createTicket('General', 'Hello there.');
  await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Hello back.' });
  await deliverDueMail(t.app);
  const mail = (await readOutbox(t.dataDir)).find(
    (m) => m.to.includes(user.email) && m.subject === `New reply on ticket #${ticketNo}`,
  );
  if (!mail) throw new Error('no reply mail');
  return mail;
}

describe('/account/notifications', () => {
  it('asks a visitor to sign in', async () => {
    const res = await page('/account/notifications');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Please sign in first.');
  });

  it('shows the settings and saves a plain form post (no JavaScript), redirecting (303) to the page', async () => {
    const user = await supportUser(t);
    const before = await page('/account/notifications', user.headers);
    expect(before.body).toContain('Replies to my support tickets');
    expect(before.body).not.toContain('Support team mail');
    expect(before.body).toMatch(/<form[^>]*method="post"/);

    // Only "closed" ticked: replies off.
    const saved = await postForm('/account/notifications', form({ ticketClosed: 'on' }), user.headers);
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/account/notifications?saved=1');
    const api = await user.get('/api/account/notifications');
    expect(api.json()).toEqual({ ticketReplies: false, ticketClosed: true });

    // The page it leads to says so and shows the new settings; without the query it only shows them.
    const after = await page('/account/notifications?saved=1', user.headers);
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Your email settings are saved.');
    const ticked = (name: string) =>
      after.body.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0].includes('checked');
    expect([ticked('ticketReplies'), ticked('ticketClosed')]).toEqual([false, true]);
    expect((await page('/account/notifications', user.headers)).body).not.toContain('Your email settings are saved.');
  });

  it('sends a visitor whose session has ended back to the page, saving nothing', async () => {
    const res = await postForm('/account/notifications', form({ ticketClosed: 'on' }));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/notifications');
  });

  it('shows admins the team setting', async () => {
    const res = await page('/account/notifications', admin.headers);
    expect(res.body).toContain('Support team mail');
  });

  it('refuses a post from another site', async () => {
    const user = await supportUser(t);
    const res = await postForm('/account/notifications', form({}), {
      ...user.headers,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect((await user.get('/api/account/notifications')).json()).toEqual({ ticketReplies: true, ticketClosed: true });
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  it('opening the link only asks; the mail program’s POST with no cookie switches that mail off, and the page says so', async () => {
    const user = await supportUser(t);
    const mail = await answeredTicket(user);
    const url = mail.headers['list-unsubscribe']!.slice(1, -1);
    const path = new URL(url).pathname;
    expect(mail.text).toContain(url);

    const asked = await page(path);
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(`Stop sending “Replies to my support tickets” mail to ${user.email}?`);
    expect((await user.get('/api/account/notifications')).json().ticketReplies).toBe(true);

    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain(
      `Done: we will no longer send “Replies to my support tickets” mail to ${user.email}.`,
    );
    expect((await user.get('/api/account/notifications')).json()).toEqual({ ticketReplies: false, ticketClosed: true });

    // And the next answer is not mailed.
    const { ticketId } = await user.createTicket('General', 'Another one.');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Quietly answered.' });
    await deliverDueMail(t.app);
    expect(
      (await readOutbox(t.dataDir)).filter((m) => m.to.includes(user.email) && m.text.includes('Quietly answered.')),
    ).toHaveLength(0);
  });

  it('says a made-up link is not valid, changing nothing', async () => {
    const bogus = '/unsubscribe/' + 'A'.repeat(43);
    expect((await page(bogus)).body).toContain('This unsubscribe link is not valid.');
    const res = await postForm(bogus, 'List-Unsubscribe=One-Click');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('This unsubscribe link is not valid.');
  });

  it('refuses a form larger than a page form can be', async () => {
    const res = await postForm('/unsubscribe/' + 'A'.repeat(43), `x=${'y'.repeat(200_000)}`);
    expect(res.statusCode).toBe(413);
  });

  it('leaves every other page read-only, saying so in a page to a browser', async () => {
    const res = await postForm('/about', form({ a: 'b' }));
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('This page can only be read.');
    const api = await t.app.inject({
      method: 'POST',
      url: '/about',
      payload: form({ a: 'b' }),
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(api.statusCode).toBe(405);
    expect(api.json().error.message).toBe('This page can only be read.');
  });
});
