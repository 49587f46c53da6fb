import { DESK_TEXT } from '../../../contracts/desk.ts';
import { greetingFor, renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';

/**
 * Notification mails: a plain-text and an HTML part with the same words, links built from
 * PUBLIC_BASE_URL, no tracking. Subjects hold only the ticket number and our fixed reasons; what a
 * person wrote goes in the body, escaped by the layout, never into a header.
 */
export interface NotificationMailContext {
  companyName: string;
  publicBaseUrl: string;
  /** Set when replies by mail are received (REPLY_DOMAIN): the notes say a reply to the mail works. */
  replyDomain?: string | undefined;
}

/** A ticket's owner as their mail names them: the address it goes to, and the name it greets (if any). */
export interface MailPerson {
  email: string;
  name: string | null;
}

/** How to answer: by mail when replies are received, otherwise on the site. */
const howToAnswer = (ctx: NotificationMailContext) =>
  ctx.replyDomain ? 'Reply to this mail or open the ticket.' : 'To answer, open the ticket and write your reply there.';

export interface TicketRef {
  id: string;
  ticketNo: number;
  reason: string;
}

export const settingsNote = (
  ctx: Pick<NotificationMailContext, 'publicBaseUrl'>,
  what: string,
  unsubscribeUrl: string,
) =>
  `You get this mail because ${what}. To stop these mails, open ${unsubscribeUrl}, or choose which mails you get at ${ctx.publicBaseUrl}/account/notifications.`;

export function ticketReplyMail(
  ctx: NotificationMailContext,
  to: MailPerson,
  ticket: TicketRef,
  answers: string[],
  unsubscribeUrl: string,
): MailMessage {
  return {
    to: to.email,
    subject: `New reply on ticket #${ticket.ticketNo}`,
    ...renderMail({
      companyName: ctx.companyName,
      greeting: greetingFor(to.name),
      heading: `New reply on ticket #${ticket.ticketNo}`,
      paragraphs: [
        answers.length === 1
          ? `Our support team answered your ticket #${ticket.ticketNo} (${ticket.reason}):`
          : `Our support team sent ${answers.length} answers on your ticket #${ticket.ticketNo} (${ticket.reason}):`,
      ],
      quotes: answers,
      action: { label: 'Open the ticket', url: `${ctx.publicBaseUrl}/support/ticket/${ticket.id}` },
      notes: [howToAnswer(ctx), settingsNote(ctx, 'you have a support ticket with us', unsubscribeUrl)],
    }),
  };
}

/**
 * The close, with the answers sent with it that the owner has not seen (`answers`, oldest first):
 * they come first, as in a reply mail, so the mail that ends the conversation also carries its
 * last words.
 */
export function ticketClosedMail(
  ctx: NotificationMailContext,
  to: MailPerson,
  ticket: TicketRef,
  unsubscribeUrl: string,
  answers: string[] = [],
): MailMessage {
  const closed = `Our support team closed your ticket #${ticket.ticketNo} (${ticket.reason}). You can still read the whole conversation.`;
  const answered =
    answers.length === 1
      ? `Our support team answered your ticket #${ticket.ticketNo} (${ticket.reason}) and closed it:`
      : `Our support team sent ${answers.length} answers on your ticket #${ticket.ticketNo} (${ticket.reason}) and closed it:`;
  // With answers, the lead introduces them (quoted right under it) and the rest follows the link.
  const after = [
    'If something is still not right, start a new ticket from the support page.',
    `${DESK_TEXT.rateTitle} Tell us under the ticket: ${DESK_TEXT.good} or ${DESK_TEXT.bad}, and a comment if you like.`,
  ];
  const settings = settingsNote(ctx, 'you have a support ticket with us', unsubscribeUrl);
  return {
    to: to.email,
    subject: `Ticket #${ticket.ticketNo} was closed`,
    ...renderMail({
      companyName: ctx.companyName,
      greeting: greetingFor(to.name),
      heading: `Ticket #${ticket.ticketNo} was closed`,
      paragraphs: answers.length === 0 ? [closed, ...after] : [answered],
      quotes: answers,
      // The link only opens the ticket's page at its rating form: the rating is given there, by a
      // button, since mail scanners open every link in a mail.
      action: { label: 'Rate our help', url: `${ctx.publicBaseUrl}/support/ticket/${ticket.id}#rating` },
      notes: answers.length === 0 ? [settings] : [...after, settings],
    }),
  };
}

export function ticketReopenedMail(
  ctx: NotificationMailContext,
  to: MailPerson,
  ticket: TicketRef,
  unsubscribeUrl: string,
): MailMessage {
  return {
    to: to.email,
    subject: `Ticket #${ticket.ticketNo} was reopened`,
    ...renderMail({
      companyName: ctx.companyName,
      greeting: greetingFor(to.name),
      heading: `Ticket #${ticket.ticketNo} was reopened`,
      paragraphs: [
        `Our support team reopened your ticket #${ticket.ticketNo} (${ticket.reason}). The conversation goes on where it left off.`,
      ],
      action: { label: 'Open the ticket', url: `${ctx.publicBaseUrl}/support/ticket/${ticket.id}` },
      notes: [howToAnswer(ctx), settingsNote(ctx, 'you have a support ticket with us', unsubscribeUrl)],
    }),
  };
}

export function teamTicketMail(
  ctx: NotificationMailContext,
  to: string,
  ticket: TicketRef,
  from: { email: string; text: string },
  kind: 'new-ticket' | 'user-reply',
  unsubscribeUrl: string,
  /** Mailed to the ticket's assignee alone rather than to the whole team. */
  assignedToYou = false,
): MailMessage {
  const heading =
    kind === 'new-ticket'
      ? `New ticket #${ticket.ticketNo}: ${ticket.reason}`
      : `New reply from a user on ticket #${ticket.ticketNo}`;
  return {
    to,
    subject: heading,
    ...renderMail({
      companyName: ctx.companyName,
      heading,
      paragraphs: [
        kind === 'new-ticket'
          ? `${from.email} opened ticket #${ticket.ticketNo} (${ticket.reason}):`
          : `${from.email} wrote on ticket #${ticket.ticketNo} (${ticket.reason}):`,
      ],
      quotes: [from.text],
      action: { label: 'Answer in the console', url: `${ctx.publicBaseUrl}/admin/support/${ticket.id}` },
      notes: [
        ...(ctx.replyDomain ? [howToAnswer(ctx)] : []),
        settingsNote(
          ctx,
          assignedToYou
            ? `ticket #${ticket.ticketNo} is assigned to you on the ${ctx.companyName} support team`
            : `you are on the ${ctx.companyName} support team`,
          unsubscribeUrl,
        ),
      ],
    }),
  };
}
