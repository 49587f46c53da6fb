/** The admin console's list of accounts and what it changes on them (docs/product.md §2.9). */

export const USERS_PAGE_SIZE = 50;
/** How long an invitation to the console works (decision 148). */
export const INVITATION_DAYS = 7;
export const USER_MESSAGES = {
  notFound: 'That account does not exist.',
  lastAdmin: 'You are the last admin: give the admin role to someone else before you give up yours.',
  rolesSaved: (email: string) => `Roles saved for ${email}.`,
  roleOptionsSaved: 'Saved.',
  invited: (email: string) =>
    `An invitation is on its way to ${email}. It works for ${INVITATION_DAYS} days, once, with the company account.`,
  invitationsNeedProvider:
    'Invitations need the company’s identity provider (OIDC_ISSUER and its client): set it up first.',
  alreadyStaff: 'That address has a staff account already: change its roles in the list above.',
  notYourself: 'You cannot disable your own account.',
  notYourSessions: 'Your own sessions are on your account page: sign out the others there.',
  signedOut: (email: string, ended: number) =>
    `${email} is signed out everywhere (${ended} ${ended === 1 ? 'session' : 'sessions'} ended).`,
  alreadyVerified: 'This email address is already verified.',
  disabled: 'This account is disabled. Enable it first.',
  verificationSent: (email: string) => `A new verification email is on its way to ${email}.`,
} as const;
