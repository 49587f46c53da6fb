import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { reasonLabel, SUPPORT_TEXT, type Ticket } from '../../contracts/support.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { DataTable } from '../components/ui/data-table.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { supportApi } from '../../contracts/api/support.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import { api } from '../lib/api-client.ts';
import { askWhyRefused, useLiveStream } from '../lib/live.ts';
import type { Route } from './+types/support-tickets';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'support', 'Support Tickets');

const STATUS_OPTIONS = [
  { value: 'open', label: SUPPORT_TEXT.openTickets },
  { value: 'closed', label: SUPPORT_TEXT.closedTickets },
] as const;

/** /support and any unknown mode: the signed-in user's tickets, kept up to date live. */
export default function SupportTickets() {
  const [params] = useSearchParams();
  const status = params.get('status') === 'closed' ? 'closed' : 'open';
  const [tickets, setTickets] = useState<{ status: string; list: Ticket[] } | null>(null);
  const query = { open: status === 'open' ? 'true' : 'false' } as const;
  const live = useLiveStream(
    pathOf(supportApi.ticketsStream, { query }),
    { tickets: (data) => setTickets({ status, list: (data as { tickets: Ticket[] }).tickets }) },
    // Refused: a lost session shows the login screen (lib/session-events.ts); anything else retries.
    { onRefused: askWhyRefused(() => api.call(supportApi.listTickets, { query })) },
  );
  const list = tickets?.status === status ? tickets.list : null;
  // Open tickets say who is to write next; closed ones wait for nobody.
  const columns = status === 'open' ? [...SUPPORT_TEXT.columns, SUPPORT_TEXT.statusColumn] : SUPPORT_TEXT.columns;

  return (
    <section className="support-panel" aria-labelledby="tickets-title">
      <div className="support-panel__header">
        <h2 id="tickets-title">{SUPPORT_TEXT.listTitle}</h2>
        <Link className="button button--primary" to="/support/create-ticket">
          {SUPPORT_TEXT.newTicket}
        </Link>
      </div>
      <div className="support-panel__toolbar">
        <SwitchButtons name="status" label="Which tickets" options={STATUS_OPTIONS} value={status} />
        <LiveIndicator status={live} />
      </div>
      {list === null ? (
        <p className="support-muted" role="status">
          {SUPPORT_TEXT.loading}
        </p>
      ) : list.length === 0 ? (
        <p className="empty-state">{status === 'open' ? SUPPORT_TEXT.noOpen : SUPPORT_TEXT.noClosed}</p>
      ) : (
        <DataTable
          caption={status === 'open' ? SUPPORT_TEXT.openTickets : SUPPORT_TEXT.closedTickets}
          columns={columns}
        >
          {list.map((ticket) => (
            <tr key={ticket.id}>
              <td data-label={SUPPORT_TEXT.columns[0]}>
                <Link to={`/support/ticket/${ticket.id}`} className="ticket-table__link row-link">
                  #{ticket.ticketNo}
                </Link>
              </td>
              <td data-label={SUPPORT_TEXT.columns[1]}>{reasonLabel(ticket.reason)}</td>
              <td data-label={SUPPORT_TEXT.columns[2]}>{formatNzDateTime(ticket.creationDate)}</td>
              <td data-label={SUPPORT_TEXT.columns[3]}>{formatNzDateTime(ticket.lastMessage)}</td>
              {status === 'open' ? (
                <td data-label={SUPPORT_TEXT.statusColumn}>
                  <WaitingBadge waiting={ticket.waitingOn} />
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
