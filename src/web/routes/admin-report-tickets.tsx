import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { reportsApi } from '../../contracts/api/reports.ts';
import { deskApi } from '../../contracts/api/support.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { hoursWords, REPORT_LIST_LIMIT, REPORTS_TEXT } from '../../contracts/reports.ts';
import type { ReportTicket } from '../../contracts/reports.schemas.ts';
import { reasonLabel } from '../../contracts/support.ts';
import { ratingWord } from '../../contracts/ticket-words.ts';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { ReadFailed } from '../features/admin/notice.tsx';
import { REPORT_LIST_PAGE, reportPath } from '../features/reports/links.ts';
import { assigneesWith, filterWords, ListFilterForm, rangeWords } from '../features/reports/report-view.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import '../styles/support.css';
import '../styles/reports.css';
import type { Route } from './+types/admin-report-tickets';

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  privatePageMeta(
    matches,
    'admin',
    `${loaderData?.list?.title ?? ADMIN_TEXT.nav.reports} | ${ADMIN_TEXT.nav.reports} | ${ADMIN_TEXT.title}`,
  );

const KEYS = [
  'from',
  'to',
  'label',
  'reason',
  'agent',
  'figure',
  'bucket',
  'day',
  'weekday',
  'hour',
  'admin',
  'claimKind',
  'claimOutcome',
] as const;

/**
 * The tickets behind one figure of the report: the address says which (the API checks it), with
 * the staff tickets can be assigned to (the desk's assignee picker's list), to narrow the list by.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string> = Object.fromEntries(
    KEYS.flatMap((key) => {
      const value = params.get(key)?.trim().slice(0, 60);
      return value ? [[key, value]] : [];
    }),
  );
  const { api } = context.get(requestContext).services;
  const [read, agents] = await Promise.all([api.call(reportsApi.tickets, { query }), api.call(deskApi.agents)]);
  const here = `${REPORT_LIST_PAGE}?${new URLSearchParams(query).toString()}`;
  const list = read.ok ? read.data : null;
  const staff = agents.ok ? agents.data.agents : [];
  const { reason = '', agent = '', ...kept } = query;
  return {
    list,
    failed: read.ok ? null : read.message,
    errors: read.ok ? {} : read.fields,
    // Every ticket of a list by assignee is theirs: the first names them when the staff list does not.
    agents: list ? assigneesWith(staff, agent, list.tickets[0]?.assignee) : staff,
    values: { reason, agent },
    kept,
    back: reportPath(query),
    here,
  };
}

const COLUMNS = REPORTS_TEXT.columns;

function When({ at }: { at: string | null }) {
  return at ? <time dateTime={at}>{formatNzDateTime(at)}</time> : <>{REPORTS_TEXT.none}</>;
}

/** A time and how long it took: '10 Mar 2026, 10:00 am' and '2 h business · 18 h clock'. */
function Took({ at, business, clock }: { at: string | null; business: number | null; clock: number | null }) {
  if (!at) return <>{REPORTS_TEXT.none}</>;
  return (
    <>
      <When at={at} />
      <span className="report-took">
        {hoursWords(business)} {REPORTS_TEXT.businessHours} · {hoursWords(clock)} {REPORTS_TEXT.clockHours}
      </span>
    </>
  );
}

function TicketRow({ ticket }: { ticket: ReportTicket }) {
  return (
    <tr>
      <td data-label={COLUMNS[0]}>
        <Link to={`/admin/support/${encodeURIComponent(ticket.id)}`}>#{ticket.ticketNo}</Link>
      </td>
      <td data-label={COLUMNS[1]}>{reasonLabel(ticket.reason)}</td>
      <td data-label={COLUMNS[2]}>
        <When at={ticket.createdAt} />
      </td>
      <td data-label={COLUMNS[3]}>
        <Took
          at={ticket.firstResponseAt}
          business={ticket.firstResponseBusinessHours}
          clock={ticket.firstResponseClockHours}
        />
      </td>
      <td data-label={COLUMNS[4]}>
        <Took at={ticket.closedAt} business={ticket.resolutionBusinessHours} clock={ticket.resolutionClockHours} />
      </td>
      <td data-label={COLUMNS[5]} className="admin-table__email">
        {ticket.assignee ? <Email address={ticket.assignee} /> : REPORTS_TEXT.unassigned}
      </td>
      <td data-label={COLUMNS[6]}>
        {ticket.rating === null ? REPORTS_TEXT.none : ratingWord(ticket.rating === 'good')}
      </td>
      <td data-label={COLUMNS[7]}>{REPORTS_TEXT.outcome[ticket.outcome]}</td>
    </tr>
  );
}

/** /admin/reports/tickets: the tickets behind a figure, oldest first, each linked to its page. */
export default function AdminReportTickets({ loaderData }: Route.ComponentProps) {
  const { list, failed, errors, agents, values, kept, back, here } = loaderData;
  const only = filterWords({
    label: list?.label?.name,
    reason: list ? values.reason : undefined,
    agent: list ? agents.find((a) => a.id === values.agent)?.email : undefined,
  });
  return (
    <section className="admin-page report-list" aria-labelledby="report-list-title">
      <p className="report-list__back">
        <Link to={back}>{REPORTS_TEXT.listBack}</Link>
      </p>
      <div className="admin-page__header">
        <h1 id="report-list-title">{list?.title ?? REPORTS_TEXT.title}</h1>
      </div>
      <ReadFailed message={failed} retryTo={here} />
      <ListFilterForm kept={kept} values={values} errors={errors} agents={agents} />
      {list ? (
        <>
          <p className="report-list__about">
            {rangeWords({ from: list.from, to: list.to })} · {only ? `${only} ` : null}
            {REPORTS_TEXT.listCount(list.tickets.length)}
          </p>
          {list.truncated ? (
            <p className="report-list__about">{REPORTS_TEXT.listTruncated(REPORT_LIST_LIMIT)}</p>
          ) : null}
          {list.tickets.length === 0 ? (
            <p className="empty-state">{REPORTS_TEXT.listEmpty}</p>
          ) : (
            <DataTable caption={list.title} columns={COLUMNS} className="admin-table report-tickets">
              {list.tickets.map((ticket) => (
                <TicketRow key={ticket.id} ticket={ticket} />
              ))}
            </DataTable>
          )}
        </>
      ) : null}
    </section>
  );
}
