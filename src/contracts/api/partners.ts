import { CompanyRegistrationResultSchema } from '../companies.schemas.ts';
import { endpoint } from '../endpoint.ts';
import { MAIL_OUTCOMES } from '../partner-review.ts';
import {
  AcceptLicenseSchema,
  ApproveCompanySchema,
  CompanyDecisionSchema,
  CompanyDetailSchema,
  CompanyListQuerySchema,
  CompanyListSchema,
  CompanyParamsSchema,
  CompanyResultSchema,
  RefuseLicenseSchema,
  RejectCompanySchema,
} from '../partner-review.schemas.ts';
import {
  ApplicationStatusSchema,
  StatusLinkRequestSchema,
  StatusTokenParamsSchema,
} from '../partner-status.schemas.ts';
import { RequestChangesSchema, SentChangesSchema } from '../partner-changes.schemas.ts';
import { z } from '../zod.ts';

/** Partner registration: the public form, with its licence file (docs/product.md §2). */
export const partnersApi = {
  register: endpoint({
    method: 'POST',
    path: '/api/companies',
    access: 'public',
    tags: ['partners'],
    summary: 'Apply to become a partner company',
    description:
      'multipart/form-data with the text fields companyName, nzbn (optional New Zealand Business Number: 13 digits ' +
      'starting 94 with a GS1 check digit; spaces are removed), phoneNumber, address (Address 1), street (Address 2), ' +
      'contactPersonName, contactPersonJobTitle, contactPersonPhoneNumber, contactPersonEmail, and an optional file ' +
      'part commercialLicense (JPEG, PNG or PDF, at most 10485760 bytes). Field errors come back under error.fields; ' +
      'duplicates (email, company name, phone number, then NZBN) answer 409.',
    multipart: 'only',
    answers: { 201: CompanyRegistrationResultSchema },
    errors: [400, 409, 429],
  }),
  status: endpoint({
    method: 'GET',
    path: '/api/partners/status/:token',
    access: 'public',
    tags: ['partners'],
    summary: "An applicant's own application, by the private link mailed when it was received",
    description:
      'The application as submitted (never the licence file, only whether one was sent), its state (received, ' +
      'approved, not-approved, on-hold), the review due date while it waits, and its history with the reasons given. ' +
      'An unknown or malformed token answers 404; at most 60 reads a minute from one address (429).',
    params: StatusTokenParamsSchema,
    answers: { 200: ApplicationStatusSchema },
    errors: [400, 404, 429],
  }),
  statusLink: endpoint({
    method: 'POST',
    path: '/api/partners/status-link',
    access: 'public',
    tags: ['partners'],
    summary: 'Email a new status link to the contact address of the applications that use it',
    description:
      'Always 202 with the same words, whether or not an application uses the address, so the answer tells nothing ' +
      'about who applied; limited per network address and per address asked about (429).',
    body: StatusLinkRequestSchema,
    answers: { 202: z.object({ message: z.string() }) },
    errors: [400, 429],
  }),
  sendChanges: endpoint({
    method: 'POST',
    path: '/api/partners/status/:token/changes',
    access: 'public',
    tags: ['partners'],
    summary: 'An applicant sends what is due, by the private link: the changes asked for, or a new licence',
    description:
      "multipart/form-data. While changes are requested: only the fields the request opened (the registration's " +
      'names, rules and duplicate checks) and, when asked, the file part commercialLicense (JPEG, PNG or PDF, at most ' +
      '10485760 bytes); the application goes back to review. An approved partner: commercialLicense only, kept for ' +
      'an admin to accept. Anything not asked for is refused under its name (400); nothing due answers 409.',
    params: StatusTokenParamsSchema,
    multipart: 'only',
    answers: { 200: SentChangesSchema },
    errors: [400, 404, 409, 429],
  }),
} as const;

/** Partner review in the admin console: /api/admin/companies/* (docs/product.md §2.9). */
const REVIEW_ERRORS = [400, 401, 403, 404] as const;
const DECISION_ERRORS = [409, ...REVIEW_ERRORS] as const;

export const partnerReviewApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/companies',
    access: 'partners.read',
    tags: ['admin'],
    summary: 'Partner applications by status (pending, verified, rejected, banned), with counts',
    description:
      'Pending applications carry their review due date (two New Zealand working days after submission) and ' +
      'whether it has passed; due=late keeps only those, sort=due orders them by due date; counts.late counts them.',
    query: CompanyListQuerySchema,
    answers: { 200: CompanyListSchema },
    errors: REVIEW_ERRORS,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/admin/companies/:companyId',
    access: 'partners.read',
    tags: ['admin'],
    summary: 'One application with every field, and its review due date while one is due',
    params: CompanyParamsSchema,
    answers: { 200: CompanyDetailSchema },
    errors: REVIEW_ERRORS,
  }),
  approve: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/approve',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Approve (verified = 1) and email the contact address; mail says sent, no-address or failed',
    description:
      'An optional body { licenseExpiresOn: "YYYY-MM-DD" } records the licence expiry date (New Zealand, not before ' +
      'today): reminders are mailed 30, 14 and 3 days before it and on it the partner goes on hold. Without it no ' +
      'expiry is recorded.',
    params: CompanyParamsSchema,
    body: ApproveCompanySchema.nullish(),
    answers: { 200: CompanyDecisionSchema },
    errors: DECISION_ERRORS,
  }),
  reject: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/reject',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Reject with a reason (verified = 2: frees the name, email and phone) and email the contact address',
    params: CompanyParamsSchema,
    body: RejectCompanySchema,
    answers: { 200: CompanyDecisionSchema },
    errors: DECISION_ERRORS,
  }),
  notify: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/notify',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Email the current decision again',
    params: CompanyParamsSchema,
    answers: { 200: CompanyDecisionSchema },
    errors: DECISION_ERRORS,
  }),
  ban: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/ban',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Ban a company',
    params: CompanyParamsSchema,
    answers: { 200: CompanyResultSchema },
    errors: DECISION_ERRORS,
  }),
  unban: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/unban',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Lift a ban',
    params: CompanyParamsSchema,
    answers: { 200: CompanyResultSchema },
    errors: DECISION_ERRORS,
  }),
  // The licence is served only to admins, only as a download (UP-05): its answer is the file itself,
  // so only the errors are described.
  license: endpoint({
    method: 'GET',
    path: '/api/admin/companies/:companyId/license',
    access: 'partners.read',
    tags: ['admin'],
    summary: "Download a company's commercial licence (JPEG, PNG or PDF)",
    params: z.object({ companyId: z.uuid() }),
    answers: {},
    errors: REVIEW_ERRORS,
  }),
  // A PDF licence shown in a frame of the console's partner page (docs/decisions/130-pdf-licences.md):
  // inline, framed only by our own pages, no scripts; 404 for an image (the page shows the image itself).
  licensePreview: endpoint({
    method: 'GET',
    path: '/api/admin/companies/:companyId/license/preview',
    access: 'partners.read',
    tags: ['admin'],
    summary: "A company's PDF licence, inline, for the console's preview frame",
    params: z.object({ companyId: z.uuid() }),
    answers: {},
    errors: REVIEW_ERRORS,
  }),
  renewalLicense: endpoint({
    method: 'GET',
    path: '/api/admin/companies/:companyId/renewal-license',
    access: 'partners.read',
    tags: ['admin'],
    summary: 'Download the new licence an approved partner sent, waiting to be accepted or refused',
    params: z.object({ companyId: z.uuid() }),
    answers: {},
    errors: REVIEW_ERRORS,
  }),
  acceptLicense: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/renewal-license/accept',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Accept the new licence with its expiry date: it replaces the old one and lifts a hold; mails the partner',
    params: CompanyParamsSchema,
    body: AcceptLicenseSchema,
    answers: { 200: CompanyDecisionSchema },
    errors: DECISION_ERRORS,
  }),
  refuseLicense: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/renewal-license/refuse',
    access: 'partners.review',
    tags: ['admin'],
    summary: 'Refuse the new licence with a reason (the file is removed); mails the partner',
    params: CompanyParamsSchema,
    body: RefuseLicenseSchema,
    answers: { 200: CompanyDecisionSchema },
    errors: DECISION_ERRORS,
  }),
} as const;

/** Changes requested, in the admin console (docs/decisions/113-changes-requested.md). */
export const partnerChangesApi = {
  request: endpoint({
    method: 'POST',
    path: '/api/admin/companies/:companyId/request-changes',
    access: 'partners.review',
    tags: ['admin'],
    summary:
      'Ask a pending application for changes (fixed reasons, the fields they open, a note) and email the applicant',
    params: CompanyParamsSchema,
    body: RequestChangesSchema,
    answers: { 200: z.object({ mail: z.enum(MAIL_OUTCOMES) }) },
    errors: [409, 400, 401, 403, 404],
  }),
} as const;
