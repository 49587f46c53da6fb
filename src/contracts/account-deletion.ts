/**
 * Deleting an account (docs/product.md §2.14, docs/decisions/098-account-deletion-and-erasure.md):
 * the person confirms with their password, the account is disabled at once, and its personal data
 * is erased ERASE_AFTER_DAYS later (an admin can erase sooner).
 */

/** What an erased account is called wherever its owner is shown (tickets kept for the record, users list). */
export const ERASED_USER = 'Deleted user';

/** The address an erased account keeps: unique, and no mail can ever reach it (.invalid, RFC 2606). */
export const erasedEmail = (userId: string) => `deleted-${userId}@erased.invalid`;
const ERASED_EMAIL = /^deleted-[0-9a-f-]{36}@erased\.invalid$/;
export const isErasedEmail = (email: string) => ERASED_EMAIL.test(email);
/** An account's address as pages show it: 'Deleted user' once it has been erased. */
export const shownEmail = (email: string) => (isErasedEmail(email) ? ERASED_USER : email);

export const DELETION_TEXT = {
  title: 'Delete my account',
  button: 'Delete my account',
  passwordLabel: 'Your password',
  passwordMissing: 'Enter your password to confirm.',
  adminRefused:
    'An admin account cannot be deleted here. Ask another admin to remove your admin role first, then delete the account.',
  closedTitle: 'Your account is closed',
  closed: (eraseOn: string) =>
    `Your account is closed and you have been signed out everywhere. Your personal data will be erased on ${eraseOn}.`,
  ticketMessage: (requestedOn: string, eraseOn: string) =>
    `I asked to delete my account on ${requestedOn}. My data will be erased on ${eraseOn}.`,
  // Admin side.
  eraseNow: 'Erase now',
  erased: 'Erased',
  requested: (eraseOn: string) => `Deletion requested — erased on ${eraseOn}`,
  eraseNotRequested: 'This account did not ask to be deleted: only accounts whose owner asked can be erased.',
  eraseAlreadyDone: 'This account has already been erased.',
  eraseNotYourself: 'You cannot erase your own account.',
  eraseScheduled: (email: string) => `${email} will be erased within a minute.`,
  keepForRecord: 'Keep messages for the record',
  keepForRecordHint:
    'When the owner’s account is erased, the messages of this ticket stay, shown as from ‘Deleted user’; otherwise the ticket is deleted with the account.',
  cannotEnable: 'This account asked to be deleted: it cannot be enabled again.',
} as const;
