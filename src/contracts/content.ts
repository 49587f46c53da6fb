import { z } from 'zod';

/** FAQ types as stored (spec §3). The switch button for 'traveller' reads "Traveler" (spec §2). */
export const FAQ_TYPES = ['general', 'sender', 'traveller'] as const;
export const FaqTypeSchema = z.enum(FAQ_TYPES);
export type FaqType = z.infer<typeof FaqTypeSchema>;
export const DEFAULT_FAQ_TYPE: FaqType = 'general';

export const FAQ_TYPE_LABELS: Record<FaqType, { button: string; title: string }> = {
  general: { button: 'General', title: 'General FAQ' },
  sender: { button: 'Sender', title: 'Sender FAQ' },
  traveller: { button: 'Traveler', title: 'Traveller FAQ' },
};

/** Reads a FAQ type from a URL parameter; anything unknown falls back to the default tab. */
export function parseFaqType(value: string | null | undefined): FaqType {
  const parsed = FaqTypeSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_FAQ_TYPE;
}

export const FaqQuerySchema = z.object({ type: FaqTypeSchema });

export const FaqSchema = z.object({
  id: z.number().int(),
  type: FaqTypeSchema,
  title: z.string(),
  content: z.string(),
});
export type Faq = z.infer<typeof FaqSchema>;
export const FaqListSchema = z.object({ faqs: z.array(FaqSchema) });

export const LEGAL_DOCUMENTS = ['terms', 'privacy'] as const;
export const LegalDocumentSchema = z.enum(LEGAL_DOCUMENTS);
export type LegalDocument = z.infer<typeof LegalDocumentSchema>;
export const DEFAULT_LEGAL_DOCUMENT: LegalDocument = 'terms';
export const LEGAL_DOCUMENT_LABELS: Record<LegalDocument, string> = {
  terms: 'Terms and Conditions',
  privacy: 'Privacy Policy',
};

export function parseLegalDocument(value: string | null | undefined): LegalDocument {
  const parsed = LegalDocumentSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_LEGAL_DOCUMENT;
}

/** The `legal/links` settings document (spec §3). */
export const LegalLinksSchema = z.object({ terms: z.string(), privacy: z.string() });
export type LegalLinks = z.infer<typeof LegalLinksSchema>;
