import { data, Form, redirect, useNavigation } from 'react-router';
import { claimsApi } from '../../contracts/api/claims.ts';
import { ATTACHMENT_ACCEPT } from '../../contracts/attachments.ts';
import {
  CLAIM_FORM_MAX_BYTES,
  CLAIM_LIMITS,
  CLAIM_CUSTOMER_TEXT,
  claimKindLabel,
} from '../../contracts/claims-customer.ts';
import { formatNzDate, formatNzDateTime } from '../../contracts/dates.ts';
import type { RouteHandle } from '../../contracts/web-context.ts';
import { InputField, TextAreaField } from '../components/ui/field.tsx';
import { isMultipart } from '../features/support/ticket-page.ts';
import { type FormResult, readForm } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-claim';
import '../styles/support.css';

/** The answer may carry a claim's ten files (docs/decisions/153-claim-life.md). */
export const handle: RouteHandle = { formBytes: CLAIM_FORM_MAX_BYTES };

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'support', CLAIM_CUSTOMER_TEXT.travellerTitle);

/**
 * /support/claims/:claimId: the traveller of a delivery answers a claim about it (the link of the
 * mail staff sent). The support layout signs them in first; only the account at the address asked
 * sees the claim, and then only its statement in staff's words, never the sender's ticket.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { api } = context.get(requestContext).services;
  const read = await api.call(claimsApi.travellerClaim, { params: { claimId: params.claimId } });
  return {
    claim: read.ok ? read.data.claim : null,
    missing: read.ok ? null : read.status === 404 ? CLAIM_CUSTOMER_TEXT.travellerMissing : read.message,
    answered: new URL(request.url).searchParams.get('answered') === '1',
  };
}

/** The answer with its files (sent on to the API as it arrives), or without any; then this page again. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const page = `/support/claims/${encodeURIComponent(params.claimId)}`;
  const sent = isMultipart(request)
    ? await api.forward(claimsApi.travellerAnswer, { params: { claimId: params.claimId } }, request)
    : await (async () => {
        const fields = await readForm(request);
        const result = await api.call(claimsApi.travellerAnswer, {
          params: { claimId: params.claimId },
          body: { message: fields.message ?? '' },
        });
        return { result, fields };
      })();
  if (sent.result.ok) return redirect(`${page}?answered=1`, 303);
  return data<FormResult>(
    {
      ok: false,
      form: 'answer',
      message: sent.result.message,
      fields: sent.result.fields,
      values: { message: sent.fields.message ?? '' },
    },
    { status: sent.result.status || 500 },
  );
}

export default function SupportClaim({ loaderData, actionData }: Route.ComponentProps) {
  const { claim, missing, answered } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  if (!claim) {
    return (
      <main className="support-page claim-answer">
        <h1>{CLAIM_CUSTOMER_TEXT.travellerTitle}</h1>
        <p role="alert">{missing}</p>
      </main>
    );
  }
  const refused = actionData && !actionData.ok ? actionData : undefined;
  const general = refused && !refused.fields.message ? refused.message : null;
  return (
    <main className="support-page claim-answer">
      <h1>{CLAIM_CUSTOMER_TEXT.travellerTitle}</h1>
      <p>{CLAIM_CUSTOMER_TEXT.travellerLead(claim.deliveryReference)}</p>
      <dl className="claim__facts">
        <div className="claim__fact">
          <dt>{CLAIM_CUSTOMER_TEXT.kind}</dt>
          <dd>{claimKindLabel(claim.kind)}</dd>
        </div>
        <div className="claim__fact">
          <dt>{CLAIM_CUSTOMER_TEXT.delivery}</dt>
          <dd>{claim.deliveryReference}</dd>
        </div>
        {claim.deliveredOn ? (
          <div className="claim__fact">
            <dt>{CLAIM_CUSTOMER_TEXT.deliveredOn}</dt>
            <dd>{formatNzDate(`${claim.deliveredOn}T00:00:00Z`)}</dd>
          </div>
        ) : null}
      </dl>
      <blockquote className="claim__statement">{claim.statement}</blockquote>
      {answered && claim.answeredAt ? (
        <p role="status" className="notice notice--success">
          {CLAIM_CUSTOMER_TEXT.answerSent}
        </p>
      ) : claim.answeredAt ? (
        <p>{CLAIM_CUSTOMER_TEXT.answered(formatNzDateTime(claim.answeredAt))}</p>
      ) : !claim.answerable ? (
        <p>{CLAIM_CUSTOMER_TEXT.notAnswerable}</p>
      ) : (
        <Form
          method="post"
          encType="multipart/form-data"
          className="claim-answer__form"
          aria-label={CLAIM_CUSTOMER_TEXT.travellerAnswer}
        >
          {claim.dueAt ? <p>{CLAIM_CUSTOMER_TEXT.answerDue(formatNzDateTime(claim.dueAt))}</p> : null}
          {general ? (
            <p className="field__error" role="alert">
              {general}
            </p>
          ) : null}
          <TextAreaField
            label={CLAIM_CUSTOMER_TEXT.travellerAnswer}
            name="message"
            rows={6}
            maxLength={CLAIM_LIMITS.answerMax}
            defaultValue={refused?.values?.message ?? ''}
            key={`message-${refused?.values?.message ?? ''}`}
            hint={CLAIM_CUSTOMER_TEXT.travellerAnswerHint}
            error={refused?.fields.message}
            required
          />
          <InputField
            label={CLAIM_CUSTOMER_TEXT.travellerFiles}
            name="files"
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            className="input input--file"
            hint={CLAIM_CUSTOMER_TEXT.travellerFilesHint}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            {CLAIM_CUSTOMER_TEXT.sendAnswer}
          </button>
        </Form>
      )}
    </main>
  );
}
