import {
  type CompanyTextField,
  LICENCE_FIELD_TEXT,
  LICENSE_FIELD,
  LICENSE_PICKER_ACCEPT,
  NZBN_TEXT,
  PHONE_HINT,
  REGISTERED_TEXT,
} from '../../../contracts/companies.ts';
import { InputField } from '../../components/ui/field.tsx';
import { fieldId, type RegistrationErrors, type RegistrationValues, submitReady } from './form-rules.ts';

/** What the page says after a post without JavaScript: success above the fields, a failure above Submit. */
export type RegistrationNotice = { kind: 'success' | 'error'; lines: string[]; statusPath?: string | null };

/** After an application: what happens next, and the private status link this browser was given. */
function NextSteps({ statusPath }: { statusPath: string | null }) {
  return (
    <section className="register-form__next" aria-labelledby="register-submitted-next">
      <h2 id="register-submitted-next" className="register__aside-title">
        {REGISTERED_TEXT.heading}
      </h2>
      <ol className="register-steps">
        {REGISTERED_TEXT.steps.slice(0, statusPath ? 3 : 2).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {statusPath ? (
        <p>
          <a href={statusPath} className="button button--primary">
            {REGISTERED_TEXT.statusLink}
          </a>
        </p>
      ) : null}
    </section>
  );
}

/** A browser cannot be given a chosen file back: after a refused post, the hint asks for it again. */
function licenseAgain(errors: RegistrationErrors, notice: RegistrationNotice | null): string {
  if (errors[LICENSE_FIELD]) return ' Please choose the file again.';
  return notice?.kind === 'error' ? ' If you chose a file, please choose it again.' : '';
}

/**
 * The partner registration form (docs/product.md §2, §5, §8), rendered on the server only: the page does not
 * hydrate. Without JavaScript it posts (multipart) to /register, whose action answers with the
 * messages under the fields and the values kept. With JavaScript, enhance.ts validates every change
 * with the same shared rules, gates Submit and sends through the API, as this markup expects:
 * ids from `fieldId` (form-rules.ts), errors in `.field__error` after each input, and the Submit button
 * `[data-submit]`.
 */
export function RegistrationForm({
  values,
  errors,
  notice,
}: {
  values: RegistrationValues;
  errors: RegistrationErrors;
  notice: RegistrationNotice | null;
}) {
  // Ids from fieldId (enhance.ts finds the fields by them), hints under the label, required or optional said.
  const field = (name: CompanyTextField | typeof LICENSE_FIELD, required = false) => ({
    id: fieldId(name),
    name,
    hintFirst: true,
    mark: required ? ('required' as const) : ('optional' as const),
  });
  const text = (name: CompanyTextField, required = false) => ({
    ...field(name, required),
    defaultValue: values[name] ?? '',
    error: errors[name],
  });

  return (
    <form
      method="post"
      encType="multipart/form-data"
      className="form form-card register-form"
      noValidate
      aria-labelledby="register-title"
      data-register-form=""
    >
      <p className="field__hint register-form__note">
        Fields marked <span className="field__required">*</span> are required.
      </p>

      {notice?.kind === 'success' ? (
        <div className="alert alert--success" role="status" data-notice="">
          <div>
            {notice.lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        </div>
      ) : null}
      {notice?.kind === 'success' ? <NextSteps statusPath={notice.statusPath ?? null} /> : null}

      <fieldset className="form__group">
        <legend className="form__legend">Company details</legend>
        <InputField label="Company name" autoComplete="organization" {...text('companyName', true)} />
        {/* Right below the company name: the number that identifies the company (docs/decisions/110-nzbn.md). */}
        <InputField
          label={NZBN_TEXT.label}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          hint={NZBN_TEXT.hint}
          {...text('nzbn')}
        />
        <InputField
          label="Phone number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          hint={PHONE_HINT}
          {...text('phoneNumber', true)}
        />
        <InputField
          label="Address 1"
          autoComplete="address-line1"
          hint="Street address of your depot or office."
          {...text('address', true)}
        />
        <InputField
          label="Address 2"
          autoComplete="address-line2"
          hint="Unit, level, suburb or city."
          {...text('street')}
        />
      </fieldset>

      <fieldset className="form__group">
        <legend className="form__legend">Contact person</legend>
        <div className="form__row form__row--2">
          <InputField label="Contact person name" autoComplete="name" {...text('contactPersonName')} />
          <InputField
            label="Contact person job title"
            autoComplete="organization-title"
            {...text('contactPersonJobTitle')}
          />
        </div>
        <div className="form__row form__row--2">
          <InputField
            label="Contact person phone number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            {...text('contactPersonPhoneNumber')}
          />
          <InputField label="Contact person email" type="email" autoComplete="email" {...text('contactPersonEmail')} />
        </div>
      </fieldset>

      <fieldset className="form__group">
        <legend className="form__legend">Documents</legend>
        <InputField
          {...field(LICENSE_FIELD)}
          label={LICENCE_FIELD_TEXT.label}
          type="file"
          accept={LICENSE_PICKER_ACCEPT}
          hint={`${LICENCE_FIELD_TEXT.hint}${licenseAgain(errors, notice)}`}
          error={errors[LICENSE_FIELD]}
        />
      </fieldset>

      {notice?.kind === 'error' ? (
        <div className="alert alert--error" role="alert" data-notice="">
          <div>
            {notice.lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        </div>
      ) : null}

      <div className="form__actions">
        {/* Disabled until the spec's rules hold; enhance.ts enables it as the user types. */}
        <button
          type="submit"
          className="button button--primary register-form__submit js-only"
          data-submit=""
          disabled={!submitReady(values, errors)}
        >
          Submit
        </button>
        {/* Without JavaScript nothing could enable the button above: the server checks instead. */}
        <noscript>
          <button type="submit" className="button button--primary register-form__submit">
            Submit
          </button>
        </noscript>
      </div>
    </form>
  );
}
