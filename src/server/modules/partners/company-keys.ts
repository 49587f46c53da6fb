import type { CompanyRegistration } from '../../../contracts/companies.schemas.ts';
import type { CompanyKeys } from './partners.repository.ts';

/**
 * Normalised keys for the partial unique indexes (IN-02, docs/design.md §3), computed once on the server:
 * - email: trimmed, NFC, lower-cased;
 * - company name: NFKC (full-width letters become plain), case-folded, runs of white space
 *   collapsed to one space, trimmed;
 * - phone: its digits in one canonical form, so a New Zealand number written nationally
 *   (021…) and internationally (6421… or 006421…) is the same number.
 */
export function emailKey(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export function phoneKey(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.startsWith('00')) return digits.slice(2);
  if (digits.startsWith('0')) return `64${digits.slice(1)}`;
  return digits;
}

export function companyKeys(
  company: Pick<CompanyRegistration, 'companyName' | 'phoneNumber' | 'contactPersonEmail'>,
): CompanyKeys {
  return {
    emailKey: company.contactPersonEmail === null ? null : emailKey(company.contactPersonEmail),
    nameKey: nameKey(company.companyName),
    phoneKey: phoneKey(company.phoneNumber),
  };
}
