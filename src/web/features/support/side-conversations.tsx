import { Form, Link, useNavigation } from 'react-router';
import { formatBytes } from '../../../contracts/attachments.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { INBOUND_TEXT } from '../../../contracts/inbound.ts';
import { SIDE_LIMITS, SIDE_STATE_LABELS, SIDE_TEXT } from '../../../contracts/side-conversations.ts';
import type { SideConversation } from '../../../contracts/side-conversations.schemas.ts';
import { Email } from '../../components/ui/email.tsx';
import { InputField, TextAreaField } from '../../components/ui/field.tsx';

/**
 * A ticket's side conversations on the console's ticket page (docs/decisions/138-side-conversations.md):
 * each with its state and messages, "Show the whole mail" for a reply that came by mail, a reply
 * box and Close; and a form to start one. Every form is a plain POST to the page's action (an
 * `intent`), so all of it works without JavaScript; with it, the page's data is read again in place.
 */
export interface SideFormResult {
  ok: false;
  message: string | null;
  fields: Record<string, string>;
  values: Record<string, string>;
  form: 'side-start' | 'side-reply' | 'side-close';
  sideId?: string;
}

/** A message of the ticket that may be quoted in a new conversation (never a note). */
export interface QuotableMessage {
  id: number;
  admin: boolean;
  messageBody: string;
  timestamp: string;
}

/** A file of the ticket's messages that may go with a new conversation's mail. */
export interface AttachableFile {
  id: string;
  name: string;
  size: number;
}

/** The files a message carried: a reply's to download, ours by name (they are the ticket's own). */
function MessageFiles({
  message: m,
  fileUrl,
}: {
  message: SideConversation['messages'][number];
  fileUrl(inboundId: number, index: number): string;
}) {
  if (m.files.length === 0) return null;
  return (
    <p className="side-message__files">
      {SIDE_TEXT.files}{' '}
      {m.files.map((file, i) => (
        <span key={`${file.index ?? i}-${file.name}`}>
          {i > 0 ? ', ' : null}
          {file.index !== undefined && m.inboundId !== null ? (
            <a href={fileUrl(m.inboundId, file.index)} download={file.name}>
              {file.name}
            </a>
          ) : (
            file.name
          )}{' '}
          ({formatBytes(file.size)})
        </span>
      ))}
    </p>
  );
}

const excerpt = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

function Conversation({
  conversation: c,
  wholeMail,
  fileUrl,
  refused,
  busy,
  readOnly,
}: {
  conversation: SideConversation;
  wholeMail(sideId: string, messageId: number): string;
  /** Where a file that came with a reply downloads from (read again from its kept mail). */
  fileUrl(inboundId: number, index: number): string;
  refused: SideFormResult | undefined;
  busy: boolean;
  readOnly: boolean;
}) {
  const titleId = `side-${c.id}-title`;
  return (
    <article className="side-conversation" aria-labelledby={titleId} data-state={c.state}>
      <h3 id={titleId} className="side-conversation__title">
        {c.subject}
      </h3>
      <p className="side-conversation__meta">
        with <Email address={c.counterpart} /> ·{' '}
        <span className={`badge${c.state === 'waiting' ? ' badge--open' : ''}`}>{SIDE_STATE_LABELS[c.state]}</span>
      </p>
      <ol className="side-conversation__messages">
        {c.messages.map((m) => (
          <li key={m.id} className={`side-message side-message--${m.direction}`}>
            <p className="side-message__meta">
              {m.direction === 'out' ? m.authorEmail ? <Email address={m.authorEmail} /> : 'Team' : c.counterpart}
              {' · '}
              <time dateTime={m.createdAt}>{formatNzDateTime(m.createdAt)}</time>
              {m.byEmail ? ` · ${INBOUND_TEXT.byEmail}` : null}
            </p>
            {m.body ? <p className="side-message__body">{m.body}</p> : null}
            <MessageFiles message={m} fileUrl={fileUrl} />
            {m.byEmail ? <Link to={wholeMail(c.id, m.id)}>{INBOUND_TEXT.showWholeMail}</Link> : null}
          </li>
        ))}
      </ol>
      {c.state === 'closed' ? (
        <p className="side-conversation__closed" role="status">
          {SIDE_TEXT.closedNote}
        </p>
      ) : readOnly ? null : (
        <div className="side-conversation__actions">
          {/* Keyed by the messages: once a reply is in, the box is new and empty (with a script
              the page is not loaded again, and a box keeps what was typed). */}
          <Form method="post" className="form" key={`reply-${c.messages.length}`}>
            <input type="hidden" name="intent" value="side-reply" />
            <input type="hidden" name="sideId" value={c.id} />
            <TextAreaField
              label={SIDE_TEXT.replyLabel(c.counterpart)}
              name="messageBody"
              required
              maxLength={SIDE_LIMITS.body}
              rows={3}
              defaultValue={refused?.values.messageBody ?? ''}
              error={refused?.fields.messageBody}
            />
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={busy}>
                {SIDE_TEXT.reply}
              </button>
            </div>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="side-close" />
            <input type="hidden" name="sideId" value={c.id} />
            <button type="submit" className="button button--ghost admin-button--small" disabled={busy}>
              {SIDE_TEXT.close}
            </button>
          </Form>
        </div>
      )}
    </article>
  );
}

export function SideConversations({
  conversations,
  quotable,
  files,
  wholeMail,
  fileUrl,
  refused,
  readOnly = false,
}: {
  conversations: SideConversation[];
  quotable: QuotableMessage[];
  /** The files of the ticket's messages, any of which the first mail may carry. */
  files: AttachableFile[];
  wholeMail(sideId: string, messageId: number): string;
  fileUrl(inboundId: number, index: number): string;
  /** What the page's action sent back for one of these forms. */
  refused: SideFormResult | undefined;
  /** The conversations to read only (an auditor's): no form to start, answer or close one. */
  readOnly?: boolean;
}) {
  const navigation = useNavigation();
  const intent = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : '';
  const busy = intent.startsWith('side-');
  const start = refused?.form === 'side-start' ? refused : undefined;
  return (
    <section className="admin-page side-conversations" aria-labelledby="side-conversations-title">
      <h2 id="side-conversations-title">{SIDE_TEXT.title}</h2>
      <p className="field__hint">{SIDE_TEXT.hint}</p>
      {refused?.message ? (
        <p className="field__error" role="alert">
          {refused.message}
        </p>
      ) : null}
      {conversations.length === 0 ? <p>{SIDE_TEXT.none}</p> : null}
      {conversations.map((c) => (
        <Conversation
          key={c.id}
          conversation={c}
          wholeMail={wholeMail}
          fileUrl={fileUrl}
          refused={refused?.sideId === c.id ? refused : undefined}
          busy={busy}
          readOnly={readOnly}
        />
      ))}
      {readOnly ? null : (
        <>
          {/* Keyed by the conversations: once one has started, the form is new and empty. */}
          <Form
            method="post"
            className="form side-conversations__start"
            aria-labelledby="side-start-title"
            key={`start-${conversations.length}`}
          >
            <h3 id="side-start-title">{SIDE_TEXT.start}</h3>
            <input type="hidden" name="intent" value="side-start" />
            <InputField
              label={SIDE_TEXT.to}
              name="to"
              type="email"
              required
              autoComplete="off"
              defaultValue={start?.values.to ?? ''}
              error={start?.fields.to}
            />
            <InputField
              label={SIDE_TEXT.subject}
              name="subject"
              required
              maxLength={SIDE_LIMITS.subject}
              defaultValue={start?.values.subject ?? ''}
              error={start?.fields.subject}
            />
            <TextAreaField
              label={SIDE_TEXT.message}
              name="messageBody"
              required
              rows={4}
              maxLength={SIDE_LIMITS.body}
              defaultValue={start?.values.messageBody ?? ''}
              error={start?.fields.messageBody}
            />
            {quotable.length > 0 ? (
              <fieldset className="form__group">
                <legend className="form__legend">{SIDE_TEXT.include}</legend>
                {quotable.slice(-SIDE_LIMITS.includedMessages).map((m) => (
                  <label key={m.id} className="side-conversations__include">
                    <input
                      type="checkbox"
                      name={`include-${m.id}`}
                      defaultChecked={start?.values[`include-${m.id}`] === 'on'}
                    />{' '}
                    {m.admin ? 'Team' : 'Customer'}, {formatNzDateTime(m.timestamp)}: {excerpt(m.messageBody)}
                  </label>
                ))}
              </fieldset>
            ) : null}
            {files.length > 0 ? (
              <fieldset
                className="form__group"
                aria-describedby={start?.fields.includeAttachmentIds ? 'side-files-error' : undefined}
              >
                <legend className="form__legend">{SIDE_TEXT.includeFiles}</legend>
                {start?.fields.includeAttachmentIds ? (
                  <p id="side-files-error" className="field__error" role="alert">
                    {start.fields.includeAttachmentIds}
                  </p>
                ) : null}
                {files.map((file) => (
                  <label key={file.id} className="side-conversations__include">
                    <input
                      type="checkbox"
                      name={`attach-${file.id}`}
                      defaultChecked={start?.values[`attach-${file.id}`] === 'on'}
                    />{' '}
                    {file.name} ({formatBytes(file.size)})
                  </label>
                ))}
              </fieldset>
            ) : null}
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={busy}>
                {SIDE_TEXT.send}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
