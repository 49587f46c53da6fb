import { AdminMessageSchema } from './support.schemas.ts';
import type { z } from './zod.ts';

/**
 * The admin console (docs/product.md §2.9): what the console sends and receives, and every string it shows that
 * a rule depends on. The browser and the server both import these.
 */

export const ADMIN_TEXT = {
  title: 'Admin console',
  notAllowedTitle: 'Not allowed',
  notAllowed: 'This area is for the support and operations team only. Your account does not have access to it.',
  nav: {
    support: 'Support inbox',
    savedReplies: 'Saved replies',
    reports: 'Reports',
    businessHours: 'Business hours',
    partners: 'Partner applications',
    faqs: 'FAQs',
    legal: 'Legal documents',
    users: 'Users',
    audit: 'Audit log',
    mail: 'Mail',
    security: 'Sign-in security',
  },
  closeTicket: 'Close ticket',
  reopenTicket: 'Reopen ticket',
  noOpenTickets: 'There are no open tickets',
  noClosedTickets: 'There are no closed tickets',
  noMatchingTickets: 'No tickets match your search',
  approve: 'Approve',
  reject: 'Reject',
  ban: 'Ban',
  unban: 'Unban',
  save: 'Save',
  noContactEmail: 'This application has no contact email, so no email was sent. Contact the company another way.',
  noContactEmailYet:
    'This application has no contact email: a decision cannot be emailed. Contact the company another way.',
  mailQueued: (email: string) =>
    `The email to ${email} is on its way: “Decision email sent” turns to Yes once it is delivered (see Mail).`,
  notSignedInAsAdmin: 'Your session ended or you are no longer an admin. Reload the page.',
} as const;

/** A ticket message as admins see it: with its author's email. */
export type AdminMessage = z.infer<typeof AdminMessageSchema>;
