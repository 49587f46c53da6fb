import {
  COMPANY_TEXT_FIELDS,
  type CompanyFormField,
  type CompanyTextField,
  LICENSE_FIELD,
} from '../../../contracts/companies.ts';
import { companyFieldError } from '../../../contracts/companies.schemas.ts';

/**
 * What the register form's markup (registration-form.tsx, on the server) and its script
 * (enhance.ts, in the browser) must agree on. Plain TypeScript: the script must not pull in React.
 */
export type RegistrationValues = Partial<Record<CompanyTextField, string>>;
export type RegistrationErrors = Partial<Record<CompanyFormField, string>>;

/** Ids are stable (one registration form per page), so a field can be found and focused by name. */
export const fieldId = (name: string) => `register-${name}`;

/** The order fields appear in, for focusing the first one with a problem. */
export const FIELD_ORDER: CompanyFormField[] = [...COMPANY_TEXT_FIELDS, LICENSE_FIELD];

/** Submit waits for these three (docs/product.md §2): long enough, the right digits, and no message showing. */
export const GATING_FIELDS: CompanyTextField[] = ['companyName', 'address', 'phoneNumber'];

export const submitReady = (values: RegistrationValues, errors: RegistrationErrors) =>
  GATING_FIELDS.every((field) => companyFieldError(field, values[field] ?? '') === null && !errors[field]);
