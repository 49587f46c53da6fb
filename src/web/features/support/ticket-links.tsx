import { Link } from 'react-router';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import type { TicketLink } from '../../../contracts/support.schemas.ts';

/**
 * A ticket's links to the same owner's other tickets ('Still need help?'): 'Follows ticket #N' on a
 * ticket opened from a closed one, 'Continued in ticket #M' on the closed one. `href` gives each
 * linked ticket's page, which differs by side (the owner's pages, the console).
 */
export function TicketLinks({
  follows = null,
  continuedIn = [],
  href,
}: {
  /** Either may be missing from a ticket sent by an older server (a page open across a deploy): then no link. */
  follows?: TicketLink | null;
  continuedIn?: readonly TicketLink[];
  href(ticketId: string): string;
}) {
  if (!follows && continuedIn.length === 0) return null;
  return (
    <div className="ticket-links">
      {follows ? (
        <p className="ticket-links__item">
          {SUPPORT_TEXT.followsTicket} <Link to={href(follows.id)}>{SUPPORT_TEXT.linkedTicket(follows.ticketNo)}</Link>
        </p>
      ) : null}
      {continuedIn.length > 0 ? (
        <p className="ticket-links__item">
          {SUPPORT_TEXT.continuedInTicket}{' '}
          {continuedIn.map((link, i) => (
            <span key={link.id}>
              {i > 0 ? ', ' : null}
              <Link to={href(link.id)}>{SUPPORT_TEXT.linkedTicket(link.ticketNo)}</Link>
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
