/**
 * Admins' second factor (docs/product.md §2.15, docs/decisions/096-admin-second-factor.md): an
 * authenticator app (TOTP) or a passkey, and ten one-time recovery codes. Every user-facing message
 * of enrolment and of the sign-in step; the schemas are in second-factor.schemas.ts.
 */

/** The intent of the form that confirms a new authenticator app (the console's enrolment and /admin/security). */
export const ENROL_TOTP = 'enrol-totp';

export const RECOVERY_CODE_COUNT = 10;
/** A TOTP code is 6 digits; a recovery code 16 hex characters in groups of four (xxxx-xxxx-xxxx-xxxx). */
export const OTP_MAX_LENGTH = 64;
export const FACTOR_LABEL_MAX_LENGTH = 60;

export const SECOND_FACTOR_MESSAGES = {
  // The sign-in step: what an admin with a second factor is told when the password alone was sent.
  otpRequired: 'Enter the 6-digit code from your authenticator app (or a recovery code) to sign in.',
  otpWrong: 'That code is incorrect or has already been used. Enter the current code from your app.',
  otpInvalid: 'Enter the 6-digit code from your app, or a recovery code.',
  passkeyFailed: 'Your passkey could not be checked. Please try again, or use a code.',
  passkeyNone: 'This account has no passkey. Enter the code from your authenticator app instead.',
  // A form sent without JavaScript keeps no password: the code step holds it for five minutes.
  passwordAccepted: (email: string) => `Password accepted for ${email}.`,
  signInExpired: 'Your sign-in has expired. Please enter your password again.',
  notYou: 'Sign in with another account',
  tooManyCodes: (minutes: number) =>
    `Too many wrong codes. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
  // The console before enrolment.
  enrolRequired: 'Set up a second factor to open the console.',
  signInAgain: 'This account already has a second factor: sign out and sign in again with it to open the console.',
  codeRequired: 'Enter the 6-digit code your app shows.',
  codeWrong: 'That code is not right. Check the time on your phone and enter the current code.',
  enrolmentExpired: 'This set-up has expired. Start again to get a new QR code.',
  passkeyRegisterFailed: 'The passkey could not be registered. Please try again.',
  challengeExpired: 'This passkey request has expired. Please try again.',
  enrolled: 'Your second factor is set up.',
  // The console's Sign-in security page.
  removed: (label: string) => `Removed ${label}. Signing in asks for one of the others from now on.`,
  lastFactor: 'This is your only second factor. Add another one before you remove it.',
  factorNotFound: 'This second factor is not on your account (it may have been removed already).',
  codesRenewed: 'Here are your new recovery codes. The old ones no longer work.',
} as const;
