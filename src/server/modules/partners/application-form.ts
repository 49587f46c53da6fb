import type { FastifyBaseLogger } from 'fastify';
import {
  COMPANY_MESSAGES,
  COMPANY_TEXT_FIELDS,
  type CompanyTextField,
  LICENSE_FIELD,
} from '../../../contracts/companies.ts';
import type { FileStorage } from '../../storage/storage.ts';
import type { FormPart } from '../../http/form-parts.ts';
import { type LicenseOutcome, receiveLicense } from './license-upload.ts';

const TEXT_FIELDS = new Set<string>(COMPANY_TEXT_FIELDS);

export interface ApplicationForm {
  values: Partial<Record<CompanyTextField, string>>;
  /** Problems per field name, in the form's words. */
  problems: Record<string, string>;
  license: LicenseOutcome;
}

/**
 * Reads a partner application's multipart form as it streams (docs/product.md §5): the text fields
 * into `values`, the licence into storage under `fileId` (checked as it arrives, license-upload.ts),
 * problems per field. `allowed` narrows the form to some of its fields (an applicant sending the
 * changes asked for); anything else is refused under its own name. Used by the registration and by
 * the status page's changes, so both take exactly the same rules.
 */
export async function readApplicationForm(
  storage: FileStorage,
  fileId: string,
  parts: AsyncIterable<FormPart>,
  options: { allowed?: ReadonlySet<string>; notAllowed?: string } = {},
): Promise<ApplicationForm> {
  const values: Partial<Record<CompanyTextField, string>> = {};
  const problems: Record<string, string> = {};
  let license: LicenseOutcome = { kind: 'none' };
  let sawLicense = false;
  const allowed = (name: string) => !options.allowed || options.allowed.has(name);
  const notAllowed = options.notAllowed ?? COMPANY_MESSAGES.unexpectedField;
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== LICENSE_FIELD || sawLicense || !allowed(LICENSE_FIELD)) {
          problems[part.fieldname] =
            part.fieldname === LICENSE_FIELD && !sawLicense ? notAllowed : COMPANY_MESSAGES.unexpectedField;
          for await (const _chunk of part.file) {
            // Read and discard, so the parser reaches the parts after it.
          }
          continue;
        }
        sawLicense = true;
        license = await receiveLicense(storage, fileId, part.file, part.filename);
        if (license.kind === 'refused') problems[LICENSE_FIELD] = license.message;
        continue;
      }
      const name = part.fieldname;
      if (part.fieldnameTruncated || (!TEXT_FIELDS.has(name) && name !== LICENSE_FIELD)) {
        problems[name] = COMPANY_MESSAGES.unexpectedField;
      } else if (name === LICENSE_FIELD) {
        // An empty text part is what some clients send for "no file chosen"; anything else is not a file.
        if (part.value !== '' || sawLicense) problems[name] = COMPANY_MESSAGES.fileUnsupported;
      } else if (!allowed(name)) {
        problems[name] = notAllowed;
      } else if (name in values || name in problems) {
        problems[name] = COMPANY_MESSAGES.unexpectedField;
      } else if (part.valueTruncated) {
        problems[name] = COMPANY_MESSAGES.fieldTooLong;
      } else {
        values[name as CompanyTextField] = String(part.value);
      }
    }
  } catch (error) {
    if (license.kind === 'stored') await storage.delete(license.key).catch(() => {});
    throw error;
  }
  return { values, problems, license };
}

/** Deletes a licence file no company will hold; a failure is only logged (the start-up sweep finds it by its name). */
export async function removeLicenseQuietly(storage: FileStorage, log: FastifyBaseLogger, key: string) {
  await storage.delete(key).catch((error: unknown) => {
    log.error({ err: error, key }, 'could not delete a licence file no company holds');
  });
}
