import { data } from 'react-router';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import type { RecoveryCodes, TotpEnrolment } from '../../../contracts/second-factor.ts';
import type { WebServices } from '../../lib/request-context.ts';

/**
 * The console's enrolment screen as a plain form (docs/product.md §2.15): the loader asks the API
 * for the secret and its QR code, the form confirms it with one code. Both call the very endpoints
 * the JavaScript version does, as this visitor.
 */
export type EnrolmentOffer = { ok: true; totp: TotpEnrolment } | { ok: false; message: string };

export interface EnrolmentActionData {
  enrolment: true;
  /** Shown once, after a confirmation. */
  recoveryCodes?: string[];
  fields: Record<string, string>;
  message: string | null;
}

/** An API refusal's message and field errors (a generic message when the body is not one). */
export function errorOf(body: unknown) {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success
    ? { message: parsed.data.error.message, fields: parsed.data.error.fields ?? {} }
    : { message: 'Something went wrong on our side. Please try again.', fields: {} };
}

export async function enrolmentOffer(services: WebServices): Promise<EnrolmentOffer> {
  const reply = await services.callApi('POST', '/api/admin/second-factor/totp', {});
  return reply.status === 200 ? { ok: true, totp: reply.body as TotpEnrolment } : { ok: false, ...errorOf(reply.body) };
}

export async function confirmTotpAction(services: WebServices, form: FormData) {
  const reply = await services.callApi('POST', '/api/admin/second-factor/totp/confirm', {
    factorId: String(form.get('factorId') ?? ''),
    code: String(form.get('code') ?? ''),
  });
  if (reply.status === 200) {
    const { recoveryCodes } = reply.body as RecoveryCodes;
    return data<EnrolmentActionData>({ enrolment: true, recoveryCodes, fields: {}, message: null });
  }
  const { message, fields } = errorOf(reply.body);
  const hasFields = Object.keys(fields).length > 0;
  return data<EnrolmentActionData>(
    { enrolment: true, fields, message: hasFields ? null : message },
    { status: reply.status },
  );
}
