import { z } from './zod.ts';
import { FAQ_TYPES, LEGAL_DOCUMENTS } from './content.ts';

export const FaqTypeSchema = z.enum(FAQ_TYPES);
export const FaqQuerySchema = z.object({ type: FaqTypeSchema });

export const FaqSchema = z.object({
  id: z.number().int(),
  type: FaqTypeSchema,
  title: z.string(),
  content: z.string(),
});
export const FaqListSchema = z.object({ faqs: z.array(FaqSchema) });

export const LegalDocumentSchema = z.enum(LEGAL_DOCUMENTS);
export const LegalLinksSchema = z.object({ terms: z.string(), privacy: z.string() });
