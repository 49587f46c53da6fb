import {
  COMPANY_LIMITS,
  COMPANY_MESSAGES,
  detectLicenseType,
  LICENSE_SNIFF_BYTES,
} from '../../../contracts/companies.ts';

/**
 * The same checks the server makes on the licence, done as soon as a file is picked: the size,
 * then the first bytes (a PDF renamed .png is still a PDF). Null when the file is acceptable.
 */
export async function checkLicenseFile(file: File): Promise<string | null> {
  if (file.size > COMPANY_LIMITS.licenseMaxBytes) return COMPANY_MESSAGES.fileTooLarge;
  const head = new Uint8Array(await file.slice(0, LICENSE_SNIFF_BYTES).arrayBuffer());
  return detectLicenseType(head) ? null : COMPANY_MESSAGES.fileUnsupported;
}
