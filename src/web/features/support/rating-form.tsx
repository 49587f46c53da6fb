import { useId } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { CONVERSATION_TEXT, RATING_COMMENT_MAX_LENGTH } from '../../../contracts/conversation.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import type { Rating } from '../../../contracts/support.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { type FormResult, useFormCheck } from '../../lib/form.ts';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadRatingFormSchema = () => import('../../../contracts/desk.schemas.ts').then((m) => m.RatingFormSchema);

/**
 * 'How did we do?' under a closed ticket: Good or Bad and an optional comment, once per ticket and
 * changeable for 7 days. A form posted to the ticket's page (intent=rate), checked before it goes
 * with the schema its action uses; `result` is what the action said when it refused one.
 * Under it, 'Still need help?' opens the new-ticket form for a ticket that follows this one.
 */
export function RatingForm({
  rating,
  result,
  now,
  ticketId,
}: {
  rating: Rating | null;
  result?: FormResult;
  now: number;
  /** The closed ticket a new one would follow. */
  ticketId: string;
}) {
  const id = useId();
  const busy = useNavigation().state === 'submitting';
  const { errors, onSubmit, formRef } = useFormCheck(loadRatingFormSchema, result);
  const error = errors.good ?? errors.comment ?? result?.message ?? null;
  const changeable = !rating || Date.parse(rating.changeableUntil) > now;
  return (
    <section id="rating" className="rating" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{CONVERSATION_TEXT.rateTitle}</h3>
      {rating ? (
        <p role="status">
          {rating.good ? CONVERSATION_TEXT.ratedGood : CONVERSATION_TEXT.ratedBad} {CONVERSATION_TEXT.thanks}{' '}
          {changeable ? CONVERSATION_TEXT.changeableUntil(formatNzDateTime(rating.changeableUntil)) : null}
        </p>
      ) : null}
      {rating?.comment && !changeable ? <blockquote>{rating.comment}</blockquote> : null}
      {changeable ? (
        <Form method="post" preventScrollReset ref={formRef} noValidate onSubmit={onSubmit}>
          <input type="hidden" name="intent" value="rate" />
          <fieldset className="rating__choices" aria-describedby={error ? `${id}-error` : undefined}>
            <legend className="visually-hidden">{CONVERSATION_TEXT.rateTitle}</legend>
            {[true, false].map((good) => (
              <label key={String(good)} className="rating__choice">
                <input
                  type="radio"
                  name="good"
                  value={String(good)}
                  defaultChecked={(result?.values.good ?? String(rating?.good)) === String(good)}
                  required
                  aria-invalid={errors.good ? true : undefined}
                />{' '}
                {good ? CONVERSATION_TEXT.good : CONVERSATION_TEXT.bad}
              </label>
            ))}
          </fieldset>
          <label htmlFor={`${id}-comment`}>{CONVERSATION_TEXT.ratingComment}</label>
          <textarea
            id={`${id}-comment`}
            name="comment"
            className="textarea"
            rows={2}
            maxLength={RATING_COMMENT_MAX_LENGTH}
            defaultValue={result?.values.comment ?? rating?.comment ?? ''}
          />
          {error ? (
            <p id={`${id}-error`} className="field__error" role="alert">
              {error}
            </p>
          ) : null}
          <p>
            <button type="submit" className="button button--primary" disabled={busy}>
              {rating ? CONVERSATION_TEXT.changeRating : CONVERSATION_TEXT.sendRating}
            </button>
          </p>
        </Form>
      ) : null}
      <p className="rating__more">
        <Link className="button button--ghost" to={`/support/create-ticket?follows=${encodeURIComponent(ticketId)}`}>
          {SUPPORT_TEXT.stillNeedHelp}
        </Link>
      </p>
    </section>
  );
}
