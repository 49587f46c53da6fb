import { useState } from 'react';
import { Link } from 'react-router';
import {
  type Message,
  reasonLabel,
  SUPPORT_TEXT,
  type Ticket,
  TicketWithMessagesSchema,
} from '../../contracts/support.ts';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import { loadTicketPage, replyFormAction } from '../features/support/ticket-page.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
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

/** The reply form sent without JavaScript: the endpoint the reply box calls, then this page again. */
export function action({ request, params, context }: Route.ActionArgs) {
  const ticket = encodeURIComponent(params.ticketId);
  return replyFormAction(request, context, {
    api: `/api/support/tickets/${ticket}/messages`,
    page: `/support/ticket/${ticket}`,
  });
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
  const [unsent, setUnsent] = useState(actionData?.messageBody.trim() ? actionData.messageBody : '');

  return (
    <section className="support-panel ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/support/">{SUPPORT_TEXT.myTickets}</Link>
      </p>
      <header className="ticket__header">
        <div>
          <h2 id="ticket-title">
            {thread.missing ? SUPPORT_TEXT.ticketMissing : ticket ? `Ticket #${ticket.ticketNo}` : SUPPORT_TEXT.loading}
          </h2>
          {ticket ? <p className="ticket__reason">{reasonLabel(ticket.reason)}</p> : null}
        </div>
        {/* Live updates need the page's script: without it the status would say Connecting… for ever. */}
        {!thread.missing && hydrated ? <LiveIndicator status={thread.live} /> : null}
      </header>
      {thread.missing ? null : (
        <>
          <TicketThread
            messages={messages}
            mine={(message) => message.mine}
            author={(message) => (message.admin ? 'Admin' : 'Me')}
          />
          {ticket?.open ? (
            <ReplyBox
              ticketId={ticketId}
              clientId={actionData?.clientId || loaderData.clientId}
              kept={actionData}
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
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
