import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import {
  COMPANY_MESSAGES,
  type CompanyFormField,
  type CompanyTextField,
  companyFieldError,
  companyFieldErrors,
  LICENSE_FIELD,
  LICENSE_PICKER_ACCEPT,
  LICENSE_PICKER_TYPES,
} from '../../../contracts/companies.ts';
import { FormField, fieldId } from './form-field.tsx';
import { checkLicenseFile } from './license-check.ts';
import { submitRegistration } from './submit-registration.ts';

type Values = Record<CompanyTextField, string>;
type Errors = Partial<Record<CompanyFormField, string>>;

const EMPTY: Values = {
  companyName: '',
  phoneNumber: '',
  address: '',
  street: '',
  contactPersonName: '',
  contactPersonJobTitle: '',
  contactPersonPhoneNumber: '',
  contactPersonEmail: '',
};

/** Submit waits for these three (spec §2): long enough, the right digits, and no message showing. */
const GATING_FIELDS: CompanyTextField[] = ['companyName', 'address', 'phoneNumber'];
/** The order fields appear in, for focusing the first one with a problem. */
const FIELD_ORDER: CompanyFormField[] = [
  'companyName',
  'phoneNumber',
  'address',
  'street',
  'contactPersonName',
  'contactPersonJobTitle',
  'contactPersonPhoneNumber',
  'contactPersonEmail',
  LICENSE_FIELD,
];

function focusFirst(errors: Errors) {
  const first = FIELD_ORDER.find((field) => errors[field]);
  if (first) document.getElementById(fieldId(first))?.focus();
}

/**
 * The partner registration form (spec §2, §5, §8). Every change is validated with the shared
 * rules; the server checks everything again and answers duplicates under their fields.
 */
export function RegistrationForm() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [license, setLicense] = useState<File | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Only the newest file's check may set the message (a slow check must not overwrite a newer one).
  const licenseCheck = useRef(0);

  useEffect(() => setHydrated(true), []);

  const ready = GATING_FIELDS.every((field) => companyFieldError(field, values[field]) === null && !errors[field]);

  const change = (field: CompanyTextField) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: companyFieldError(field, value) ?? undefined }));
  };

  const changeLicense = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    const check = ++licenseCheck.current;
    setLicense(file);
    const message = file ? await checkLicenseFile(file) : null;
    if (check === licenseCheck.current) setErrors((current) => ({ ...current, [LICENSE_FIELD]: message ?? undefined }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !ready) return;
    setNotice(null);
    const found: Errors = { ...companyFieldErrors(values) };
    const licenseProblem = license ? await checkLicenseFile(license) : null;
    if (licenseProblem) found[LICENSE_FIELD] = licenseProblem;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      focusFirst(found);
      return;
    }

    setSubmitting(true);
    const outcome = await submitRegistration(values, license);
    if (outcome.kind === 'created') {
      window.alert(COMPANY_MESSAGES.submitted);
      formRef.current?.reset();
      setValues(EMPTY);
      setLicense(null);
      setErrors({});
      window.location.reload();
      return;
    }
    setSubmitting(false);
    if (outcome.kind === 'refused') {
      setErrors((current) => ({ ...current, ...outcome.fields }));
      // Duplicates are answered under their fields only (spec §8); other refusals also alert.
      if (outcome.duplicate && Object.keys(outcome.fields).length > 0) {
        focusFirst(outcome.fields);
        return;
      }
      if (Object.keys(outcome.fields).length === 0) setNotice(outcome.message);
    }
    window.alert(COMPANY_MESSAGES.submitFailed);
    if (outcome.kind === 'refused') focusFirst(outcome.fields);
  };

  const text = (field: CompanyTextField) => ({
    value: values[field],
    onChange: change(field),
    error: errors[field],
  });

  return (
    <form
      ref={formRef}
      className="form form-card register-form"
      noValidate
      onSubmit={submit}
      aria-labelledby="register-title"
      data-hydrated={hydrated ? 'true' : undefined}
    >
      <p className="field__hint register-form__note">
        Fields marked <span className="field__required">*</span> are required.
      </p>

      <fieldset className="form__group">
        <legend className="form__legend">Company details</legend>
        <div className="form__row form__row--2">
          <FormField
            name="companyName"
            label="Company name"
            required
            autoComplete="organization"
            {...text('companyName')}
          />
          <FormField
            name="phoneNumber"
            label="Phone number"
            required
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            hint="Digits only, 7 to 14 (for example 0211234567)."
            {...text('phoneNumber')}
          />
        </div>
        <FormField
          name="address"
          label="Address 1"
          required
          autoComplete="address-line1"
          hint="Street address of your depot or office."
          {...text('address')}
        />
        <FormField
          name="street"
          label="Address 2"
          autoComplete="address-line2"
          hint="Unit, level, suburb or city."
          {...text('street')}
        />
      </fieldset>

      <fieldset className="form__group">
        <legend className="form__legend">Contact person</legend>
        <div className="form__row form__row--2">
          <FormField
            name="contactPersonName"
            label="Contact person name"
            autoComplete="name"
            {...text('contactPersonName')}
          />
          <FormField
            name="contactPersonJobTitle"
            label="Contact person job title"
            autoComplete="organization-title"
            {...text('contactPersonJobTitle')}
          />
        </div>
        <div className="form__row form__row--2">
          <FormField
            name="contactPersonPhoneNumber"
            label="Contact person phone number"
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            {...text('contactPersonPhoneNumber')}
          />
          <FormField
            name="contactPersonEmail"
            label="Contact person email"
            type="email"
            autoComplete="email"
            {...text('contactPersonEmail')}
          />
        </div>
      </fieldset>

      <fieldset className="form__group">
        <legend className="form__legend">Documents</legend>
        <FormField
          name={LICENSE_FIELD}
          label={`Commercial license (${LICENSE_PICKER_TYPES.join(', ')})`}
          type="file"
          accept={LICENSE_PICKER_ACCEPT}
          hint="We can accept a JPG, JPEG or PNG image of your license, up to 10 MB."
          onChange={changeLicense}
          error={errors[LICENSE_FIELD]}
        />
      </fieldset>

      {notice ? (
        <div className="alert alert--error" role="alert">
          <p>{notice}</p>
        </div>
      ) : null}

      <div className="form__actions">
        <button type="submit" className="button button--primary register-form__submit" disabled={submitting || !ready}>
          {submitting ? 'Submitting....' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
