// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { type SupportUser, supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/**
 * The ticket pages as a browser without JavaScript meets them: the thread is in the page's HTML,
 * and the reply box is a form posted to the page, whose action calls the same endpoint the
 * JavaScript version calls.
 */
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t.close());

// inject's requests come to host localhost:80: a form of this site says so in its Origin.
const ORIGIN = 'http://localhost:80';

const getPage = (url: string, who: { headers: Record<string, string> }) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...who.headers } });

const postForm = (url: string, fields: Record<string, string>, who: { headers: Record<string, string> }) =>
  postPageForm(t, url, fields, { origin: ORIGIN, ...who.headers });

async function messagesOf(user: SupportUser, ticketId: string): Promise<string[]> {
  const res = await user.get(`/api/support/tickets/${ticketId}/messages`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { messages: { messageBody: string }[] }).messages.map((m) => m.messageBody);
}

describe('the user ticket page without JavaScript', () => {
  it('renders the thread on the server, takes a reply (303 back to the page) and shows it', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('Incident', 'My suitcase arrived with a broken wheel.');
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
      messageBody: 'Sorry to hear that, a photo please.',
    });
    const page = `/support/ticket/${ticketId}`;

    const shown = await getPage(page, user);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toContain('text/html');
    expect(shown.body).toContain(`Ticket #${ticketNo}`);
    expect(shown.body).toContain('Incident Report');
    expect(shown.body).toContain('My suitcase arrived with a broken wheel.');
    expect(shown.body).toContain('Sorry to hear that, a photo please.');
    expect(shown.body).not.toContain(SUPPORT_TEXT.loading);
    // A multipart form: it takes files too, with the browser's own file input until a script runs.
    expect(shown.body).toMatch(/<form class="reply-box reply-box--files"[^>]*enctype="multipart\/form-data"/i);
    expect(shown.body).toMatch(/<input[^>]*type="file"[^>]*name="files"/);
    expect(shown.body).toMatch(/<textarea[^>]*name="messageBody"/);
    // Nothing but a script could enable Send again, so the page does not disable it.
    expect(shown.body).not.toMatch(/<button[^>]*disabled=""[^>]*aria-label="Send"/);
    const clientId = /name="clientId" value="([^"]+)"/.exec(shown.body)?.[1];
    expect(clientId).toBeTruthy();

    const fields = { messageBody: 'Here is the photo of the wheel.', clientId: clientId! };
    const sent = await postForm(page, fields, user);
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
    expect(String(sent.headers.location)).toMatch(new RegExp(`^${page}#message-\\d+$`));
    // The same form again (a double click) is stored once.
    const again = await postForm(page, fields, user);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(sent.headers.location);
    expect(await messagesOf(user, ticketId)).toEqual([
      'My suitcase arrived with a broken wheel.',
      'Sorry to hear that, a photo please.',
      'Here is the photo of the wheel.',
    ]);

    const after = await getPage(page, user);
    const id = String(sent.headers.location).split('#')[1];
    expect(after.body).toContain(`id="${id}"`);
    expect(after.body).toContain('Here is the photo of the wheel.');
  });

  it('refuses an empty reply with a readable message and sends nothing', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Where is my parcel today?');
    const res = await postForm(`/support/ticket/${ticketId}`, { messageBody: '   ' }, user);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(SUPPORT_TEXT.replyEmpty);
    expect(await messagesOf(user, ticketId)).toEqual(['Where is my parcel today?']);
  });

  it('a closed ticket answers with the spec message and keeps the text', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Is my payout on its way?');
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    const res = await postForm(`/support/ticket/${ticketId}`, { messageBody: 'Hello, are you still there?' }, user);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(SUPPORT_TEXT.replyRejected);
    expect(res.body).toContain('Hello, are you still there?');
    expect(await messagesOf(user, ticketId)).toEqual(['Is my payout on its way?']);
  });

  it('another user’s ticket does not exist for them, and their reply is refused', async () => {
    const owner = await supportUser(t);
    const other = await supportUser(t);
    const { ticketId } = await owner.createTicket('Deactivation', 'Please close my account soon.');
    const page = `/support/ticket/${ticketId}`;

    const shown = await getPage(page, other);
    expect(shown.statusCode).toBe(404);
    expect(shown.body).toContain(SUPPORT_TEXT.ticketMissing);
    expect(shown.body).not.toContain('Please close my account soon.');
    expect(shown.body).not.toContain('name="messageBody"');

    const res = await postForm(page, { messageBody: 'Not my ticket at all.' }, other);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain(SUPPORT_TEXT.ticketMissing);
    expect(await messagesOf(owner, ticketId)).toEqual(['Please close my account soon.']);
  });

  it('a visitor gets the login screen, and a reply form from another site is refused', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'A question about fees.');
    const page = `/support/ticket/${ticketId}`;
    const visitor = await getPage(page, { headers: {} });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).toContain('Sign in to get help');
    expect(visitor.body).not.toContain('A question about fees.');

    const res = await postForm(page, { messageBody: 'Sent from a visitor.' }, { headers: {} });
    expect(res.statusCode).toBe(401);
    const forged = await postForm(
      page,
      { messageBody: 'Sent from elsewhere.' },
      {
        headers: { ...user.headers, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      },
    );
    expect(forged.statusCode).toBe(403);
    expect(await messagesOf(user, ticketId)).toEqual(['A question about fees.']);
  });
});

describe('the admin ticket page without JavaScript', () => {
  it('renders the thread with the user’s email, and an answer is posted as Admin', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('Incident', 'The courier never came by.');
    const page = `/admin/support/${ticketId}`;

    const shown = await getPage(page, admin);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(`Ticket #${ticketNo}`);
    expect(shown.body).toContain(user.email);
    expect(shown.body).toContain('The courier never came by.');
    expect(shown.body).toMatch(/<textarea[^>]*name="messageBody"/);

    const sent = await postForm(page, { messageBody: 'We will send another courier.' }, admin);
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
    expect(String(sent.headers.location)).toMatch(new RegExp(`^${page}#message-\\d+$`));
    const thread = (await user.get(`/api/support/tickets/${ticketId}/messages`)).json() as {
      messages: { messageBody: string; admin: boolean }[];
    };
    expect(thread.messages.at(-1)).toMatchObject({ messageBody: 'We will send another courier.', admin: true });
    expect((await getPage(page, admin)).body).toContain('We will send another courier.');

    const empty = await postForm(page, { messageBody: '' }, admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(SUPPORT_TEXT.replyEmpty);
  });

  it('a closed ticket keeps the answer’s text; an unknown ticket does not exist', async () => {
    const user = await supportUser(t);
    const { ticketId } = await user.createTicket('General', 'Thanks, all sorted now.');
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    const res = await postForm(`/admin/support/${ticketId}`, { messageBody: 'Glad to hear it!' }, admin);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('This ticket is closed.');
    expect(res.body).toContain(SUPPORT_TEXT.replyNotSent);
    expect(res.body).toContain('Glad to hear it!');
    expect(await messagesOf(user, ticketId)).toEqual(['Thanks, all sorted now.']);

    const unknown = await getPage('/admin/support/4d1c5a52-0000-4000-8000-000000000000', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain(SUPPORT_TEXT.ticketMissing);
  });

  it('a user who is not an admin can neither read nor answer', async () => {
    const owner = await supportUser(t);
    const { ticketId } = await owner.createTicket('General', 'Only admins may read this.');
    const page = `/admin/support/${ticketId}`;
    const shown = await getPage(page, owner);
    expect(shown.body).not.toContain('Only admins may read this.');
    const res = await postForm(page, { messageBody: 'Answering as Admin?' }, owner);
    expect(res.statusCode).toBe(403);
    expect(await messagesOf(owner, ticketId)).toEqual(['Only admins may read this.']);
  });
});
