import {
  DOCUMENT_LIMITS,
  FAQ_LIMITS,
  FAQ_MESSAGES,
  isAllowedLegalLink,
  LEGAL_LINK_MAX,
  LEGAL_MESSAGES,
} from './content-admin.ts';
import { FAQ_TYPES, LEGAL_DOCUMENTS } from './content.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of content-admin.ts: the FAQ entries, legal links and hosted documents as the API
 * and the console's forms check them (a form loads its schema when first used). The words and limits
 * are in content-admin.ts, which needs no zod (docs/decisions/119-schemas-stay-on-the-server.md).
 */

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
