import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { Await, Link, useFetcher } from 'react-router';
import {
  DELIVERY_REFERENCE_MAX_LENGTH,
  DELIVERY_TEXT,
  deliveryStatusLabel,
  formatDeclaredValue,
  isWebLink,
} from '../../../contracts/delivery-card.ts';
import type { DeliveryCard, DeliveryContext } from '../../../contracts/delivery-card.schemas.ts';
import { formatNzDateTime, formatNzDay } from '../../../contracts/dates.ts';
import { InputField } from '../../components/ui/field.tsx';
import { Email } from '../../components/ui/email.tsx';
import type { FormResult } from '../../lib/form.ts';

/**
 * The delivery a ticket is about (docs/decisions/151-delivery-card.md): its reference, the form
 * that gives or corrects it, and the card of what our app says of that delivery. Everything from
 * the app is drawn as React text (never as HTML), and its links are followed only when they are
 * http(s), in a new tab.
 */

/** The form's intent on the ticket page, and its `form` in the page's answer. */
export const DELIVERY_INTENT = 'delivery-reference';

/** An instant or a day from the app, as New Zealanders read it. */
const when = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatNzDay(value) : formatNzDateTime(value));

/**
 * Gives the ticket a delivery reference, corrects it, or (empty) takes it off: a plain form posted
 * to the ticket page (no JavaScript needed); with JavaScript a fetcher, so the page stays where it is.
 */
export function DeliveryReferenceForm({
  reference,
  served,
}: {
  reference: string | null;
  /** The page's answer when the form was sent without JavaScript and refused. */
  served: FormResult | undefined;
}) {
  const fetcher = useFetcher<FormResult>();
  // The refusal shown: the page's (without JavaScript), then each refused send's. A send clears it;
  // a saved one leaves the fetcher's data as it was (the page is read again instead), so it stays clear.
  const [refused, setRefused] = useState<FormResult | undefined>(served && !served.ok ? served : undefined);
  useEffect(() => {
    if (fetcher.state === 'submitting') setRefused(undefined);
  }, [fetcher.state]);
  useEffect(() => {
    if (fetcher.data && !fetcher.data.ok) setRefused(fetcher.data);
  }, [fetcher.data]);
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post" preventScrollReset className="delivery-reference">
      <input type="hidden" name="intent" value={DELIVERY_INTENT} />
      <InputField
        label={DELIVERY_TEXT.reference}
        name="deliveryReference"
        // A refused value is shown again as it was typed; the form starts from the ticket's own.
        defaultValue={refused?.values.deliveryReference ?? reference ?? ''}
        key={`${reference ?? ''}|${refused?.values.deliveryReference ?? ''}`}
        maxLength={DELIVERY_REFERENCE_MAX_LENGTH + 16}
        autoComplete="off"
        spellCheck={false}
        hint={DELIVERY_TEXT.referenceHint}
        error={refused ? (refused.fields.deliveryReference ?? refused.message ?? undefined) : undefined}
      />
      <button type="submit" className="button button--ghost" disabled={busy}>
        {DELIVERY_TEXT.save}
      </button>
    </fetcher.Form>
  );
}

/**
 * The card, waited for without holding up the page: the ticket page's loader hands a promise, the
 * page is sent at once with the fallback, and the card follows in the same response (or, after a
 * navigation in the page, in the loader's stream). Without the page's script the fallback stays:
 * it links to the card's own page, which waits for it on the server.
 */
export function DeliveryCardPanel({ card, ownPage }: { card: Promise<DeliveryCard>; ownPage: string }) {
  return (
    <Suspense fallback={<DeliveryCardLoading ownPage={ownPage} />}>
      <Await resolve={card} errorElement={<DeliveryCardView card={{ state: 'unavailable', reference: '' }} />}>
        {(loaded: DeliveryCard) => <DeliveryCardView card={loaded} />}
      </Await>
    </Suspense>
  );
}

function DeliveryCardLoading({ ownPage }: { ownPage: string }) {
  return (
    <div className="delivery-card delivery-card--loading" data-testid="delivery-card" aria-busy="true">
      <p role="status">{DELIVERY_TEXT.loading}</p>
      <p>
        <Link to={ownPage} reloadDocument>
          {DELIVERY_TEXT.openOnItsOwn}
        </Link>
      </p>
    </div>
  );
}

/** The card in each of its states: the delivery, or why there is none to show, in plain words. */
export function DeliveryCardView({ card }: { card: DeliveryCard }) {
  if (card.state === 'found') return <DeliveryFacts delivery={card.delivery} />;
  const words =
    card.state === 'unknown'
      ? DELIVERY_TEXT.unknown(card.reference)
      : card.state === 'unavailable'
        ? DELIVERY_TEXT.unavailable
        : card.state === 'none'
          ? DELIVERY_TEXT.noCard
          : DELIVERY_TEXT.off;
  return (
    <div className="delivery-card delivery-card--empty" data-testid="delivery-card">
      <p role={card.state === 'unavailable' ? 'alert' : 'status'}>{words}</p>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function PersonLine({ person }: { person: DeliveryContext['sender'] }) {
  return (
    <>
      {person.name}
      {person.email ? (
        <>
          {' · '}
          <Email address={person.email} />
        </>
      ) : null}
    </>
  );
}

function DeliveryFacts({ delivery }: { delivery: DeliveryContext }) {
  const { dates } = delivery;
  const photos = delivery.photos.filter((photo) => isWebLink(photo.url));
  return (
    <div className="delivery-card" data-testid="delivery-card">
      <dl className="desk-facts delivery-card__facts">
        <Fact label={DELIVERY_TEXT.status}>
          <span className="badge">{deliveryStatusLabel(delivery.status)}</span>
        </Fact>
        <Fact label={DELIVERY_TEXT.route}>{DELIVERY_TEXT.routeText(delivery.route.from, delivery.route.to)}</Fact>
        <Fact label={DELIVERY_TEXT.booked}>{when(dates.booked)}</Fact>
        {dates.pickedUp ? <Fact label={DELIVERY_TEXT.pickedUp}>{when(dates.pickedUp)}</Fact> : null}
        {dates.delivered ? (
          <Fact label={DELIVERY_TEXT.delivered}>{when(dates.delivered)}</Fact>
        ) : dates.expected ? (
          <Fact label={DELIVERY_TEXT.expected}>{when(dates.expected)}</Fact>
        ) : null}
        <Fact label={DELIVERY_TEXT.sender}>
          <PersonLine person={delivery.sender} />
        </Fact>
        <Fact label={DELIVERY_TEXT.traveller}>
          <PersonLine person={delivery.traveller} />
        </Fact>
        <Fact label={DELIVERY_TEXT.item}>{delivery.item.description}</Fact>
        <Fact label={DELIVERY_TEXT.declaredValue}>{formatDeclaredValue(delivery.item.declaredValue)}</Fact>
      </dl>
      {delivery.history.length > 0 ? (
        <>
          <h3 className="delivery-card__heading">{DELIVERY_TEXT.history}</h3>
          <ol className="delivery-card__history">
            {delivery.history.map((step, index) => (
              <li key={`${step.at}-${index}`}>
                <time dateTime={step.at}>{formatNzDateTime(step.at)}</time> · {deliveryStatusLabel(step.status)}
                {step.note ? ` · ${step.note}` : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {photos.length > 0 ? (
        <>
          <h3 className="delivery-card__heading">{DELIVERY_TEXT.photos}</h3>
          <ul className="delivery-card__photos">
            {photos.map((photo, index) => (
              <li key={`${photo.url}-${index}`}>
                <a href={photo.url} target="_blank" rel="noopener noreferrer">
                  {photo.caption || DELIVERY_TEXT.photo(index + 1)}{' '}
                  <span className="visually-hidden">{DELIVERY_TEXT.opensInNewTab}</span>
                </a>
                {photo.takenAt ? <> · {formatNzDateTime(photo.takenAt)}</> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
