import {
  AdminLegalSchema,
  DocumentInputSchema,
  DocumentParamsSchema,
  FaqInputSchema,
  FaqParamsSchema,
  FaqReorderSchema,
  HostedDocumentSchema,
  LegalLinksInputSchema,
} from '../content-admin.schemas.ts';
import { FaqListSchema, FaqQuerySchema, FaqSchema, LegalLinksSchema } from '../content.schemas.ts';
import { endpoint } from '../endpoint.ts';
import { z } from '../zod.ts';

/** Public content (FAQs, legal links) and the admin console's edits of it. */
const FaqResultSchema = z.object({ faq: FaqSchema });
const ADMIN_ERRORS = [400, 401, 403, 404] as const;

export const contentApi = {
  faqs: endpoint({
    method: 'GET',
    path: '/api/faqs',
    access: 'public',
    tags: ['content'],
    summary: 'FAQ entries of one type, in order',
    query: FaqQuerySchema,
    answers: { 200: FaqListSchema },
    errors: [400],
  }),
  legalLinks: endpoint({
    method: 'GET',
    path: '/api/legal/links',
    access: 'public',
    tags: ['content'],
    summary: 'Links to the Terms and Conditions and the Privacy Policy',
    answers: { 200: LegalLinksSchema },
    errors: [404],
  }),
} as const;

export const contentAdminApi = {
  listFaqs: endpoint({
    method: 'GET',
    path: '/api/admin/faqs',
    access: 'content.read',
    tags: ['admin'],
    summary: 'FAQ entries of one type, in order',
    query: FaqQuerySchema,
    answers: { 200: FaqListSchema },
    errors: ADMIN_ERRORS,
  }),
  createFaq: endpoint({
    method: 'POST',
    path: '/api/admin/faqs',
    access: 'content.manage',
    tags: ['admin'],
    summary: 'Add a FAQ entry at the end of its type',
    body: FaqInputSchema,
    answers: { 201: FaqResultSchema },
    errors: ADMIN_ERRORS,
  }),
  updateFaq: endpoint({
    method: 'PUT',
    path: '/api/admin/faqs/:faqId',
    access: 'content.manage',
    tags: ['admin'],
    summary: 'Edit a FAQ entry (a new type moves it to the end of that list)',
    params: FaqParamsSchema,
    body: FaqInputSchema,
    answers: { 200: FaqResultSchema },
    errors: ADMIN_ERRORS,
  }),
  deleteFaq: endpoint({
    method: 'DELETE',
    path: '/api/admin/faqs/:faqId',
    access: 'content.manage',
    tags: ['admin'],
    summary: 'Delete a FAQ entry',
    params: FaqParamsSchema,
    answers: { 200: FaqResultSchema },
    errors: ADMIN_ERRORS,
  }),
  reorderFaqs: endpoint({
    method: 'POST',
    path: '/api/admin/faqs/reorder',
    access: 'content.manage',
    tags: ['admin'],
    summary: "Put a type's entries in this order; ids must be exactly that type's entries (else 409)",
    body: FaqReorderSchema,
    answers: { 200: FaqListSchema },
    errors: [...ADMIN_ERRORS, 409],
  }),
  legal: endpoint({
    method: 'GET',
    path: '/api/admin/legal',
    access: 'content.read',
    tags: ['admin'],
    summary: 'The legal links and our hosted documents',
    answers: { 200: AdminLegalSchema },
    errors: ADMIN_ERRORS,
  }),
  saveLegalLinks: endpoint({
    method: 'PUT',
    path: '/api/admin/settings/legal-links',
    access: 'content.manage',
    tags: ['admin'],
    summary: 'Set the Terms and Privacy links: https:// addresses or paths on this site only',
    body: LegalLinksInputSchema,
    answers: { 200: LegalLinksSchema },
    errors: ADMIN_ERRORS,
  }),
  saveDocument: endpoint({
    method: 'PUT',
    path: '/api/admin/documents/:slug',
    access: 'content.manage',
    tags: ['admin'],
    summary: 'Edit one of our hosted legal documents (plain text; blank line = paragraph, "## " = heading)',
    // A document may hold 200,000 characters, several bytes each once JSON-escaped: above the app's 100 kB.
    bodyLimit: 1024 * 1024,
    params: DocumentParamsSchema,
    body: DocumentInputSchema,
    answers: { 200: z.object({ document: HostedDocumentSchema }) },
    errors: ADMIN_ERRORS,
  }),
} as const;
