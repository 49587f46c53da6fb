import { data } from 'react-router';
import { secondFactorApi } from '../../../contracts/api/second-factor.ts';
import { type TotpEnrolment, TotpConfirmFormSchema } from '../../../contracts/second-factor.schemas.ts';
import { ENROL_TOTP } from '../../../contracts/second-factor.ts';
import { type FormResult, invalid, refused } from '../../lib/form.ts';
import type { WebServices } from '../../lib/request-context.ts';

/**
 * The console's enrolment screen as a form (docs/product.md §2.15): the loader asks the API for the
 * secret and its QR code, the form (`intent=enrol-totp`) confirms it with one code, posted to the
 * page's action, which sends it on to the API as this admin.
 */
export type EnrolmentOffer = { ok: true; totp: TotpEnrolment } | { ok: false; message: string };

/**
 * A form result that may hand over new recovery codes: they are shown once, on the page that
 * answers (never in an address or stored), so they come in the answer itself.
 */
export type CodesResult = FormResult & { recoveryCodes?: string[] };

export async function enrolmentOffer(services: WebServices): Promise<EnrolmentOffer> {
  const offer = await services.api.call(secondFactorApi.beginTotp);
  return offer.ok ? { ok: true, totp: offer.data } : { ok: false, message: offer.message };
}

export async function confirmTotpAction(services: WebServices, values: Record<string, string>) {
  const parsed = TotpConfirmFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, {}, ENROL_TOTP);
  const confirmed = await services.api.call(secondFactorApi.confirmTotp, {
    body: { factorId: values.factorId ?? '', code: parsed.data.code },
  });
  if (!confirmed.ok) return refused(confirmed, {}, ENROL_TOTP);
  const { message, recoveryCodes } = confirmed.data;
  return data<CodesResult>({ ok: true, message, fields: {}, values: {}, form: ENROL_TOTP, recoveryCodes });
}
