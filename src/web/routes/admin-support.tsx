import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { type AdminTicket, formatNzDateTime, reasonLabel } from '../../contracts/support.ts';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { askWhyRefused, useLiveStream } from '../lib/live.ts';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-support';
import { Email } from '../components/ui/email.tsx';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.support} | ${ADMIN_TEXT.title}`);

const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
] as const;

const COLUMNS = ['Ticket Number', 'User', 'Reason', 'Date of Submission', 'Last Message', 'Status'] as const;

/** /admin/support: every user's tickets, newest last message first, kept up to date live. */
export default function AdminSupportInbox() {
  const [params] = useSearchParams();
  const status = params.get('status') === 'closed' ? 'closed' : 'open';
  const q = params.get('q')?.trim() ?? '';
  const query = `open=${status === 'open'}${q ? `&q=${encodeURIComponent(q)}` : ''}`;
  const [snapshot, setSnapshot] = useState<{ query: string; tickets: AdminTicket[] } | null>(null);
  const live = useLiveStream(
    `/api/admin/support/tickets/stream?${query}`,
    { tickets: (data) => setSnapshot({ query, tickets: (data as { tickets: AdminTicket[] }).tickets }) },
    { onRefused: askWhyRefused(`/api/admin/support/tickets?${query}`) },
  );
  const tickets = snapshot?.query === query ? snapshot.tickets : null;
  const waiting = tickets?.filter((t) => t.unanswered).length ?? 0;

  return (
    <section className="admin-page" aria-labelledby="inbox-title">
      <div className="admin-page__header">
        <h1 id="inbox-title">{ADMIN_TEXT.nav.support}</h1>
        <LiveIndicator status={live} />
      </div>
      <div className="admin-toolbar">
        <SwitchButtons name="status" label="Which tickets" options={STATUS_OPTIONS} value={status} keep={{ q }} />
        <SearchForm
          label="Search tickets by number or user email"
          value={q}
          placeholder="Ticket number or email"
          keep={{ status }}
        />
      </div>
      {tickets === null ? (
        <p className="support-muted" role="status">
          Loading...
        </p>
      ) : (
        <>
          <p className="admin-summary" role="status">
            {tickets.length} {status} {tickets.length === 1 ? 'ticket' : 'tickets'}
            {status === 'open' ? `, ${waiting} unanswered` : ''}
            {q ? ` matching “${q}”` : ''}
          </p>
          {tickets.length === 0 ? (
            <p className="empty-state">
              {q
                ? ADMIN_TEXT.noMatchingTickets
                : status === 'open'
                  ? ADMIN_TEXT.noOpenTickets
                  : ADMIN_TEXT.noClosedTickets}
            </p>
          ) : (
            <DataTable
              caption={`${status === 'open' ? 'Open tickets' : 'Closed tickets'}, newest last message first`}
              columns={COLUMNS}
              className="admin-table"
            >
              {tickets.map((ticket) => (
                <tr
                  key={ticket.id}
                  className={ticket.unanswered && ticket.open ? 'admin-table__row--waiting' : undefined}
                >
                  <td data-label={COLUMNS[0]}>
                    <Link to={`/admin/support/${ticket.id}`} className="ticket-table__link row-link">
                      #{ticket.ticketNo}
                    </Link>
                  </td>
                  <td data-label={COLUMNS[1]} className="admin-table__email">
                    <Email address={ticket.userEmail} />
                  </td>
                  <td data-label={COLUMNS[2]}>{reasonLabel(ticket.reason)}</td>
                  <td data-label={COLUMNS[3]}>{formatNzDateTime(ticket.creationDate)}</td>
                  <td data-label={COLUMNS[4]}>{formatNzDateTime(ticket.lastMessage)}</td>
                  <td data-label={COLUMNS[5]}>
                    {ticket.unanswered ? (
                      <span className="badge badge--waiting">{ADMIN_TEXT.unanswered}</span>
                    ) : (
                      <span className="badge">Answered</span>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </>
      )}
    </section>
  );
}
