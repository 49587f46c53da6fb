/**
 * Content contracts the pages need: plain constants and parsers, no zod, so the public pages ship
 * no validation library. The zod schemas for the API are in content.schemas.ts.
 */

/** FAQ types as stored (docs/product.md §3). The switch button for 'traveller' reads "Traveler" (docs/product.md §2). */
export const FAQ_TYPES = ['general', 'sender', 'traveller'] as const;
export type FaqType = (typeof FAQ_TYPES)[number];
export const DEFAULT_FAQ_TYPE: FaqType = 'general';

export const FAQ_TYPE_LABELS: Record<FaqType, { button: string; title: string }> = {
  general: { button: 'General', title: 'General FAQ' },
  sender: { button: 'Sender', title: 'Sender FAQ' },
  traveller: { button: 'Traveler', title: 'Traveller FAQ' },
};

export interface Faq {
  id: number;
  type: FaqType;
  title: string;
  content: string;
}

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/** Reads a FAQ type from a URL parameter; anything unknown falls back to the default tab. */
export function parseFaqType(value: string | null | undefined): FaqType {
  return isOneOf(FAQ_TYPES, value) ? value : DEFAULT_FAQ_TYPE;
}

export const LEGAL_DOCUMENTS = ['terms', 'privacy'] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];
export const DEFAULT_LEGAL_DOCUMENT: LegalDocument = 'terms';
export const LEGAL_DOCUMENT_LABELS: Record<LegalDocument, string> = {
  terms: 'Terms and Conditions',
  privacy: 'Privacy Policy',
};

export function parseLegalDocument(value: string | null | undefined): LegalDocument {
  return isOneOf(LEGAL_DOCUMENTS, value) ? value : DEFAULT_LEGAL_DOCUMENT;
}

/** The `legal/links` settings document (docs/product.md §3). */
export interface LegalLinks {
  terms: string;
  privacy: string;
}
