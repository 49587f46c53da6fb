import { DataTable } from '../../components/ui/data-table.tsx';
import { Form, useNavigation } from 'react-router';
import { BUSINESS_HOURS_TEXT, formatTargetMinutes, TARGETS_TEXT } from '../../../contracts/service-levels.ts';
import type { Targets } from '../../../contracts/service-levels.schemas.ts';
import { TARGET_KINDS } from '../../../contracts/due-times.ts';
import { reasonLabel, TICKET_REASON_VALUES } from '../../../contracts/support.ts';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { INTENTS, targetField } from './business-hours-form.ts';
import { ResultNotice } from './business-hours-parts.tsx';

/** The section's id: the audit log's entries for a change of targets link to it. */
export const TARGETS_SECTION = 'targets';
const COLUMNS = [BUSINESS_HOURS_TEXT.reasonColumn, ...TARGET_KINDS.map((kind) => kind.label)];
/** The form's check, loaded with zod when the form is first used (useFormCheck). */
const check = () => import('./business-hours-read.ts').then(({ checkOf, readTargetsForm }) => checkOf(readTargetsForm));

/** Reason × first response, next response, resolution: business hours and minutes typed as 'H:MM'. */
export function TargetsForm({ targets, result }: { targets: Targets; result: FormResult | undefined }) {
  const mine = result?.form === INTENTS.targets ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(check, mine);
  const saving = useNavigation().formData?.get('intent') === INTENTS.targets;
  const typed = mine && !mine.ok ? mine.values : undefined;
  const version = JSON.stringify(targets);
  return (
    <section className="business-hours__section" aria-labelledby={`${TARGETS_SECTION}-title`} id={TARGETS_SECTION}>
      <h2 id={`${TARGETS_SECTION}-title`} className="admin-section__title">
        {TARGETS_TEXT.title}
      </h2>
      <p className="business-hours__lead" id="targets-lead">
        {TARGETS_TEXT.lead} {BUSINESS_HOURS_TEXT.targetsHint}
      </p>
      <ResultNotice result={mine} />
      <Form
        method="post"
        action={`#${TARGETS_SECTION}`}
        preventScrollReset
        ref={formRef}
        noValidate
        onSubmit={onSubmit}
        className="form business-hours__form"
        aria-labelledby={`${TARGETS_SECTION}-title`}
      >
        <input type="hidden" name="intent" value={INTENTS.targets} />
        <DataTable
          key={version}
          caption={BUSINESS_HOURS_TEXT.targetsCaption}
          columns={COLUMNS}
          className="targets-table"
        >
          {TICKET_REASON_VALUES.map((reason) => (
            <tr key={reason}>
              <th scope="row" className="targets-table__reason">
                {reasonLabel(reason)}
              </th>
              {TARGET_KINDS.map((kind) => {
                const name = targetField(reason, kind.key);
                const error = errors[name];
                return (
                  <td key={kind.key} data-label={kind.label} className="targets-table__target">
                    <label className="visually-hidden" htmlFor={name}>
                      {BUSINESS_HOURS_TEXT.targetLabel(reasonLabel(reason), kind.label)}
                    </label>
                    <input
                      className="input targets-table__input"
                      id={name}
                      name={name}
                      autoComplete="off"
                      spellCheck={false}
                      defaultValue={typed?.[name] ?? formatTargetMinutes(targets[reason][kind.key])}
                      aria-invalid={Boolean(error)}
                      aria-describedby={error ? `${name}-error targets-lead` : 'targets-lead'}
                    />
                    {error ? (
                      <p className="field__error" id={`${name}-error`}>
                        {error}
                      </p>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </DataTable>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? BUSINESS_HOURS_TEXT.saving : BUSINESS_HOURS_TEXT.saveTargets}
          </button>
        </div>
      </Form>
    </section>
  );
}
