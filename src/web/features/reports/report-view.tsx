import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { reportsApi } from '../../../contracts/api/reports.ts';
import { formatNzDateTime, formatNzDay } from '../../../contracts/dates.ts';
import { pathOf } from '../../../contracts/endpoint.ts';
import { hoursWords, percentWords, REPORTS_TEXT, SPREAD_BUCKETS, weekdayName } from '../../../contracts/reports.ts';
import type { Report, TimeFigure } from '../../../contracts/reports.schemas.ts';
import { reasonLabel, TICKET_REASON_VALUES } from '../../../contracts/support.ts';
import { ratingWord } from '../../../contracts/ticket-words.ts';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Email } from '../../components/ui/email.tsx';
import { InputField, SelectField } from '../../components/ui/field.tsx';
import { figurePath, type FigureParams, type RangeOf, rangeQuery, reportPath } from './links.ts';

const NZ_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** The New Zealand date ('YYYY-MM-DD') of an instant: today, from the report's clock. */
export const nzDateOf = (instant: string) => NZ_DAY.format(new Date(instant));

const addDays = (day: string, days: number) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** '9 Mar 2026 – 22 Mar 2026', or one day. */
export const rangeWords = (range: RangeOf) =>
  range.from === range.to ? formatNzDay(range.from) : `${formatNzDay(range.from)} – ${formatNzDay(range.to)}`;

/** A number that opens its figure's tickets. */
export function FigureLink({ range, params, children }: { range: RangeOf; params: FigureParams; children: ReactNode }) {
  return (
    <Link to={figurePath(range, params)} className="report-figure">
      {children}
    </Link>
  );
}

// --- The range ------------------------------------------------------------------------------------

/** An admin the tickets can be assigned to (the desk's assignee picker's list): a report of their tickets. */
export interface Assignee {
  id: string;
  email: string;
}

/** The filters besides the range, as the address has them ('' for none). */
export interface FilterValues {
  reason: string;
  agent: string;
}

/**
 * The staff to choose among, and the one chosen when the list no longer holds them (their email
 * where the page knows it): the form keeps the filter the figures were read with.
 */
export function assigneesWith(agents: readonly Assignee[], agent: string, email: string | null | undefined) {
  return !agent || agents.some((a) => a.id === agent) ? agents : [...agents, { id: agent, email: email ?? agent }];
}

/** What the figures are limited to, in words: the label's name, the reason, the assignee's email. */
export function filterWords(only: { label?: string | null; reason?: string | undefined; agent?: string | null }) {
  return [
    only.label ? REPORTS_TEXT.labelOnly(only.label) : null,
    only.reason ? REPORTS_TEXT.reasonOnly(reasonLabel(only.reason)) : null,
    only.agent ? REPORTS_TEXT.agentOnly(only.agent) : null,
  ]
    .filter((words) => words !== null)
    .join(' ');
}

/** The Reason and Assignee choices of the report's form and of a figure's list. */
function FilterFields({
  values,
  errors,
  agents,
}: {
  values: FilterValues;
  errors: Record<string, string>;
  agents: readonly Assignee[];
}) {
  return (
    <>
      <SelectField
        label={REPORTS_TEXT.reasonFilter}
        name="reason"
        defaultValue={values.reason}
        key={`reason-${values.reason}`}
        error={errors.reason}
      >
        <option value="">{REPORTS_TEXT.reasonAll}</option>
        {TICKET_REASON_VALUES.map((reason) => (
          <option key={reason} value={reason}>
            {reasonLabel(reason)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={REPORTS_TEXT.agentFilter}
        name="agent"
        defaultValue={values.agent}
        key={`agent-${values.agent}`}
        error={errors.agent}
      >
        <option value="">{REPORTS_TEXT.agentAll}</option>
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.email}
          </option>
        ))}
      </SelectField>
    </>
  );
}

/**
 * A figure's list by reason or assignee: a GET form (no script needed) that keeps the rest of the
 * address (the range, the label, the figure and what it needs) in hidden fields.
 */
export function ListFilterForm({
  kept,
  values,
  errors,
  agents,
}: {
  kept: Record<string, string>;
  values: FilterValues;
  errors: Record<string, string>;
  agents: readonly Assignee[];
}) {
  return (
    <Form method="get" className="report-range report-range__form" aria-label={REPORTS_TEXT.filtersLabel}>
      {Object.entries(kept).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FilterFields values={values} errors={errors} agents={agents} />
      <div className="report-range__actions">
        <button type="submit" className="button button--primary">
          {REPORTS_TEXT.listShow}
        </button>
      </div>
    </Form>
  );
}

/** The days to report on: a GET form (no script needed), the last 7, 28 or 90 days, and the CSV. */
export function RangeForm({
  values,
  errors,
  today,
  range,
  labels,
  agents,
}: {
  values: { from: string; to: string; label: string } & FilterValues;
  errors: Record<string, string>;
  today: string | null;
  range: RangeOf | null;
  /** The team's labels: a report of one label's tickets (no choice when there are none). */
  labels: ReadonlyArray<{ id: string; name: string }>;
  /** Who can be assigned tickets: a report of one assignee's tickets. */
  agents: readonly Assignee[];
}) {
  return (
    <div className="report-range">
      <Form method="get" className="report-range__form" aria-label={REPORTS_TEXT.rangeLabel}>
        <InputField
          label={REPORTS_TEXT.from}
          name="from"
          type="date"
          defaultValue={values.from}
          key={`from-${values.from}`}
          hint={REPORTS_TEXT.dayHint}
          error={errors.from}
        />
        <InputField
          label={REPORTS_TEXT.to}
          name="to"
          type="date"
          defaultValue={values.to}
          key={`to-${values.to}`}
          hint={REPORTS_TEXT.toHint}
          error={errors.to}
        />
        {labels.length > 0 || values.label ? (
          <SelectField
            label={REPORTS_TEXT.labelFilter}
            name="label"
            defaultValue={values.label}
            key={`label-${values.label}`}
            error={errors.label}
          >
            <option value="">{REPORTS_TEXT.labelAll}</option>
            {labels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <FilterFields values={values} errors={errors} agents={agents} />
        <div className="report-range__actions">
          <button type="submit" className="button button--primary">
            {REPORTS_TEXT.show}
          </button>
        </div>
      </Form>
      <div className="report-range__more">
        {today ? (
          <p className="report-range__presets">
            {REPORTS_TEXT.presets}{' '}
            {[7, 28, 90].map((days, i) => (
              <span key={days}>
                {i > 0 ? ' · ' : null}
                <Link to={reportPath({ ...values, from: addDays(today, -(days - 1)), to: today })}>
                  {REPORTS_TEXT.presetDays(days)}
                </Link>
              </span>
            ))}
          </p>
        ) : null}
        {range ? (
          <p className="report-range__csv">
            <a className="button button--ghost" href={pathOf(reportsApi.csv, { query: rangeQuery(range) })} download>
              {REPORTS_TEXT.downloadCsv}
            </a>{' '}
            <span className="report-range__csv-about">{REPORTS_TEXT.csvAbout}</span>
          </p>
        ) : null}
      </div>
    </div>
  );
}

// --- Response and resolution ------------------------------------------------------------------------

function TimeCard({
  title,
  about,
  figure,
  range,
  kind,
  created,
}: {
  created: number;
  title: string;
  about: string;
  figure: TimeFigure;
  range: RangeOf;
  kind: 'first-response' | 'resolution';
}) {
  const judged = figure.withinTarget + figure.late;
  return (
    <section className="report-card" aria-labelledby={`card-${kind}`}>
      <h3 id={`card-${kind}`}>{title}</h3>
      <p className="report-card__about">{about}</p>
      <dl className="report-card__figures">
        <div>
          <dt>{REPORTS_TEXT.median}</dt>
          <dd>
            <FigureLink range={range} params={{ figure: kind }}>
              <strong className="report-card__big">{hoursWords(figure.medianBusinessHours)}</strong>
            </FigureLink>{' '}
            {REPORTS_TEXT.businessHours}
            <br />
            {hoursWords(figure.medianClockHours)} {REPORTS_TEXT.clockHours}
          </dd>
        </div>
        <div>
          <dt>{REPORTS_TEXT.p90}</dt>
          <dd>
            <FigureLink range={range} params={{ figure: kind }}>
              <strong className="report-card__big">{hoursWords(figure.p90BusinessHours)}</strong>
            </FigureLink>{' '}
            {REPORTS_TEXT.businessHours}
            <br />
            {hoursWords(figure.p90ClockHours)} {REPORTS_TEXT.clockHours}
          </dd>
        </div>
        <div>
          <dt>{REPORTS_TEXT.withinTarget}</dt>
          <dd>
            <FigureLink range={range} params={{ figure: `${kind}-met` }}>
              <strong className="report-card__big">{percentWords(figure.shareWithinTarget)}</strong>
            </FigureLink>
            <br />
            {figure.withinTarget} of {judged}
          </dd>
        </div>
        <div>
          <dt>{REPORTS_TEXT.late}</dt>
          <dd>
            <FigureLink range={range} params={{ figure: `${kind}-missed` }}>
              <strong className="report-card__big">{figure.late}</strong>
            </FigureLink>
          </dd>
        </div>
      </dl>
      <p className="report-card__count">
        <FigureLink range={range} params={{ figure: kind }}>
          {REPORTS_TEXT.measured(figure.count, kind === 'first-response' ? 'answered' : 'closed')}
        </FigureLink>
        {' of '}
        <FigureLink range={range} params={{ figure: 'created' }}>
          {REPORTS_TEXT.measured(created, 'created')}
        </FigureLink>
      </p>
    </section>
  );
}

export function TimeCards({ report, range }: { report: Report; range: RangeOf }) {
  return (
    <div className="report-cards">
      <TimeCard
        title={REPORTS_TEXT.firstResponse}
        about={REPORTS_TEXT.firstResponseAbout}
        figure={report.firstResponse}
        range={range}
        kind="first-response"
        created={report.created}
      />
      <TimeCard
        title={REPORTS_TEXT.resolution}
        about={REPORTS_TEXT.resolutionAbout}
        figure={report.resolution}
        range={range}
        kind="resolution"
        created={report.created}
      />
    </div>
  );
}

// --- The figures as tables ----------------------------------------------------------------------------

/** A chart's figures as a real table, in a details element: for screen readers, the keyboard and anyone who wants numbers. */
export function FiguresTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <details className="report-table">
      <summary>{REPORTS_TEXT.showTable}</summary>
      <table className="report-table__table">
        <caption>{REPORTS_TEXT.tableCaption(caption)}</caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={column} scope="col" className={i === 0 ? undefined : 'report-table__number'}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </details>
  );
}

export function SpreadTable({ report, range }: { report: Report; range: RangeOf }) {
  return (
    <FiguresTable caption={REPORTS_TEXT.spreadTitle} columns={[REPORTS_TEXT.spreadAxis, 'Tickets']}>
      {SPREAD_BUCKETS.map((bucket) => (
        <tr key={bucket.key}>
          <th scope="row">{bucket.label}</th>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'spread', bucket: bucket.key }}>
              {report.spread.find((s) => s.bucket === bucket.key)?.count ?? 0}
            </FigureLink>
          </td>
        </tr>
      ))}
    </FiguresTable>
  );
}

export function DaysTable({ report, range }: { report: Report; range: RangeOf }) {
  return (
    <FiguresTable
      caption={REPORTS_TEXT.daysTitle}
      columns={['Day', REPORTS_TEXT.created, REPORTS_TEXT.closed, REPORTS_TEXT.backlog]}
    >
      {report.days.map((d) => (
        <tr key={d.day}>
          <th scope="row">{formatNzDay(d.day)}</th>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'created-day', day: d.day }}>
              {d.created}
            </FigureLink>
          </td>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'closed-day', day: d.day }}>
              {d.closed}
            </FigureLink>
          </td>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'backlog-day', day: d.day }}>
              {d.backlog}
            </FigureLink>
          </td>
        </tr>
      ))}
    </FiguresTable>
  );
}

export function HoursTable({ report, range }: { report: Report; range: RangeOf }) {
  const busy = report.hours.filter((h) => h.count > 0);
  return (
    <FiguresTable caption={REPORTS_TEXT.hoursTitle} columns={['Weekday and hour', 'New tickets']}>
      {busy.map((h) => (
        <tr key={`${h.weekday}-${h.hour}`}>
          <th scope="row">
            {weekdayName(h.weekday)} {REPORTS_TEXT.hourSpan(h.hour)}
          </th>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'hour', weekday: h.weekday, hour: h.hour }}>
              {h.count}
            </FigureLink>
          </td>
        </tr>
      ))}
      <tr>
        <td colSpan={2}>{REPORTS_TEXT.hoursEmpty}</td>
      </tr>
    </FiguresTable>
  );
}

export function RatingsTable({ report, range }: { report: Report; range: RangeOf }) {
  return (
    <FiguresTable caption={REPORTS_TEXT.ratingsTitle} columns={['Week of', REPORTS_TEXT.good, 'Rated', 'Share Good']}>
      {report.ratings.weeks.map((w) => (
        <tr key={w.week}>
          <th scope="row">{formatNzDay(w.week)}</th>
          <td className="report-table__number">{w.good}</td>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'rating-week', day: w.week }}>
              {w.total}
            </FigureLink>
          </td>
          <td className="report-table__number">{percentWords(w.total === 0 ? null : w.good / w.total)}</td>
        </tr>
      ))}
    </FiguresTable>
  );
}

// --- Legends ----------------------------------------------------------------------------------------

export function DaysLegend() {
  return (
    <ul className="chart-legend" aria-hidden="true">
      <li>
        <span className="chart-legend__swatch chart-legend__swatch--created" />
        {REPORTS_TEXT.created}
      </li>
      <li>
        <span className="chart-legend__swatch chart-legend__swatch--closed" />
        {REPORTS_TEXT.closed}
      </li>
      <li>
        <span className="chart-legend__line" />
        {REPORTS_TEXT.backlog}
      </li>
    </ul>
  );
}

export function HoursLegend() {
  return (
    <p className="chart-legend" aria-hidden="true">
      Fewer <span className="chart-legend__heat chart-legend__heat--1" />
      <span className="chart-legend__heat chart-legend__heat--2" />
      <span className="chart-legend__heat chart-legend__heat--3" />
      <span className="chart-legend__heat chart-legend__heat--4" /> More
    </p>
  );
}

// --- Ratings' comments and per admin --------------------------------------------------------------------

export function Comments({ report }: { report: Report }) {
  const comments = report.ratings.comments;
  if (comments.length === 0) return <p className="empty-state">{REPORTS_TEXT.commentsNone}</p>;
  return (
    <ul className="report-comments">
      {comments.map((c) => (
        <li key={c.ticketId} className="report-comment">
          <p className="report-comment__meta">
            <Link to={`/admin/support/${encodeURIComponent(c.ticketId)}`}>Ticket #{c.ticketNo}</Link>
            {' · '}
            <span className={c.good ? 'report-comment__good' : 'report-comment__bad'}>{ratingWord(c.good)}</span>
            {' · '}
            <time dateTime={c.ratedAt}>{formatNzDateTime(c.ratedAt)}</time>
          </p>
          <p className="report-comment__text">{c.comment}</p>
        </li>
      ))}
    </ul>
  );
}

const ADMIN_COLUMNS = [
  REPORTS_TEXT.adminColumn,
  REPORTS_TEXT.answeredColumn,
  REPORTS_TEXT.firstAnswersColumn,
  REPORTS_TEXT.medianColumn,
  REPORTS_TEXT.ratingsColumn,
] as const;

const LABEL_COLUMNS = REPORTS_TEXT.labelColumns;

/** A median in business and clock hours: '2 h business time (18 h clock time)'. */
function MedianHours({ business, clock }: { business: number | null; clock: number | null }) {
  return (
    <>
      {hoursWords(business)} {REPORTS_TEXT.businessHours} ({hoursWords(clock)} {REPORTS_TEXT.clockHours})
    </>
  );
}

/** The range's tickets split by label; each figure opens that label's report or its tickets. */
export function LabelsTable({ report, range }: { report: Report; range: RangeOf }) {
  if (report.labels.length === 0) return <p className="empty-state">{REPORTS_TEXT.labelsNone}</p>;
  return (
    <DataTable caption={REPORTS_TEXT.labelsTitle} columns={LABEL_COLUMNS} className="admin-table report-labels">
      {report.labels.map((l) => {
        const only = { ...range, label: l.labelId };
        return (
          <tr key={l.labelId}>
            <td data-label={LABEL_COLUMNS[0]}>
              <Link to={reportPath(only)}>{l.name}</Link>
            </td>
            <td data-label={LABEL_COLUMNS[1]}>
              <FigureLink range={only} params={{ figure: 'created' }}>
                {l.created}
              </FigureLink>
            </td>
            <td data-label={LABEL_COLUMNS[2]}>
              {l.answered === 0 ? (
                REPORTS_TEXT.none
              ) : (
                <FigureLink range={only} params={{ figure: 'first-response' }}>
                  <MedianHours business={l.medianFirstResponseBusinessHours} clock={l.medianFirstResponseClockHours} />
                </FigureLink>
              )}
            </td>
            <td data-label={LABEL_COLUMNS[3]}>
              <FigureLink range={only} params={{ figure: 'first-response-met' }}>
                {l.firstResponseWithinTarget} of {l.answered}
              </FigureLink>
            </td>
            <td data-label={LABEL_COLUMNS[4]}>
              <FigureLink range={only} params={{ figure: 'resolution' }}>
                {l.closed}
              </FigureLink>
            </td>
            <td data-label={LABEL_COLUMNS[5]}>
              {l.good} of {l.rated} {REPORTS_TEXT.good}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

export function AdminsTable({ report, range }: { report: Report; range: RangeOf }) {
  if (report.admins.length === 0) return <p className="empty-state">{REPORTS_TEXT.adminsNone}</p>;
  return (
    <DataTable caption={REPORTS_TEXT.adminsTitle} columns={ADMIN_COLUMNS} className="admin-table report-admins">
      {report.admins.map((a) => (
        <tr key={a.userId}>
          <td data-label={ADMIN_COLUMNS[0]} className="admin-table__email">
            <Email address={a.email} />
          </td>
          <td data-label={ADMIN_COLUMNS[1]}>
            <FigureLink range={range} params={{ figure: 'admin-answered', admin: a.userId }}>
              {a.answered}
            </FigureLink>
          </td>
          <td data-label={ADMIN_COLUMNS[2]}>
            <FigureLink range={range} params={{ figure: 'admin-first', admin: a.userId }}>
              {a.firstAnswers}
            </FigureLink>
          </td>
          <td data-label={ADMIN_COLUMNS[3]}>
            {a.firstAnswers === 0 ? (
              REPORTS_TEXT.none
            ) : (
              <FigureLink range={range} params={{ figure: 'admin-first', admin: a.userId }}>
                <MedianHours business={a.medianFirstResponseBusinessHours} clock={a.medianFirstResponseClockHours} />
              </FigureLink>
            )}
          </td>
          <td data-label={ADMIN_COLUMNS[4]}>
            <FigureLink range={range} params={{ figure: 'admin-rated', admin: a.userId }}>
              {a.good} of {a.rated} {REPORTS_TEXT.good}
            </FigureLink>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
