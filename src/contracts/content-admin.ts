import { FAQ_TYPES, LEGAL_DOCUMENTS } from './content.ts';
import { z } from './zod.ts';

/** What the admin console edits of the public content: FAQ entries, legal links, hosted documents. */

// --- FAQs -----------------------------------------------------------------------------------------

export const FAQ_LIMITS = { titleMax: 300, contentMax: 5000, perType: 500 } as const;
export const FAQ_MESSAGES = {
  typeRequired: 'Choose a type',
  titleRequired: 'Title is required',
  titleTooLong: `Title can be at most ${FAQ_LIMITS.titleMax} characters`,
  contentRequired: 'Content is required',
  contentTooLong: `Content can be at most ${FAQ_LIMITS.contentMax} characters`,
  notFound: 'That FAQ entry does not exist.',
  orderChanged: 'The list changed while you were reordering it. It has been reloaded: please try again.',
} as const;

export const FaqInputSchema = z.object({
  type: z.enum(FAQ_TYPES, { error: FAQ_MESSAGES.typeRequired }),
  title: z
    .string({ error: FAQ_MESSAGES.titleRequired })
    .trim()
    .min(1, FAQ_MESSAGES.titleRequired)
    .max(FAQ_LIMITS.titleMax, FAQ_MESSAGES.titleTooLong),
  content: z
    .string({ error: FAQ_MESSAGES.contentRequired })
    .trim()
    .min(1, FAQ_MESSAGES.contentRequired)
    .max(FAQ_LIMITS.contentMax, FAQ_MESSAGES.contentTooLong),
});
export type FaqInput = z.infer<typeof FaqInputSchema>;
export const FaqParamsSchema = z.object({ faqId: z.coerce.number().int().positive().max(2_147_483_647) });
export const FaqReorderSchema = z.object({
  type: z.enum(FAQ_TYPES),
  ids: z.array(z.number().int().positive()).max(FAQ_LIMITS.perType),
});

// --- Legal links and hosted documents ------------------------------------------------------------

export const LEGAL_LINK_MAX = 2000;
export const DOCUMENT_LIMITS = { titleMax: 200, bodyMax: 200_000 } as const;
export const LEGAL_MESSAGES = {
  linkRequired: 'A link is required',
  linkInvalid: 'Use an https:// address, or a path on this site that starts with / (for example /documents/terms)',
  linkTooLong: `A link can be at most ${LEGAL_LINK_MAX} characters`,
  titleRequired: 'Title is required',
  titleTooLong: `Title can be at most ${DOCUMENT_LIMITS.titleMax} characters`,
  bodyRequired: 'The document text is required',
  bodyTooLong: `The document text can be at most ${DOCUMENT_LIMITS.bodyMax} characters`,
  documentMissing: 'That document does not exist.',
} as const;

/**
 * Anything but printable characters (controls, spaces, line breaks, a lone UTF-16 surrogate, which
 * the settings document cannot even store): never part of a link we accept.
 */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0020\u007f-\u00a0\u2028\u2029\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PROBE_ORIGIN = 'https://origin.invalid';

/**
 * A link an admin may give the legal page (IN-04): an absolute https URL without credentials, or a
 * path on our own origin ("/…", never "//…" or "/\…", which browsers read as another host).
 * Everything else (javascript:, data:, vbscript:, http:, relative paths) is refused.
 */
export function isAllowedLegalLink(value: string): boolean {
  if (value.length === 0 || value.length > LEGAL_LINK_MAX || UNPRINTABLE.test(value)) return false;
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.startsWith('/\\')) return false;
    try {
      return new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;
    } catch {
      return false;
    }
  }
  // A host right after the scheme: URL parsers forgive "https:///host" and "https:\\host", we do not.
  if (!/^https:\/\/[^/\\?#]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

const legalLink = z
  .string({ error: LEGAL_MESSAGES.linkRequired })
  .trim()
  .min(1, { error: LEGAL_MESSAGES.linkRequired, abort: true })
  .max(LEGAL_LINK_MAX, { error: LEGAL_MESSAGES.linkTooLong, abort: true })
  .refine(isAllowedLegalLink, LEGAL_MESSAGES.linkInvalid);

export const LegalLinksInputSchema = z.object({ terms: legalLink, privacy: legalLink });
export type LegalLinksInput = z.infer<typeof LegalLinksInputSchema>;

export const DocumentParamsSchema = z.object({
  slug: z.enum(LEGAL_DOCUMENTS, { error: LEGAL_MESSAGES.documentMissing }),
});
export const DocumentInputSchema = z.object({
  title: z
    .string({ error: LEGAL_MESSAGES.titleRequired })
    .trim()
    .min(1, LEGAL_MESSAGES.titleRequired)
    .max(DOCUMENT_LIMITS.titleMax, LEGAL_MESSAGES.titleTooLong),
  body: z
    .string({ error: LEGAL_MESSAGES.bodyRequired })
    .trim()
    .min(1, LEGAL_MESSAGES.bodyRequired)
    .max(DOCUMENT_LIMITS.bodyMax, LEGAL_MESSAGES.bodyTooLong),
});
export const HostedDocumentSchema = z.object({
  slug: z.enum(LEGAL_DOCUMENTS),
  title: z.string(),
  body: z.string(),
  updatedAt: z.string(),
  /** Where the public page serves it. */
  path: z.string(),
});
export type HostedDocumentDto = z.infer<typeof HostedDocumentSchema>;
export const AdminLegalSchema = z.object({
  links: z.object({ terms: z.string(), privacy: z.string() }).nullable(),
  documents: z.array(HostedDocumentSchema),
});
