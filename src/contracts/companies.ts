/**
 * Partner registration (docs/product.md §2 /register, §3 company record, §5, §8, §9): the rules and messages,
 * written once and used by the form in the browser and by `POST /api/companies`.
 */

export const COMPANY_MESSAGES = {
  companyNameRequired: 'Company name is required',
  // The spec gives no wording for the minimum lengths of company name and Address 1
  // (docs/decisions/030-partner-registration-rules.md).
  companyNameTooShort: 'Company name must be at least 3 characters',
  companyNameTooLong: 'Company name must be at most 120 characters',
  addressRequired: 'Address 1 is required',
  addressTooShort: 'Address 1 must be at least 5 characters',
  addressTooLong: 'Address 1 must be at most 200 characters',
  streetTooLong: 'Address 2 must be at most 200 characters',
  phoneRequired: 'Phone number is required',
  phoneDigits: 'Phone number must be between 7 and 14 digits',
  contactNameAlphabetic: 'Contact person name must only contain alphabetic characters',
  contactNameTooShort: 'Contact person name must be at least 3 characters',
  contactNameTooLong: 'Contact person name must be at most 100 characters',
  jobTitleAlphabetic: 'Job title must only contain alphabetic characters',
  jobTitleTooShort: 'Job title must be at least 3 characters',
  jobTitleTooLong: 'Job title must be at most 100 characters',
  emailInvalid: 'Invalid email format',
  // Not in the spec: the NZBN field is ours (docs/decisions/110-nzbn.md).
  nzbnInvalid: 'NZBN must be 13 digits (check the number on your NZBN record)',
  // Thirteen digits from 94 whose last one is wrong: most often one digit mistyped.
  nzbnCheckDigit:
    'The last digit of this NZBN (its check digit) does not match the 12 before it. Check the number on your NZBN record.',
  fileTooLarge: 'File size should be less than 10MB',
  // The spec's words, then the types we take, said as the label and hint say them (docs/decisions/130-pdf-licences.md).
  fileUnsupported: 'Unsupported File Format. Please choose a JPG, PNG or PDF file.',
  duplicateEmail: 'Email already exists. Please use a different email.',
  duplicateName: 'Company name already exists. Please use a different name.',
  duplicatePhone: 'Phone number already exists. Please use a different phone number.',
  duplicateNzbn: 'NZBN already exists. Please check the number or contact us.',
  submitted: 'Company Profile submitted successfully!',
  submitFailed: 'Error submitting form. Please try again.',
  invalidForm: 'Some fields are not valid.',
  duplicateCompany: 'A company with these details is already registered.',
  unexpectedField: 'This field is not part of the registration form.',
  fieldTooLong: 'This value is too long.',
  notMultipart: 'Send the registration as multipart/form-data.',
  unreadableForm: 'The form could not be read. Please try again.',
  tooManyParts: 'The registration has too many fields or files.',
  tooManyRegistrations: 'Too many registrations have been sent from your network. Please try again in an hour.',
  licenseNotFound: 'This company has no commercial licence on file.',
} as const;

/**
 * What /register says once an application is in: the spec's alert stays, and the page
 * itself says what happens next, with the application's private status link.
 */
export const REGISTERED_TEXT = {
  heading: 'What happens next',
  steps: [
    'Our partnerships team checks your company details and your commercial licence, usually within two working days.',
    'If you gave a contact email, we have sent it this link too, and we will email you the decision there.',
    'You can see your application, its status and when we will review it at any time through your private link (no account needed; please keep it to yourself):',
  ],
  statusLink: 'See your application',
} as const;

/**
 * The browser that sent an application holds its status link for an hour, for /register's page
 * after it (HttpOnly, this page only): the API and the page's own action set it, its loader reads it.
 */
export const STATUS_LINK_COOKIE = 'partner_status';
export const STATUS_LINK_COOKIE_SECONDS = 3600;
export const statusLinkCookie = (token: string, maxAge = STATUS_LINK_COOKIE_SECONDS) =>
  `${STATUS_LINK_COOKIE}=${token}; Max-Age=${maxAge}; Path=/register; HttpOnly; SameSite=Lax`;

/** The registration limits of docs/product.md §9. */
export const COMPANY_LIMITS = {
  companyNameMin: 3,
  companyNameMax: 120,
  addressMin: 5,
  addressMax: 200,
  streetMax: 200,
  personMin: 3,
  personMax: 100,
  emailMax: 254,
  /** 10 MB: exactly this many bytes is accepted, one more is refused. */
  licenseMaxBytes: 10_485_760,
} as const;

/**
 * The New Zealand Business Number (docs/product.md §2, docs/decisions/110-nzbn.md): the form's words, and
 * what the admin's application page says about it. With NZBN_API_KEY set the number is looked up in
 * the NZBN register by a worker (docs/decisions/114-nzbn-lookup.md); without it, it is not checked.
 */
export const NZBN_TEXT = {
  label: 'NZBN (New Zealand Business Number)',
  hint: 'Optional. The 13-digit number on your NZBN record; it starts with 94.',
  adminLabel: 'NZBN',
  notGiven: 'Not given',
  checkLabel: 'NZBN check',
  // 'not checked' said with its reason: no number, or no lookups on this site.
  notChecked: 'Not checked: no NZBN was given.',
  notCheckedNoKey:
    'Not checked: this site does not look numbers up in the NZBN register (NZBN_API_KEY is not set). Check it yourself at nzbn.govt.nz.',
  waiting: 'waiting for the NZBN register',
  registeredNameLabel: 'Registered name',
  registerStatusLabel: 'Register status',
  registerStatus: (status: string, checkedAt: string) => `${status} (looked up ${checkedAt})`,
  notFound: (checkedAt: string) => `no company has this NZBN in the register (${checkedAt})`,
  namesMatch: 'Names match',
  namesDiffer: (registeredName: string) => `Names differ: registered as ${registeredName}`,
  failed: (reason: string, checkedAt: string, retrying: boolean) =>
    `failed: ${reason} (${checkedAt}); ${retrying ? 'trying again later' : 'no more tries'}`,
  errors: {
    refused: 'the NZBN key was refused',
    timeout: 'the NZBN register did not answer in time',
    unavailable: 'the NZBN register could not be reached or had a fault',
    unreadable: 'the NZBN register gave an answer we could not read',
  },
} as const;

export const NZBN_LOOKUP_ERRORS = ['refused', 'timeout', 'unavailable', 'unreadable'] as const;
export type NzbnLookupError = (typeof NZBN_LOOKUP_ERRORS)[number];

/** A company name as compared with the register's: case, punctuation, spacing and Limited/Ltd do not count. */
export function normaliseCompanyName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/\blimited\b/g, 'ltd')
    .replace(/\s+/g, '')
    .trim();
}

/** Whether the name given at registration is the register's name, as the admin reads them. */
export function nzbnNamesMatch(companyName: string, registeredName: string): boolean {
  return normaliseCompanyName(companyName) === normaliseCompanyName(registeredName);
}

/**
 * An NZBN is a 13-digit GS1 GTIN: New Zealand's start with 94, and the last digit is a check digit.
 * Weighting the first 12 digits 1, 3, 1, 3, … from the left, the check digit is (10 − sum mod 10) mod 10.
 */
export function isValidNzbn(digits: string): boolean {
  return isNzbnShaped(digits) && nzbnCheckDigitHolds(digits);
}

/** Thirteen digits starting with 94: a New Zealand number, whatever its check digit. */
export function isNzbnShaped(digits: string): boolean {
  return /^94\d{11}$/.test(digits);
}

export function nzbnCheckDigitHolds(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(digits[12]);
}

/**
 * A phone number as people write it (docs/product.md §5.1, changed by docs/decisions/130-pdf-licences.md):
 * spaces and dashes go, and a leading +64 (New Zealand's country code) becomes the national 0, so
 * '+64 21 123-4567' is checked, stored and compared as '0211234567'. Anything else stays for the spec's rule.
 */
export function normalisePhone(value: string): string {
  const compact = value.replace(/[\s-]+/gu, '');
  return compact.startsWith('+64') ? `0${compact.slice(3)}` : compact;
}

export const PHONE_PATTERN = /^\d{7,14}$/;
/** The phone field's hint: 7 to 14 digits, written as people write them (spaces, dashes, +64). */
export const PHONE_HINT = '7 to 14 digits, for example 021 123 4567 or +64 21 123 4567.';
/** Letters (any script, with their combining marks, so "Tāne" counts) and spaces. */
export const ALPHABETIC_PATTERN = /^[\p{L}\p{M} ]+$/u;

/** The registration's text fields, in the form's order (companies.schemas.ts checks each). */
export const COMPANY_TEXT_FIELDS = [
  'companyName',
  'nzbn',
  'phoneNumber',
  'address',
  'street',
  'contactPersonName',
  'contactPersonJobTitle',
  'contactPersonPhoneNumber',
  'contactPersonEmail',
] as const;
export type CompanyTextField = (typeof COMPANY_TEXT_FIELDS)[number];
export const LICENSE_FIELD = 'commercialLicense';
/** The largest registration form: a licence of up to 10 MB and the fields around it (the endpoint enforces the exact limits). */
export const REGISTRATION_FORM_MAX_BYTES = 11 * 1024 * 1024;
export type CompanyFormField = CompanyTextField | typeof LICENSE_FIELD;

/**
 * The commercial licence file: a JPEG or PNG image, or a PDF (docs/product.md §2, §5, widened by
 * docs/decisions/130-pdf-licences.md), decided from the file's first bytes. The picker offers exactly
 * those, and the label, the hint and the error name them the same way.
 */
export const LICENCE_TYPES_TEXT = 'JPG, PNG or PDF';
export const LICENCE_FIELD_TEXT = {
  label: `Commercial licence (${LICENCE_TYPES_TEXT})`,
  hint: `A ${LICENCE_TYPES_TEXT} of your commercial licence (a photo or a scan), up to 10 MB.`,
} as const;
export const LICENSE_PICKER_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';
/** Enough leading bytes to recognise every accepted format. */
export const LICENSE_SNIFF_BYTES = 8;

export type LicenseType =
  | { ext: 'jpg'; contentType: 'image/jpeg' }
  | { ext: 'png'; contentType: 'image/png' }
  | { ext: 'pdf'; contentType: 'application/pdf' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** '%PDF-': every PDF starts with it (ISO 32000-1, clause 7.5.2), as the attachments' check has it. */
const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** JPEG, PNG or PDF from the magic bytes; null for anything else, whatever its name or declared type. */
export function detectLicenseType(head: Uint8Array): LicenseType | null {
  if (head.length < LICENSE_SNIFF_BYTES) return null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { ext: 'jpg', contentType: 'image/jpeg' };
  if (PNG_SIGNATURE.every((byte, i) => head[i] === byte)) return { ext: 'png', contentType: 'image/png' };
  if (PDF_SIGNATURE.every((byte, i) => head[i] === byte)) return { ext: 'pdf', contentType: 'application/pdf' };
  return null;
}

/** The type of a stored licence, from the extension its key was given when its bytes were checked. */
export function licenseTypeOfKey(key: string): LicenseType {
  if (key.endsWith('.pdf')) return { ext: 'pdf', contentType: 'application/pdf' };
  if (key.endsWith('.png')) return { ext: 'png', contentType: 'image/png' };
  return { ext: 'jpg', contentType: 'image/jpeg' };
}
