import {
  COMPANY_TEXT_FIELDS,
  type CompanyFormField,
  type CompanyTextField,
  LICENSE_FIELD,
} from '../../../contracts/companies.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';

export type SubmitOutcome =
  | { kind: 'created'; id: string }
  /** The server refused the application; `duplicate` when it is already registered (409). */
  | { kind: 'refused'; duplicate: boolean; message: string; fields: Partial<Record<CompanyFormField, string>> }
  | { kind: 'failed' };

const FORM_FIELDS = new Set<string>([...COMPANY_TEXT_FIELDS, LICENSE_FIELD]);

/** Sends the application as multipart/form-data, with fields named as the company record (docs/product.md §3). */
export async function submitRegistration(
  values: Record<CompanyTextField, string>,
  license: File | null,
): Promise<SubmitOutcome> {
  const body = new FormData();
  for (const field of COMPANY_TEXT_FIELDS) body.append(field, values[field]);
  // The file goes last, so the server has every field by the time it reads the file.
  if (license) body.append(LICENSE_FIELD, license, license.name);

  let response: Response;
  try {
    response = await fetch('/api/companies', { method: 'POST', body, headers: { accept: 'application/json' } });
  } catch {
    return { kind: 'failed' };
  }
  const json: unknown = await response.json().catch(() => null);
  if (response.status === 201) {
    const id = (json as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? { kind: 'created', id } : { kind: 'failed' };
  }
  const error = ErrorBodySchema.safeParse(json);
  if (!error.success || response.status >= 500) return { kind: 'failed' };
  const fields: Partial<Record<CompanyFormField, string>> = {};
  for (const [name, message] of Object.entries(error.data.error.fields ?? {})) {
    if (FORM_FIELDS.has(name)) fields[name as CompanyFormField] = message;
  }
  return { kind: 'refused', duplicate: response.status === 409, message: error.data.error.message, fields };
}
