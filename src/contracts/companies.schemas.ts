import {
  ALPHABETIC_PATTERN,
  COMPANY_LIMITS,
  COMPANY_MESSAGES,
  type CompanyTextField,
  isNzbnShaped,
  NZBN_LOOKUP_ERRORS,
  nzbnCheckDigitHolds,
  normalisePhone,
  PHONE_PATTERN,
} from './companies.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of companies.ts: the registration's fields as the API and the register page's
 * script check them, and the company record as the API answers it. The words, limits and plain
 * checks are in companies.ts, which needs no zod (docs/decisions/119-schemas-stay-on-the-server.md).
 */

/**
 * The register lookup of a company's NZBN as the admin sees it (docs/decisions/114-nzbn-lookup.md);
 * null on the company when it has no NZBN or lookups are off (no NZBN_API_KEY): 'not checked'.
 * `status` is the register's own words for the entity's status ("Registered", "In Liquidation"…).
 */
export const NzbnCheckSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('waiting') }),
  z.object({ result: z.literal('found'), registeredName: z.string(), status: z.string(), checkedAt: z.string() }),
  z.object({ result: z.literal('not-found'), checkedAt: z.string() }),
  z.object({
    result: z.literal('failed'),
    error: z.enum(NZBN_LOOKUP_ERRORS),
    checkedAt: z.string(),
    /** True while another try is planned; false once the worker has given up. */
    retrying: z.boolean(),
  }),
]);
export type NzbnCheck = z.infer<typeof NzbnCheckSchema>;

/** A required text field: absent, empty and blank all read as "required". */
function requiredText(messages: { required: string; min: string; max: string }, min: number, max: number) {
  return z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required, abort: true })
    .max(max, { error: messages.max, abort: true })
    .min(min, messages.min);
}

/** An optional text field: absent, empty or blank becomes null (docs/product.md §5: "An empty value becomes null"). */
function optionalText(rules: z.ZodType<string, string>) {
  return z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .pipe(rules.nullable());
}

function personText(messages: { alphabetic: string; min: string; max: string }) {
  return optionalText(
    z
      .string()
      .max(COMPANY_LIMITS.personMax, { error: messages.max, abort: true })
      .regex(ALPHABETIC_PATTERN, messages.alphabetic)
      .min(COMPANY_LIMITS.personMin, messages.min),
  );
}

const phone = z.string().regex(PHONE_PATTERN, COMPANY_MESSAGES.phoneDigits);

/** The optional contact phone: normalised, then empty is null (as optionalText), then the spec's rule. */
const optionalPhone = z
  .string()
  .optional()
  .transform((value) => normalisePhone(value ?? ''))
  .transform((value) => (value ? value : null))
  .pipe(phone.nullable());

/** Optional; the spaces people copy with it ('9429 0463 9392 0') are removed, and empty becomes null. */
const nzbn = z
  .string()
  .optional()
  .transform((value) => (value ?? '').replace(/\s+/gu, ''))
  .transform((value) => (value ? value : null))
  .pipe(
    z
      .string()
      .refine(isNzbnShaped, { error: COMPANY_MESSAGES.nzbnInvalid, abort: true })
      .refine(nzbnCheckDigitHolds, COMPANY_MESSAGES.nzbnCheckDigit)
      .nullable(),
  );

/**
 * The registration fields, named as the company record (docs/product.md §3). Values are trimmed; the
 * optional ones become null when empty. The file (`commercialLicense`) is checked separately,
 * from its size and its bytes.
 */
export const CompanyRegistrationSchema = z.strictObject({
  companyName: requiredText(
    {
      required: COMPANY_MESSAGES.companyNameRequired,
      min: COMPANY_MESSAGES.companyNameTooShort,
      max: COMPANY_MESSAGES.companyNameTooLong,
    },
    COMPANY_LIMITS.companyNameMin,
    COMPANY_LIMITS.companyNameMax,
  ),
  nzbn,
  phoneNumber: z
    .string({ error: COMPANY_MESSAGES.phoneRequired })
    .transform(normalisePhone)
    .pipe(
      z
        .string()
        .min(1, { error: COMPANY_MESSAGES.phoneRequired, abort: true })
        .regex(PHONE_PATTERN, COMPANY_MESSAGES.phoneDigits),
    ),
  address: requiredText(
    {
      required: COMPANY_MESSAGES.addressRequired,
      min: COMPANY_MESSAGES.addressTooShort,
      max: COMPANY_MESSAGES.addressTooLong,
    },
    COMPANY_LIMITS.addressMin,
    COMPANY_LIMITS.addressMax,
  ),
  street: optionalText(z.string().max(COMPANY_LIMITS.streetMax, COMPANY_MESSAGES.streetTooLong)),
  contactPersonName: personText({
    alphabetic: COMPANY_MESSAGES.contactNameAlphabetic,
    min: COMPANY_MESSAGES.contactNameTooShort,
    max: COMPANY_MESSAGES.contactNameTooLong,
  }),
  contactPersonJobTitle: personText({
    alphabetic: COMPANY_MESSAGES.jobTitleAlphabetic,
    min: COMPANY_MESSAGES.jobTitleTooShort,
    max: COMPANY_MESSAGES.jobTitleTooLong,
  }),
  contactPersonPhoneNumber: optionalPhone,
  contactPersonEmail: optionalText(
    z
      .string()
      .max(COMPANY_LIMITS.emailMax, { error: COMPANY_MESSAGES.emailInvalid, abort: true })
      .pipe(z.email(COMPANY_MESSAGES.emailInvalid)),
  ),
} satisfies Record<CompanyTextField, z.ZodType>);
export type CompanyRegistration = z.output<typeof CompanyRegistrationSchema>;

/** The first message for each field that breaks a rule; empty when the input is valid. */
export function companyFieldErrors(
  input: Partial<Record<CompanyTextField, string>>,
): Partial<Record<CompanyTextField, string>> {
  const parsed = CompanyRegistrationSchema.safeParse(input);
  const errors: Partial<Record<CompanyTextField, string>> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as CompanyTextField | undefined;
    if (field && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** The first message for one field's value, or null when it is valid. */
export function companyFieldError(field: CompanyTextField, value: string): string | null {
  const parsed = CompanyRegistrationSchema.shape[field].safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

/** The company record as the API shows it (docs/product.md §3); internal columns never leave the server. */
export const CompanySchema = z.object({
  id: z.uuid(),
  companyName: z.string(),
  /** The 13 digits, without spaces; null when not given. */
  nzbn: z.string().nullable(),
  street: z.string().nullable(),
  address: z.string(),
  phoneNumber: z.string(),
  contactPersonName: z.string().nullable(),
  contactPersonJobTitle: z.string().nullable(),
  contactPersonPhoneNumber: z.string().nullable(),
  contactPersonEmail: z.string().nullable(),
  commercialLicenseUrl: z.string().nullable(),
  verified: z.number().int(),
  isBanned: z.boolean(),
  isEmailSend: z.boolean(),
  lastUpdated: z.string(),
});
export type Company = z.infer<typeof CompanySchema>;

export const CompanyRegistrationResultSchema = z.object({
  id: z.uuid(),
  company: CompanySchema,
  /** The application's private status page ('/partners/status/{token}'), for the applicant only. */
  statusPath: z.string(),
});
export type CompanyRegistrationResult = z.infer<typeof CompanyRegistrationResultSchema>;
