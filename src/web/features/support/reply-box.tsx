import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { DESK_TEXT, SAVED_REPLY_TEXT } from '../../../contracts/desk.ts';
import { MESSAGE_MAX_LENGTH, type Message, SUPPORT_TEXT } from '../../../contracts/support.ts';
import { postJson } from '../../lib/api-client.ts';
import { postWithProgress } from '../../lib/upload.ts';
import {
  AttachmentPicker,
  type AttachmentPickerState,
  appendFiles,
  pasteFiles,
  useAttachmentPicker,
  useFileDrop,
} from './attachment-picker.tsx';
import { newClientId } from '../../lib/client-id.ts';
import { useHydrated, valueBeforeHydration } from '../../lib/hydrated.ts';
import { SendIcon } from '../../components/ui/icons.tsx';

type SendResult<M> = { ok: true; message: M } | { ok: false; error: string; closed?: boolean };

async function sendReply<M extends Message>(
  postUrl: string,
  messageBody: string,
  clientId: string,
  picker: AttachmentPickerState | null,
): Promise<SendResult<M>> {
  let result:
    | Awaited<ReturnType<typeof postJson<{ message?: M }>>>
    | Awaited<ReturnType<typeof postWithProgress<{ message?: M }>>>;
  if (picker && picker.files.length > 0) {
    // With files: a multipart form, and a progress bar while it goes.
    const form = new FormData();
    form.append('messageBody', messageBody);
    form.append('clientId', clientId);
    appendFiles(form, picker);
    picker.setProgress(0);
    result = await postWithProgress<{ message?: M }>(postUrl, form, picker.setProgress);
    picker.setProgress(null);
  } else {
    result = await postJson<{ message?: M }>(postUrl, { messageBody, clientId });
  }
  if (result.ok && result.data?.message) return { ok: true, message: result.data.message };
  if (result.status === 409)
    return {
      ok: false,
      error: result.ok || !result.fromServer ? SUPPORT_TEXT.replyRejected : result.message,
      closed: true,
    };
  if (result.status === 0)
    return { ok: false, error: 'Your message was not sent: check your connection and press Send again.' };
  return { ok: false, error: !result.ok && result.fromServer ? result.message : SUPPORT_TEXT.replyFailed };
}

/** A reply the page's action sent back (the form was posted without JavaScript and refused). */
export interface KeptReply {
  messageBody: string;
  clientId: string;
  error: string;
}

/**
 * The reply box of an open ticket. Enter sends, Shift+Enter starts a new line. A message that
 * could not be sent stays in the box, and a retry reuses its client id, so the server stores it once.
 * It posts to the user's reply endpoint of `ticketId`, or to `postUrl` (the admin console's).
 *
 * It is also a plain form posted to its page (whose action calls the same endpoint), for a browser
 * without JavaScript or a send before the script has loaded; `clientId` is that form's id, and
 * `kept` is the page's answer when it refused the form.
 */
export function ReplyBox<M extends Message = Message>({
  ticketId,
  postUrl,
  clientId,
  kept,
  onSent,
  onClosed,
  variant = 'reply',
  savedReplies,
}: {
  /** The console's saved replies, already filled in for this ticket: a picker under the box, and `/` in it. */
  savedReplies?: ReadonlyArray<{ id: string; title: string; text: string }>;
  ticketId: string;
  /** 'note': the console's internal-note box (posted with intent=note, drawn apart). */
  variant?: 'reply' | 'note';
  postUrl?: string;
  clientId: string;
  kept?: KeptReply;
  onSent(message: M): void;
  /** The ticket closed before the text could be sent: the page keeps showing `unsent`. */
  onClosed(unsent: string): void;
}) {
  const inputId = useId();
  const [text, setText] = useState(() => valueBeforeHydration(inputId, kept?.messageBody ?? ''));
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(kept?.error ?? null);
  // Sending the refused form's text again reuses its id, as a retry does.
  const pending = useRef<{ text: string; clientId: string } | null>(
    kept?.clientId ? { text: `${kept.messageBody.trim()}\n`, clientId: kept.clientId } : null,
  );
  const hydrated = useHydrated();
  // Replies take files (photos and PDFs); internal notes are text only.
  const picker = useAttachmentPicker();
  const withFiles = variant === 'reply';
  const drop = useFileDrop(picker, withFiles && !sending);
  const blank = text.trim() === '' && picker.files.length === 0;
  // Typing / at the start of the box lists the saved replies whose title has what follows.
  const [active, setActive] = useState(0);
  const query = text.startsWith('/') ? text.slice(1).trim().toLowerCase() : null;
  const matches =
    savedReplies && query !== null && !query.includes('\n')
      ? savedReplies.filter((reply) => reply.title.toLowerCase().includes(query)).slice(0, 8)
      : null;
  const insert = (value: string) => {
    setText(value);
    setActive(0);
    document.getElementById(inputId)?.focus();
  };

  async function send() {
    if (blank || sending) return;
    const body = text.trim();
    // The same text and files sent again reuse the id: a message the server did store is not stored twice.
    const key = `${body}\n${picker.files.map((f) => f.key).join(',')}`;
    if (pending.current?.text !== key) pending.current = { text: key, clientId: newClientId() };
    setSending(true);
    setError(null);
    const result = await sendReply<M>(
      postUrl ?? `/api/support/tickets/${ticketId}/messages`,
      body,
      pending.current.clientId,
      withFiles ? picker : null,
    );
    setSending(false);
    if (result.ok) {
      pending.current = null;
      setText('');
      picker.clear();
      onSent(result.message);
    } else {
      setError(result.error);
      if (result.closed) onClosed(text);
    }
  }

  return (
    <>
      <form
        className={`reply-box${variant === 'note' ? ' reply-box--note' : ' reply-box--files'}${drop.dragging ? ' reply-box--drop' : ''}`}
        method="post"
        encType={withFiles ? 'multipart/form-data' : undefined}
        {...drop.handlers}
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <input type="hidden" name="clientId" value={clientId} />
        {variant === 'note' ? <input type="hidden" name="intent" value="note" /> : null}
        {withFiles ? <AttachmentPicker picker={picker} id={`${inputId}-files`} disabled={sending} compact /> : null}
        <label htmlFor={inputId} className="visually-hidden">
          {variant === 'note' ? DESK_TEXT.internalNote : 'Your message'}
        </label>
        <textarea
          id={inputId}
          name="messageBody"
          className="textarea reply-box__input"
          rows={1}
          maxLength={MESSAGE_MAX_LENGTH}
          placeholder={variant === 'note' ? DESK_TEXT.notePlaceholder : 'Write a message'}
          value={text}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onPaste={withFiles ? pasteFiles(picker) : undefined}
          role={savedReplies ? 'combobox' : undefined}
          aria-autocomplete={savedReplies ? 'list' : undefined}
          aria-expanded={savedReplies ? Boolean(matches) : undefined}
          aria-controls={savedReplies ? `${inputId}-saved` : undefined}
          aria-activedescendant={matches?.[active] ? `${inputId}-saved-${active}` : undefined}
          onKeyDown={(e) => {
            if (matches && matches.length > 0 && !e.nativeEvent.isComposing) {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
                return;
              }
              if (e.key === 'Enter' || e.key === 'Tab') {
                e.preventDefault();
                insert(matches[active]?.text ?? '');
                return;
              }
            }
            if (matches && e.key === 'Escape') {
              e.preventDefault();
              setText(text.slice(1));
              return;
            }
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        {/* Without JavaScript nothing could enable Send again: the page's action refuses an empty message instead. */}
        <button
          type="submit"
          className="button button--primary reply-box__send"
          disabled={hydrated && (blank || sending)}
          aria-label={variant === 'note' ? DESK_TEXT.addNote : 'Send'}
        >
          <SendIcon />
        </button>
        {error ? (
          <p id={`${inputId}-error`} className="field__error reply-box__error" role="alert">
            {error}
          </p>
        ) : null}
        {matches ? (
          <ul id={`${inputId}-saved`} className="saved-menu" role="listbox" aria-label={SAVED_REPLY_TEXT.title}>
            {matches.length === 0 ? <li className="saved-menu__empty">{SAVED_REPLY_TEXT.noMatch}</li> : null}
            {matches.map((reply, i) => (
              <li
                key={reply.id}
                id={`${inputId}-saved-${i}`}
                role="option"
                aria-selected={i === active}
                className="saved-menu__option"
                onMouseDown={(e) => {
                  e.preventDefault();
                  insert(reply.text);
                }}
              >
                <strong>{reply.title}</strong> <span className="saved-menu__preview">{reply.text.slice(0, 80)}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </form>
      {savedReplies && savedReplies.length > 0 ? (
        <form
          method="post"
          className="saved-picker"
          onSubmit={(event) => {
            // With JavaScript the text goes straight into the box; without it the page's action fills it in.
            event.preventDefault();
            const id = new FormData(event.currentTarget).get('savedReplyId');
            const chosen = savedReplies.find((reply) => reply.id === id);
            if (chosen) insert(chosen.text);
          }}
        >
          <input type="hidden" name="intent" value="insert-saved" />
          <label>
            <span className="visually-hidden">{SAVED_REPLY_TEXT.pick}</span>
            <select name="savedReplyId" className="select" defaultValue="" required>
              <option value="" disabled>
                {SAVED_REPLY_TEXT.pick}…
              </option>
              {savedReplies.map((reply) => (
                <option key={reply.id} value={reply.id}>
                  {reply.title}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button--ghost">
            {SAVED_REPLY_TEXT.insert}
          </button>
        </form>
      ) : null}
    </>
  );
}

/**
 * What was typed into a reply the page refused once the box is gone (the ticket closed meanwhile):
 * shown as text, so it can be copied into a new ticket instead of being lost.
 */
export function UnsentReply({ text, newTicket = false }: { text: string; newTicket?: boolean }) {
  return (
    <div className="ticket__unsent">
      <p>{SUPPORT_TEXT.replyNotSent}</p>
      <blockquote className="ticket__unsent-text">{text}</blockquote>
      {newTicket ? (
        <p>
          <Link to={`/support/create-ticket?${new URLSearchParams({ message: text })}`}>
            {SUPPORT_TEXT.newTicketWithMessage}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
