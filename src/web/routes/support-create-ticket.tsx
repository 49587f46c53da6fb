import { useEffect, useId, useRef, useState } from 'react';
import { CLAIM_FORM_MAX_BYTES, CLAIM_LIMITS, CLAIM_CUSTOMER_TEXT } from '../../contracts/claims-customer.ts';
import { supportApi } from '../../contracts/api/support.ts';
import { fieldErrors } from '../../contracts/field-errors.ts';
import type { RouteHandle } from '../../contracts/web-context.ts';
import { data, Link, redirect, useNavigate, useNavigation, useSearchParams, useSubmit } from 'react-router';
import { MESSAGE_HINT_LENGTH, SUPPORT_TEXT, TICKET_REASONS } from '../../contracts/support.ts';
import { CreateTicketFormSchema, type TicketLink } from '../../contracts/support.schemas.ts';
import { MessageBox } from '../components/ui/message-box.tsx';
import { ATTACHMENT_TEXT } from '../../contracts/attachments.ts';
import {
  AttachmentPicker,
  appendFiles,
  pasteFiles,
  useAttachmentPicker,
  useFileDrop,
} from '../features/support/attachment-picker.tsx';
import { isMultipart } from '../features/support/ticket-page.ts';
import { TicketLinks } from '../features/support/ticket-links.tsx';
import { CALLABLE_TIMEOUT_MS, sendOrSay } from '../lib/callable.ts';
import { type FormResult, invalid, readForm, useFormCheck } from '../lib/form.ts';
import { postWithProgress } from '../lib/upload.ts';
import { newClientId } from '../lib/client-id.ts';
import { useHydrated, valueBeforeHydration } from '../lib/hydrated.ts';
import {
  INCIDENT_FIELDS,
  IncidentFields,
  type IncidentField,
  type IncidentValues,
} from '../features/support/incident-fields.tsx';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-create-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';

/** The form's schema, loaded when the form is first used (useFormCheck); the action imports it. */
const loadCreateTicketFormSchema = () =>
  import('../../contracts/support.schemas.ts').then((m) => m.CreateTicketFormSchema);

/** A message with its files (a claim's ten at most) goes through this page's form (without JavaScript). */
export const handle: RouteHandle = { formBytes: CLAIM_FORM_MAX_BYTES };

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'support', 'Contact us');

/**
 * An id for this form, decided on the server so the page and its hydration agree on it; and, from
 * 'Still need help?' (`?follows=`), the closed ticket the new one follows, if it is the visitor's own.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { clientId: newClientId(), follows: await followedTicket(request, context), prefill: prefillOf(request) };
}

/**
 * The app's link to report a delivery (`?reason=Incident&delivery=BGS-1042`): the reason and the
 * delivery come chosen. Anything else in the address is ignored; the form checks what is sent.
 */
function prefillOf(request: Request): { reason: string; deliveryReference: string } {
  const query = new URL(request.url).searchParams;
  const delivery = query.get('delivery') ?? '';
  return {
    reason: query.get('reason') === 'Incident' ? 'Incident' : '',
    deliveryReference: /^[A-Za-z0-9_-]{1,64}$/.test(delivery) ? delivery : '',
  };
}

/** What was typed in the incident's fields, from a form's values. */
const incidentValuesOf = (values: Record<string, unknown>): IncidentValues =>
  Object.fromEntries(INCIDENT_FIELDS.map((name) => [name, String(values[name] ?? '')])) as IncidentValues;

async function followedTicket(request: Request, context: Route.LoaderArgs['context']): Promise<TicketLink | null> {
  const id = new URL(request.url).searchParams.get('follows');
  if (!id) return null;
  const { user, services } = context.get(requestContext);
  if (!user?.emailVerified) return null;
  const read = await services.api.call(supportApi.ticket, { params: { ticketId: id } });
  return read.ok ? { id: read.data.ticket.id, ticketNo: read.data.ticket.ticketNo } : null;
}

const SOMETHING_WRONG = 'Something went wrong. Please try again.';

/** A refusal of the form: `An error occured: {why}`, what was typed, and each field's problem the endpoint named. */
const notSent = (why: string, values: Record<string, string>, status: number, fields: Record<string, string> = {}) =>
  data<FormResult>({ ok: false, message: SUPPORT_TEXT.createFailed(why), fields, values }, { status });

/**
 * The form, from the page's script and without it: the callable, in process (a form with files goes
 * on to the ticket endpoint as it arrives); the new ticket opens (303), or the form comes back with
 * why and what was typed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  if (isMultipart(request)) {
    // The form with its files streams on to the endpoint (files are never held here).
    const { result, fields } = await api.forward(supportApi.createTicket, {}, request);
    if (result.ok) return redirect(`/support/ticket/${result.data.ticketId}`, 303);
    const values = {
      reason: fields.reason ?? '',
      message: fields.message ?? '',
      clientId: fields.clientId ?? '',
      ...incidentValuesOf(fields),
    };
    return notSent(result.fromServer ? result.message : SOMETHING_WRONG, values, result.status, result.fields);
  }
  const values = await readForm(request);
  const parsed = CreateTicketFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const created = await api.call(supportApi.createTicketCall, { body: { data: parsed.data } });
  if (created.ok) return redirect(`/support/ticket/${created.data.result.ticketId}`, 303);
  return notSent(created.fromServer ? created.message : SOMETHING_WRONG, values, created.status);
}

/** The page's script gives up after 70 seconds, as the callable's client does (docs/product.md §7.2). */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const values = await readForm(request.clone());
  // A failure status: the page's data is not read again either (it could not be).
  return sendOrSay(serverAction, (why) => notSent(why, values, 503), CALLABLE_TIMEOUT_MS);
}

/** /support/create-ticket: the 'Contact us' form; the ticket opens on success. */
export default function CreateTicket({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const navigation = useNavigation();
  const reasonId = useId();
  const messageId = useId();
  // A reason chosen or words typed before the page's JavaScript ran are kept.
  const [reason, setReason] = useState(() =>
    valueBeforeHydration(reasonId, actionData?.values.reason ?? loaderData.prefill.reason),
  );
  // The incident's fields: kept as typed; shown without JavaScript, and with it for an Incident Report.
  const incidentId = useId();
  const [incident, setIncident] = useState<IncidentValues>(() => {
    const initial = actionData
      ? incidentValuesOf(actionData.values)
      : { ...incidentValuesOf({}), deliveryReference: loaderData.prefill.deliveryReference };
    return Object.fromEntries(
      INCIDENT_FIELDS.map((name) => [name, valueBeforeHydration(`${incidentId}-${name}`, initial[name])]),
    ) as IncidentValues;
  });
  const hydrated = useHydrated();
  const isIncident = reason === 'Incident';
  const [searchParams] = useSearchParams();
  // 'Start a new ticket with this message' (a refused reply) brings its words along.
  const [message, setMessage] = useState(() =>
    valueBeforeHydration(messageId, actionData?.values.message ?? searchParams.get('message') ?? ''),
  );
  // A form the server sent back shows its problems at once; then each field's as it is left.
  const [touched, setTouched] = useState<Record<string, boolean>>({
    reason: Boolean(actionData),
    message: Boolean(actionData),
    ...Object.fromEntries(INCIDENT_FIELDS.map((name) => [name, Boolean(actionData)])),
  });
  const check = useFormCheck(loadCreateTicketFormSchema, actionData);
  // Each field's problem as it is typed, once the schema is here (it comes when the form is first
  // used); until then, what the server said of the form it was sent (the page without JavaScript).
  // The incident's fields count only for an Incident Report (the server reads them only then too).
  const sentIncident = isIncident ? incident : incidentValuesOf({});
  const now = check.schema?.safeParse({ reason, message, ...sentIncident });
  const problems = now ? (now.success ? {} : fieldErrors(now.error)) : (actionData?.fields ?? {});
  const errorOf = (name: 'reason' | 'message' | 'files' | IncidentField) =>
    touched[name] ? problems[name] : check.errors[name];
  // The server's refusal of the form sent without JavaScript shows above it; the script's, in the message box.
  const [serverFailure, setServerFailure] = useState<string | null>(actionData?.message ?? null);
  const [failure, setFailure] = useState<string | null>(null);
  const first = useRef(actionData);
  useEffect(() => {
    if (actionData && actionData !== first.current && actionData.message) setFailure(actionData.message);
  }, [actionData]);
  // Without JavaScript the form carries its own id, so a resent form is stored once as well.
  const formClientId = actionData?.values.clientId || loaderData.clientId;
  // 'Still need help?': the closed ticket this one follows (a hidden field, so it works without JavaScript too).
  const follows = loaderData.follows;
  const [uploading, setUploading] = useState(false);
  const submitting = uploading || navigation.formData !== undefined;
  // Submitting the same text again after a failure reuses the id: a ticket the server did store is not stored twice.
  const attempt = useRef<{ key: string; clientId: string } | null>(null);
  const filesId = useId();
  const picker = useAttachmentPicker(
    isIncident && incident.claimKind
      ? { files: CLAIM_LIMITS.evidenceFiles, refusal: CLAIM_CUSTOMER_TEXT.tooManyFiles }
      : undefined,
  );
  const drop = useFileDrop(picker, !submitting);

  async function send(event: React.FormEvent<HTMLFormElement>) {
    setTouched(Object.fromEntries(['reason', 'message', ...INCIDENT_FIELDS].map((name) => [name, true])));
    check.onSubmit(event);
    const invalidForm = event.defaultPrevented;
    event.preventDefault();
    if (invalidForm || submitting) return;
    setServerFailure(null);
    const key = `${reason}\n${message}\n${JSON.stringify(sentIncident)}\n${picker.files.map((f) => f.key).join(',')}`;
    if (attempt.current?.key !== key) attempt.current = { key, clientId: newClientId() };
    const { clientId } = attempt.current;
    if (picker.files.length === 0) {
      // The form goes to the page's action, which calls the callable.
      void submit(
        { reason, message, clientId, ...sentIncident, ...(follows ? { follows: follows.id } : {}) },
        { method: 'post' },
      );
      return;
    }
    // With files: the form goes as multipart straight to the endpoint, with a progress bar.
    const form = new FormData();
    form.append('reason', reason);
    form.append('message', message);
    form.append('clientId', clientId);
    for (const name of INCIDENT_FIELDS) form.append(name, sentIncident[name]);
    if (follows) form.append('follows', follows.id);
    appendFiles(form, picker);
    setUploading(true);
    picker.setProgress(0);
    const sent = await postWithProgress(supportApi.createTicket, {}, form, picker.setProgress);
    picker.setProgress(null);
    if (sent.ok) {
      void navigate(`/support/ticket/${sent.data.ticketId}`);
      return;
    }
    setFailure(SUPPORT_TEXT.createFailed(sent.message));
    setUploading(false);
  }

  return (
    <section className="support-panel" aria-labelledby="contact-title">
      <p className="support-back">
        <Link to="/support/">{SUPPORT_TEXT.myTickets}</Link>
      </p>
      <h2 id="contact-title">{SUPPORT_TEXT.createTitle}</h2>
      {follows ? <TicketLinks follows={follows} href={(id) => `/support/ticket/${encodeURIComponent(id)}`} /> : null}
      {serverFailure ? (
        <div className="alert alert--error" role="alert">
          <p>{serverFailure}</p>
        </div>
      ) : null}
      <form
        className={`form form-card${drop.dragging ? ' form--drop' : ''}`}
        method="post"
        encType="multipart/form-data"
        noValidate
        ref={check.formRef}
        onSubmit={(event) => void send(event)}
        aria-busy={submitting}
        {...drop.handlers}
      >
        <input type="hidden" name="clientId" value={formClientId} />
        {follows ? <input type="hidden" name="follows" value={follows.id} /> : null}
        <p className="field__hint">
          <span className="field__required" aria-hidden="true">
            *
          </span>{' '}
          {SUPPORT_TEXT.fieldRequired}
        </p>
        <div className="field">
          <label className="field__label" htmlFor={reasonId}>
            Reason
            <span className="field__required" aria-hidden="true">
              *
            </span>
          </label>
          <select
            id={reasonId}
            name="reason"
            className="select"
            required
            value={reason}
            aria-invalid={Boolean(errorOf('reason'))}
            aria-describedby={errorOf('reason') ? `${reasonId}-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, reason: true }))}
          >
            <option value="" disabled>
              Choose a reason
            </option>
            {TICKET_REASONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          {errorOf('reason') ? (
            <p id={`${reasonId}-error`} className="field__error">
              {errorOf('reason')}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={messageId}>
            Message
            <span className="field__required" aria-hidden="true">
              *
            </span>
          </label>
          <textarea
            id={messageId}
            name="message"
            className="textarea textarea--grow"
            required
            rows={4}
            value={message}
            aria-invalid={Boolean(errorOf('message'))}
            aria-describedby={`${messageId}-hint${errorOf('message') ? ` ${messageId}-error` : ''}`}
            onChange={(e) => setMessage(e.target.value)}
            onBlur={() => setTouched((t) => ({ ...t, message: true }))}
            onPaste={pasteFiles(picker)}
          />
          <p
            id={`${messageId}-hint`}
            className={`field__hint${message.trim().length > 0 && message.trim().length < MESSAGE_HINT_LENGTH ? ' field__hint--warn' : ''}`}
          >
            {SUPPORT_TEXT.messageHint}
          </p>
          {errorOf('message') ? (
            <p id={`${messageId}-error`} className="field__error">
              {errorOf('message')}
            </p>
          ) : null}
        </div>
        <IncidentFields
          id={incidentId}
          values={incident}
          shown={!hydrated || isIncident}
          onChange={(name, value) => setIncident((before) => ({ ...before, [name]: value }))}
          onLeave={(name) => setTouched((t) => ({ ...t, [name]: true }))}
          errorOf={errorOf}
        />
        <div className="field attach">
          <span className="field__label" id={`${filesId}-label`}>
            Photos or documents (optional)
          </span>
          <AttachmentPicker picker={picker} id={filesId} disabled={submitting} />
          <p className="field__hint">{ATTACHMENT_TEXT.attachHint}</p>
          {!hydrated || isIncident ? <p className="field__hint">{CLAIM_CUSTOMER_TEXT.evidenceHint}</p> : null}
          {errorOf('files') ? <p className="field__error">{errorOf('files')}</p> : null}
        </div>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={submitting}>
            {submitting ? 'Submitting...' : 'Submit'}
          </button>
        </div>
      </form>
      <MessageBox
        open={failure !== null}
        title="Your ticket was not sent"
        message={failure}
        onClose={() => setFailure(null)}
      />
    </section>
  );
}
