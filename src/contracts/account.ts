/**
 * The account page (/account, docs/product.md §2.13): the profile, the sessions list and the email
 * change, with every user-facing message of them (house style, habit 2).
 */

/** An email-change link lives a day, like a verification link. */
export const CHANGE_EMAIL_TOKEN_HOURS = 24;

/** A name is at most this many characters, after trimming. */
export const ACCOUNT_NAME_MAX = 80;

export const ACCOUNT_MESSAGES = {
  title: 'Your account',
  nameLabel: 'Your name (optional)',
  nameHint: 'We greet you by it in our mail. Leave it empty to be greeted without a name.',
  nameTooLong: `Your name can be at most ${ACCOUNT_NAME_MAX} characters long`,
  nameControl: 'Your name cannot contain line breaks, tabs or other control characters',
  nameSaved: 'Your name has been saved.',
  nameCleared: 'Your name has been removed.',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'The current password is incorrect.',
  // Wrong passwords here count with failed sign-ins (the same budget), so the wait is the same.
  tooManyPasswordTries: (retryAfterSeconds: number) => {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    return `Too many wrong passwords. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
  },
  sameEmail: 'This is already your email address.',
  // The same answer whether or not the new address already has an account (decision 042).
  emailChangeRequested:
    'Check the inbox of your new address: we have sent it a link to confirm the change. Until then, you sign in with your current address.',
  emailChanged: 'Your email address has been changed. Sign in with the new address from now on.',
  emailTaken:
    'This address now belongs to another account, so your email address was not changed. Please choose another one.',
  sessionNotFound: 'This session has already ended.',
  sessionIsCurrent: 'This is the session you are using now: use Sign Out to end it.',
  sessionEnded: 'That device has been signed out.',
  otherSessionsEnded: (count: number) =>
    count === 0
      ? 'There were no other sessions to sign out.'
      : `Signed out everywhere else (${count === 1 ? '1 session' : `${count} sessions`}).`,
} as const;
