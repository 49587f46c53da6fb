import { useMemo } from 'react';
import { Form, useNavigation } from 'react-router';
import { BUSINESS_HOURS_TEXT } from '../../../contracts/service-levels.ts';
import type { CalendarSettings, SpecialDay } from '../../../contracts/service-levels.schemas.ts';
import { DataTable } from '../../components/ui/data-table.tsx';
import { InputField, TextAreaField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { EXCEPTION_FIELDS, EXCEPTION_SPANS, exceptionField, INTENTS } from './business-hours-form.ts';
import { dayWords, describedBy, hoursWords, ResultNotice, TimePair } from './business-hours-parts.tsx';

export const EXCEPTIONS_SECTION = 'exceptions';
const COLUMNS = BUSINESS_HOURS_TEXT.exceptionColumns;
const SPAN_NUMBERS = Array.from({ length: EXCEPTION_SPANS }, (_, i) => i + 1);

function AddExceptionForm({ calendar, result }: { calendar: CalendarSettings; result: FormResult | undefined }) {
  const mine = result?.form === INTENTS.addException ? result : undefined;
  // The form's check, loaded with zod when the form is first used (useFormCheck).
  const check = useMemo(
    () => () =>
      import('./business-hours-read.ts').then(({ checkOf, readExceptionForm }) =>
        checkOf((values) => readExceptionForm(values, calendar).read),
      ),
    [calendar],
  );
  const { errors, onSubmit, formRef } = useFormCheck(check, mine);
  const saving = useNavigation().formData?.get('intent') === INTENTS.addException;
  const values = mine && !mine.ok ? mine.values : {};
  const hoursError = errors[EXCEPTION_FIELDS.hours];
  return (
    <Form
      method="post"
      action={`#${EXCEPTIONS_SECTION}`}
      preventScrollReset
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      className="form form-card business-hours__add"
      aria-labelledby="add-exception-title"
      // A new form once the exception is in the list.
      key={calendar.overrides.map((o) => o.date).join()}
    >
      <input type="hidden" name="intent" value={INTENTS.addException} />
      <h3 id="add-exception-title" className="business-hours__subtitle">
        {BUSINESS_HOURS_TEXT.addExceptionTitle}
      </h3>
      <InputField
        label={BUSINESS_HOURS_TEXT.dateLabel}
        type="date"
        name={EXCEPTION_FIELDS.date}
        id={EXCEPTION_FIELDS.date}
        defaultValue={values[EXCEPTION_FIELDS.date] ?? ''}
        error={errors[EXCEPTION_FIELDS.date]}
        className="input business-hours__date"
        required
      />
      <div className="business-hours__check">
        <input
          type="checkbox"
          id={EXCEPTION_FIELDS.closed}
          name={EXCEPTION_FIELDS.closed}
          value="yes"
          defaultChecked={Boolean(values[EXCEPTION_FIELDS.closed])}
          aria-describedby={`${EXCEPTION_FIELDS.closed}-hint`}
        />
        <label htmlFor={EXCEPTION_FIELDS.closed}>{BUSINESS_HOURS_TEXT.closedAllDay}</label>
        <p id={`${EXCEPTION_FIELDS.closed}-hint`} className="field__hint">
          {BUSINESS_HOURS_TEXT.closedAllDayHint}
        </p>
      </div>
      <fieldset className="form__group business-hours__spans">
        <legend className="field__label">{BUSINESS_HOURS_TEXT.exceptionHours}</legend>
        {hoursError ? (
          <p className="field__error" id={`${EXCEPTION_FIELDS.hours}-error`}>
            {hoursError}
          </p>
        ) : null}
        {SPAN_NUMBERS.map((n) => (
          <div key={n} className="business-hours__span">
            <span className="business-hours__span-name" aria-hidden="true">
              {BUSINESS_HOURS_TEXT.spanColumn(n)}
            </span>
            <div>
              <TimePair
                opens={{ name: exceptionField(n, 'opens'), label: BUSINESS_HOURS_TEXT.exceptionOpensLabel(n) }}
                closes={{ name: exceptionField(n, 'closes'), label: BUSINESS_HOURS_TEXT.exceptionClosesLabel(n) }}
                values={values}
                errors={errors}
                alsoDescribedBy={describedBy(hoursError && `${EXCEPTION_FIELDS.hours}-error`)}
                invalid={Boolean(hoursError)}
              />
            </div>
          </div>
        ))}
      </fieldset>
      <TextAreaField
        label={BUSINESS_HOURS_TEXT.noteLabel}
        name={EXCEPTION_FIELDS.note}
        id={EXCEPTION_FIELDS.note}
        rows={2}
        maxLength={120}
        defaultValue={values[EXCEPTION_FIELDS.note] ?? ''}
        hint={BUSINESS_HOURS_TEXT.noteHint}
        error={errors[EXCEPTION_FIELDS.note]}
        mark="optional"
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? BUSINESS_HOURS_TEXT.saving : BUSINESS_HOURS_TEXT.addException}
        </button>
      </div>
    </Form>
  );
}

/** The dated exceptions, each with its Remove form, and the form that adds one. */
export function ExceptionsSection({
  calendar,
  result,
}: {
  calendar: CalendarSettings;
  result: FormResult | undefined;
}) {
  const busy = useNavigation().formData?.get('intent') === INTENTS.removeException;
  const removed = result?.form === INTENTS.removeException ? result : undefined;
  const added = result?.form === INTENTS.addException ? result : undefined;
  return (
    <section
      className="business-hours__section"
      aria-labelledby={`${EXCEPTIONS_SECTION}-title`}
      id={EXCEPTIONS_SECTION}
    >
      <h2 id={`${EXCEPTIONS_SECTION}-title`} className="admin-section__title">
        {BUSINESS_HOURS_TEXT.exceptionsTitle}
      </h2>
      <p className="business-hours__lead">{BUSINESS_HOURS_TEXT.exceptionsLead}</p>
      <ResultNotice result={removed ?? (added?.ok ? added : undefined)} focus={Boolean(removed)} />
      {calendar.overrides.length === 0 ? (
        <p className="empty-state">{BUSINESS_HOURS_TEXT.exceptionsEmpty}</p>
      ) : (
        <DataTable caption={BUSINESS_HOURS_TEXT.exceptionsCaption} columns={COLUMNS} className="admin-table">
          {calendar.overrides.map((override) => {
            const day = dayWords(override.date);
            return (
              <tr key={override.date}>
                <td data-label={COLUMNS[0]}>{day}</td>
                <td data-label={COLUMNS[1]}>{hoursWords(override.spans)}</td>
                <td data-label={COLUMNS[2]}>{override.note}</td>
                <td data-label={COLUMNS[3]} className="admin-table__actions">
                  <Form method="post" action={`#${EXCEPTIONS_SECTION}`} preventScrollReset>
                    <input type="hidden" name="intent" value={INTENTS.removeException} />
                    <input type="hidden" name="date" value={override.date} />
                    <button type="submit" className="button button--ghost admin-button--small" disabled={busy}>
                      {BUSINESS_HOURS_TEXT.remove}
                      <span className="visually-hidden"> {BUSINESS_HOURS_TEXT.removeWhat(day)}</span>
                    </button>
                  </Form>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <AddExceptionForm calendar={calendar} result={added && !added.ok ? added : undefined} />
    </section>
  );
}

/** The holidays and exceptions of the next twelve months, as the calendar keeps them. */
export function HolidaysAhead({ days }: { days: readonly SpecialDay[] }) {
  const columns = BUSINESS_HOURS_TEXT.aheadColumns;
  return (
    <section className="business-hours__section" aria-labelledby="ahead-title" id="ahead">
      <h2 id="ahead-title" className="admin-section__title">
        {BUSINESS_HOURS_TEXT.aheadTitle}
      </h2>
      <p className="business-hours__lead">{BUSINESS_HOURS_TEXT.aheadLead}</p>
      {days.length === 0 ? (
        <p className="empty-state">{BUSINESS_HOURS_TEXT.aheadEmpty}</p>
      ) : (
        <DataTable caption={BUSINESS_HOURS_TEXT.aheadCaption} columns={columns} className="admin-table">
          {days.map((day) => (
            <tr key={day.date}>
              <td data-label={columns[0]}>{dayWords(day.date)}</td>
              <td data-label={columns[1]}>
                {day.name || BUSINESS_HOURS_TEXT.exception}
                {day.exception && day.name ? (
                  <>
                    {' '}
                    <span className="badge">{BUSINESS_HOURS_TEXT.exception}</span>
                  </>
                ) : null}
              </td>
              <td data-label={columns[2]}>{hoursWords(day.spans)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
