import { useEffect, useRef } from 'react';
import { formatNzDay } from '../../../contracts/dates.ts';
import { BUSINESS_HOURS_TEXT, WEEKDAY_BY_INDEX, WEEKDAYS } from '../../../contracts/service-levels.ts';
import type { Span } from '../../../contracts/service-levels.schemas.ts';
import type { FormResult } from '../../lib/form.ts';

/** A calendar date as the page writes it: 'Friday 25 Dec 2026'. */
export function dayWords(date: string): string {
  const weekday = WEEKDAY_BY_INDEX[new Date(`${date}T12:00:00Z`).getUTCDay()];
  const label = WEEKDAYS.find((day) => day.key === weekday)?.label ?? '';
  return `${label} ${formatNzDay(date)}`.trim();
}

/** A day's spans in words: '09:00–12:00, 13:00–17:00', or 'Closed'. */
export const hoursWords = (spans: readonly Span[]) =>
  spans.length === 0 ? BUSINESS_HOURS_TEXT.closed : spans.map((span) => `${span.start}–${span.end}`).join(', ');

/**
 * A form's answer: its success in a status region, or a refusal that names no field. With
 * JavaScript the page stays where it is, so the answer is brought into view (and, with `focus`,
 * takes the focus: the button that was pressed has gone with its row).
 */
export function ResultNotice({ result, focus = false }: { result: FormResult | undefined; focus?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!result?.message || !ref.current) return;
    if (focus) ref.current.focus({ preventScroll: true });
    ref.current.scrollIntoView({ block: 'nearest' });
  }, [result, focus]);
  if (!result?.message) return null;
  return (
    <div
      ref={ref}
      className={`alert alert--${result.ok ? 'success' : 'error'} business-hours__notice`}
      role={result.ok ? 'status' : 'alert'}
      tabIndex={focus ? -1 : undefined}
    >
      <p>{result.message}</p>
    </div>
  );
}

/** The ids a control is described by: its own message, then the others that concern it. */
export const describedBy = (...ids: Array<string | false | null | undefined>) =>
  ids.filter(Boolean).join(' ') || undefined;

/** Two time inputs, opens and closes, each labelled for a screen reader, and their messages under them. */
export function TimePair({
  opens,
  closes,
  values,
  errors,
  alsoDescribedBy,
  invalid,
}: {
  opens: { name: string; label: string };
  closes: { name: string; label: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  /** Messages of the day or the form that concern these inputs too. */
  alsoDescribedBy?: string | undefined;
  /** Marked invalid by a message of the day or the form. */
  invalid?: boolean;
}) {
  const input = (field: { name: string; label: string }) => {
    const error = errors[field.name];
    return (
      <>
        <label className="visually-hidden" htmlFor={field.name}>
          {field.label}
        </label>
        <input
          type="time"
          className="input time-pair__input"
          id={field.name}
          name={field.name}
          defaultValue={values[field.name] ?? ''}
          aria-invalid={Boolean(error) || Boolean(invalid)}
          aria-describedby={describedBy(error && `${field.name}-error`, alsoDescribedBy)}
        />
      </>
    );
  };
  return (
    <>
      <span className="time-pair">
        {input(opens)}
        <span className="time-pair__to" aria-hidden="true">
          {BUSINESS_HOURS_TEXT.to}
        </span>
        {input(closes)}
      </span>
      {[opens, closes].map((field) =>
        errors[field.name] ? (
          <p key={field.name} className="field__error" id={`${field.name}-error`}>
            {errors[field.name]}
          </p>
        ) : null,
      )}
    </>
  );
}
