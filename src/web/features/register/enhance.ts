import {
  COMPANY_MESSAGES,
  COMPANY_TEXT_FIELDS,
  type CompanyFormField,
  type CompanyTextField,
  LICENSE_FIELD,
} from '../../../contracts/companies.ts';
import { companyFieldError, companyFieldErrors } from '../../../contracts/companies.schemas.ts';
import { FIELD_ORDER, fieldId, GATING_FIELDS, type RegistrationErrors } from './form-rules.ts';
import { checkLicenseFile } from './license-check.ts';
import { submitRegistration } from './submit-registration.ts';

/**
 * The register page's script (the page does not hydrate; docs/decisions/092-register-without-hydration.md).
 * It gives the server-rendered form of registration-form.tsx what docs/product.md §2.6 asks of it
 * in the browser: every change validated with the shared rules and its message under the field, Submit
 * disabled until company name, address and phone number are right, 'Submitting....' while
 * sending, and the alerts of docs/product.md §8. It sends to the registration endpoint
 * (partnersApi.register), the same one the page's own action calls when there is no script.
 */
function enhance(form: HTMLFormElement) {
  const submit = form.querySelector<HTMLButtonElement>('[data-submit]')!;
  const input = (field: CompanyFormField) => document.getElementById(fieldId(field)) as HTMLInputElement;
  const errors: RegistrationErrors = {};
  // The server may have answered with messages already (a post without the script).
  for (const field of FIELD_ORDER) {
    const shown = document.getElementById(`${fieldId(field)}-error`);
    if (shown?.textContent) errors[field] = shown.textContent;
  }
  let submitting = false;
  // Only the newest file's check may set the message (a slow check must not overwrite a newer one).
  let licenseCheck = 0;

  const values = () =>
    Object.fromEntries(COMPANY_TEXT_FIELDS.map((field) => [field, input(field).value])) as Record<
      CompanyTextField,
      string
    >;

  /** Shows or clears a field's message, with the ARIA states registration-form.tsx renders. */
  const show = (field: CompanyFormField, message: string | null | undefined) => {
    const target = input(field);
    const errorId = `${target.id}-error`;
    let line = document.getElementById(errorId);
    if (message) {
      errors[field] = message;
      if (!line) {
        line = document.createElement('p');
        line.className = 'field__error';
        line.id = errorId;
        target.after(line);
      }
      line.textContent = message;
    } else {
      delete errors[field];
      line?.remove();
    }
    const hint = document.getElementById(`${target.id}-hint`);
    const describedBy = [message ? errorId : null, hint ? hint.id : null].filter(Boolean).join(' ');
    target.setAttribute('aria-invalid', String(Boolean(message)));
    if (describedBy) target.setAttribute('aria-describedby', describedBy);
    else target.removeAttribute('aria-describedby');
  };

  const update = () => {
    const current = values();
    const ready = GATING_FIELDS.every((field) => companyFieldError(field, current[field]) === null && !errors[field]);
    submit.disabled = submitting || !ready;
    submit.textContent = submitting ? 'Submitting....' : 'Submit';
    // While the form is sent, what it sends cannot change under it.
    for (const field of FIELD_ORDER) {
      const target = input(field);
      if (target.type === 'file') target.disabled = submitting;
      else target.readOnly = submitting;
    }
    form.setAttribute('aria-busy', String(submitting));
  };

  const setNotice = (message: string | null) => {
    for (const old of form.querySelectorAll('[data-notice]')) old.remove();
    if (!message) return;
    const box = document.createElement('div');
    box.className = 'alert alert--error';
    box.setAttribute('role', 'alert');
    box.dataset.notice = '';
    const line = document.createElement('p');
    line.textContent = message;
    box.append(line);
    form.querySelector('.form__actions')!.before(box);
  };

  const focusFirst = (found: RegistrationErrors) => {
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) input(first).focus();
  };

  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    const field = target.name as CompanyTextField;
    if (target.type === 'file' || !COMPANY_TEXT_FIELDS.includes(field)) return;
    show(field, companyFieldError(field, target.value));
    update();
  });

  const checkLicense = async () => {
    const file = input(LICENSE_FIELD).files?.[0] ?? null;
    const check = ++licenseCheck;
    const message = file ? await checkLicenseFile(file) : null;
    if (check === licenseCheck) show(LICENSE_FIELD, message);
  };
  input(LICENSE_FIELD).addEventListener('change', () => void checkLicense());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (submitting || submit.disabled) return;
    setNotice(null);
    const current = values();
    const found: RegistrationErrors = { ...companyFieldErrors(current) };
    const license = input(LICENSE_FIELD).files?.[0] ?? null;
    const licenseProblem = license ? await checkLicenseFile(license) : null;
    if (licenseProblem) found[LICENSE_FIELD] = licenseProblem;
    if (Object.keys(found).length > 0) {
      for (const field of FIELD_ORDER) show(field, found[field]);
      update();
      focusFirst(found);
      return;
    }

    submitting = true;
    update();
    const outcome = await submitRegistration(current, license);
    if (outcome.kind === 'created') {
      window.alert(COMPANY_MESSAGES.submitted);
      form.reset();
      // The page loads again, now saying what happens next with the status link (the answer's cookie).
      window.location.replace('/register?submitted=1');
      return;
    }
    submitting = false;
    if (outcome.kind === 'refused') {
      for (const [field, message] of Object.entries(outcome.fields)) show(field as CompanyFormField, message);
      update();
      // Duplicates are answered under their fields only (docs/product.md §8); other refusals also alert.
      if (outcome.duplicate && Object.keys(outcome.fields).length > 0) {
        focusFirst(outcome.fields);
        return;
      }
      if (Object.keys(outcome.fields).length === 0) setNotice(outcome.message);
    } else {
      update();
    }
    window.alert(COMPANY_MESSAGES.submitFailed);
    if (outcome.kind === 'refused') focusFirst(outcome.fields);
  });

  // What was typed or chosen before this script ran stays in the fields (nothing here replaces them,
  // and the licence is read from its input when the form is sent): it is checked now, as if just entered.
  for (const field of COMPANY_TEXT_FIELDS) {
    const target = input(field);
    if (target.value !== target.defaultValue) show(field, companyFieldError(field, target.value));
  }
  if (input(LICENSE_FIELD).files?.length) void checkLicense();
  update();
  // Tests and people alike may start typing now: the form says it is live.
  form.dataset.hydrated = 'true';
}

const form = document.querySelector<HTMLFormElement>('form[data-register-form]');
if (form) enhance(form);
