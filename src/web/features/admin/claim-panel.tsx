import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import {
  CLAIM_OUTCOME_TEXT,
  CLAIM_OUTCOMES,
  CLAIM_STATE_TEXT,
  CLAIM_TEXT,
  claimKindLabel,
  formatNzd,
} from '../../../contracts/claims.ts';
import type { Claim } from '../../../contracts/claims.schemas.ts';
import { formatNzDate, formatNzDateTime } from '../../../contracts/dates.ts';
import { InputField, SelectField, TextAreaField } from '../../components/ui/field.tsx';
import type { FormResult } from '../../lib/form.ts';

/** The ticket page's form that decides its claim (the page's action reads it by this intent). */
export const CLAIM_DECIDE_INTENT = 'claim-decide';

/** States a decision may be made in (the server decides; this only hides the form when it cannot). */
const DECIDABLE: ReadonlySet<Claim['state']> = new Set([
  'submitted',
  'information-requested',
  'with-traveller',
  'appealed',
]);

/**
 * A ticket's claim in the console (docs/decisions/152-incident-claims.md): what happened, the
 * delivery, the item's value, the window to claim, the state and when its wait ends (Late once it
 * has passed), the decision; and, for staff who change tickets, the form that decides it (with or
 * without JavaScript).
 */
export function ClaimPanel({
  claim,
  canWrite,
  served,
}: {
  claim: Claim;
  canWrite: boolean;
  /** The page's answer when the decision was sent without JavaScript and refused. */
  served: FormResult | undefined;
}) {
  // A day ('2026-11-30') as New Zealand reads it: its UTC midnight is that same day there.
  const day = (date: string) => formatNzDate(`${date}T00:00:00Z`);
  const facts: Array<[string, string]> = [
    [CLAIM_TEXT.kind, claimKindLabel(claim.kind)],
    [CLAIM_TEXT.delivery, claim.deliveryReference],
    [CLAIM_TEXT.value, claim.itemValueCents === null ? '—' : formatNzd(claim.itemValueCents)],
    [CLAIM_TEXT.deliveredOn, claim.deliveredOn ? day(claim.deliveredOn) : '—'],
    [CLAIM_TEXT.state, CLAIM_STATE_TEXT[claim.state]],
  ];
  const window = claim.windowEndsOn
    ? (claim.claimedLate ? CLAIM_TEXT.windowLate : CLAIM_TEXT.windowKept)(day(claim.windowEndsOn))
    : CLAIM_TEXT.noDeliveryDay;
  return (
    <section className="admin-page claim" id="claim" aria-labelledby="claim-title">
      <h2 id="claim-title">{CLAIM_TEXT.panelTitle}</h2>
      <dl className="claim__facts">
        {facts.map(([label, value]) => (
          <div key={label} className="claim__fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="claim__fact">
          <dt>{CLAIM_TEXT.due}</dt>
          <dd>
            {claim.dueAt ? formatNzDateTime(claim.dueAt) : CLAIM_TEXT.noDue}
            {claim.late ? (
              <>
                {' '}
                <strong className="badge badge--danger">{CLAIM_TEXT.lateWord}</strong>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      <p className={claim.claimedLate ? 'claim__window claim__window--late' : 'claim__window'}>{window}</p>
      <p>{CLAIM_TEXT.evidence(claim.evidence)}</p>
      {claim.decision ? (
        <div className="claim__decision">
          <p>
            <strong>{CLAIM_OUTCOME_TEXT[claim.decision.outcome]}</strong>
            {claim.decision.outcome !== 'declined' ? `: ${formatNzd(claim.decision.amountCents)}` : null}
          </p>
          {claim.decision.reason ? <p className="claim__reason">{claim.decision.reason}</p> : null}
          <p className="field__hint">
            {CLAIM_TEXT.decidedBy(claim.decision.decidedBy ?? '—', formatNzDateTime(claim.decision.decidedAt))}
          </p>
        </div>
      ) : null}
      {canWrite && DECIDABLE.has(claim.state) ? <DecideForm claim={claim} served={served} /> : null}
    </section>
  );
}

function DecideForm({ claim, served }: { claim: Claim; served: FormResult | undefined }) {
  const fetcher = useFetcher<FormResult>();
  const [refused, setRefused] = useState<FormResult | undefined>(served && !served.ok ? served : undefined);
  useEffect(() => {
    if (fetcher.state === 'submitting') setRefused(undefined);
  }, [fetcher.state]);
  useEffect(() => {
    if (fetcher.data && !fetcher.data.ok) setRefused(fetcher.data);
  }, [fetcher.data]);
  const typed = refused?.values ?? {};
  const busy = fetcher.state !== 'idle';
  const fieldError = (name: string) => refused?.fields[name];
  const general = refused && !Object.keys(refused.fields).length ? refused.message : null;
  return (
    <fetcher.Form method="post" preventScrollReset className="claim__decide" aria-label={CLAIM_TEXT.decide}>
      <input type="hidden" name="intent" value={CLAIM_DECIDE_INTENT} />
      <input type="hidden" name="seenVersion" value={claim.version} />
      {general ? (
        <p className="field__error" role="alert">
          {general}
        </p>
      ) : null}
      <SelectField
        label={CLAIM_TEXT.outcome}
        name="outcome"
        defaultValue={typed.outcome ?? ''}
        key={`outcome-${typed.outcome ?? ''}`}
        error={fieldError('outcome')}
        required
      >
        <option value="" disabled>
          {CLAIM_TEXT.chooseOutcome}
        </option>
        {CLAIM_OUTCOMES.map((outcome) => (
          <option key={outcome} value={outcome}>
            {CLAIM_OUTCOME_TEXT[outcome]}
          </option>
        ))}
      </SelectField>
      <InputField
        label={CLAIM_TEXT.amount}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={typed.amount ?? ''}
        key={`amount-${typed.amount ?? ''}`}
        hint={CLAIM_TEXT.amountHint}
        error={fieldError('amount')}
      />
      <TextAreaField
        label={CLAIM_TEXT.reason}
        name="reason"
        rows={3}
        defaultValue={typed.reason ?? ''}
        key={`reason-${typed.reason ?? ''}`}
        hint={CLAIM_TEXT.reasonHint}
        error={fieldError('reason')}
      />
      <button type="submit" className="button button--primary" disabled={busy}>
        {CLAIM_TEXT.decide}
      </button>
    </fetcher.Form>
  );
}
