import { DataTable } from '../../components/ui/data-table.tsx';
import { useMemo, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import {
  ANNIVERSARY_REGIONS,
  BUSINESS_HOURS_TEXT,
  WEEKDAYS,
  type WeekdayKey,
} from '../../../contracts/service-levels.ts';
import type { CalendarSettings } from '../../../contracts/service-levels.schemas.ts';
import { SelectField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import {
  ANNIVERSARY_FIELD,
  HOURS_FIELD,
  hourField,
  INTENTS,
  openMinutes,
  spansShown,
  spanValues,
} from './business-hours-form.ts';
import { describedBy, ResultNotice, TimePair } from './business-hours-parts.tsx';

export const HOURS_SECTION = 'opening-hours';
const numbersTo = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/** A day's state in words, kept up to date as its times are typed: 'Closed', 'Open 8 h'. */
function dayState(values: Record<string, string>, day: WeekdayKey, spans: number) {
  const field = (n: number, side: 'opens' | 'closes') => hourField(day, n, side);
  const blank = numbersTo(spans).every(
    (n) => !values[field(n, 'opens')]?.trim() && !values[field(n, 'closes')]?.trim(),
  );
  if (blank) return BUSINESS_HOURS_TEXT.closed;
  const minutes = openMinutes(values, field, spans);
  return minutes > 0 ? BUSINESS_HOURS_TEXT.openFor(minutes) : '';
}

function DayRow({
  day,
  label,
  values,
  errors,
  first,
  spans,
}: {
  day: WeekdayKey;
  label: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  first: boolean;
  spans: number;
}) {
  const [state, setState] = useState(() => dayState(values, day, spans));
  const dayError = errors[day];
  // The week with no hours at all: its message concerns the first day's first input.
  const weekError = first && errors[HOURS_FIELD] ? `${HOURS_FIELD}-error` : undefined;
  return (
    <tr
      className="hours-table__day"
      onChange={(event) => {
        const typed = Object.fromEntries(
          [...event.currentTarget.querySelectorAll('input')].map((input) => [input.name, input.value]),
        );
        setState(dayState(typed, day, spans));
      }}
    >
      <th scope="row" className="hours-table__name">
        {label}
        <span className="hours-table__state">{state}</span>
        {dayError ? (
          <span className="field__error" id={`${day}-error`}>
            {dayError}
          </span>
        ) : null}
      </th>
      {numbersTo(spans).map((n) => (
        <td key={n} data-label={BUSINESS_HOURS_TEXT.spanColumn(n)} className="hours-table__span">
          <TimePair
            opens={{ name: hourField(day, n, 'opens'), label: BUSINESS_HOURS_TEXT.opensLabel(label, n) }}
            closes={{ name: hourField(day, n, 'closes'), label: BUSINESS_HOURS_TEXT.closesLabel(label, n) }}
            values={values}
            errors={errors}
            alsoDescribedBy={describedBy(dayError && `${day}-error`, n === 1 && weekError)}
            invalid={Boolean(dayError) || (n === 1 && Boolean(weekError))}
          />
        </td>
      ))}
    </tr>
  );
}

/** Opening hours per weekday, and the anniversary day: one form, one Save. */
export function OpeningHoursForm({ calendar, result }: { calendar: CalendarSettings; result: FormResult | undefined }) {
  const mine = result?.form === INTENTS.calendar ? result : undefined;
  // The form's check, loaded with zod when the form is first used (useFormCheck).
  const check = useMemo(
    () => () =>
      import('./business-hours-read.ts').then(({ checkOf, readCalendarForm }) =>
        checkOf((values) => readCalendarForm(values, calendar).read),
      ),
    [calendar],
  );
  const { errors, onSubmit, formRef } = useFormCheck(check, mine);
  const saving = useNavigation().formData?.get('intent') === INTENTS.calendar;
  const saved = useMemo(
    () =>
      Object.assign(
        { [ANNIVERSARY_FIELD]: calendar.anniversary ?? '' },
        ...WEEKDAYS.map(({ key }) => spanValues(calendar.hours[key], (n, side) => hourField(key, n, side))),
      ) as Record<string, string>,
    [calendar],
  );
  // After a refusal, what was typed; otherwise the calendar as saved (the fields start again when it changes).
  const values = mine && !mine.ok ? mine.values : saved;
  const version = JSON.stringify([calendar.hours, calendar.anniversary]);
  const spans = spansShown(calendar);
  const columns = [BUSINESS_HOURS_TEXT.dayColumn, ...numbersTo(spans).map(BUSINESS_HOURS_TEXT.spanColumn)];
  return (
    <section className="business-hours__section" aria-labelledby={`${HOURS_SECTION}-title`} id={HOURS_SECTION}>
      <h2 id={`${HOURS_SECTION}-title`} className="admin-section__title">
        {BUSINESS_HOURS_TEXT.hoursTitle}
      </h2>
      <p className="business-hours__lead">{BUSINESS_HOURS_TEXT.hoursLead}</p>
      <ResultNotice result={mine} />
      <Form
        method="post"
        action={`#${HOURS_SECTION}`}
        preventScrollReset
        ref={formRef}
        noValidate
        onSubmit={onSubmit}
        className="form business-hours__form"
        aria-labelledby={`${HOURS_SECTION}-title`}
      >
        <input type="hidden" name="intent" value={INTENTS.calendar} />
        {errors[HOURS_FIELD] ? (
          <p className="field__error" id={`${HOURS_FIELD}-error`}>
            {errors[HOURS_FIELD]}
          </p>
        ) : null}
        <DataTable key={version} caption={BUSINESS_HOURS_TEXT.hoursCaption} columns={columns} className="hours-table">
          {WEEKDAYS.map(({ key, label }, i) => (
            <DayRow key={key} day={key} label={label} values={values} errors={errors} first={i === 0} spans={spans} />
          ))}
        </DataTable>
        <div className="business-hours__anniversary" key={`anniversary-${version}`}>
          <SelectField
            label={BUSINESS_HOURS_TEXT.anniversaryLabel}
            name={ANNIVERSARY_FIELD}
            id={ANNIVERSARY_FIELD}
            defaultValue={values[ANNIVERSARY_FIELD] ?? ''}
            hint={BUSINESS_HOURS_TEXT.anniversaryHint}
            error={errors[ANNIVERSARY_FIELD]}
          >
            <option value="">{BUSINESS_HOURS_TEXT.anniversaryNone}</option>
            {ANNIVERSARY_REGIONS.map((region) => (
              <option key={region.value} value={region.value}>
                {region.label}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? BUSINESS_HOURS_TEXT.saving : BUSINESS_HOURS_TEXT.saveHours}
          </button>
        </div>
      </Form>
    </section>
  );
}
