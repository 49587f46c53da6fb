import { Form, useNavigation } from 'react-router';
import {
  CLAIM_LIMITS,
  CLAIM_OUTCOME_TEXT,
  CLAIM_STATE_TEXT,
  CLAIM_CUSTOMER_TEXT,
  claimKindLabel,
  formatNzd,
} from '../../../contracts/claims-customer.ts';
import type { SenderClaim } from '../../../contracts/claims.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { TextAreaField } from '../../components/ui/field.tsx';
import type { FormResult } from '../../lib/form.ts';

/** The ticket page's appeal form (the page's action reads it by this intent). */
export const CLAIM_APPEAL_INTENT = 'claim-appeal';

/**
 * The sender's claim on their ticket (docs/decisions/153-claim-life.md): what it is, where it
 * stands, the decision, and the appeal (once, within its window), with or without JavaScript.
 */
export function SenderClaimPanel({ claim, refused }: { claim: SenderClaim; refused: FormResult | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === CLAIM_APPEAL_INTENT;
  const failed = refused && !refused.ok ? refused : undefined;
  return (
    <section className="sender-claim" id="claim" aria-labelledby="sender-claim-title">
      <h3 id="sender-claim-title">{CLAIM_CUSTOMER_TEXT.senderTitle}</h3>
      <p>
        {claimKindLabel(claim.kind)} · {claim.deliveryReference} · <strong>{CLAIM_STATE_TEXT[claim.state]}</strong>
      </p>
      {claim.decision ? (
        <div className="claim__decision">
          <p>
            <strong>{CLAIM_OUTCOME_TEXT[claim.decision.outcome]}</strong>
            {claim.decision.outcome !== 'declined' ? `: ${formatNzd(claim.decision.amountCents)}` : null} (
            {formatNzDateTime(claim.decision.decidedAt)})
          </p>
          {claim.decision.reason ? <p className="claim__reason">{claim.decision.reason}</p> : null}
        </div>
      ) : null}
      {claim.appeal ? (
        <p>{claim.state === 'appealed' ? CLAIM_CUSTOMER_TEXT.appealed : CLAIM_CUSTOMER_TEXT.closedWord}</p>
      ) : null}
      {claim.appealUntil ? (
        <Form method="post" preventScrollReset className="claim__appeal-form" aria-label={CLAIM_CUSTOMER_TEXT.appeal}>
          <input type="hidden" name="intent" value={CLAIM_APPEAL_INTENT} />
          <p className="field__hint">{CLAIM_CUSTOMER_TEXT.appealHint(formatNzDateTime(claim.appealUntil))}</p>
          {failed && !failed.fields.reason ? (
            <p className="field__error" role="alert">
              {failed.message}
            </p>
          ) : null}
          <TextAreaField
            label={CLAIM_CUSTOMER_TEXT.appealReason}
            name="reason"
            rows={3}
            maxLength={CLAIM_LIMITS.reasonMax}
            defaultValue={failed?.values?.reason ?? ''}
            key={`reason-${failed?.values?.reason ?? ''}`}
            error={failed?.fields.reason}
            required
          />
          <button type="submit" className="button" disabled={busy}>
            {CLAIM_CUSTOMER_TEXT.appeal}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
