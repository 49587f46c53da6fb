import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGE_MAX_LENGTH, type Message, SUPPORT_TEXT } from '../../../contracts/support.ts';
import { postJson } from '../../lib/api-client.ts';
import { newClientId } from '../../lib/client-id.ts';
import { useHydrated } from '../../lib/hydrated.ts';

type SendResult<M> = { ok: true; message: M } | { ok: false; error: string; closed?: boolean };

async function sendReply<M extends Message>(
  postUrl: string,
  messageBody: string,
  clientId: string,
): Promise<SendResult<M>> {
  const result = await postJson<{ message?: M }>(postUrl, { messageBody, clientId });
  if (result.ok && result.data?.message) return { ok: true, message: result.data.message };
  if (result.status === 409) return { ok: false, error: SUPPORT_TEXT.replyRejected, closed: true };
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
}: {
  ticketId: string;
  postUrl?: string;
  clientId: string;
  kept?: KeptReply;
  onSent(message: M): void;
  /** The ticket closed before the text could be sent: the page keeps showing `unsent`. */
  onClosed(unsent: string): void;
}) {
  const [text, setText] = useState(kept?.messageBody ?? '');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(kept?.error ?? null);
  // Sending the refused form's text again reuses its id, as a retry does.
  const pending = useRef<{ text: string; clientId: string } | null>(
    kept?.clientId ? { text: kept.messageBody.trim(), clientId: kept.clientId } : null,
  );
  const inputId = useId();
  const hydrated = useHydrated();
  const blank = text.trim() === '';

  async function send() {
    if (blank || sending) return;
    const body = text.trim();
    if (pending.current?.text !== body) pending.current = { text: body, clientId: newClientId() };
    setSending(true);
    setError(null);
    const result = await sendReply<M>(
      postUrl ?? `/api/support/tickets/${ticketId}/messages`,
      body,
      pending.current.clientId,
    );
    setSending(false);
    if (result.ok) {
      pending.current = null;
      setText('');
      onSent(result.message);
    } else {
      setError(result.error);
      if (result.closed) onClosed(text);
    }
  }

  return (
    <form
      className="reply-box"
      method="post"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <input type="hidden" name="clientId" value={clientId} />
      <label htmlFor={inputId} className="visually-hidden">
        Your message
      </label>
      <textarea
        id={inputId}
        name="messageBody"
        className="textarea reply-box__input"
        rows={1}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder="Write a message"
        value={text}
        aria-describedby={error ? `${inputId}-error` : undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
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
        aria-label="Send"
      >
        <svg
          width="20"
          height="20"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M4 12 20 4l-6 16-3-7-7-1Z" />
        </svg>
      </button>
      {error ? (
        <p id={`${inputId}-error`} className="field__error reply-box__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
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
