import { Form, useNavigation } from 'react-router';
import { CLAIM_PERIOD_MOST, CLAIM_PERIOD_NAMES, CLAIM_TEXT } from '../../../contracts/claims.ts';
import type { ClaimPeriods } from '../../../contracts/claims.schemas.ts';
import { BUSINESS_HOURS_TEXT } from '../../../contracts/service-levels.ts';
import { InputField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { INTENTS } from './business-hours-form.ts';
import { ResultNotice } from './business-hours-parts.tsx';

/** The section's id: the audit log's entries for a change of the periods link to it. */
export const CLAIM_PERIODS_SECTION = 'claim-periods';
/** The form's check, loaded with zod when the form is first used (useFormCheck). */
const check = () =>
  import('./business-hours-read.ts').then(({ checkOf, readClaimPeriodsForm }) => checkOf(readClaimPeriodsForm));

/**
 * The periods of a claim's waits (docs/decisions/153-claim-life.md), in working days of the
 * calendar above: the database reads them when a wait starts, so the note says a change does not
 * move a wait already running.
 */
export function ClaimPeriodsForm({ periods, result }: { periods: ClaimPeriods; result: FormResult | undefined }) {
  const mine = result?.form === INTENTS.claimPeriods ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(check, mine);
  const saving = useNavigation().formData?.get('intent') === INTENTS.claimPeriods;
  const typed = mine && !mine.ok ? mine.values : undefined;
  return (
    <section
      className="business-hours__section"
      aria-labelledby={`${CLAIM_PERIODS_SECTION}-title`}
      id={CLAIM_PERIODS_SECTION}
    >
      <h2 id={`${CLAIM_PERIODS_SECTION}-title`} className="admin-section__title">
        {CLAIM_TEXT.periodsTitle}
      </h2>
      <p className="business-hours__lead">{CLAIM_TEXT.periodsLead}</p>
      <p className="business-hours__lead">{CLAIM_TEXT.periodsNote}</p>
      <ResultNotice result={mine} />
      <Form
        method="post"
        action={`#${CLAIM_PERIODS_SECTION}`}
        preventScrollReset
        ref={formRef}
        noValidate
        onSubmit={onSubmit}
        className="form business-hours__form business-hours__periods"
        aria-labelledby={`${CLAIM_PERIODS_SECTION}-title`}
        // The saved values shown again once they are stored.
        key={JSON.stringify(periods)}
      >
        <input type="hidden" name="intent" value={INTENTS.claimPeriods} />
        {CLAIM_PERIOD_NAMES.map((name) => (
          <InputField
            key={name}
            label={`${CLAIM_TEXT.periodLabels[name]} (${CLAIM_TEXT.workingDays})`}
            hint={CLAIM_TEXT.periodHints[name]}
            name={name}
            id={name}
            type="number"
            inputMode="numeric"
            min={1}
            max={CLAIM_PERIOD_MOST[name]}
            step={1}
            autoComplete="off"
            defaultValue={typed?.[name] ?? String(periods[name])}
            error={errors[name]}
            className="input business-hours__days"
          />
        ))}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? BUSINESS_HOURS_TEXT.saving : CLAIM_TEXT.savePeriods}
          </button>
        </div>
      </Form>
    </section>
  );
}
