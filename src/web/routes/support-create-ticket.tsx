import { useId, useRef, useState } from 'react';
import { data, Link, redirect, useNavigate, useSearchParams } from 'react-router';
import { CreateTicketSchema, MESSAGE_HINT_LENGTH, SUPPORT_TEXT, TICKET_REASONS } from '../../contracts/support.ts';
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
import { callFunction, CallableError } from '../lib/callable.ts';
import { postWithProgress } from '../lib/upload.ts';
import { newClientId } from '../lib/client-id.ts';
import { focusFirstInvalid } from '../lib/focus-invalid.ts';
import { valueBeforeHydration } from '../lib/hydrated.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-create-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'support', 'Contact us');

/** An id for this form, decided on the server so the page and its hydration agree on it. */
export function loader() {
  return { clientId: newClientId() };
}

interface CreateResult {
  reason: string;
  message: string;
  clientId: string;
  /** The server's refusal, shown above the form (the message box needs JavaScript). */
  failure: string | null;
}

/**
 * The form sent without JavaScript (or before it loaded): the same callable the JavaScript version
 * calls, in process; the new ticket opens (303), or the form comes back with what was typed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  if (isMultipart(request)) {
    // The form with its files streams on to the endpoint (files are never held here).
    const answer = await services.forwardMultipart('/api/support/tickets', request);
    const created = (answer.body as { ticketId?: string } | null)?.ticketId;
    if (answer.status === 201 && created) return redirect(`/support/ticket/${created}`, 303);
    const fields = answer.fields;
    const values = { reason: fields.reason ?? '', message: fields.message ?? '', clientId: fields.clientId ?? '' };
    const problem = (answer.body as { error?: { message?: string } } | null)?.error?.message;
    return data<CreateResult>(
      { ...values, failure: SUPPORT_TEXT.createFailed(problem ?? 'Something went wrong. Please try again.') },
      { status: answer.status },
    );
  }
  const form = await request.formData();
  const values = {
    reason: String(form.get('reason') ?? ''),
    message: String(form.get('message') ?? ''),
    clientId: String(form.get('clientId') ?? ''),
  };
  const keep = (failure: string | null, status: number) => data<CreateResult>({ ...values, failure }, { status });
  const parsed = CreateTicketSchema.safeParse({
    reason: values.reason,
    message: values.message,
    ...(values.clientId ? { clientId: values.clientId } : {}),
  });
  if (!parsed.success) return keep(null, 400);
  const answer = await services.callApi('POST', '/api/functions/createSupportTicket', { data: parsed.data });
  const ticketId = (answer.body as { result?: { ticketId?: string } } | null)?.result?.ticketId;
  if (answer.status === 200 && ticketId) return redirect(`/support/ticket/${ticketId}`, 303);
  const message =
    (answer.body as { error?: { message?: string } } | null)?.error?.message ??
    'Something went wrong. Please try again.';
  return keep(SUPPORT_TEXT.createFailed(message), answer.status);
}

/** /support/create-ticket: the 'Contact us' form; the ticket opens on success. */
export default function CreateTicket({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const reasonId = useId();
  const messageId = useId();
  // A reason chosen or words typed before the page's JavaScript ran are kept.
  const [reason, setReason] = useState(() => valueBeforeHydration(reasonId, actionData?.reason ?? ''));
  const [searchParams] = useSearchParams();
  // 'Start a new ticket with this message' (a refused reply) brings its words along.
  const [message, setMessage] = useState(() =>
    valueBeforeHydration(messageId, actionData?.message ?? searchParams.get('message') ?? ''),
  );
  // A form the server sent back shows its problems at once.
  const [touched, setTouched] = useState({ reason: Boolean(actionData), message: Boolean(actionData) });
  const [serverFailure, setServerFailure] = useState<string | null>(actionData?.failure ?? null);
  // Without JavaScript the form carries its own id, so a resent form is stored once as well.
  const formClientId = actionData?.clientId || loaderData.clientId;
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Submitting the same text again after a failure reuses the id: a ticket the server did store is not stored twice.
  const attempt = useRef<{ key: string; clientId: string } | null>(null);
  const filesId = useId();
  const picker = useAttachmentPicker();
  const drop = useFileDrop(picker, !submitting);

  const reasonMissing = reason === '';
  const messageMissing = message.trim() === '';

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ reason: true, message: true });
    if (reasonMissing || messageMissing) focusFirstInvalid(event.currentTarget);
    if (reasonMissing || messageMissing || submitting) return;
    setServerFailure(null);
    setSubmitting(true);
    try {
      const key = `${reason}\n${message}\n${picker.files.map((f) => f.key).join(',')}`;
      if (attempt.current?.key !== key) attempt.current = { key, clientId: newClientId() };
      const { clientId } = attempt.current;
      if (picker.files.length > 0) {
        // With files: the form goes as multipart, with a progress bar.
        const form = new FormData();
        form.append('reason', reason);
        form.append('message', message);
        form.append('clientId', clientId);
        appendFiles(form, picker);
        picker.setProgress(0);
        const sent = await postWithProgress<{ ticketId: string }>('/api/support/tickets', form, picker.setProgress);
        picker.setProgress(null);
        if (!sent.ok) throw new CallableError('INTERNAL', sent.message);
        navigate(`/support/ticket/${sent.data.ticketId}`);
        return;
      }
      const result = await callFunction<{ ticketId: string; ticketNo: number }>('createSupportTicket', {
        reason,
        message,
        clientId,
      });
      navigate(`/support/ticket/${result.ticketId}`);
    } catch (error) {
      setFailure(SUPPORT_TEXT.createFailed(error instanceof CallableError ? error.message : String(error)));
      setSubmitting(false);
    }
  }

  return (
    <section className="support-panel" aria-labelledby="contact-title">
      <p className="support-back">
        <Link to="/support/">{SUPPORT_TEXT.myTickets}</Link>
      </p>
      <h2 id="contact-title">{SUPPORT_TEXT.createTitle}</h2>
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
        onSubmit={submit}
        aria-busy={submitting}
        {...drop.handlers}
      >
        <input type="hidden" name="clientId" value={formClientId} />
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
            aria-invalid={touched.reason && reasonMissing}
            aria-describedby={touched.reason && reasonMissing ? `${reasonId}-error` : undefined}
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
          {touched.reason && reasonMissing ? (
            <p id={`${reasonId}-error`} className="field__error">
              {SUPPORT_TEXT.fieldRequired}
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
            aria-invalid={touched.message && messageMissing}
            aria-describedby={`${messageId}-hint${touched.message && messageMissing ? ` ${messageId}-error` : ''}`}
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
          {touched.message && messageMissing ? (
            <p id={`${messageId}-error`} className="field__error">
              {SUPPORT_TEXT.fieldRequired}
            </p>
          ) : null}
        </div>
        <div className="field attach">
          <span className="field__label" id={`${filesId}-label`}>
            Photos or documents (optional)
          </span>
          <AttachmentPicker picker={picker} id={filesId} disabled={submitting} />
          <p className="field__hint">{ATTACHMENT_TEXT.attachHint}</p>
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
