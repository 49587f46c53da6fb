import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../../contracts/admin.ts';
import { snippetParts } from '../../../contracts/desk.ts';
import { reasonLabel } from '../../../contracts/support.ts';
import type { AdminSearchResult } from '../../../contracts/support.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Email } from '../../components/ui/email.tsx';
import { WaitingBadge } from './waiting-badge.tsx';

const COLUMNS = ['Ticket Number', 'User', 'Reason', 'Matching words', 'Last Message', 'Status'] as const;

/** A snippet with its matching words marked: text only, never HTML from the server. */
export function Snippet({ text }: { text: string }) {
  return (
    <span className="search-snippet">
      {snippetParts(text).map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </span>
  );
}

/** The inbox's search results: every ticket, open or closed, best match first. */
export function SearchResults({ q, results }: { q: string; results: AdminSearchResult[] }) {
  return (
    <>
      <p className="admin-summary" role="status">
        {results.length} {results.length === 1 ? 'ticket' : 'tickets'} matching “{q}”, best match first ·{' '}
        <Link to="/admin/support">Clear search</Link>
      </p>
      {results.length === 0 ? (
        <p className="empty-state">{ADMIN_TEXT.noMatchingTickets}</p>
      ) : (
        <DataTable caption={`Tickets matching “${q}”, best match first`} columns={COLUMNS} className="admin-table">
          {results.map(({ ticket, snippet }) => (
            <tr key={ticket.id}>
              <td data-label={COLUMNS[0]}>
                <Link to={`/admin/support/${ticket.id}`} className="ticket-table__link row-link">
                  #{ticket.ticketNo}
                </Link>
              </td>
              <td data-label={COLUMNS[1]} className="admin-table__email">
                <Email address={ticket.userEmail} />
              </td>
              <td data-label={COLUMNS[2]}>{reasonLabel(ticket.reason)}</td>
              <td data-label={COLUMNS[3]}>{snippet ? <Snippet text={snippet} /> : '–'}</td>
              <td data-label={COLUMNS[4]}>{formatNzDateTime(ticket.lastMessage)}</td>
              <td data-label={COLUMNS[5]}>
                {ticket.waitingOn ? (
                  <WaitingBadge waiting={ticket.waitingOn} to="staff" />
                ) : (
                  <span className="badge">Closed</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
