import { data, redirect } from 'react-router';
import { EmailRequestSchema, fieldErrors, LoginRequestSchema } from '../../../contracts/auth.ts';
import { OtpSchema, SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { requestContext, type RequestContextValue, type WebServices } from '../../lib/request-context.ts';

/**
 * The sign-in form of /support and /admin as a plain form post to the area's own address (works
 * before hydration and without JavaScript): success redirects (303) to the page the visitor was on,
 * with the session cookie; a refusal answers the login screen again with the message, the fields'
 * errors and the email kept (never the password).
 *
 * The same address takes the login screen's 'Send a new verification email' form (`intent=resend`):
 * an address can take only one action, and that form is shown on this very screen.
 */
export interface SignInActionData {
  email: string;
  fields: Record<string, string>;
  message: string | null;
  unverified: boolean;
  /** An admin's second factor is needed (or the code was wrong): the screen shows the code field. */
  otp?: boolean;
  /** The answer to the resend form: the API's message, or why it was refused. */
  resend?: { ok: boolean; message: string };
  /**
   * The password was right and the code is still to come: the form sends this ticket back with the
   * code, instead of the password it cannot keep (five minutes, once; docs/product.md §2.15).
   */
  ticket?: string;
}

/** Only a path of this area, never another site (an open redirect). */
export function safeReturnPath(value: FormDataEntryValue | null, area: '/support' | '/admin'): string {
  const path = typeof value === 'string' ? value : '';
  const plain = !path.includes('//') && !path.includes('\\') && !/\/\.\.?(\/|$)/.test(path);
  return path === area || (path.startsWith(`${area}/`) && plain) ? path : area;
}

/** Signed in: back (303) to the page of this area the visitor was on, with the session cookie. */
function signedIn(setCookie: string, returnTo: FormDataEntryValue | null, area: '/support' | '/admin') {
  return redirect(safeReturnPath(returnTo, area), { status: 303, headers: { 'set-cookie': setCookie } });
}

export async function signInAction(
  request: Request,
  context: { get(key: typeof requestContext): RequestContextValue },
  area: '/support' | '/admin',
) {
  const { services } = context.get(requestContext);
  const form = await request.formData();
  const email = String(form.get('email') ?? '');
  if (form.get('intent') === 'resend') return resendVerification(services, email);
  const otp = String(form.get('otp') ?? '').trim();
  const ticket = String(form.get('ticket') ?? '');
  if (ticket) return codeStep(services, { email, ticket, otp, returnTo: form.get('returnTo') }, area);
  const parsed = LoginRequestSchema.safeParse({
    email,
    password: form.get('password') ?? '',
    ...(otp ? { otp } : {}),
  });
  if (!parsed.success) {
    return data<SignInActionData>(
      { email, fields: fieldErrors(parsed.error), message: null, unverified: false, otp: Boolean(otp) },
      { status: 400 },
    );
  }
  const outcome = await services.signIn({
    email: parsed.data.email,
    password: parsed.data.password,
    otp: parsed.data.otp,
  });
  if (outcome.ok) return signedIn(outcome.setCookie, form.get('returnTo'), area);
  const hasFields = outcome.status === 400 && Object.keys(outcome.fields).length > 0;
  // The second factor's step (docs/product.md §2.15): its message is the code field's error.
  const needsOtp = outcome.fields.otp !== undefined;
  return data<SignInActionData>(
    {
      email,
      fields: hasFields || needsOtp ? outcome.fields : {},
      message: hasFields || needsOtp ? null : outcome.message,
      unverified: outcome.unverified,
      otp: needsOtp || Boolean(otp),
      ...(outcome.ticket ? { ticket: outcome.ticket } : {}),
    },
    { status: outcome.status },
  );
}

/**
 * The code step: the ticket stands for the password. A missing or malformed code keeps the ticket
 * (it is spent only when sent to be checked); a wrong one is answered with a new ticket; an expired
 * or used one starts over at the password, with the email kept.
 */
async function codeStep(
  services: WebServices,
  input: { email: string; ticket: string; otp: string; returnTo: FormDataEntryValue | null },
  area: '/support' | '/admin',
) {
  const { email, ticket, otp } = input;
  const parsed = OtpSchema.safeParse(otp);
  if (!otp || !parsed.success) {
    return data<SignInActionData>(
      {
        email,
        fields: { otp: otp ? M.otpInvalid : M.otpRequired },
        message: null,
        unverified: false,
        otp: true,
        ticket,
      },
      { status: 400 },
    );
  }
  const outcome = await services.signIn({ ticket, otp: parsed.data });
  if (outcome.ok) return signedIn(outcome.setCookie, input.returnTo, area);
  return data<SignInActionData>(
    {
      email,
      fields: outcome.ticket ? outcome.fields : {},
      message: outcome.ticket ? null : outcome.message,
      unverified: outcome.unverified,
      otp: true,
      ...(outcome.ticket ? { ticket: outcome.ticket } : {}),
    },
    { status: outcome.status },
  );
}

/**
 * The resend form, answered by the very endpoint the JavaScript version calls (in process, as this
 * visitor), so its rate limits and its message are the same. The screen stays in its "not verified"
 * state either way: the form is only ever shown there, and the visitor may want to try again.
 */
async function resendVerification(services: WebServices, email: string) {
  const answer = (resend: { ok: boolean; message: string }, status: number) =>
    data<SignInActionData>({ email, fields: {}, message: null, unverified: true, resend }, { status });
  const parsed = EmailRequestSchema.safeParse({ email });
  if (!parsed.success)
    return answer(
      { ok: false, message: Object.values(fieldErrors(parsed.error))[0] ?? 'Please check the email address.' },
      400,
    );

  const reply = await services.callApi('POST', '/api/auth/resend-verification', { email: parsed.data.email });
  if (reply.status < 300) {
    const message = (reply.body as { message?: unknown } | null)?.message;
    return answer(
      { ok: true, message: typeof message === 'string' ? message : 'A new verification email is on its way.' },
      200,
    );
  }
  const error = ErrorBodySchema.safeParse(reply.body);
  const message = error.success
    ? (Object.values(error.data.error.fields ?? {})[0] ?? error.data.error.message)
    : 'Something went wrong on our side. Please try again.';
  return answer({ ok: false, message }, reply.status);
}
