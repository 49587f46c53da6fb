import {
  AccountProfileSchema,
  AccountSessionsSchema,
  ChangeEmailRequestSchema,
  ConfirmEmailChangeRequestSchema,
  RevokeOthersResponseSchema,
  SessionParamsSchema,
} from '../account.schemas.ts';
import {
  ChangePasswordRequestSchema,
  EmailRequestSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  MessageResponseSchema,
  ResetPasswordRequestSchema,
  SessionResponseSchema,
  SignupRequestSchema,
  VerifyEmailRequestSchema,
} from '../auth.schemas.ts';
import { endpoint } from '../endpoint.ts';
import { UserListQuerySchema, UserListSchema, UserParamsSchema, UserResultSchema, UserRoleSchema } from '../users.ts';

/** Sign-in, sign-up, verification and passwords: /api/auth/* (docs/design.md §4). */
const AUTH_ERRORS = [400, 401, 403, 429] as const;

export const authApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    tags: ['accounts'],
    summary: 'Sign in with email and password',
    description:
      'Sets the session cookie (`session: "cookie"`, the default) or returns a token for `Authorization: Bearer` (`session: "token"`, API clients). ' +
      'Unknown email and wrong password answer the same 401; an unverified email answers 403 and signs out; too many failures answer 429 with Retry-After. ' +
      'An admin with a second factor also sends `otp` (the authenticator code or a recovery code) or `passkey`; without it, after a right password, the answer is 401 with `fields.otp` saying a code is needed.',
    body: LoginRequestSchema,
    answers: { 200: LoginResponseSchema },
    errors: AUTH_ERRORS,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/auth/logout',
    access: 'public',
    tags: ['accounts'],
    summary: 'Sign out: ends this session',
    answers: { 200: MessageResponseSchema },
    errors: [],
  }),
  session: endpoint({
    method: 'GET',
    path: '/api/auth/session',
    access: 'user',
    tags: ['accounts'],
    summary: 'Who is signed in',
    answers: { 200: SessionResponseSchema },
    errors: [401],
  }),
  signup: endpoint({
    method: 'POST',
    path: '/api/auth/signup',
    access: 'public',
    tags: ['accounts'],
    summary: 'Create an account; a verification link is mailed',
    description: 'Answers 202 with the same message whether or not the email already has an account.',
    body: SignupRequestSchema,
    answers: { 202: MessageResponseSchema },
    errors: AUTH_ERRORS,
  }),
  verifyEmail: endpoint({
    method: 'POST',
    path: '/api/auth/verify-email',
    access: 'public',
    tags: ['accounts'],
    summary: 'Use a verification link',
    body: VerifyEmailRequestSchema,
    answers: { 200: MessageResponseSchema },
    errors: AUTH_ERRORS,
  }),
  resendVerification: endpoint({
    method: 'POST',
    path: '/api/auth/resend-verification',
    access: 'public',
    tags: ['accounts'],
    summary: 'Mail a new verification link',
    body: EmailRequestSchema,
    answers: { 202: MessageResponseSchema },
    errors: AUTH_ERRORS,
  }),
  forgotPassword: endpoint({
    method: 'POST',
    path: '/api/auth/forgot-password',
    access: 'public',
    tags: ['accounts'],
    summary: 'Mail a password-reset link',
    body: EmailRequestSchema,
    answers: { 202: MessageResponseSchema },
    errors: AUTH_ERRORS,
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/auth/reset-password',
    access: 'public',
    tags: ['accounts'],
    summary: 'Choose a new password with a reset link; ends every session',
    body: ResetPasswordRequestSchema,
    answers: { 200: MessageResponseSchema },
    errors: AUTH_ERRORS,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api/auth/change-password',
    access: 'user',
    tags: ['accounts'],
    summary: 'Change the password; ends every other session',
    body: ChangePasswordRequestSchema,
    answers: { 200: MessageResponseSchema },
    errors: AUTH_ERRORS,
  }),
  confirmEmailChange: endpoint({
    method: 'POST',
    path: '/api/auth/confirm-email-change',
    access: 'public',
    tags: ['accounts'],
    summary: 'Use an email-change link: the account moves to the new address',
    description: 'Answers 409 when another account has taken the address meanwhile.',
    body: ConfirmEmailChangeRequestSchema,
    answers: { 200: MessageResponseSchema },
    errors: [400, 401, 403, 404, 409, 429],
  }),
} as const;

/** The account page's API (docs/product.md §2.13): the account, its sessions, and the email change. */
const ACCOUNT_ERRORS = [400, 401, 403, 404, 409, 429] as const;

export const accountApi = {
  profile: endpoint({
    method: 'GET',
    path: '/api/account',
    access: 'user',
    tags: ['account'],
    summary: 'The signed-in account: email, verified, member since, an email change waiting for its link',
    answers: { 200: AccountProfileSchema },
    errors: ACCOUNT_ERRORS,
  }),
  sessions: endpoint({
    method: 'GET',
    path: '/api/account/sessions',
    access: 'user',
    tags: ['account'],
    summary: "This account's sessions: browser and system, network prefix, started, last seen; `current` is this one",
    answers: { 200: AccountSessionsSchema },
    errors: ACCOUNT_ERRORS,
  }),
  endSession: endpoint({
    method: 'DELETE',
    path: '/api/account/sessions/:sessionId',
    access: 'user',
    tags: ['account'],
    summary: 'Sign out one other session (its live streams end at once)',
    description: 'The id is the one the list gives. The session in use answers 400: end it with /api/auth/logout.',
    params: SessionParamsSchema,
    answers: { 200: MessageResponseSchema },
    errors: ACCOUNT_ERRORS,
  }),
  endOtherSessions: endpoint({
    method: 'POST',
    path: '/api/account/sessions/revoke-others',
    access: 'user',
    tags: ['account'],
    summary: 'Sign out every session but this one',
    answers: { 200: RevokeOthersResponseSchema },
    errors: ACCOUNT_ERRORS,
  }),
  changeEmail: endpoint({
    method: 'POST',
    path: '/api/account/email',
    access: 'user',
    tags: ['account'],
    summary: 'Change the email address: mails a confirmation link to the new address and a notice to the old one',
    description:
      'Needs the current password. Answers 202 with the same message whether or not the new address already has an account; the account keeps its address until the link is followed.',
    body: ChangeEmailRequestSchema,
    answers: { 202: MessageResponseSchema },
    errors: ACCOUNT_ERRORS,
  }),
} as const;

/** The admin console's accounts page. */
const ADMIN_ERRORS = [400, 401, 403, 404] as const;

export const usersApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/users',
    access: 'admin',
    tags: ['admin'],
    summary: 'Accounts, newest first; find by email',
    query: UserListQuerySchema,
    answers: { 200: UserListSchema },
    errors: ADMIN_ERRORS,
  }),
  resendVerification: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/resend-verification',
    access: 'admin',
    tags: ['admin'],
    summary: 'Send a new verification email to an unverified account',
    params: UserParamsSchema,
    answers: { 200: UserResultSchema },
    errors: [...ADMIN_ERRORS, 409, 429],
  }),
  disable: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/disable',
    access: 'admin',
    tags: ['admin'],
    summary: 'Disable an account: ends its sessions and live streams',
    params: UserParamsSchema,
    answers: { 200: UserResultSchema },
    errors: ADMIN_ERRORS,
  }),
  enable: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/enable',
    access: 'admin',
    tags: ['admin'],
    summary: 'Enable a disabled account',
    params: UserParamsSchema,
    answers: { 200: UserResultSchema },
    errors: ADMIN_ERRORS,
  }),
  setRole: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/role',
    access: 'admin',
    tags: ['admin'],
    summary: 'Make an account admin, or a plain user (never your own)',
    params: UserParamsSchema,
    body: UserRoleSchema,
    answers: { 200: UserResultSchema },
    errors: ADMIN_ERRORS,
  }),
} as const;
