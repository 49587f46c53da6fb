import { INBOUND_FOLLOW_UP_TEXT } from '../../../contracts/inbound.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { TicketMailTo } from '../notifications/index.ts';

/**
 * The two answers a mail that posts nothing may get: a reply to a closed ticket (the spec's words,
 * and where to open a new one) and a mail from an address we do not know (how to reach support).
 * Each goes at most once a day to one address, and never to an automatic mail.
 */
export interface InboundMailContext {
  companyName: string;
  publicBaseUrl: string;
}

const reSubject = (subject: string | null | undefined) => {
  const s = (subject ?? '')
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, 150);
  return s === '' ? 'Your mail to support' : /^re:/i.test(s) ? s : `Re: ${s}`;
};

export function closedTicketAnswer(
  ctx: InboundMailContext,
  to: string,
  ticketNo: number,
  subject: string | null,
): MailMessage {
  return {
    to,
    subject: reSubject(subject),
    ...renderMail({
      companyName: ctx.companyName,
      heading: `Ticket #${ticketNo} is closed`,
      paragraphs: [SUPPORT_TEXT.replyRejected, 'Your mail was not added to the ticket.'],
      action: { label: 'Create a new ticket', url: `${ctx.publicBaseUrl}/support/create-ticket` },
      notes: ['This is an automatic answer; we send at most one a day.'],
    }),
  };
}

export function unknownSenderAnswer(ctx: InboundMailContext, to: string, subject: string | null): MailMessage {
  return {
    to,
    subject: reSubject(subject),
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'How to reach our support team',
      paragraphs: [
        `Thank you for writing to ${ctx.companyName}. We could not match your mail to a support ticket or to an account, so nobody has read it.`,
        'To ask for help, sign in (or create an account) and open a support ticket. Once you have a ticket, you can answer our mails about it by replying to them.',
      ],
      action: { label: 'Get help', url: `${ctx.publicBaseUrl}/support` },
      notes: ['This is an automatic answer; we send at most one a day.'],
    }),
  };
}

/**
 * A mailed reply to a closed ticket opened a follow-up (decision 132): the customer is told where
 * their words went, with a link to the new ticket (not rate-limited: one per follow-up opened).
 */
export function followUpAnswer(
  ctx: InboundMailContext,
  to: string,
  opened: { ticketId: string; ticketNo: number },
  closedNo: number,
): MailMessage {
  const heading = INBOUND_FOLLOW_UP_TEXT.customerSubject(opened.ticketNo);
  return {
    to,
    subject: heading,
    ...renderMail({
      companyName: ctx.companyName,
      heading,
      paragraphs: [...INBOUND_FOLLOW_UP_TEXT.customerParagraphs(opened.ticketNo, closedNo)],
      action: {
        label: INBOUND_FOLLOW_UP_TEXT.customerAction,
        url: `${ctx.publicBaseUrl}/support/ticket/${opened.ticketId}`,
      },
    }),
  };
}

/** The closed ticket's assignee hears that a follow-up came in by mail, with its words. */
export function followUpTeamMail(
  ctx: InboundMailContext,
  to: TicketMailTo,
  from: { email: string; words: string },
  closedNo: number,
): MailMessage {
  const { ticket } = to;
  const heading = INBOUND_FOLLOW_UP_TEXT.teamSubject(ticket.ticketNo, closedNo);
  return {
    to: to.to,
    subject: heading,
    ...renderMail({
      companyName: ctx.companyName,
      heading,
      paragraphs: [INBOUND_FOLLOW_UP_TEXT.teamParagraph(from.email, ticket.ticketNo, closedNo)],
      quotes: [from.words],
      action: { label: INBOUND_FOLLOW_UP_TEXT.teamAction, url: `${ctx.publicBaseUrl}/admin/support/${ticket.id}` },
      notes: [INBOUND_FOLLOW_UP_TEXT.teamUnassigned, INBOUND_FOLLOW_UP_TEXT.teamNote(closedNo, to.unsubscribeUrl)],
    }),
  };
}
