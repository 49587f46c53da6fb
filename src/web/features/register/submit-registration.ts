import { partnersApi } from '../../../contracts/api/partners.ts';
import {
  COMPANY_TEXT_FIELDS,
  type CompanyFormField,
  type CompanyTextField,
  LICENSE_FIELD,
} from '../../../contracts/companies.ts';
import { api } from '../../lib/api-client.ts';

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

  const result = await api.call(partnersApi.register, { body });
  // Only our endpoint answers 201 (with the new id); another success is some proxy's page.
  if (result.ok) return result.status === 201 ? { kind: 'created', id: result.data.id } : { kind: 'failed' };
  if (!result.fromServer || result.status >= 500) return { kind: 'failed' };
  const fields: Partial<Record<CompanyFormField, string>> = {};
  for (const [name, message] of Object.entries(result.fields)) {
    if (FORM_FIELDS.has(name)) fields[name as CompanyFormField] = message;
  }
  return { kind: 'refused', duplicate: result.status === 409, message: result.message, fields };
}
