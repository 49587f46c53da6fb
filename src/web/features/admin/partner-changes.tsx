import { Form } from 'react-router';
import {
  CHANGE_NOTE_MAX,
  CHANGE_REASONS,
  CHANGEABLE_FIELDS,
  type ChangeableField,
  CHANGES_TEXT,
} from '../../../contracts/partner-changes.ts';
import type { RequestChangesInput, RequestedChanges } from '../../../contracts/partner-changes.schemas.ts';
import { APPLICATION_STATUS_TEXT } from '../../../contracts/partner-status.ts';
import { TextAreaField } from '../../components/ui/field.tsx';
import type { FormResult } from '../../lib/form.ts';

/**
 * Changes requested in the console (docs/decisions/113-changes-requested.md): the form that asks an
 * applicant for what is wrong (a checkbox per fixed reason, the fields Other opens, a note), posted
 * to the partner page's action as intent 'request-changes'; and the request as it stands while the
 * applicant has not answered. Opening the form is a step in the address (?changes), so it works
 * without JavaScript.
 */

const FIELD_LABEL = (field: ChangeableField) => APPLICATION_STATUS_TEXT.fields[field];

/** The form's checkboxes as the endpoint's body: `reason-{reason}` and `field-{field}` when ticked. */
export function requestFromForm(values: Record<string, string>): RequestChangesInput {
  return {
    reasons: CHANGE_REASONS.filter((reason) => values[`reason-${reason}`] !== undefined),
    fields: CHANGEABLE_FIELDS.filter((field) => values[`field-${field}`] !== undefined),
    ...(values.note !== undefined ? { note: values.note } : {}),
  };
}

export function RequestChangesForm({
  email,
  result,
  busy,
}: {
  email: string | null;
  result: FormResult | undefined;
  busy: boolean;
}) {
  const errors = result && !result.ok ? result.fields : {};
  const values = result?.values ?? {};
  return (
    <Form method="post" className="form form-card admin-changes" aria-labelledby="changes-title" preventScrollReset>
      <h2 id="changes-title" className="admin-section__title">
        {CHANGES_TEXT.formTitle}
      </h2>
      <input type="hidden" name="intent" value="request-changes" />
      <fieldset
        className="admin-changes__group"
        aria-describedby={errors.reasons ? 'changes-reasons-error' : undefined}
      >
        <legend className="field__label">{CHANGES_TEXT.reasonsLegend}</legend>
        {CHANGE_REASONS.map((reason) => (
          <div key={reason} className="admin-changes__option">
            <input
              id={`reason-${reason}`}
              type="checkbox"
              name={`reason-${reason}`}
              defaultChecked={values[`reason-${reason}`] !== undefined}
            />
            <label htmlFor={`reason-${reason}`}>{CHANGES_TEXT.reasons[reason]}</label>
          </div>
        ))}
        {errors.reasons ? (
          <p className="field__error" id="changes-reasons-error">
            {errors.reasons}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="admin-changes__group" aria-describedby={errors.fields ? 'changes-fields-error' : undefined}>
        <legend className="field__label">{CHANGES_TEXT.fieldsLegend}</legend>
        <div className="admin-changes__fields">
          {CHANGEABLE_FIELDS.map((field) => (
            <div key={field} className="admin-changes__option">
              <input
                id={`field-${field}`}
                type="checkbox"
                name={`field-${field}`}
                defaultChecked={values[`field-${field}`] !== undefined}
              />
              <label htmlFor={`field-${field}`}>{FIELD_LABEL(field)}</label>
            </div>
          ))}
        </div>
        {errors.fields ? (
          <p className="field__error" id="changes-fields-error">
            {errors.fields}
          </p>
        ) : null}
      </fieldset>
      <TextAreaField
        label={CHANGES_TEXT.noteLabel}
        name="note"
        maxLength={CHANGE_NOTE_MAX}
        defaultValue={values.note ?? ''}
        hint={`${CHANGES_TEXT.noteHint}${email ? ` We email it to ${email}.` : ''}`}
        error={errors.note}
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {CHANGES_TEXT.send}
        </button>
        {/* Closes the form: the toggle's own form (a GET to this page without ?changes). */}
        <button type="submit" form="changes-toggle" className="button button--ghost">
          {CHANGES_TEXT.cancel}
        </button>
      </div>
    </Form>
  );
}

/** What was asked, while the applicant has not sent it. */
export function RequestedChangesNotice({ changes }: { changes: RequestedChanges }) {
  return (
    <section className="admin-requested" aria-labelledby="requested-title">
      <h2 id="requested-title" className="admin-section__title">
        {CHANGES_TEXT.stageLabels.changes_requested}
      </h2>
      <p>{CHANGES_TEXT.waiting}</p>
      <ul>
        {changes.reasons.map((reason) => (
          <li key={reason}>{CHANGES_TEXT.reasons[reason]}</li>
        ))}
      </ul>
      <p>
        <strong>{CHANGES_TEXT.fieldsOpen}</strong> {changes.fields.map(FIELD_LABEL).join(', ')}
      </p>
      {changes.note ? (
        <p>
          <strong>{CHANGES_TEXT.noteLabel}:</strong> {changes.note}
        </p>
      ) : null}
    </section>
  );
}
