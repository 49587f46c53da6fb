import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_REPLY_TEXT } from '../../../src/contracts/desk.ts';
import { MACRO_TEXT, NO_NAME } from '../../../src/contracts/macros.ts';
import { escapeHtml } from '../../../src/server/html.ts';
import { postFiles } from '../../helpers/attachment-files.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/** Saved replies: one shared list the admins manage, filled in for a ticket when inserted. */
let t: TestApp;
let admin: SupportUser;
let user: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  [admin, user] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t)]);
});
afterAll(() => t.close());

const api = '/api/admin/support/saved-replies';
const put = (url: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url,
    payload: payload as object,
    headers: { ...admin.headers, origin: 'http://localhost:80' },
  });
const del = (url: string) =>
  t.app.inject({ method: 'DELETE', url, headers: { ...admin.headers, origin: 'http://localhost:80' } });
const postForm = (url: string, fields: Record<string, string>, who: SupportUser) =>
  postPageForm(t, url, fields, { origin: 'http://localhost:80', ...who.headers });
const page = (url: string, who: SupportUser) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...who.headers } });

describe('saved replies', () => {
  it('are added, listed by title, edited and deleted by admins, each change audited', async () => {
    const added = await admin.post(api, {
      title: '  Refund steps ',
      body: 'Hi {{user.email}}, about #{{ticket.number}}…',
    });
    expect(added.statusCode).toBe(200);
    const { id } = added.json().savedReply;
    expect(added.json().savedReply).toMatchObject({ title: 'Refund steps' });
    await admin.post(api, { title: 'apology', body: 'Sorry about that.' });
    expect((await admin.get(api)).json().savedReplies.map((r: { title: string }) => r.title)).toEqual([
      'apology',
      'Refund steps',
    ]);

    const taken = await admin.post(api, { title: 'REFUND STEPS', body: 'Twice' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(SAVED_REPLY_TEXT.titleTaken);
    const blank = await admin.post(api, { title: ' ', body: '' });
    expect(blank.statusCode).toBe(400);
    expect(JSON.stringify(blank.json())).toContain(SAVED_REPLY_TEXT.titleRequired);

    const edited = await put(`${api}/${id}`, { title: 'Refund steps', body: 'New text for #{{ticket.number}}' });
    expect(edited.json().savedReply.body).toBe('New text for #{{ticket.number}}');
    expect((await del(`${api}/${id}`)).statusCode).toBe(200);
    expect((await del(`${api}/${id}`)).statusCode).toBe(404);
    expect((await del(`${api}/not-an-id`)).statusCode).toBe(404);

    const audit = (await admin.get('/api/admin/audit')).json().entries as Array<{ action: string }>;
    const actions = audit.map((e) => e.action);
    for (const action of ['saved-reply.create', 'saved-reply.update', 'saved-reply.delete'])
      expect(actions).toContain(action);
  });

  it('are the team’s only: users are refused', async () => {
    expect((await user.get(api)).statusCode).toBe(403);
    expect((await user.post(api, { title: 'x', body: 'y' })).statusCode).toBe(403);
  });

  it('work as plain forms: the list page adds one, and the ticket’s picker fills the reply box for that ticket', async () => {
    const addedByForm = await postForm(
      '/admin/saved-replies',
      {
        intent: 'add',
        id: '',
        title: 'Where is it',
        body: 'Ticket #{{ticket.number}} for {{user.email}} is on its way.',
      },
      admin,
    );
    expect(addedByForm.statusCode).toBe(303);
    const listPage = (await page('/admin/saved-replies', admin)).body;
    expect(listPage).toContain('Where is it');
    const refused = await postForm(
      '/admin/saved-replies',
      { intent: 'add', id: '', title: '', body: 'kept words' },
      admin,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(SAVED_REPLY_TEXT.titleRequired);
    expect(refused.body).toContain('kept words');

    const { ticketId, ticketNo } = await user.createTicket('General', 'Where is my parcel please?');
    const saved = ((await admin.get(api)).json().savedReplies as Array<{ id: string; title: string }>).find(
      (r) => r.title === 'Where is it',
    )!;
    const filled = await postForm(
      `/admin/support/${ticketId}`,
      { intent: 'insert-saved', savedReplyId: saved.id },
      admin,
    );
    expect(filled.statusCode).toBe(200);
    expect(filled.body).toContain(`Ticket #${ticketNo} for ${user.email.replace('@', '@')} is on its way.`);
  });
});

describe('questions in a saved reply ({{ask:…}}, decision 144)', () => {
  it('come into the reply box as written, and an answer that still has one is refused, its words kept, until they are replaced', async () => {
    const added = await admin.post(api, {
      title: 'Tracking',
      body: 'Kia ora {{customer.name}}, the tracking number for #{{ticket.number}} is {{ask:Tracking number}}.',
    });
    expect(added.statusCode).toBe(200);
    const unknown = await admin.post(api, { title: 'Sign-off', body: 'Ngā mihi, {{agent.name}}' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.body).toBe(MACRO_TEXT.unknown('{{agent.name}}'));

    const customer = await supportUser(t);
    const { ticketId, ticketNo } = await customer.createTicket('General', 'Where is my parcel?');
    const { userName } = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket;
    const name = (userName as string | null)?.trim() || NO_NAME;
    const filled = await postForm(
      `/admin/support/${ticketId}`,
      { intent: 'insert-saved', savedReplyId: added.json().savedReply.id },
      admin,
    );
    const draft = `Kia ora ${name}, the tracking number for #${ticketNo} is {{ask:Tracking number}}.`;
    expect(filled.body).toContain(draft);

    // Without JavaScript the reply box is a multipart form sent to the page: refused, the words kept.
    const sent = await postFiles(
      t,
      `/admin/support/${ticketId}`,
      { ...admin.headers, origin: 'http://localhost:80' },
      { messageBody: draft },
      [],
    );
    expect(sent.statusCode).toBe(400);
    expect(sent.body).toContain(escapeHtml(MACRO_TEXT.unfilled('{{ask:Tracking number}}')));
    expect(sent.body).toContain(escapeHtml(draft));
    const byApi = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: draft });
    expect(byApi.statusCode).toBe(400);
    expect(byApi.json().error.fields.messageBody).toBe(MACRO_TEXT.unfilled('{{ask:Tracking number}}'));

    const thread = async () =>
      ((await customer.get(`/api/support/tickets/${ticketId}`)).json().messages as Array<{ messageBody: string }>).map(
        (m) => m.messageBody,
      );
    expect(await thread()).toEqual(['Where is my parcel?']);
    const answer = draft.replace('{{ask:Tracking number}}', 'NZ123456');
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: answer })).statusCode,
    ).toBe(200);
    expect(await thread()).toEqual(['Where is my parcel?', answer]);
  });
});
