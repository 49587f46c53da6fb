import type { ReactNode } from 'react';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { labelsApi } from '../../contracts/api/labels.ts';
import { reportsApi } from '../../contracts/api/reports.ts';
import { deskApi } from '../../contracts/api/support.ts';
import { CLAIM_REPORT_TEXT } from '../../contracts/report-claims.ts';
import { REPORTS_TEXT } from '../../contracts/reports.ts';
import type { ReportQuery } from '../../contracts/reports.schemas.ts';
import { ReadFailed } from '../features/admin/notice.tsx';
import { ClaimCards, ClaimKindsChart, ClaimKindsTable, ClaimsMade } from '../features/reports/claims-view.tsx';
import { DaysChart, HoursHeatmap, RatingsChart, SpreadChart } from '../features/reports/charts.tsx';
import { reportPath } from '../features/reports/links.ts';
import {
  AdminsTable,
  assigneesWith,
  Comments,
  DaysLegend,
  DaysTable,
  filterWords,
  HoursLegend,
  HoursTable,
  LabelsTable,
  nzDateOf,
  RangeForm,
  RatingsTable,
  rangeWords,
  SpreadTable,
  TimeCards,
} from '../features/reports/report-view.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import '../styles/support.css';
import '../styles/reports.css';
import type { Route } from './+types/admin-reports';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.reports} | ${ADMIN_TEXT.title}`);

/** The range in the address, as typed (the API checks it and says what is wrong). */
const asked = (params: URLSearchParams, key: string) => params.get(key)?.trim().slice(0, 20) ?? '';

/**
 * The report over the address's New Zealand days (the last 28 by default), of one label's, reason's
 * or assignee's tickets when the address asks, read as this admin; with the labels and the staff
 * tickets can be assigned to (the desk's assignee picker's list), to choose among.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const values = {
    from: asked(params, 'from'),
    to: asked(params, 'to'),
    label: params.get('label')?.trim().slice(0, 40) ?? '',
    reason: params.get('reason')?.trim().slice(0, 40) ?? '',
    agent: params.get('agent')?.trim().slice(0, 40) ?? '',
  };
  const query = {
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    ...(values.label ? { label: values.label } : {}),
    // As typed: a reason not in the list is the API's to refuse, on the field.
    ...(values.reason ? { reason: values.reason as NonNullable<ReportQuery['reason']> } : {}),
    ...(values.agent ? { agent: values.agent } : {}),
  };
  const { api } = context.get(requestContext).services;
  const [read, labels, agents] = await Promise.all([
    api.call(reportsApi.report, { query }),
    api.call(labelsApi.list),
    api.call(deskApi.agents),
  ]);
  const report = read.ok ? read.data : null;
  const staff = agents.ok ? agents.data.agents : [];
  return {
    labels: labels.ok ? labels.data.labels.map(({ id, name }) => ({ id, name })) : [],
    agents: report
      ? assigneesWith(staff, values.agent, report.admins.find((a) => a.userId === values.agent)?.email)
      : staff,
    report,
    failed: read.ok ? null : read.message,
    errors: read.ok ? {} : read.fields,
    values,
  };
}

/** A part of the report: a heading, a line on what it counts, and its chart or table. */
function Part({ id, title, lead, children }: { id: string; title: string; lead?: string; children: ReactNode }) {
  return (
    <section className="report-part" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {lead ? <p className="report-part__lead">{lead}</p> : null}
      {children}
    </section>
  );
}

/** /admin/reports: how the desk did over a range of New Zealand days; every figure opens its tickets. */
export default function AdminReports({ loaderData }: Route.ComponentProps) {
  const { report, failed, errors, values, labels, agents } = loaderData;
  // The filters the figures were read with: the label as the report names it, the others as asked.
  const range = report
    ? {
        from: report.from,
        to: report.to,
        label: report.label?.id,
        reason: values.reason || undefined,
        agent: values.agent || undefined,
      }
    : null;
  const only = report
    ? filterWords({
        label: report.label?.name,
        reason: range?.reason,
        agent: agents.find((a) => a.id === values.agent)?.email,
      })
    : '';
  return (
    <section className="admin-page report" aria-labelledby="reports-title">
      <div className="admin-page__header">
        <h1 id="reports-title">{REPORTS_TEXT.title}</h1>
        {range ? <p className="report__range">{rangeWords(range)}</p> : null}
      </div>
      {only ? <p className="report__label">{only}</p> : null}
      <p className="report__lead">{REPORTS_TEXT.lead}</p>
      <RangeForm
        values={range ? { ...values, from: range.from, to: range.to, label: range.label ?? '' } : values}
        errors={errors}
        today={report ? nzDateOf(report.now) : null}
        range={range}
        labels={labels}
        agents={agents}
      />
      <ReadFailed message={failed} retryTo={reportPath(values)} />
      {report && range ? (
        <>
          <Part id="report-times" title={REPORTS_TEXT.timesTitle} lead={REPORTS_TEXT.timesLead}>
            <TimeCards report={report} range={range} />
          </Part>
          <Part id="report-spread" title={REPORTS_TEXT.spreadTitle} lead={REPORTS_TEXT.spreadLead}>
            <figure className="chart">
              <SpreadChart report={report} range={range} />
              <SpreadTable report={report} range={range} />
            </figure>
          </Part>
          <Part id="report-days" title={REPORTS_TEXT.daysTitle} lead={REPORTS_TEXT.daysLead}>
            <figure className="chart">
              <DaysChart report={report} range={range} />
              <DaysLegend />
              <DaysTable report={report} range={range} />
            </figure>
          </Part>
          <Part id="report-hours" title={REPORTS_TEXT.hoursTitle} lead={REPORTS_TEXT.hoursLead}>
            <figure className="chart">
              <HoursHeatmap report={report} range={range} />
              <HoursLegend />
              <HoursTable report={report} range={range} />
            </figure>
          </Part>
          <Part id="report-ratings" title={REPORTS_TEXT.ratingsTitle} lead={REPORTS_TEXT.ratingsLead}>
            {report.ratings.weeks.length === 0 ? (
              <p className="empty-state">{REPORTS_TEXT.ratingsNone}</p>
            ) : (
              <figure className="chart">
                <RatingsChart report={report} range={range} />
                <RatingsTable report={report} range={range} />
              </figure>
            )}
            <h3 className="report-part__subtitle">{REPORTS_TEXT.commentsTitle}</h3>
            <Comments report={report} />
          </Part>
          {report.label ? null : (
            <Part id="report-labels" title={REPORTS_TEXT.labelsTitle} lead={REPORTS_TEXT.labelsLead}>
              <LabelsTable report={report} range={range} />
            </Part>
          )}
          <Part id="report-admins" title={REPORTS_TEXT.adminsTitle} lead={REPORTS_TEXT.adminsLead}>
            <AdminsTable report={report} range={range} />
          </Part>
          <Part id="report-claims" title={CLAIM_REPORT_TEXT.title} lead={CLAIM_REPORT_TEXT.lead}>
            <ClaimsMade report={report} range={range} />
            {report.claims.made === 0 ? <p className="empty-state">{CLAIM_REPORT_TEXT.none}</p> : null}
            <figure className="chart">
              <ClaimKindsChart report={report} range={range} />
              <ClaimKindsTable report={report} range={range} />
            </figure>
            <ClaimCards report={report} range={range} />
          </Part>
        </>
      ) : null}
    </section>
  );
}
