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

/** The ticket page's claim forms (the page's action reads each by its intent; claim-action.ts). */
export const CLAIM_INTENTS = {
  decide: 'claim-decide',
  waitForSender: 'claim-wait-for-sender',
  askTraveller: 'claim-traveller',
  carrier: 'claim-carrier',
} as const;
export type ClaimIntent = (typeof CLAIM_INTENTS)[keyof typeof CLAIM_INTENTS];
export const isClaimIntent = (intent: string | undefined): intent is ClaimIntent =>
  Object.values(CLAIM_INTENTS).includes(intent as ClaimIntent);

/** States the traveller may be asked in, and the claim set to wait for the sender. */
const ASKABLE: ReadonlySet<Claim['state']> = new Set(['submitted', 'information-requested', 'with-traveller']);
const WAITABLE: ReadonlySet<Claim['state']> = new Set(['submitted', 'with-traveller']);

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
  carriers,
  canWrite,
  served,
}: {
  claim: Claim;
  carriers: readonly { id: string; name: string }[];
  canWrite: boolean;
  /** The page's answer when one of the claim's forms was sent without JavaScript and refused. */
  served: FormResult | undefined;
}) {
  const servedFor = (intent: ClaimIntent) => (served?.form === intent ? served : undefined);
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
      {claim.state === 'information-requested' ? <p>{CLAIM_TEXT.waitingForSender}</p> : null}
      {claim.traveller ? (
        <div className="claim__traveller">
          <p>
            {CLAIM_TEXT.travellerAskedOn(
              claim.traveller.name ? `${claim.traveller.name} (${claim.traveller.email})` : claim.traveller.email,
              formatNzDateTime(claim.traveller.askedAt),
            )}
          </p>
          {claim.traveller.answeredAt ? (
            <p>
              <a href={claim.traveller.messageId ? `#message-${claim.traveller.messageId}` : '#thread'}>
                {CLAIM_TEXT.travellerAnsweredOn(formatNzDateTime(claim.traveller.answeredAt))}
              </a>
            </p>
          ) : null}
        </div>
      ) : null}
      {claim.decisions.length > 1 ? (
        <div className="claim__decision">
          <h3>{CLAIM_TEXT.decisions}</h3>
          <ol>
            {claim.decisions.map((d) => (
              <li key={d.decidedAt}>
                {CLAIM_OUTCOME_TEXT[d.outcome]}
                {d.outcome !== 'declined' ? `: ${formatNzd(d.amountCents)}` : null} —{' '}
                {CLAIM_TEXT.decidedBy(d.decidedBy ?? '—', formatNzDateTime(d.decidedAt))}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {claim.appeal ? (
        <div className="claim__appeal">
          <p>
            <strong>{CLAIM_STATE_TEXT.appealed}</strong> {formatNzDateTime(claim.appeal.at)}
          </p>
          <p className="claim__reason">{claim.appeal.reason}</p>
          {claim.state === 'appealed' ? <p className="field__hint">{CLAIM_TEXT.appealByOther}</p> : null}
        </div>
      ) : null}
      {claim.carrier ? <CarrierLaw carrier={claim.carrier} day={day} /> : null}
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
      {canWrite && WAITABLE.has(claim.state) ? (
        <WaitForSenderForm claim={claim} served={servedFor(CLAIM_INTENTS.waitForSender)} />
      ) : null}
      {canWrite && ASKABLE.has(claim.state) ? (
        <AskTravellerForm claim={claim} served={servedFor(CLAIM_INTENTS.askTraveller)} />
      ) : null}
      {canWrite && DECIDABLE.has(claim.state) ? (
        <DecideForm claim={claim} served={servedFor(CLAIM_INTENTS.decide)} />
      ) : null}
      {canWrite && claim.state !== 'closed' && (carriers.length > 0 || claim.carrier) ? (
        <CarrierForm claim={claim} carriers={carriers} served={servedFor(CLAIM_INTENTS.carrier)} />
      ) : null}
    </section>
  );
}

/** The carriage law's clocks and limit for a leg a partner company carried (docs/carriage-law.md). */
function CarrierLaw({ carrier, day }: { carrier: NonNullable<Claim['carrier']>; day: (date: string) => string }) {
  return (
    <div className="claim__carrier">
      <p>
        <strong>{CLAIM_TEXT.carrier}:</strong> {carrier.companyName}
      </p>
      <ul>
        <li>
          {carrier.noticeSentOn
            ? `${CLAIM_TEXT.noticeSentOn} ${day(carrier.noticeSentOn)}.`
            : carrier.noticeBy
              ? CLAIM_TEXT.noticeBy(day(carrier.noticeBy))
              : CLAIM_TEXT.noDeliveryDay}
        </li>
        {carrier.actionBy ? <li>{CLAIM_TEXT.actionBy(day(carrier.actionBy))}</li> : null}
        <li>{CLAIM_TEXT.limitNote}</li>
      </ul>
      <p className="field__hint">{CLAIM_TEXT.lawNote}</p>
    </div>
  );
}

/**
 * One claim form's fetcher and what it was refused with: the page's answer without JavaScript
 * (`served`), else the fetcher's; cleared when the form is sent again.
 */
function useClaimForm(served: FormResult | undefined) {
  const fetcher = useFetcher<FormResult>();
  const [refused, setRefused] = useState<FormResult | undefined>(served && !served.ok ? served : undefined);
  useEffect(() => {
    if (fetcher.state === 'submitting') setRefused(undefined);
  }, [fetcher.state]);
  useEffect(() => {
    if (fetcher.data && !fetcher.data.ok) setRefused(fetcher.data);
  }, [fetcher.data]);
  return {
    fetcher,
    typed: refused?.values ?? {},
    busy: fetcher.state !== 'idle',
    fieldError: (name: string) => refused?.fields[name],
    general: refused && !Object.keys(refused.fields).length ? refused.message : null,
  };
}

function FormHead({ intent, claim, general }: { intent: ClaimIntent; claim: Claim; general: string | null }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="seenVersion" value={claim.version} />
      {general ? (
        <p className="field__error" role="alert">
          {general}
        </p>
      ) : null}
    </>
  );
}

function WaitForSenderForm({ claim, served }: { claim: Claim; served: FormResult | undefined }) {
  const { fetcher, busy, general } = useClaimForm(served);
  return (
    <fetcher.Form method="post" preventScrollReset className="claim__wait" aria-label={CLAIM_TEXT.waitForSender}>
      <FormHead intent={CLAIM_INTENTS.waitForSender} claim={claim} general={general} />
      <p className="field__hint">{CLAIM_TEXT.waitForSenderHint}</p>
      <button type="submit" className="button" disabled={busy}>
        {CLAIM_TEXT.waitForSender}
      </button>
    </fetcher.Form>
  );
}

function AskTravellerForm({ claim, served }: { claim: Claim; served: FormResult | undefined }) {
  const { fetcher, typed, busy, fieldError, general } = useClaimForm(served);
  return (
    <details className="claim__ask" open={Boolean(served && !served.ok)}>
      <summary>{CLAIM_TEXT.askTraveller}</summary>
      <fetcher.Form method="post" preventScrollReset aria-label={CLAIM_TEXT.askTraveller}>
        <FormHead intent={CLAIM_INTENTS.askTraveller} claim={claim} general={general} />
        <InputField
          label={CLAIM_TEXT.travellerEmail}
          name="email"
          type="email"
          autoComplete="off"
          defaultValue={typed.email ?? claim.traveller?.email ?? ''}
          key={`email-${typed.email ?? ''}`}
          error={fieldError('email')}
          required
        />
        <InputField
          label={CLAIM_TEXT.travellerName}
          name="name"
          autoComplete="off"
          defaultValue={typed.name ?? claim.traveller?.name ?? ''}
          key={`name-${typed.name ?? ''}`}
          error={fieldError('name')}
        />
        <TextAreaField
          label={CLAIM_TEXT.travellerStatement}
          name="statement"
          rows={4}
          defaultValue={typed.statement ?? claim.traveller?.statement ?? ''}
          key={`statement-${typed.statement ?? ''}`}
          hint={CLAIM_TEXT.travellerStatementHint}
          error={fieldError('statement')}
          required
        />
        <button type="submit" className="button" disabled={busy}>
          {CLAIM_TEXT.askTraveller}
        </button>
      </fetcher.Form>
    </details>
  );
}

function CarrierForm({
  claim,
  carriers,
  served,
}: {
  claim: Claim;
  carriers: readonly { id: string; name: string }[];
  served: FormResult | undefined;
}) {
  const { fetcher, typed, busy, fieldError, general } = useClaimForm(served);
  const chosen = typed.companyId ?? claim.carrier?.companyId ?? '';
  return (
    <details className="claim__carrier-form" open={Boolean(served && !served.ok)}>
      <summary>{CLAIM_TEXT.carrier}</summary>
      <fetcher.Form method="post" preventScrollReset aria-label={CLAIM_TEXT.carrier}>
        <FormHead intent={CLAIM_INTENTS.carrier} claim={claim} general={general} />
        <p className="field__hint">{CLAIM_TEXT.carrierHint}</p>
        <SelectField
          label={CLAIM_TEXT.carrier}
          name="companyId"
          defaultValue={chosen}
          key={`company-${chosen}`}
          error={fieldError('companyId')}
        >
          <option value="">{CLAIM_TEXT.noCarrier}</option>
          {carriers.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <InputField
          label={CLAIM_TEXT.noticeSentOn}
          name="noticeSentOn"
          type="date"
          defaultValue={typed.noticeSentOn ?? claim.carrier?.noticeSentOn ?? ''}
          key={`notice-${typed.noticeSentOn ?? ''}`}
          hint={CLAIM_TEXT.noticeSentOnHint}
          error={fieldError('noticeSentOn')}
        />
        <button type="submit" className="button" disabled={busy}>
          {CLAIM_TEXT.saveCarrier}
        </button>
      </fetcher.Form>
    </details>
  );
}

function DecideForm({ claim, served }: { claim: Claim; served: FormResult | undefined }) {
  const { fetcher, typed, busy, fieldError, general } = useClaimForm(served);
  return (
    <fetcher.Form method="post" preventScrollReset className="claim__decide" aria-label={CLAIM_TEXT.decide}>
      <FormHead intent={CLAIM_INTENTS.decide} claim={claim} general={general} />
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
