import { data, redirectDocument } from 'react-router';
import { authApi } from '../../../contracts/api/accounts.ts';
import { EmailRequestSchema, EmailSchema, PasswordSchema } from '../../../contracts/auth.schemas.ts';
import { fieldErrors } from '../../../contracts/field-errors.ts';
import { UNEXPECTED_FAILURE } from '../../../contracts/endpoint.ts';
import { SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import { OtpSchema } from '../../../contracts/second-factor.schemas.ts';
import { z } from '../../../contracts/zod.ts';
import { type FormResult, invalid } from '../../lib/form.ts';
import { RESEND_FORM, SIGN_IN_FORM } from './sign-in-forms.ts';
import { requestContext, type RequestContextValue, type WebServices } from '../../lib/request-context.ts';

/**
 * The sign-in form of /support and /admin, posted to the area's own address (with JavaScript by a
 * fetcher, without it as a plain form): success redirects (303) to the page the visitor was on,
 * with the session cookie, as a new document so every part of the page (the navigation too) is the
 * signed-in one; a refusal answers the login screen again with the message, the fields' errors and
 * the email kept (never the password).
 *
 * The same address takes the login screen's 'Send a new verification email' form (`intent=resend`):
 * an address can take only one action, and that form is shown on this very screen.
 */
export type SignInArea = '/support' | '/admin';

/**
 * The screen's answer: the one form result. `values.ticket` is the code step's ticket (the password
 * was right, the code is still to come: five minutes, once; docs/product.md §2.15), sent back with
 * the code instead of the password a page cannot keep. `throttled` says the refusal was a rate
 * limit, which the screen titles 'Please wait'.
 */
export type SignInResult = FormResult & { throttled?: boolean };

/** An empty code field is no code (a user without a second factor leaves it empty). */
const typedOtp = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  OtpSchema.optional(),
);

/** The password step: email and password, and an admin's code when its field is filled in. */
export const SignInFormSchema = z.object({ email: EmailSchema, password: PasswordSchema, otp: typedOtp });

/** The code step: the ticket stands for the password, so the code alone is checked here. */
export const SignInCodeSchema = z.object({
  otp: z.string({ error: M.otpRequired }).trim().min(1, M.otpRequired).pipe(OtpSchema),
});

/** Only a path of this area, never another site (an open redirect). */
export function safeReturnPath(value: string | undefined, area: SignInArea): string {
  const path = value ?? '';
  const plain = !path.includes('//') && !path.includes('\\') && !/\/\.\.?(\/|$)/.test(path);
  return path === area || (path.startsWith(`${area}/`) && plain) ? path : area;
}

/** Signed in: back (303) to the page of this area the visitor was on, with the session cookie, as a new page. */
function signedIn(setCookie: string, returnTo: string | undefined, area: SignInArea) {
  const headers = new Headers({ 'set-cookie': setCookie });
  // The code step of a sign-in at the company's identity provider is over (decision 148).
  if (area === '/admin')
    headers.append('set-cookie', 'oidc_code_step=; Path=/admin; Max-Age=0; HttpOnly; SameSite=Lax');
  return redirectDocument(safeReturnPath(returnTo, area), { status: 303, headers });
}

const answer = (result: Omit<SignInResult, 'ok' | 'form'>, status: number) =>
  data<SignInResult>({ ok: false, form: SIGN_IN_FORM, ...result }, { status });

/** The area's action: the sign-in form (either step) or the resend form, told apart by their fields. */
export async function signInAction(
  values: Record<string, string>,
  context: { get(key: typeof requestContext): RequestContextValue },
  area: SignInArea,
) {
  const { services } = context.get(requestContext);
  const email = values.email ?? '';
  if (values.intent === 'resend') return resendVerification(services, email);
  if (values.ticket) return codeStep(services, values, area);
  const parsed = SignInFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, { email }, SIGN_IN_FORM);
  const outcome = await services.signIn(parsed.data);
  if (outcome.ok) return signedIn(outcome.setCookie, values.returnTo, area);
  const named = outcome.status === 400 && Object.keys(outcome.fields).length > 0;
  // The second factor's step (docs/product.md §2.15): its message is the code field's error.
  const needsOtp = outcome.fields.otp !== undefined;
  return answer(
    {
      message: named || needsOtp ? null : outcome.message,
      fields: named || needsOtp ? outcome.fields : {},
      values: { email, ...(outcome.ticket ? { ticket: outcome.ticket } : {}) },
      ...(outcome.status === 429 ? { throttled: true } : {}),
    },
    outcome.status,
  );
}

/**
 * The code step: a missing or malformed code keeps the ticket (it is spent only when sent to be
 * checked); a wrong one is answered with a new ticket; an expired or used one starts over at the
 * password, with the email kept.
 */
async function codeStep(services: WebServices, values: Record<string, string>, area: SignInArea) {
  const email = values.email ?? '';
  const ticket = values.ticket!;
  const parsed = SignInCodeSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, { email, ticket }, SIGN_IN_FORM);
  const outcome = await services.signIn({ ticket, otp: parsed.data.otp });
  if (outcome.ok) return signedIn(outcome.setCookie, values.returnTo, area);
  return answer(
    {
      message: outcome.ticket ? null : outcome.message,
      fields: outcome.ticket ? outcome.fields : {},
      values: { email, ...(outcome.ticket ? { ticket: outcome.ticket } : {}) },
      ...(outcome.status === 429 ? { throttled: true } : {}),
    },
    outcome.status,
  );
}

/**
 * The resend form, answered by the endpoint an API client calls (in process, as this visitor), so
 * its rate limits and its message are the same. Its answer is one sentence (the button's place);
 * the screen stays in its "not verified" state either way, the email kept for signing in later.
 */
async function resendVerification(services: WebServices, email: string) {
  const resent = (ok: boolean, message: string, status: number) =>
    data<SignInResult>({ ok, message, fields: {}, values: { email }, form: RESEND_FORM }, { status });
  const parsed = EmailRequestSchema.safeParse({ email });
  if (!parsed.success)
    return resent(false, Object.values(fieldErrors(parsed.error))[0] ?? 'Please check the email address.', 400);
  const sent = await services.api.call(authApi.resendVerification, { body: { email: parsed.data.email } });
  if (sent.ok) return resent(true, sent.data.message, 200);
  const message = Object.values(sent.fields)[0] ?? (sent.fromServer ? sent.message : UNEXPECTED_FAILURE);
  return resent(false, message, sent.status || 500);
}
