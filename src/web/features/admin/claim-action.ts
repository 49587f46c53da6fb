import { data, redirect } from 'react-router';
import { claimsApi } from '../../../contracts/api/claims.ts';
import type { ClaimOutcome } from '../../../contracts/claims.ts';
import type { ServerApiClient } from '../../../contracts/web-context.ts';
import type { FormResult } from '../../lib/form.ts';
import { CLAIM_INTENTS, type ClaimIntent } from './claim-panel.tsx';

/**
 * The staff ticket page's claim forms (docs/decisions/152-incident-claims.md, 153-claim-life.md),
 * with or without JavaScript: each is sent to its endpoint against the version the page read;
 * then the page again at the claim, or the form back with why and what was typed.
 */
export async function claimAction(
  api: ServerApiClient,
  intent: ClaimIntent,
  values: Record<string, string>,
  options: { ticketId: string; page: string },
) {
  const params = { ticketId: options.ticketId };
  const seenVersion = Number(values.seenVersion) || 0;
  let typed: Record<string, string>;
  let answer;
  if (intent === CLAIM_INTENTS.decide) {
    typed = { outcome: values.outcome ?? '', amount: values.amount ?? '', reason: values.reason ?? '' };
    answer = await api.call(claimsApi.decide, {
      params,
      body: { ...typed, outcome: typed.outcome as ClaimOutcome, seenVersion },
    });
  } else if (intent === CLAIM_INTENTS.waitForSender) {
    typed = {};
    answer = await api.call(claimsApi.waitForSender, { params, body: { seenVersion } });
  } else if (intent === CLAIM_INTENTS.askTraveller) {
    const asked = { email: values.email ?? '', name: values.name ?? '', statement: values.statement ?? '' };
    typed = asked;
    answer = await api.call(claimsApi.askTraveller, { params, body: { ...asked, seenVersion } });
  } else {
    typed = { companyId: values.companyId ?? '', noticeSentOn: values.noticeSentOn ?? '' };
    answer = await api.call(claimsApi.carrier, { params, body: { ...typed, seenVersion } });
  }
  if (answer.ok) return redirect(`${options.page}#claim`, 303);
  return data<FormResult>(
    { ok: false, form: intent, message: answer.message, fields: answer.fields, values: typed },
    { status: answer.status || 500 },
  );
}
