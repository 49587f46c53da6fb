import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type AdminMessage, ADMIN_TEXT } from '../../contracts/admin.ts';
import { type AdminTicket, formatNzDateTime, reasonLabel, SUPPORT_TEXT } from '../../contracts/support.ts';
import { requestJson } from '../features/admin/admin-api.ts';
import { Notice } from '../features/admin/fields.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox } from '../features/support/reply-box.tsx';
import { askWhyRefused, useLiveStream } from '../lib/live.ts';
import type { Route } from './+types/admin-ticket';
import '../styles/support.css';

export const meta = () => [{ title: `Ticket | ${ADMIN_TEXT.title}` }, { name: 'robots', content: 'noindex' }];

type TicketState = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; ticket: AdminTicket };

/** Adds messages by id: a message seen twice (a reconnect, our own send) is shown once. */
function merge(current: AdminMessage[], incoming: AdminMessage[]): AdminMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** /admin/support/{ticketId}: the whole thread, live; answer as Admin; close or reopen. */
export default function AdminTicketPage({ params }: Route.ComponentProps) {
  const { ticketId } = params;
  const [state, setState] = useState<TicketState>({ kind: 'loading' });
  const [messages, setMessages] = useState<AdminMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const encoded = encodeURIComponent(ticketId);

  // Admins may open the user's message stream: it sends the ticket first, then every message.
  const live = useLiveStream(
    `/api/support/tickets/${encoded}/messages/stream`,
    {
      ticket: (data) => setState({ kind: 'ready', ticket: data as AdminTicket }),
      message: (data) => setMessages((current) => merge(current, [data as AdminMessage])),
    },
    { onRefused: askWhyRefused(`/api/admin/support/tickets/${encoded}`, () => setState({ kind: 'missing' }), [404, 400]) },
  );

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  async function setOpen(open: boolean) {
    setBusy(true);
    setProblem(null);
    const result = await requestJson<{ ticket: AdminTicket }>('POST', `/api/admin/support/tickets/${encoded}/${open ? 'reopen' : 'close'}`);
    setBusy(false);
    if (result.ok) setState({ kind: 'ready', ticket: result.data.ticket });
    else setProblem(result.message);
  }

  const ticket = state.kind === 'ready' ? state.ticket : null;
  return (
    <section className="admin-page ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/admin/support">{ADMIN_TEXT.nav.support}</Link>
      </p>
      <header className="ticket__header">
        <div>
          <h1 id="ticket-title" className="admin-ticket__title">
            {state.kind === 'loading' ? SUPPORT_TEXT.loading : state.kind === 'missing' ? SUPPORT_TEXT.ticketMissing : `Ticket #${state.ticket.ticketNo}`}
          </h1>
          {ticket ? (
            <p className="ticket__reason">
              {reasonLabel(ticket.reason)} · from <span className="admin-table__email">{ticket.userEmail}</span> · opened{' '}
              {formatNzDateTime(ticket.creationDate)} · <span className={`badge${ticket.open ? ' badge--open' : ''}`}>{ticket.open ? 'Open' : 'Closed'}</span>
            </p>
          ) : null}
        </div>
        <div className="admin-ticket__actions">
          {state.kind !== 'missing' ? <LiveIndicator status={live} /> : null}
          {ticket ? (
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => void setOpen(!ticket.open)}>
              {ticket.open ? ADMIN_TEXT.closeTicket : ADMIN_TEXT.reopenTicket}
            </button>
          ) : null}
        </div>
      </header>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {state.kind === 'missing' ? null : (
        <>
          <div ref={listRef} className="thread" role="log" aria-live="polite" aria-label="Messages" tabIndex={0}>
            <ol className="thread__list">
              {messages.map((message) => (
                <li key={message.id} className={`bubble ${message.admin ? 'bubble--mine' : 'bubble--theirs'}`}>
                  <p className="bubble__meta">
                    <span className="bubble__author">{message.admin ? 'Admin' : (message.authorEmail ?? 'User')}</span>
                    <time dateTime={message.timestamp}>{formatNzDateTime(message.timestamp)}</time>
                  </p>
                  <p className="bubble__body">{message.messageBody}</p>
                </li>
              ))}
            </ol>
          </div>
          {ticket?.open ? (
            <ReplyBox<AdminMessage>
              ticketId={ticketId}
              postUrl={`/api/admin/support/tickets/${encoded}/messages`}
              onSent={(message) => setMessages((current) => merge(current, [message]))}
              onClosed={() => setState((s) => (s.kind === 'ready' ? { kind: 'ready', ticket: { ...s.ticket, open: false } } : s))}
            />
          ) : ticket ? (
            <p className="ticket__closed" role="status">
              This ticket is closed. Reopen it to answer.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
