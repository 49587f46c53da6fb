import type { AdminMessageSchema } from './support.schemas.ts';
import type { z } from './zod.ts';

/**
 * The admin console (docs/product.md §2.9): what the console sends and receives, and every string it shows that
 * a rule depends on. The browser and the server both import these.
 */

export const ADMIN_TEXT = {
  title: 'Admin console',
  notAllowedTitle: 'Not allowed',
  sectionClosedTitle: 'Not for your roles',
  sectionClosed: 'Your roles do not open this part of the console. An admin can give you another role on Users.',
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
    integrations: 'Integrations',
    security: 'Sign-in security',
  },
  /** The console's navigation on a phone: one control. */
  navMenu: 'Console menu',
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

/**
 * The first steps on a new console's home (/admin): four things a team does on its first day, each
 * ticked once done; the list goes away when all four are. Keys as in FirstStepsSchema.
 */
export const FIRST_STEPS_TEXT = {
  title: 'First steps',
  lead: 'Four things to set up the desk. Each is ticked once it is done.',
  progress: (done: number, of: number) => `${done} of ${of} done`,
  done: 'Done',
  toDo: 'To do',
  steps: {
    businessHours: {
      label: 'Set your business hours',
      about: 'Due times count only the hours you are open, and holidays you keep.',
      to: '/admin/business-hours',
    },
    teammate: {
      label: 'Add a teammate',
      about: 'Make a colleague’s account an admin on Users, so someone else can answer too.',
      to: '/admin/users',
    },
    savedReply: {
      label: 'Write a saved reply',
      about: 'An answer you give often, ready to insert in any ticket.',
      to: '/admin/saved-replies',
    },
    testTicket: {
      label: 'Answer a test ticket',
      about: 'Open a ticket from Contact us as a customer would, then answer it in the Support inbox.',
      to: '/support/create-ticket',
    },
  },
} as const;

/** A ticket message as admins see it: with its author's email. */
export type AdminMessage = z.infer<typeof AdminMessageSchema>;
