import { Link, useSearchParams } from 'react-router';
import { reasonLabel, SUPPORT_TEXT } from '../../contracts/support.ts';
import type { Ticket } from '../../contracts/support.schemas.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { DataTable } from '../components/ui/data-table.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { supportApi } from '../../contracts/api/support.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import { api } from '../lib/api-client.ts';
import { askWhyRefused, useLiveList } from '../lib/live.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-tickets';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'support', 'Support Tickets');

const STATUS_OPTIONS = [
  { value: 'open', label: SUPPORT_TEXT.openTickets },
  { value: 'closed', label: SUPPORT_TEXT.closedTickets },
] as const;

type Status = (typeof STATUS_OPTIONS)[number]['value'];

/** Which tickets the address asks for (?status=closed), and the list's query for it. */
const statusOf = (params: URLSearchParams): Status => (params.get('status') === 'closed' ? 'closed' : 'open');
const queryOf = (status: Status) => ({ open: status === 'open' ? 'true' : 'false' }) as const;

/**
 * The list, read on the server so the page has its rows without JavaScript (the layout signs in
 * anyone else). A change of status is a navigation: this runs again.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const status = statusOf(new URL(request.url).searchParams);
  if (!user?.emailVerified) return { status, tickets: null, failed: null };
  const read = await services.api.call(supportApi.listTickets, { query: queryOf(status) });
  return { status, tickets: read.ok ? read.data.tickets : null, failed: read.ok ? null : read.message };
}

/** /support and any unknown mode: the signed-in user's tickets, kept up to date live. */
export default function SupportTickets({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const status = statusOf(params);
  const query = queryOf(status);
  const { list, live } = useLiveList({
    key: status,
    url: pathOf(supportApi.ticketsStream, { query }),
    event: 'tickets',
    read: (data) => (data as { tickets: Ticket[] }).tickets,
    loaded: loaderData.status === status ? loaderData.tickets : null,
    // Refused: a lost session shows the login screen (lib/session-events.ts); anything else retries.
    onRefused: askWhyRefused(() => api.call(supportApi.listTickets, { query })),
  });
  const failed = list === null && loaderData.status === status ? loaderData.failed : null;
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
      {failed ? (
        <div className="alert alert--error" role="alert">
          <p>
            {failed} <Link to={`/support?status=${status}`}>Try again</Link>
          </p>
        </div>
      ) : list === null ? (
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
                  <WaitingBadge waiting={ticket.waitingOn} to="customer" />
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
