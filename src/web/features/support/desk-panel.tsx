import { Form, useNavigation } from 'react-router';
import { type Agent, DESK_TEXT, formatMinutes } from '../../../contracts/desk.ts';
import { formatNzDay } from '../../../contracts/dates.ts';
import type { AdminTicket } from '../../../contracts/support.ts';
import { Email } from '../../components/ui/email.tsx';
import { DELETION_TEXT } from '../../../contracts/account-deletion.ts';

const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

/**
 * The console's panel over a ticket: who handles it (assign to me, to another admin, or nobody),
 * how fast it was answered and resolved, whether it is a privacy request and by when it must be
 * answered, and how the user rated it. Each button is a plain form
 * posted to the page with its `intent` (features/support/desk-actions.ts).
 */
export function DeskPanel({
  ticket,
  agents,
  viewerEmail,
}: {
  ticket: AdminTicket;
  agents: Agent[];
  viewerEmail: string;
}) {
  const busy = useNavigation().state === 'submitting';
  const mine = ticket.assignee?.email === viewerEmail;
  const others = agents.filter((agent) => agent.id !== ticket.assignee?.id);
  return (
    <div className="desk-panel" aria-label="Handling">
      <span>
        {DESK_TEXT.assignedTo}:{' '}
        <strong data-testid="assignee">
          {ticket.assignee ? mine ? 'me' : <Email address={ticket.assignee.email} /> : DESK_TEXT.unassigned}
        </strong>
      </span>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="assign" />
        <input type="hidden" name="assignee" value={mine ? '' : 'me'} />
        <button type="submit" className="button button--ghost" disabled={busy}>
          {mine ? DESK_TEXT.unassign : DESK_TEXT.assignToMe}
        </button>
      </Form>
      {others.length > 0 ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="assign" />
          <label>
            <span className="visually-hidden">{DESK_TEXT.assignTo}</span>
            <select name="assignee" className="select" defaultValue="">
              <option value="" disabled>
                {DESK_TEXT.assignTo}…
              </option>
              {others.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.email === viewerEmail ? `${agent.email} (me)` : agent.email}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button--ghost" disabled={busy}>
            Assign
          </button>
        </Form>
      ) : null}
      <span>
        {DESK_TEXT.firstResponse}:{' '}
        <strong>
          {ticket.firstResponseAt
            ? formatMinutes(minutesBetween(ticket.creationDate, ticket.firstResponseAt))
            : DESK_TEXT.notYet}
        </strong>
      </span>
      {ticket.closedAt ? (
        <span>
          {DESK_TEXT.resolution}: <strong>{formatMinutes(minutesBetween(ticket.creationDate, ticket.closedAt))}</strong>
        </span>
      ) : null}
      {ticket.privacyDue ? (
        <span data-testid="privacy">
          {DESK_TEXT.privacyRequest}: <strong>{DESK_TEXT.answerByDate(formatNzDay(ticket.privacyDue))}</strong>{' '}
          {ticket.overdue ? <span className="badge badge--danger">{DESK_TEXT.overdue}</span> : null}
        </span>
      ) : null}
      {/* Deactivation tickets are always privacy requests; any other ticket can be marked one. */}
      {ticket.reason === 'Deactivation' ? null : (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="privacy" />
          <input type="hidden" name="privacy" value={ticket.privacyDue ? 'false' : 'true'} />
          <button type="submit" className="button button--ghost" disabled={busy}>
            {ticket.privacyDue ? DESK_TEXT.unmarkPrivacy : DESK_TEXT.markPrivacy}
          </button>
        </Form>
      )}
      {/* When the owner's account is erased, a kept ticket's messages stay as from 'Deleted user' (docs/product.md §2.14). */}
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="keep-for-record" />
        <input type="hidden" name="keep" value={ticket.keepForRecord ? 'false' : 'true'} />
        <button
          type="submit"
          aria-pressed={ticket.keepForRecord}
          title={DELETION_TEXT.keepForRecordHint}
          className="button button--ghost"
          disabled={busy}
          data-testid="keep-for-record"
        >
          {ticket.keepForRecord ? '☑' : '☐'} {DELETION_TEXT.keepForRecord}
        </button>
      </Form>
      {ticket.rating ? (
        <span data-testid="rating">
          Rating:{' '}
          <strong className={`badge ${ticket.rating.good ? 'badge--open' : 'badge--banned'}`}>
            {ticket.rating.good ? DESK_TEXT.good : DESK_TEXT.bad}
          </strong>
          {ticket.rating.comment ? <q className="desk-panel__comment">{ticket.rating.comment}</q> : null}
        </span>
      ) : null}
    </div>
  );
}
