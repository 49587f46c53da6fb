import { useState } from 'react';
import { Link } from 'react-router';
import {
  type Message,
  reasonLabel,
  SUPPORT_TEXT,
  type Ticket,
  TicketWithMessagesSchema,
  waitingOn,
} from '../../contracts/support.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import { isMultipart, loadTicketPage, replyFormAction } from '../features/support/ticket-page.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
import { deskFormAction, textField } from '../features/support/desk-actions.ts';
import { RatingForm } from '../features/support/rating-form.tsx';
import { useHydrated } from '../lib/hydrated.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'support', 'Support Ticket');

/** The thread, read on the server so the page has it without JavaScript (the layout signs in anyone else). */
export function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return loadTicketPage(context, {
    allowed: Boolean(user?.emailVerified),
    api: `/api/support/tickets/${encodeURIComponent(params.ticketId)}`,
    schema: TicketWithMessagesSchema,
  });
}

/**
 * The page's forms, with or without JavaScript: the reply (the endpoint the reply box calls) and,
 * once closed, the rating (intent=rate); then this page again.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const ticket = encodeURIComponent(params.ticketId);
  const page = `/support/ticket/${ticket}`;
  // A reply with files streams on to the API unread (its form has no intent).
  if (isMultipart(request))
    return replyFormAction(request, context, { api: `/api/support/tickets/${ticket}/messages`, page });
  const form = await request.clone().formData();
  if (textField(form, 'intent') === 'rate') {
    const good = textField(form, 'good');
    return deskFormAction(context, {
      intent: 'rate',
      api: `/api/support/tickets/${ticket}/rating`,
      body: {
        good: good === 'true' ? true : good === 'false' ? false : undefined,
        comment: textField(form, 'comment'),
      },
      page,
    });
  }
  return replyFormAction(request, context, { api: `/api/support/tickets/${ticket}/messages`, page });
}

/** /support/ticket/{ticketId}: the conversation with support, live. */
export default function SupportTicket({ params, loaderData, actionData }: Route.ComponentProps) {
  const { ticketId } = params;
  const encoded = encodeURIComponent(ticketId);
  const thread = useTicketThread<Ticket, Message>({
    streamUrl: `/api/support/tickets/${encoded}/messages/stream`,
    readUrl: `/api/support/tickets/${encoded}`,
    loaded: loaderData.thread,
    loadedMissing: loaderData.missing,
  });
  const { ticket, messages } = thread;
  const hydrated = useHydrated();
  // Words a refused reply carried: kept on the page, with a way to send them as a new ticket.
  const refusedReply = actionData && 'messageBody' in actionData ? actionData : undefined;
  const ratingError = actionData && !('messageBody' in actionData) ? actionData.error : null;
  const [unsent, setUnsent] = useState(refusedReply?.messageBody.trim() ? refusedReply.messageBody : '');
  // The rating's 7 days are counted from the page's load (the server decides on a send).
  const [now] = useState(() => Date.now());

  return (
    <section className="support-panel ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/support/">{SUPPORT_TEXT.myTickets}</Link>
      </p>
      {/* The status sits beside the title, the reason on the line below across the whole width: the
          header keeps its height whichever status it shows (Connecting… is twice as wide as Live). */}
      <header className="ticket__header ticket__header--chat">
        <h2 id="ticket-title">
          {thread.missing ? SUPPORT_TEXT.ticketMissing : ticket ? `Ticket #${ticket.ticketNo}` : SUPPORT_TEXT.loading}
        </h2>
        {/* Live updates need the page's script: without it the status would say Connecting… for ever. */}
        {!thread.missing && hydrated ? <LiveIndicator status={thread.live} /> : null}
        {ticket ? (
          <p className="ticket__reason">
            {reasonLabel(ticket.reason)} {/* From the thread itself, so it changes the moment a message arrives. */}
            <WaitingBadge waiting={waitingOn(ticket.open, messages.at(-1)?.admin)} />
          </p>
        ) : null}
      </header>
      {thread.missing ? null : (
        <>
          <TicketThread
            messages={messages}
            mine={(message) => message.mine}
            author={(message) => (message.admin ? 'Admin' : 'Me')}
            wholeMail={(message) => `/support/ticket/${encoded}/mail/${message.id}`}
          />
          {ticket?.open ? (
            <ReplyBox
              ticketId={ticketId}
              clientId={refusedReply?.clientId || loaderData.clientId}
              kept={refusedReply}
              onSent={thread.addMessage}
              onClosed={(text) => {
                setUnsent(text);
                thread.setTicket({ ...ticket, open: false });
              }}
            />
          ) : ticket ? (
            <>
              <p className="ticket__closed" role="status">
                This ticket is closed. {SUPPORT_TEXT.replyRejected}
              </p>
              {unsent.trim() ? <UnsentReply text={unsent} newTicket /> : null}
              <RatingForm rating={ticket.rating} error={ratingError} now={now} />
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
