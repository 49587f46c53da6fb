import { MERGE_TEXT } from '../../../contracts/ticket-merge.ts';
import type { MergeTarget } from '../../../contracts/ticket-merge.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { firstLineOf, reasonLabel, TICKET_REASONS } from '../../../contracts/support.ts';
import { ratingWord } from '../../../contracts/ticket-words.ts';
import { type ReactNode, useId } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { LABEL_TEXT } from '../../../contracts/labels.ts';
import { LabelChips } from './label-chips.tsx';
import { DESK_TEXT, formatMinutes } from '../../../contracts/desk.ts';
import type { Agent } from '../../../contracts/desk.schemas.ts';
import { formatNzDay } from '../../../contracts/dates.ts';
import type { AdminTicket } from '../../../contracts/support.schemas.ts';
import { Email } from '../../components/ui/email.tsx';
import { Menu } from '../../components/ui/menu.tsx';
import { ADMIN_TEXT } from '../../../contracts/admin.ts';
import { DELETION_TEXT } from '../../../contracts/account-deletion.ts';
import { DUE_TEXT } from '../../../contracts/due-times.ts';
import { DueAt } from './due-time.tsx';

const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

/**
 * Who handles the ticket, when its next answer or resolution is due (worded from `now`, the server's
 * clock running on: lib/use-now.ts), how fast it was answered and resolved, its privacy due date,
 * and its rating.
 */
export function DeskFacts({ ticket, viewerEmail, now }: { ticket: AdminTicket; viewerEmail: string; now: Date }) {
  const mine = ticket.assignee?.email === viewerEmail;
  return (
    <dl className="desk-facts" aria-label="Handling">
      {/* Each due time with its label; the warning sent (Due soon) is about the earlier one. */}
      {ticket.dueTimes.map((time) => (
        <div key={time.target}>
          <dt>{DUE_TEXT.dueLabel[time.target]}</dt>
          <dd data-testid={`due-${time.target}`}>
            <DueAt due={{ ...time, warned: ticket.due?.target === time.target ? ticket.due.warned : null }} now={now} />
          </dd>
        </div>
      ))}
      {ticket.labels.length > 0 ? (
        <div>
          <dt>{LABEL_TEXT.onTicket}</dt>
          <dd>
            <LabelChips labels={ticket.labels} />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{DESK_TEXT.assignedTo}</dt>
        <dd data-testid="assignee">
          {ticket.assignee ? mine ? 'me' : <Email address={ticket.assignee.email} /> : DESK_TEXT.unassigned}
        </dd>
      </div>
      <div>
        <dt>{DESK_TEXT.firstResponse}</dt>
        <dd>
          {ticket.firstResponseAt
            ? formatMinutes(minutesBetween(ticket.creationDate, ticket.firstResponseAt))
            : DESK_TEXT.notYet}
        </dd>
      </div>
      {ticket.closedAt ? (
        <div>
          <dt>{DESK_TEXT.resolution}</dt>
          <dd>{formatMinutes(minutesBetween(ticket.creationDate, ticket.closedAt))}</dd>
        </div>
      ) : null}
      {ticket.privacyDue ? (
        <div>
          <dt>{DESK_TEXT.privacyRequest}</dt>
          <dd data-testid="privacy">
            {DESK_TEXT.answerByDate(formatNzDay(ticket.privacyDue))}{' '}
            {ticket.overdue ? <span className="badge badge--danger">{DESK_TEXT.overdue}</span> : null}
          </dd>
        </div>
      ) : null}
      {ticket.keepForRecord ? (
        <div>
          <dt>{DELETION_TEXT.keepForRecord}</dt>
          <dd>On</dd>
        </div>
      ) : null}
      {ticket.rating ? (
        <div>
          <dt>Rating</dt>
          <dd data-testid="rating">
            <strong className={`badge ${ticket.rating.good ? 'badge--open' : 'badge--banned'}`}>
              {ratingWord(ticket.rating.good)}
            </strong>
            {ticket.rating.comment ? <q className="desk-panel__comment">{ticket.rating.comment}</q> : null}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * The ticket's tools: close or reopen and assign to me in view; assigning to another admin, the
 * privacy mark and keeping for the record in a menu (components/ui/menu.tsx). Each button is a
 * plain form posted to the page with its `intent` (features/support/desk-actions.ts).
 */
export function DeskToolbar({
  ticket,
  agents,
  viewerEmail,
  live,
  mergeTargets = [],
  splitPoints = [],
  seenVersion,
  teamLabels = [],
}: {
  ticket: AdminTicket;
  /** The team's labels: the menu lets the ticket's be chosen among them (docs/decisions/141-labels.md). */
  teamLabels?: ReadonlyArray<{ id: string; name: string }>;
  /**
   * The ticket's version as the page shows it: close, reopen, assign and merge name it, and are
   * stopped when the ticket changed since (docs/decisions/140-stale-writes-stopped.md).
   */
  seenVersion?: number;
  agents: Agent[];
  viewerEmail: string;
  /** The owner's other tickets this one can be merged into (docs/decisions/116-ticket-merge.md). */
  mergeTargets?: MergeTarget[];
  /** The customer's messages a new ticket can start from (any but the first), oldest first. */
  splitPoints?: Array<{ id: number; timestamp: string; messageBody: string }>;
  /** The live indicator, first in the row. */
  live: ReactNode;
}) {
  const busy = useNavigation().state === 'submitting';
  const keepHintId = useId();
  const mergeHintId = useId();
  const splitHintId = useId();
  const mine = ticket.assignee?.email === viewerEmail;
  const others = agents.filter((agent) => agent.id !== ticket.assignee?.id);
  const version = seenVersion !== undefined ? <input type="hidden" name="seenVersion" value={seenVersion} /> : null;
  return (
    <div className="desk-toolbar" role="group" aria-label="Ticket actions">
      {live}
      <Form method="post" preventScrollReset>
        {version}
        <button
          type="submit"
          name="intent"
          value={ticket.open ? 'close' : 'reopen'}
          className="button button--primary"
          disabled={busy}
          data-shortcut={ticket.open ? 'c' : undefined}
        >
          {ticket.open ? ADMIN_TEXT.closeTicket : ADMIN_TEXT.reopenTicket}
        </button>
      </Form>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="assign" />
        <input type="hidden" name="assignee" value={mine ? '' : 'me'} />
        {version}
        <button type="submit" className="button button--ghost" disabled={busy} data-shortcut="a">
          {mine ? DESK_TEXT.unassign : DESK_TEXT.assignToMe}
        </button>
      </Form>
      <Menu label="More actions">
        {others.length > 0 ? (
          <Form method="post" preventScrollReset className="menu__row">
            <input type="hidden" name="intent" value="assign" />
            {version}
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
        {/* The ticket's labels, all at once: ticked ones on, the others off. */}
        {teamLabels.length > 0 ? (
          <Form method="post" preventScrollReset className="menu__row label-picker">
            <input type="hidden" name="intent" value="labels" />
            <fieldset className="label-picker__set">
              <legend>{LABEL_TEXT.onTicket}</legend>
              {teamLabels.map((label, index) => (
                <label key={label.id} className="label-picker__choice">
                  <input
                    type="checkbox"
                    // The first label is where the keyboard's l enters the labels (docs/decisions/146).
                    {...(index === 0 ? { 'data-shortcut': 'l', 'data-shortcut-label': LABEL_TEXT.onTicket } : {})}
                    name={`label-${label.id}`}
                    defaultChecked={ticket.labels.some((on) => on.id === label.id)}
                  />{' '}
                  {label.name}
                </label>
              ))}
            </fieldset>
            <button type="submit" className="button button--ghost" disabled={busy}>
              {LABEL_TEXT.save}
            </button>
          </Form>
        ) : (
          <Link to="/admin/labels" className="menu__row">
            {LABEL_TEXT.manage}
          </Link>
        )}
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
        {/*
          When the owner's account is erased, a kept ticket's messages stay as from 'Deleted user'
          (docs/product.md §2.14). A switch that says its state (role="switch", aria-checked) and is
          still a form posting the other state, so it works without JavaScript.
        */}
        <Form method="post" preventScrollReset className="desk-switch">
          <input type="hidden" name="intent" value="keep-for-record" />
          <input type="hidden" name="keep" value={ticket.keepForRecord ? 'false' : 'true'} />
          <button
            type="submit"
            role="switch"
            aria-checked={ticket.keepForRecord}
            aria-describedby={keepHintId}
            className="desk-switch__control"
            disabled={busy}
            data-testid="keep-for-record"
          >
            <span className="desk-switch__track" aria-hidden="true">
              <span className="desk-switch__thumb" />
            </span>
            <span className="desk-switch__label">{DELETION_TEXT.keepForRecord}</span>
            <span className="desk-switch__state" aria-hidden="true">
              {ticket.keepForRecord ? 'On' : 'Off'}
            </span>
          </button>
          <p id={keepHintId} className="desk-switch__hint">
            {DELETION_TEXT.keepForRecordHint}
          </p>
        </Form>
        {splitPoints.length > 0 ? (
          <Form method="post" preventScrollReset className="menu__row" aria-describedby={splitHintId}>
            <input type="hidden" name="intent" value="split" />
            <label>
              <span className="visually-hidden">{MERGE_TEXT.splitLabel}</span>
              <select name="messageId" className="select" defaultValue="" required>
                <option value="" disabled>
                  {MERGE_TEXT.splitLabel}…
                </option>
                {splitPoints.map((point) => (
                  <option key={point.id} value={point.id}>
                    {MERGE_TEXT.splitOption(formatNzDateTime(point.timestamp), firstLineOf(point.messageBody))}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span className="visually-hidden">{MERGE_TEXT.splitReasonLabel}</span>
              <select name="reason" className="select" defaultValue={ticket.reason}>
                {TICKET_REASONS.map((reason) => (
                  <option key={reason.value} value={reason.value}>
                    {reason.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button button--ghost" disabled={busy}>
              {MERGE_TEXT.splitSubmit}
            </button>
            <p id={splitHintId} className="desk-switch__hint">
              {MERGE_TEXT.splitHint}
            </p>
          </Form>
        ) : null}
        {mergeTargets.length > 0 ? (
          <Form method="post" preventScrollReset className="menu__row" aria-describedby={mergeHintId}>
            <input type="hidden" name="intent" value="merge" />
            {version}
            <label>
              <span className="visually-hidden">{MERGE_TEXT.menuLabel}</span>
              <select name="targetTicketId" className="select" defaultValue="" required>
                <option value="" disabled>
                  {MERGE_TEXT.menuLabel}…
                </option>
                {mergeTargets.map((target) => (
                  <option key={target.id} value={target.id}>
                    {MERGE_TEXT.option(target.ticketNo, reasonLabel(target.reason), target.open, target.firstLine)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button button--ghost" disabled={busy}>
              {MERGE_TEXT.submit}
            </button>
            <p id={mergeHintId} className="desk-switch__hint">
              {MERGE_TEXT.hint}
            </p>
          </Form>
        ) : null}
      </Menu>
    </div>
  );
}
