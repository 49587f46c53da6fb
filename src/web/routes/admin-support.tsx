import { SIDE_TEXT } from '../../contracts/side-conversations.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { SearchResults } from '../features/support/search-results.tsx';
import { requestContext } from '../lib/request-context.ts';
import { DESK_TEXT, formatMinutes, formatShare } from '../../contracts/desk.ts';
import type { DeskFigures } from '../../contracts/desk.schemas.ts';
import { formatNzDay } from '../../contracts/dates.ts';
import { deskApi } from '../../contracts/api/support.ts';
import { type CallInput, pathOf } from '../../contracts/endpoint.ts';
import { api } from '../lib/api-client.ts';
import { Form, Link, redirect, useRevalidator, useSearchParams } from 'react-router';
import { labelsApi } from '../../contracts/api/labels.ts';
import { LABEL_TEXT } from '../../contracts/labels.ts';
import { LabelChips } from '../features/support/label-chips.tsx';
import { PresenceLine } from '../features/support/presence.tsx';
import { BULK_FORM, BulkBar, bulkAction, type BulkOutcome } from '../features/support/bulk-bar.tsx';
import { BULK_TEXT } from '../../contracts/bulk.ts';
import { hasMacroActions } from '../../contracts/macro-actions.ts';
import { rememberInboxOrder } from '../features/keyboard/use-shortcuts.ts';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { reasonLabel, SUPPORT_TEXT } from '../../contracts/support.ts';
import type { AdminTicket, TicketPresence } from '../../contracts/support.schemas.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { Notice, ReadFailed } from '../features/admin/notice.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { askWhyRefused, useLiveList } from '../lib/live.ts';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-support';
import { Email } from '../components/ui/email.tsx';
import { DUE_TEXT } from '../../contracts/due-times.ts';
import { DueCell } from '../features/support/due-time.tsx';
import { useNow } from '../lib/use-now.ts';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.support} | ${ADMIN_TEXT.title}`);

const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
] as const;

/** Staff words: the customer's 'Waiting for you' would be the admin here. */
const WAITING_OPTIONS = [
  { value: 'all', label: 'All open' },
  { value: 'us', label: SUPPORT_TEXT.waitingOnUs },
  { value: 'you', label: SUPPORT_TEXT.waitingOnCustomer },
  // A side conversation of the ticket waits on the person it was mailed to (decision 138).
  { value: 'third-party', label: SIDE_TEXT.filter },
] as const;

const ASSIGNED_OPTIONS = [
  { value: 'all', label: 'Everyone' },
  { value: 'me', label: 'Mine' },
  { value: 'none', label: DESK_TEXT.unassigned },
] as const;

const PRIVACY_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'due', label: DESK_TEXT.privacyRequests },
  { value: 'overdue', label: DESK_TEXT.overdue },
] as const;

const DUE_OPTIONS = [
  { value: 'all', label: DUE_TEXT.anyTime },
  { value: 'late', label: DUE_TEXT.late },
  { value: 'today', label: DUE_TEXT.dueToday },
] as const;

const SORT_OPTIONS = [
  { value: 'recent', label: DUE_TEXT.sortRecent },
  { value: 'due', label: DUE_TEXT.sortDue },
] as const;

const COLUMNS = [
  'Ticket Number',
  'User',
  'Reason',
  'Date of Submission',
  'Last Message',
  'Status',
  DUE_TEXT.dueColumn,
  'Assigned to',
] as const;

/** Before any list has come (a search shows none): the due words are not shown then. */
const NO_LIST_YET = new Date(0).toISOString();

/** The address's value when it is one of `options`. */
const oneOf = <T extends string>(value: string | null, options: readonly T[]): T | undefined =>
  options.find((option) => option === value);

/**
 * The inbox's filters as the address gives them, and the list's query for them: the same for the
 * loader's read and the page's live stream.
 */
function inboxFilter(params: URLSearchParams) {
  const status = params.get('status') === 'closed' ? 'closed' : 'open';
  const q = params.get('q')?.trim() ?? '';
  const assigned = oneOf(params.get('assigned'), ['me', 'none'] as const) ?? 'all';
  const waiting = (status === 'open' && oneOf(params.get('waiting'), ['us', 'you', 'third-party'] as const)) || 'all';
  const privacy = (status === 'open' && oneOf(params.get('privacy'), ['due', 'overdue'] as const)) || 'all';
  // Closed tickets have nothing due: the due filter and order are for open ones.
  const due = (status === 'open' && oneOf(params.get('due'), ['late', 'today'] as const)) || 'all';
  const sort = (status === 'open' && oneOf(params.get('sort'), ['due'] as const)) || 'recent';
  // A label's id (docs/decisions/141-labels.md); anything else is no filter.
  const label = /^[0-9a-f-]{36}$/i.test(params.get('label') ?? '') ? params.get('label')! : '';
  const filter: CallInput<typeof deskApi.listTickets>['query'] = {
    open: status === 'open' ? 'true' : 'false',
    ...(q ? { q } : {}),
    ...(waiting === 'us' || waiting === 'you' ? { waiting } : {}),
    ...(waiting === 'third-party' ? { thirdParty: 'waiting' as const } : {}),
    ...(assigned !== 'all' ? { assigned } : {}),
    ...(privacy !== 'all' ? { privacy } : {}),
    ...(due !== 'all' ? { due } : {}),
    ...(sort !== 'recent' ? { sort } : {}),
    ...(label ? { label } : {}),
  };
  return {
    status,
    q,
    assigned,
    waiting,
    privacy,
    due,
    sort,
    label,
    filter,
    query: new URLSearchParams(filter).toString(),
  };
}

/**
 * The label filter (docs/decisions/141-labels.md): a plain GET form with the other filters kept, so
 * it works without JavaScript (the choice takes effect with Show: a list that changes as the
 * selection moves would surprise someone moving through it with the keyboard).
 */
function LabelFilter({
  labels,
  value,
  keep,
}: {
  labels: Array<{ id: string; name: string }>;
  value: string;
  keep: Record<string, string | undefined>;
}) {
  const id = useId();
  return (
    <Form method="get" className="label-filter" replace>
      {Object.entries(keep).map(([key, kept]) =>
        kept ? <input key={key} type="hidden" name={key} value={kept} /> : null,
      )}
      <label htmlFor={id}>{LABEL_TEXT.filter}</label>
      <select id={id} name="label" className="select" defaultValue={value} key={value}>
        <option value="">{LABEL_TEXT.anyLabel}</option>
        {labels.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--ghost">
        {LABEL_TEXT.show}
      </button>
      <Link to="/admin/labels" className="label-filter__manage">
        {LABEL_TEXT.manage}
      </Link>
    </Form>
  );
}

/** A privacy request's due date, flagged once it has passed (under the ticket's status). */
function AnswerBy({ ticket }: { ticket: AdminTicket }) {
  if (!ticket.privacyDue) return null;
  return (
    <span className="answer-by">
      {DESK_TEXT.answerByDate(formatNzDay(ticket.privacyDue))}
      {ticket.overdue ? (
        <>
          {' '}
          <span className="badge badge--danger">{DESK_TEXT.overdue}</span>
        </>
      ) : null}
    </span>
  );
}

/** The team's figures over the inbox: answer and resolution medians (7 days), share of good ratings. */
function DeskFiguresLine({ figures }: { figures: DeskFigures | null }) {
  if (!figures) return null;
  return (
    <dl className="desk-figures" aria-label="How the team is doing">
      <div>
        <dt>First response (median, 7 days)</dt>
        <dd>{formatMinutes(figures.firstResponseMedianMinutes)}</dd>
      </div>
      <div>
        <dt>Resolution (median, 7 days)</dt>
        <dd>{formatMinutes(figures.resolutionMedianMinutes)}</dd>
      </div>
      <div>
        <dt>Ratings, 7 days</dt>
        <dd>{formatShare(figures.good7, figures.rated7)}</dd>
      </div>
      <div>
        <dt>Ratings, 30 days</dt>
        <dd>{formatShare(figures.good30, figures.rated30)}</dd>
      </div>
    </dl>
  );
}

/**
 * The team's figures, and the list of the address's filters or its search (?q=), read on the
 * server, so they are in the page without JavaScript (admins only: the layout refuses others). A
 * change of filter is a navigation: this runs again.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  if (!user?.emailVerified || !user.permissions.includes('tickets.read'))
    return { figures: null, search: null, list: null, labels: [], macros: [], canWrite: false };
  const { q, filter, query } = inboxFilter(new URL(request.url).searchParams);
  const [figures, found, listed, labels, saved] = await Promise.all([
    services.api.call(deskApi.figures),
    q ? services.api.call(deskApi.search, { query: { q } }) : null,
    q ? null : services.api.call(deskApi.listTickets, { query: filter }),
    services.api.call(labelsApi.list),
    services.api.call(deskApi.savedReplies),
  ]);
  return {
    // The macros (saved replies with actions) the bulk bar can apply, without their reply (decision 145).
    macros: saved.ok
      ? saved.data.savedReplies
          .filter((reply) => hasMacroActions(reply.actions))
          .map(({ id, title }) => ({ id, title }))
      : [],
    // Bulk actions are for those whose roles change tickets (an auditor reads the inbox only).
    canWrite: user.permissions.includes('tickets.write'),
    // The team's labels, for the filter (none: no filter shown).
    labels: labels.ok ? labels.data.labels.map(({ id, name }) => ({ id, name })) : [],
    figures: figures.ok ? figures.data : null,
    search: found ? { q, results: found.ok ? found.data.results : [] } : null,
    list: listed
      ? {
          query,
          tickets: listed.ok ? listed.data.tickets : null,
          now: listed.ok ? listed.data.now : NO_LIST_YET,
          failed: listed.ok ? null : listed.message,
        }
      : null,
  };
}

/**
 * /admin/support: every user's tickets, newest last message first, kept up to date live; with a
 * search, every ticket matching it, best first.
 */
/** What the last bulk action did, with Undo while it can be taken back. */
function BulkNotice({ outcome }: { outcome: BulkOutcome['bulk'] | undefined }) {
  if (!outcome) return null;
  if (outcome.error) return <Notice tone="error">{outcome.error}</Notice>;
  return (
    <>
      <Notice tone="success">{outcome.words.join(' ')}</Notice>
      {outcome.bulkId ? (
        <Form method="post" className="bulk-undo" replace>
          <input type="hidden" name="intent" value="bulk-undo" />
          <input type="hidden" name="bulkId" value={outcome.bulkId} />
          <button type="submit" className="button button--ghost">
            {BULK_TEXT.undo}
          </button>
        </Form>
      ) : null}
    </>
  );
}

/** The inbox's one form that posts: bulk actions on the ticked tickets, and their undo. */
export async function action({ request, context }: Route.ActionArgs) {
  const { bulk } = await bulkAction(context.get(requestContext).services.api, await request.formData());
  // What it did goes in the address, not the action's answer: the inbox reads its data again on
  // every change of the list, and that would take an answer (and its Undo) off the page.
  const search = new URL(request.url).searchParams;
  for (const key of ['bulkDone', 'bulkUndo', 'bulkError', 'index', '_routes']) search.delete(key);
  if (bulk.error) search.set('bulkError', bulk.error);
  else search.set('bulkDone', bulk.words.join(' '));
  if (bulk.bulkId) search.set('bulkUndo', bulk.bulkId);
  return redirect(`/admin/support?${search}`, 303);
}

export default function AdminSupportInbox({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { status, q, assigned, waiting, privacy, due, sort, label, filter, query } = inboxFilter(params);
  const keepPrivacy = privacy === 'all' ? undefined : privacy;
  // The due filter and order, kept by the other switches (and the search, to come back to).
  const keepDue = { due: due === 'all' ? undefined : due, sort: sort === 'recent' ? undefined : sort };
  // What each switch keeps of the others: every choice but its own.
  const chosen = {
    status,
    q,
    assigned: assigned === 'all' ? undefined : assigned,
    waiting: waiting === 'all' ? undefined : waiting,
    privacy: keepPrivacy,
    ...keepDue,
    label: label || undefined,
  };
  const keepAllBut = (name: keyof typeof chosen) => ({ ...chosen, [name]: undefined });
  const searching = q !== '';
  const loaded = loaderData.list?.query === query ? loaderData.list : null;
  // The stream's first list for these filters replaces the loaded one.
  // Who else has which ticket open, and who is typing on it: the stream sends everyone's when it
  // opens (`whole`), then each ticket's as it changes.
  const [presence, setPresence] = useState<Record<string, TicketPresence>>({});
  const { streamed, live } = useLiveList({
    key: query,
    url: searching ? null : pathOf(deskApi.ticketsStream, { query: filter }),
    event: 'tickets',
    read: (data) => data as { tickets: AdminTicket[]; now: string },
    loaded: null,
    onRefused: askWhyRefused(() => api.call(deskApi.listTickets, { query: filter })),
    also: {
      presence: (data) => {
        const { tickets, whole } = data as { tickets: Record<string, TicketPresence>; whole: boolean };
        setPresence((current) => (whole ? tickets : { ...current, ...tickets }));
      },
    },
  });
  const tickets = streamed ? streamed.tickets : (loaded?.tickets ?? null);
  // j and k on a ticket go along the list as it was last shown here (docs/decisions/146-console-keyboard.md).
  const order = tickets?.map((ticket) => ticket.id).join(',');
  useEffect(() => {
    if (order !== undefined) rememberInboxOrder(order ? order.split(',') : []);
  }, [order]);
  // Due words run from the server's clock as of the list shown, moving on each minute here.
  const now = useNow(streamed ? streamed.now : (loaded?.now ?? NO_LIST_YET));
  const failed = tickets === null ? (loaded?.failed ?? null) : null;
  const waitingForUs = tickets?.filter((t) => t.waitingOn === 'us').length ?? 0;
  // The team's figures come with the page (its loader); the loader reads them again whenever the
  // inbox changes (a close, a rating, an answer): each list the stream sends after the first.
  const revalidator = useRevalidator();
  const shown = useRef<{ query: string; list: object } | null>(null);
  useEffect(() => {
    if (!streamed) return;
    if (shown.current?.query === query && shown.current.list !== streamed) void revalidator.revalidate();
    shown.current = { query, list: streamed };
    // The revalidator changes with each of its runs; only a new list asks again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [streamed]);

  return (
    <section className="admin-page" aria-labelledby="inbox-title">
      <div className="admin-page__header">
        <h1 id="inbox-title">{ADMIN_TEXT.nav.support}</h1>
        {searching ? null : <LiveIndicator status={live} />}
      </div>
      <DeskFiguresLine figures={loaderData.figures} />
      {/* Outside the live list, so the list's updates never replace it while it is being used. */}
      <BulkNotice
        outcome={
          params.get('bulkDone') || params.get('bulkError')
            ? {
                words: [params.get('bulkDone') ?? ''],
                bulkId: params.get('bulkUndo'),
                error: params.get('bulkError'),
              }
            : undefined
        }
      />
      <div className="admin-toolbar">
        {/* A search spans every ticket, open or closed, assigned or not: the switches are for the list. */}
        {searching ? null : (
          <>
            <SwitchButtons
              name="status"
              label="Which tickets"
              options={STATUS_OPTIONS}
              value={status}
              keep={{ q, assigned: assigned === 'all' ? undefined : assigned }}
            />
            <SwitchButtons
              name="assigned"
              label="Assigned to"
              options={ASSIGNED_OPTIONS}
              value={assigned}
              keep={keepAllBut('assigned')}
            />
            {status === 'open' ? (
              <SwitchButtons
                name="waiting"
                label="Waiting on whom"
                options={WAITING_OPTIONS}
                value={waiting}
                keep={keepAllBut('waiting')}
              />
            ) : null}
            {status === 'open' ? (
              <SwitchButtons
                name="privacy"
                label={DESK_TEXT.privacyRequests}
                options={PRIVACY_OPTIONS}
                value={privacy}
                keep={keepAllBut('privacy')}
              />
            ) : null}
            {status === 'open' ? (
              <SwitchButtons
                name="due"
                label={DUE_TEXT.filterLabel}
                options={DUE_OPTIONS}
                value={due}
                keep={keepAllBut('due')}
              />
            ) : null}
            {status === 'open' ? (
              <SwitchButtons
                name="sort"
                label={DUE_TEXT.sortLabel}
                options={SORT_OPTIONS}
                value={sort}
                keep={keepAllBut('sort')}
              />
            ) : null}
          </>
        )}
        {searching || loaderData.labels.length === 0 ? null : (
          <LabelFilter labels={loaderData.labels} value={label} keep={keepAllBut('label')} />
        )}
        <SearchForm
          label="Search tickets by number, user email or message text"
          value={q}
          placeholder="Number, email or words"
          keep={{
            status,
            waiting: waiting === 'all' ? undefined : waiting,
            assigned: assigned === 'all' ? undefined : assigned,
            ...keepDue,
          }}
        />
      </div>
      {searching ? (
        <SearchResults q={q} results={loaderData.search?.q === q ? loaderData.search.results : []} />
      ) : tickets === null ? (
        failed ? (
          <ReadFailed message={failed} retryTo={`/admin/support?${params}`} />
        ) : (
          <p className="support-muted" role="status">
            Loading...
          </p>
        )
      ) : (
        <>
          <p className="admin-summary" role="status">
            {tickets.length} {status} {tickets.length === 1 ? 'ticket' : 'tickets'}
            {status === 'open' && waiting === 'all' ? `, ${waitingForUs} waiting on us` : ''}
            {waiting !== 'all'
              ? `, ${waiting === 'us' ? 'waiting on us' : waiting === 'you' ? 'waiting on the customer' : SIDE_TEXT.filter.toLowerCase()}`
              : ''}
            {privacy === 'due' ? ', privacy requests, soonest due first' : ''}
            {privacy === 'overdue' ? ', late privacy requests' : ''}
            {due === 'late' ? ', late' : ''}
            {due === 'today' ? ', due today' : ''}
            {sort === 'due' && privacy === 'all' ? ', soonest due first' : ''}
            {label ? `, labelled “${loaderData.labels.find((l) => l.id === label)?.name ?? LABEL_TEXT.missing}”` : ''}
            {q ? ` matching “${q}”` : ''}
          </p>
          {tickets.length === 0 ? (
            <p className="empty-state">
              {q
                ? ADMIN_TEXT.noMatchingTickets
                : due !== 'all'
                  ? due === 'late'
                    ? DUE_TEXT.noLate
                    : DUE_TEXT.noDueToday
                  : privacy !== 'all'
                    ? privacy === 'due'
                      ? DESK_TEXT.noPrivacyRequests
                      : DESK_TEXT.noOverdue
                    : status === 'open'
                      ? ADMIN_TEXT.noOpenTickets
                      : ADMIN_TEXT.noClosedTickets}
            </p>
          ) : (
            <>
              {loaderData.canWrite ? (
                <BulkBar open={status === 'open'} labels={loaderData.labels} macros={loaderData.macros} />
              ) : null}
              <DataTable
                caption={
                  privacy !== 'all'
                    ? 'Open privacy requests, soonest due first'
                    : sort === 'due'
                      ? 'Open tickets, soonest due first'
                      : `${status === 'open' ? 'Open tickets' : 'Closed tickets'}, newest last message first`
                }
                columns={COLUMNS}
                className="admin-table"
              >
                {tickets.map((ticket) => (
                  <tr key={ticket.id} className={ticket.waitingOn === 'us' ? 'admin-table__row--waiting' : undefined}>
                    <td data-label={COLUMNS[0]}>
                      {/* Ticked for the bulk form above the table (its form attribute), with the version seen. */}
                      {loaderData.canWrite ? (
                        <input
                          type="checkbox"
                          name="ticket"
                          value={`${ticket.id}:${ticket.version}`}
                          form={BULK_FORM}
                          aria-label={BULK_TEXT.select(ticket.ticketNo)}
                          className="bulk-tick"
                        />
                      ) : null}
                      <Link to={`/admin/support/${ticket.id}`} className="ticket-table__link row-link" data-ticket-link>
                        #{ticket.ticketNo}
                      </Link>
                      {/* What the customer first wrote: the agent sees what the ticket is about before opening it. */}
                      {ticket.firstLine ? (
                        <span className="ticket-first-line" data-testid="first-line">
                          {ticket.firstLine}
                        </span>
                      ) : null}
                      <LabelChips labels={ticket.labels} />
                      <PresenceLine presence={presence[ticket.id]} compact />
                    </td>
                    <td data-label={COLUMNS[1]} className="admin-table__email">
                      <Email address={ticket.userEmail} />
                    </td>
                    <td data-label={COLUMNS[2]}>{reasonLabel(ticket.reason)}</td>
                    <td data-label={COLUMNS[3]}>{formatNzDateTime(ticket.creationDate)}</td>
                    <td data-label={COLUMNS[4]}>{formatNzDateTime(ticket.lastMessage)}</td>
                    <td data-label={COLUMNS[5]}>
                      {ticket.waitingOn ? (
                        <WaitingBadge waiting={ticket.waitingOn} to="staff" />
                      ) : (
                        <span className="badge">Closed</span>
                      )}
                      <AnswerBy ticket={ticket} />
                    </td>
                    <td data-label={COLUMNS[6]}>
                      <DueCell due={ticket.due} now={now} />
                    </td>
                    {/* Only an address may break anywhere: 'Unassigned' is a word. */}
                    <td data-label={COLUMNS[7]} className={ticket.assignee ? 'admin-table__email' : undefined}>
                      {ticket.assignee ? <Email address={ticket.assignee.email} /> : DESK_TEXT.unassigned}
                    </td>
                  </tr>
                ))}
              </DataTable>
            </>
          )}
        </>
      )}
    </section>
  );
}
