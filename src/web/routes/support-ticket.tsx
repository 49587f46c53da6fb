import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatNzDateTime, type Message, reasonLabel, SUPPORT_TEXT, type Ticket } from '../../contracts/support.ts';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox } from '../features/support/reply-box.tsx';
import { askWhyRefused, useLiveStream } from '../lib/live.ts';
import type { Route } from './+types/support-ticket';
import '../styles/support.css';

export const meta: Route.MetaFunction = () => [{ title: 'Support Ticket' }, { name: 'robots', content: 'noindex' }];

type TicketState = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; ticket: Ticket };

/** Adds messages by id: a message seen twice (a reconnect, our own send) is shown once. */
function merge(current: Message[], incoming: Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** /support/ticket/{ticketId}: the conversation with support, live. */
export default function SupportTicket({ params }: Route.ComponentProps) {
  const { ticketId } = params;
  const [state, setState] = useState<TicketState>({ kind: 'loading' });
  const [messages, setMessages] = useState<Message[]>([]);
  const listRef = useRef<HTMLDivElement>(null);

  const live = useLiveStream(
    `/api/support/tickets/${encodeURIComponent(ticketId)}/messages/stream`,
    {
      ticket: (data) => setState({ kind: 'ready', ticket: data as Ticket }),
      message: (data) => setMessages((current) => merge(current, [data as Message])),
    },
    { onRefused: askWhyRefused(`/api/support/tickets/${encodeURIComponent(ticketId)}`, () => setState({ kind: 'missing' })) },
  );

  // Keep the newest message in view.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  const ticket = state.kind === 'ready' ? state.ticket : null;
  return (
    <section className="support-panel ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/support/">{SUPPORT_TEXT.myTickets}</Link>
      </p>
      <header className="ticket__header">
        <div>
          <h2 id="ticket-title">
            {state.kind === 'loading' ? SUPPORT_TEXT.loading : state.kind === 'missing' ? SUPPORT_TEXT.ticketMissing : `Ticket #${state.ticket.ticketNo}`}
          </h2>
          {ticket ? <p className="ticket__reason">{reasonLabel(ticket.reason)}</p> : null}
        </div>
        {state.kind !== 'missing' ? <LiveIndicator status={live} /> : null}
      </header>
      {state.kind === 'missing' ? null : (
        <>
          <div ref={listRef} className="thread" role="log" aria-live="polite" aria-label="Messages" tabIndex={0}>
            <ol className="thread__list">
            {messages.map((message) => (
              <li key={message.id} className={`bubble ${message.mine ? 'bubble--mine' : 'bubble--theirs'}`}>
                <p className="bubble__meta">
                  <span className="bubble__author">{message.admin ? 'Admin' : 'Me'}</span>
                  <time dateTime={message.timestamp}>{formatNzDateTime(message.timestamp)}</time>
                </p>
                <p className="bubble__body">{message.messageBody}</p>
              </li>
            ))}
            </ol>
          </div>
          {ticket?.open ? (
            <ReplyBox
              ticketId={ticketId}
              onSent={(message) => setMessages((current) => merge(current, [message]))}
              onClosed={() => setState((s) => (s.kind === 'ready' ? { kind: 'ready', ticket: { ...s.ticket, open: false } } : s))}
            />
          ) : ticket ? (
            <p className="ticket__closed" role="status">
              This ticket is closed. {SUPPORT_TEXT.replyRejected}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
