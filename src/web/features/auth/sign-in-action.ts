import { data, redirect } from 'react-router';
import { fieldErrors, LoginRequestSchema } from '../../../contracts/auth.ts';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

/**
 * The sign-in form of /support and /admin as a plain form post to the area's own address (works
 * before hydration and without JavaScript): success redirects (303) to the page the visitor was on,
 * with the session cookie; a refusal answers the login screen again with the message, the fields'
 * errors and the email kept (never the password).
 */
export interface SignInActionData {
  email: string;
  fields: Record<string, string>;
  message: string | null;
  unverified: boolean;
}

/** Only a path of this area, never another site (an open redirect). */
export function safeReturnPath(value: FormDataEntryValue | null, area: '/support' | '/admin'): string {
  const path = typeof value === 'string' ? value : '';
  const plain = !path.includes('//') && !path.includes('\\') && !/\/\.\.?(\/|$)/.test(path);
  return path === area || (path.startsWith(`${area}/`) && plain) ? path : area;
}

export async function signInAction(request: Request, context: { get(key: typeof requestContext): RequestContextValue }, area: '/support' | '/admin') {
  const { services } = context.get(requestContext);
  const form = await request.formData();
  const email = String(form.get('email') ?? '');
  const parsed = LoginRequestSchema.safeParse({ email, password: form.get('password') ?? '' });
  if (!parsed.success) {
    return data<SignInActionData>({ email, fields: fieldErrors(parsed.error), message: null, unverified: false }, { status: 400 });
  }
  const outcome = await services.signIn({ email: parsed.data.email, password: parsed.data.password });
  if (outcome.ok) {
    return redirect(safeReturnPath(form.get('returnTo'), area), { status: 303, headers: { 'set-cookie': outcome.setCookie } });
  }
  const hasFields = outcome.status === 400 && Object.keys(outcome.fields).length > 0;
  return data<SignInActionData>(
    { email, fields: hasFields ? outcome.fields : {}, message: hasFields ? null : outcome.message, unverified: outcome.unverified },
    { status: outcome.status },
  );
}
