import { useId } from 'react';
import { Form } from 'react-router';
import { historyDay } from '../../../contracts/partner-status.ts';
import { LICENCE_TEXT, REJECTION_REASON_MAX } from '../../../contracts/partner-review.ts';
import type { AdminCompany } from '../../../contracts/partner-review.schemas.ts';
import { InputField, TextAreaField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';

/**
 * The console's licence forms on a partner's page (docs/decisions/115-licence-expiry.md): approve
 * with the licence's expiry date, and a new licence the partner sent, accepted with its expiry
 * date or refused with a reason. Each a real form posted to the page's action (intents 'approve',
 * 'accept-licence', 'refuse-licence'); the same schemas check them here before they are sent,
 * loaded when a form is first used (useFormCheck).
 */

const schemas = () => import('../../../contracts/partner-review.schemas.ts');
const loadApproveFormSchema = () => schemas().then((m) => m.ApproveFormSchema);
const loadAcceptLicenseFormSchema = () => schemas().then((m) => m.AcceptLicenseFormSchema);
const loadRefuseLicenseSchema = () => schemas().then((m) => m.RefuseLicenseSchema);

/** 'Licence expires Wed 3 Dec 2027', or 'Licence expired …' once the date has passed. */
export function licenceExpiryText(company: Pick<AdminCompany, 'licenseExpiresOn' | 'licenseHoldAt'>): string {
  if (!company.licenseExpiresOn) return LICENCE_TEXT.noExpiry;
  return company.licenseHoldAt
    ? LICENCE_TEXT.expired(company.licenseExpiresOn)
    : LICENCE_TEXT.expires(company.licenseExpiresOn);
}

/**
 * The licence's expiry: a date, or the box 'This licence does not expire' (then the date is not
 * read). Not `required` in the HTML: with the box ticked the date stays empty, and the server (and
 * the page's script) say when neither is given.
 */
function ExpiryFields({
  result,
  error,
  hint,
}: {
  result: FormResult | undefined;
  error: string | undefined;
  hint: string;
}) {
  const neverId = useId();
  return (
    <>
      <InputField
        label={LICENCE_TEXT.expiresLabel}
        name="licenseExpiresOn"
        type="date"
        defaultValue={result?.values.licenseExpiresOn ?? ''}
        hint={hint}
        error={error}
      />
      <div className="admin-changes__option">
        <input
          id={neverId}
          type="checkbox"
          name="licenseNeverExpires"
          defaultChecked={result?.values.licenseNeverExpires !== undefined}
          aria-describedby={`${neverId}-hint`}
        />
        <label htmlFor={neverId}>{LICENCE_TEXT.neverLabel}</label>
      </div>
      <p className="field__hint" id={`${neverId}-hint`}>
        {LICENCE_TEXT.neverHint}
      </p>
    </>
  );
}

/** A decision that comes with the licence's expiry: approving, or accepting a new licence. */
function ExpiryForm({
  intent,
  result,
  busy,
  label,
  title,
  hint,
  className,
}: {
  intent: 'approve' | 'accept-licence';
  result: FormResult | undefined;
  busy: boolean;
  label: string;
  title: string;
  hint: string;
  className: string;
}) {
  const { errors, onSubmit, formRef } = useFormCheck(
    intent === 'approve' ? loadApproveFormSchema : loadAcceptLicenseFormSchema,
    result,
  );
  return (
    <Form
      method="post"
      ref={formRef}
      className={className}
      onSubmit={onSubmit}
      noValidate
      aria-label={title}
      preventScrollReset
    >
      <input type="hidden" name="intent" value={intent} />
      <ExpiryFields result={result} error={errors.licenseExpiresOn} hint={hint} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {label}
        </button>
      </div>
    </Form>
  );
}

/** Approve: the licence's expiry date is asked for with the decision. */
export function ApproveForm({ result, busy, label }: { result: FormResult | undefined; busy: boolean; label: string }) {
  return (
    <ExpiryForm
      intent="approve"
      result={result}
      busy={busy}
      label={label}
      title="Approve this application"
      hint={LICENCE_TEXT.expiresHint}
      className="form form-card admin-approve"
    />
  );
}

function RefuseForm({ result, busy }: { result: FormResult | undefined; busy: boolean }) {
  const { errors, onSubmit, formRef } = useFormCheck(loadRefuseLicenseSchema, result);
  return (
    <Form
      method="post"
      ref={formRef}
      className="form form-card"
      onSubmit={onSubmit}
      noValidate
      aria-label={LICENCE_TEXT.refuseTitle}
      preventScrollReset
    >
      <input type="hidden" name="intent" value="refuse-licence" />
      <TextAreaField
        label={LICENCE_TEXT.refuseReasonLabel}
        name="reason"
        required
        maxLength={REJECTION_REASON_MAX}
        defaultValue={result?.values.reason ?? ''}
        hint="We email it to the partner."
        error={errors.reason}
      />
      <div className="form__actions">
        <button type="submit" className="button button--ghost" disabled={busy}>
          {LICENCE_TEXT.refuse}
        </button>
      </div>
    </Form>
  );
}

/** The new licence a partner sent: when, its download, and the accept and refuse forms. */
export function RenewalSection({
  company,
  result,
  busy,
}: {
  company: AdminCompany;
  result: FormResult | undefined;
  busy: boolean;
}) {
  if (!company.renewalSentAt) return null;
  return (
    <section aria-labelledby="renewal-title" className="admin-renewal">
      <h2 id="renewal-title" className="admin-section__title">
        {LICENCE_TEXT.renewalHeading}
      </h2>
      <p>
        {LICENCE_TEXT.renewalSent(historyDay(company.renewalSentAt))} ·{' '}
        <a href={`/api/admin/companies/${encodeURIComponent(company.id)}/renewal-license`} download>
          {LICENCE_TEXT.renewalDownload}
        </a>
      </p>
      <div className="admin-columns">
        <ExpiryForm
          intent="accept-licence"
          result={result?.form === 'accept-licence' ? result : undefined}
          busy={busy}
          label={LICENCE_TEXT.accept}
          title={LICENCE_TEXT.acceptTitle}
          hint="The date on the new licence."
          className="form form-card"
        />
        <RefuseForm result={result?.form === 'refuse-licence' ? result : undefined} busy={busy} />
      </div>
    </section>
  );
}
