import { data } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { CLAIM_TEXT } from '../../contracts/claims.ts';
import type { ClaimPeriods } from '../../contracts/claims.schemas.ts';
import type { ApiResult } from '../../contracts/endpoint.ts';
import { serviceLevelsApi } from '../../contracts/api/service-levels.ts';
import { BUSINESS_HOURS_TEXT, CALENDAR_TEXT, TARGETS_TEXT } from '../../contracts/service-levels.ts';
import type { CalendarSettings, ServiceLevelSettings } from '../../contracts/service-levels.schemas.ts';
import { ReadFailed } from '../features/admin/notice.tsx';
import { ClaimPeriodsForm } from '../features/service-levels/business-hours-claim-periods.tsx';
import { OpeningHoursForm } from '../features/service-levels/business-hours-calendar.tsx';
import { ExceptionsSection, HolidaysAhead } from '../features/service-levels/business-hours-exceptions.tsx';
import { INTENTS, withoutException } from '../features/service-levels/business-hours-form.ts';
import {
  readCalendarForm,
  readClaimPeriodsForm,
  readExceptionForm,
  readTargetsForm,
} from '../features/service-levels/business-hours-read.ts';
import { TargetsForm } from '../features/service-levels/business-hours-targets.tsx';
import { type FormResult, keepValues, readForm, refused, succeeded } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-business-hours';
import '../styles/support.css';
import '../styles/business-hours.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.businessHours} | ${ADMIN_TEXT.title}`);

/** The calendar, the targets, the days ahead and the claim periods, as this admin reads them (the layout refuses anyone else). */
export async function loader({ context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const none = { settings: null as ServiceLevelSettings | null, periods: null as ClaimPeriods | null };
  if (!user?.emailVerified || user.role !== 'admin' || user.secondFactorPending) return { ...none, failed: null };
  const [read, periods] = await Promise.all([
    services.api.call(serviceLevelsApi.settings),
    services.api.call(serviceLevelsApi.claimPeriods),
  ]);
  if (!read.ok) return { ...none, failed: read.message };
  if (!periods.ok) return { ...none, failed: periods.message };
  return { settings: read.data, periods: periods.data.periods, failed: null };
}

/** A form's fields did not pass: the messages under them, what was typed kept. */
const refusedFields = (fields: Record<string, string>, values: Record<string, string>, form: string) =>
  data<FormResult>({ ok: false, message: null, fields, values, form }, { status: 400 });

/** The endpoint refused: its messages under the fields of this form (paths such as 'hours.mon.0.start'). */
function refusedByApi(
  result: Extract<ApiResult<unknown>, { ok: false }>,
  values: Record<string, string>,
  form: string,
  fieldOf: (path: readonly string[]) => string,
) {
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(result.fields)) fields[fieldOf(path.split('.'))] ??= message;
  return refused({ ...result, fields }, values, form);
}

/**
 * One form at a time, by its `intent`: the opening hours, an exception added or removed, the
 * targets, the claim periods. Each is read into the whole calendar (or the targets) from the fields and the settings
 * as they are, checked with the contracts' schemas, and saved through the endpoint as this admin.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = keepValues(await readForm(request));
  const intent = values.intent ?? '';

  if (intent === INTENTS.targets) {
    const read = readTargetsForm(values);
    if (!read.ok) return refusedFields(read.fields, values, intent);
    const saved = await api.call(serviceLevelsApi.saveTargets, { body: read.data });
    return saved.ok
      ? succeeded(TARGETS_TEXT.saved, intent)
      : refusedByApi(saved, values, intent, (path) => path.join('.'));
  }

  if (intent === INTENTS.claimPeriods) {
    const read = readClaimPeriodsForm(values);
    if (!read.ok) return refusedFields(read.fields, values, intent);
    const saved = await api.call(serviceLevelsApi.saveClaimPeriods, { body: read.data });
    return saved.ok
      ? succeeded(CLAIM_TEXT.periodsSaved, intent)
      : refusedByApi(saved, values, intent, (path) => path[0] ?? '_');
  }

  if (intent !== INTENTS.calendar && intent !== INTENTS.addException && intent !== INTENTS.removeException) {
    return data<FormResult>(
      { ok: false, message: BUSINESS_HOURS_TEXT.unknownForm, fields: {}, values, form: intent },
      { status: 400 },
    );
  }
  const current = await api.call(serviceLevelsApi.settings);
  if (!current.ok) return refused(current, values, intent);
  const calendar = current.data.calendar;

  let next: CalendarSettings;
  let fieldOf: (path: readonly string[]) => string = () => '_';
  if (intent === INTENTS.removeException) {
    const without = withoutException(values.date ?? '', calendar);
    if (!without) return succeeded(BUSINESS_HOURS_TEXT.exceptionGone, intent);
    next = without;
  } else {
    const form = intent === INTENTS.calendar ? readCalendarForm(values, calendar) : readExceptionForm(values, calendar);
    if (!form.read.ok) return refusedFields(form.read.fields, values, intent);
    next = form.read.data;
    fieldOf = form.fieldOf;
  }
  const saved = await api.call(serviceLevelsApi.saveCalendar, { body: next });
  return saved.ok ? succeeded(CALENDAR_TEXT.saved, intent) : refusedByApi(saved, values, intent, fieldOf);
}

/** /admin/business-hours: when the team answers, the days it does not, how long it takes at most, and a claim's periods. */
export default function AdminBusinessHours({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, periods, failed } = loaderData;
  return (
    <div className="admin-page business-hours">
      <div className="admin-page__header">
        <h1>{CALENDAR_TEXT.title}</h1>
      </div>
      <p className="business-hours__lead">{CALENDAR_TEXT.lead}</p>
      <ReadFailed message={failed} retryTo="/admin/business-hours" />
      {settings ? (
        <>
          <OpeningHoursForm calendar={settings.calendar} result={actionData} />
          <ExceptionsSection calendar={settings.calendar} result={actionData} />
          <HolidaysAhead days={settings.specialDays} />
          <TargetsForm targets={settings.targets} result={actionData} />
          {periods ? <ClaimPeriodsForm periods={periods} result={actionData} /> : null}
        </>
      ) : null}
    </div>
  );
}
