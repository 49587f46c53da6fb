import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueMail, readOutbox } from '../../helpers/mail.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Mail to a ticket's owner greets them by the name they gave ("Kia ora Aroha,"), or without one
 * ("Kia ora,"), never by their address; it comes from the support address in the answering
 * agent's name ("Sam at Bagspace"), or the team's ("Bagspace Support"), while replies still go to
 * the ticket's own reply address. Saved replies fill in {{user.name}}.
 */
const REPLY_DOMAIN = 'reply.bagspace.test';
const SUPPORT = 'help@bagspace.test';
let t: TestApp;
let sam: SupportUser;
let unnamedAgent: SupportUser;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      NOTIFY_DELAY_SECONDS: '0',
      TICKETS_PER_USER_PER_HOUR: '1000',
      REPLY_DOMAIN,
      SUPPORT_FROM: SUPPORT,
    },
    mailWorker: false,
  });
  [sam, unnamedAgent] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t, { role: 'admin' })]);
  expect((await setName(sam, 'Sam')).statusCode).toBe(200);
});
afterAll(() => t.close());

function setName(user: SupportUser, name: string) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/account/name',
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ name }),
  });
}

async function answer(agent: SupportUser, ticketId: string, messageBody: string) {
  const res = await agent.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody });
  expect(res.statusCode, res.body).toBe(200);
}

async function onlyMailTo(email: string, subject: string) {
  const mails = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email) && m.subject === subject);
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

describe('an answer mailed to the ticket’s owner', () => {
  it('greets them by name and comes from the agent at the support address; replies go to the ticket', async () => {
    const user = await supportUser(t);
    expect((await setName(user, 'Aroha')).statusCode).toBe(200);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Where is my parcel?');
    await answer(sam, ticketId, 'It left Wellington this morning.');
    await deliverDueMail(t.app);

    const mail = await onlyMailTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(mail.text).toContain('Kia ora Aroha,');
    expect(mail.html).toContain('Kia ora Aroha,');
    expect(mail.from).toBe(`"Sam at Bagspace" <${SUPPORT}>`);
    expect(mail.from).not.toContain('no-reply');
    expect(mail.from).not.toContain('Admin');
    expect(mail.headers['reply-to']).toMatch(new RegExp(`@${REPLY_DOMAIN.replaceAll('.', '\\.')}>?$`));
  });

  it('without names: "Kia ora," (never the address) from "Bagspace Support"', async () => {
    const user = await supportUser(t);
    const { ticketId, ticketNo } = await user.createTicket('General', 'Can I send a bike?');
    await answer(unnamedAgent, ticketId, 'Yes, boxed.');
    await deliverDueMail(t.app);

    const mail = await onlyMailTo(user.email, `New reply on ticket #${ticketNo}`);
    expect(mail.text).toMatch(/^Kia ora,$/m);
    const greeting = mail.text.split('\n').find((line) => line.startsWith('Kia ora'));
    expect(greeting).not.toContain(user.email);
    expect(mail.from).toBe(`"Bagspace Support" <${SUPPORT}>`);
  });

  it('a close and a reopen greet by name and come from the support address too', async () => {
    const user = await supportUser(t);
    expect((await setName(user, 'Mere')).statusCode).toBe(200);
    const { ticketId, ticketNo } = await user.createTicket('General', 'All sorted, thanks.');
    expect((await sam.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    await deliverDueMail(t.app);
    const closed = await onlyMailTo(user.email, `Ticket #${ticketNo} was closed`);
    expect(closed.text).toContain('Kia ora Mere,');
    expect(closed.from).toBe(`"Bagspace Support" <${SUPPORT}>`);

    expect((await sam.post(`/api/admin/support/tickets/${ticketId}/reopen`)).statusCode).toBe(200);
    await deliverDueMail(t.app);
    const reopened = await onlyMailTo(user.email, `Ticket #${ticketNo} was reopened`);
    expect(reopened.text).toContain('Kia ora Mere,');
  });

  it('the team’s own mail about a ticket still comes from MAIL_FROM', async () => {
    const user = await supportUser(t);
    const { ticketNo } = await user.createTicket('General', 'A new question for the team.');
    await deliverDueMail(t.app);
    const mail = await onlyMailTo(sam.email, `New ticket #${ticketNo}: General Enquiry`);
    expect(mail.from).toBe(t.config.mail.from);
  });
});

describe('saved replies', () => {
  it('give the ticket the owner’s name (or "there") for {{user.name}}', async () => {
    const named = await supportUser(t);
    expect((await setName(named, 'Aroha')).statusCode).toBe(200);
    const unnamed = await supportUser(t);
    const a = await named.createTicket('General', 'First question here.');
    const b = await unnamed.createTicket('General', 'Second question here.');
    const read = async (id: string) => (await sam.get(`/api/admin/support/tickets/${id}`)).json().ticket;
    expect((await read(a.ticketId)).userName).toBe('Aroha');
    expect((await read(b.ticketId)).userName).toBeNull();
  });
});
