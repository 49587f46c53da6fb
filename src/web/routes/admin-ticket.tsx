import { useState } from 'react';
import { Link } from 'react-router';
import { type AdminMessage, ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  type AdminTicket,
  AdminTicketWithMessagesSchema,
  formatNzDateTime,
  reasonLabel,
  SUPPORT_TEXT,
} from '../../contracts/support.ts';
import { requestJson } from '../lib/api-client.ts';
import { Notice } from '../features/admin/notice.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import { loadTicketPage, replyFormAction } from '../features/support/ticket-page.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';
import { Email } from '../components/ui/email.tsx';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `Ticket | ${ADMIN_TEXT.title}`);

/** The whole thread, read on the server so the page has it without JavaScript (admins only: the layout refuses others). */
export function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return loadTicketPage(context, {
    allowed: Boolean(user?.emailVerified && user.role === 'admin'),
    api: `/api/admin/support/tickets/${encodeURIComponent(params.ticketId)}`,
    schema: AdminTicketWithMessagesSchema,
  });
}

/** The answer form sent without JavaScript: the endpoint the reply box calls, then this page again. */
export function action({ request, params, context }: Route.ActionArgs) {
  const ticket = encodeURIComponent(params.ticketId);
  return replyFormAction(request, context, {
    api: `/api/admin/support/tickets/${ticket}/messages`,
    page: `/admin/support/${ticket}`,
  });
}

/** /admin/support/{ticketId}: the whole thread, live; answer as Admin; close or reopen. */
export default function AdminTicketPage({ params, loaderData, actionData }: Route.ComponentProps) {
  const { ticketId } = params;
  const encoded = encodeURIComponent(ticketId);
  // Admins may open the user's message stream: it sends the ticket first, then every message.
  const thread = useTicketThread<AdminTicket, AdminMessage>({
    streamUrl: `/api/support/tickets/${encoded}/messages/stream`,
    readUrl: `/api/admin/support/tickets/${encoded}`,
    missingStatuses: [404, 400],
    loaded: loaderData.thread,
    loadedMissing: loaderData.missing,
  });
  const { ticket, messages } = thread;
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [unsent, setUnsent] = useState(actionData?.messageBody.trim() ? actionData.messageBody : '');
  const [problem, setProblem] = useState<string | null>(null);

  async function setOpen(open: boolean) {
    setBusy(true);
    setProblem(null);
    const result = await requestJson<{ ticket: AdminTicket }>(
      'POST',
      `/api/admin/support/tickets/${encoded}/${open ? 'reopen' : 'close'}`,
    );
    setBusy(false);
    if (result.ok) thread.setTicket(result.data.ticket);
    else setProblem(result.message);
  }

  return (
    <section className="admin-page ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/admin/support">{ADMIN_TEXT.nav.support}</Link>
      </p>
      <header className="ticket__header">
        <div>
          <h1 id="ticket-title" className="admin-ticket__title">
            {thread.missing ? SUPPORT_TEXT.ticketMissing : ticket ? `Ticket #${ticket.ticketNo}` : SUPPORT_TEXT.loading}
          </h1>
          {ticket ? (
            <p className="ticket__reason">
              {reasonLabel(ticket.reason)} · from <Email className="admin-table__email" address={ticket.userEmail} /> ·
              opened {formatNzDateTime(ticket.creationDate)} ·{' '}
              <span className={`badge${ticket.open ? ' badge--open' : ''}`}>{ticket.open ? 'Open' : 'Closed'}</span>
            </p>
          ) : null}
        </div>
        <div className="admin-ticket__actions">
          {/* Live updates need the page's script: without it the status would say Connecting… for ever. */}
          {!thread.missing && hydrated ? <LiveIndicator status={thread.live} /> : null}
          {ticket ? (
            <button
              type="button"
              className="button button--ghost"
              disabled={busy}
              onClick={() => void setOpen(!ticket.open)}
            >
              {ticket.open ? ADMIN_TEXT.closeTicket : ADMIN_TEXT.reopenTicket}
            </button>
          ) : null}
        </div>
      </header>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {thread.missing ? null : (
        <>
          <TicketThread
            messages={messages}
            mine={(message) => message.admin}
            author={(message) => (message.admin ? 'Admin' : (message.authorEmail ?? 'User'))}
          />
          {ticket?.open ? (
            <ReplyBox<AdminMessage>
              ticketId={ticketId}
              postUrl={`/api/admin/support/tickets/${encoded}/messages`}
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
                This ticket is closed. Reopen it to answer.
              </p>
              {unsent.trim() ? <UnsentReply text={unsent} /> : null}
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
