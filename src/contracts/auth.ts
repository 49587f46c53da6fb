/**
 * Accounts: every user-facing message of sign-in, sign-up, verification and password reset (house
 * style, habit 2), and the limits; one schema per input, shared by the forms and the API, is in
 * auth.schemas.ts.
 */

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only bounds the cost of hashing (AUTH-02). */
export const PASSWORD_MAX_LENGTH = 1024;
export const EMAIL_MAX_LENGTH = 254;

/** Verification links live a day; reset links an hour (a reset link is a key to the account). */
export const VERIFY_EMAIL_TOKEN_HOURS = 24;
export const RESET_PASSWORD_TOKEN_HOURS = 1;

export const AUTH_MESSAGES = {
  // docs/product.md §6, §8: exactly this text when an unverified user tries to sign in.
  unverified: 'The email associated with this account has not been verified!',
  // One message for an unknown email and a wrong password: no account enumeration (AUTH-04).
  invalidCredentials: 'The email or password is incorrect.',
  /** Staff passwords are switched off (decision 148): the console's button is the way in. */
  staffUseProvider: 'Staff sign in with the company account: use the button above.',
  signInRequired: 'Please sign in to continue.',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  passwordRequired: 'Password is required',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  passwordTooCommon: 'This password is too common. Please choose one that is harder to guess.',
  passwordIsEmail: 'Your password must not be your email address.',
  passwordsDiffer: 'The passwords do not match',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'The current password is incorrect.',
  newPasswordSameAsOld: 'Choose a password different from the current one.',
  tokenInvalid: 'This link is invalid, has expired or has already been used. Please ask for a new one.',
  // Enumeration-safe answers: the same words whether or not an account exists.
  signupAccepted: 'Check your inbox: we have sent a link to confirm your email address.',
  verificationSent:
    'If this account still needs to be verified, a new verification link is on its way. Check your inbox.',
  resetRequested: 'If an account exists for this email, we have sent a link to reset its password. Check your inbox.',
  emailVerified: 'Your email address is verified. You can now sign in.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  passwordChanged: 'Your password has been changed. You have been signed out everywhere else.',
  signedOut: 'You have been signed out.',
  tooManyMailRequests: 'Too many requests for this email address. Please wait a while and try again.',
  tooManyRequests: 'Too many requests from your network. Please wait a while and try again.',
} as const;

/** Readable text for a throttled sign-in; the wait comes from the 429's Retry-After. */
export function tooManySignInsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
}

/** Staff sign-in with the company's identity provider (docs/decisions/148-staff-sign-in-oidc.md). */
export const OIDC_TEXT = {
  button: (provider: string) => `Sign in with ${provider}`,
  or: 'or with your password',
  refused: {
    expired: 'That sign-in took too long or was already used. Please start again.',
    failed: 'The sign-in with your company account did not work. Please try again.',
    unverified: 'Your company account has no verified email address, so it cannot open the console.',
    domain: 'That email address is not one of the company’s. Sign in with your work account.',
    unknown: 'There is no staff account for that email address. Ask an admin to invite you.',
    noGroup: 'Your company account is in none of the groups that open the console. Ask an admin.',
    disabled: 'This account is disabled. Ask an admin to enable it.',
  },
} as const;
