import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Form, Link, useFetcher, useRouteLoaderData } from 'react-router';
import { CONVERSATION_TEXT, SAVED_REPLY_PICKER_TEXT } from '../../../contracts/conversation.ts';
import type { EndpointDeclaration } from '../../../contracts/endpoint.ts';
import { MESSAGE_MAX_LENGTH, SUPPORT_TEXT } from '../../../contracts/support.ts';
import type { Message } from '../../../contracts/support.schemas.ts';
import { postWithProgress } from '../../lib/upload.ts';
import { AttachmentPicker, appendFiles, pasteFiles, useAttachmentPicker, useFileDrop } from './attachment-picker.tsx';
import { newClientId } from '../../lib/client-id.ts';
import { useHydrated, valueBeforeHydration } from '../../lib/hydrated.ts';
import { clearDraft, readDraft, ticketDraftKey, writeDraft } from '../../lib/drafts.ts';
import type { RootData } from '../../lib/page-meta.ts';
import { SendIcon } from '../../components/ui/icons.tsx';
import { IN_PLACE, REPLY_UNREACHABLE, type ReplyResult } from './ticket-page.ts';

/**
 * The console's check against stale writes (docs/decisions/140-stale-writes-stopped.md): the
 * ticket's version as the page knows it now, what changed since a version (in words), and the page
 * to go back to when the words are discarded.
 */
export interface ReplyVersioning {
  current: number;
  /** The messages since a version, in words; `mine`: the viewer's own (they stop nothing). */
  changesSince(version: number): Array<{ key: string; text: string; mine: boolean }>;
  /** Where the ticket stands now, in words (the notice's last line). */
  now: string;
  page: string;
}

/** A saved reply as the box offers it: filled in for the ticket, with its first question's place. */
interface SavedReplyChoice {
  id: string;
  title: string;
  text: string;
  question: { start: number; end: number } | null;
}

/** Where a reply with files goes, with a progress bar: its endpoint and the ticket. */
export interface ReplyUpload {
  declaration: EndpointDeclaration;
  params: { ticketId: string };
}

/**
 * The reply box of an open ticket. Enter sends, Shift+Enter starts a new line. A message that
 * could not be sent stays in the box, and a retry reuses its client id, so the server stores it once.
 *
 * It is a form posted to its page, whose action sends it on to the endpoint: by the page's script
 * through a fetcher (so the thread stays as it is and the new message shows at once), and by the
 * browser itself without JavaScript or before the script has loaded (`clientId` is that form's id, and `kept` is the
 * page's answer when it refused the form). Files go straight to `upload`'s endpoint with a progress
 * bar; without JavaScript they go with the form.
 *
 * What is typed is kept in the browser as the ticket's draft (lib/drafts.ts) until the server has
 * taken the message: a reload, or the ticket closed and reopened, brings it back into the box.
 */
export function ReplyBox<M extends Message = Message>({
  upload,
  clientId,
  kept,
  onSent,
  onClosed,
  variant = 'reply',
  savedReplies,
  ticketId,
  versioning,
}: {
  /** The console's boxes: each send names the version its words were written against. */
  versioning?: ReplyVersioning;
  /** The ticket answered: its draft is kept under it (for the signed-in person and this box). */
  ticketId?: string;
  /**
   * The console's saved replies, already filled in for this ticket: a picker under the box, and `/`
   * in it. `question`: where the text's first question ({{ask:…}}) is (contracts/macros.ts
   * firstQuestion), selected once it is inserted.
   */
  savedReplies?: ReadonlyArray<SavedReplyChoice>;
  /** 'note': the console's internal-note box (posted with intent=note, drawn apart; text only). */
  variant?: 'reply' | 'note';
  upload?: ReplyUpload;
  clientId: string;
  kept?: ReplyResult | undefined;
  onSent(message: M): void;
  /** The ticket closed before the text could be sent: the page keeps showing `unsent`. */
  onClosed(unsent: string): void;
}) {
  const inputId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<ReplyResult<M>>();
  const keptText = kept?.values.messageBody ?? '';
  const [text, setText] = useState(() => valueBeforeHydration(inputId, keptText));
  const user = useRouteLoaderData<RootData>('root')?.user?.email;
  const draftKey = ticketId ? ticketDraftKey(user, ticketId, variant) : null;
  // Every change of the text is the draft too.
  const update = (value: string) => {
    setText(value);
    writeDraft(draftKey, value);
  };
  const [uploading, setUploading] = useState(false);
  // Stopped as stale: the version it was written against (what changed is listed since then).
  const [staleSince, setStaleSince] = useState<number | null>(kept?.stale?.seenVersion ?? null);
  const [error, setError] = useState<string | null>(kept?.stale ? null : (kept?.message ?? null));
  // While the box is empty, it has seen the ticket as it is now; once words are in it, they were
  // written against that version, and a send names it.
  const current = versioning?.current;
  const [seen, setSeen] = useState(current);
  const empty = text.trim() === '';
  useEffect(() => {
    if (empty && staleSince === null) setSeen(current);
  }, [empty, current, staleSince]);
  // What a send names: after a stop (Send anyway, or Send after an edit), the ticket as it is now.
  // Otherwise the version the words were begun at when someone else has written since (the server
  // stops it, and the box lists what they wrote); when only the viewer has (a note, a close and a
  // reopen of their own), the ticket as it is now: their own changes stop nothing. A change the
  // page has not heard of yet still differs from the server's version, and is stopped there.
  const foreignSince =
    seen !== undefined && versioning !== undefined && versioning.changesSince(seen).some((change) => !change.mine);
  const against = staleSince !== null || !foreignSince ? current : seen;
  const sentAgainst = useRef<number | undefined>(undefined);
  // Sending the refused form's text again reuses its id, as a retry does.
  const pending = useRef<{ text: string; clientId: string } | null>(
    kept?.values.clientId ? { text: `${keptText.trim()}\n`, clientId: kept.values.clientId } : null,
  );
  // The text as it was sent: what a refusal keeps.
  const sentText = useRef('');
  // The text in the box now, for an answer that comes after more was typed.
  const textNow = useRef(text);
  textNow.current = text;
  // Enter pressed while a message was on its way: what was typed since goes once that one is answered.
  const enterWhileSending = useRef(false);
  const [sendNext, setSendNext] = useState(0);
  useEffect(() => {
    if (sendNext > 0) formRef.current?.requestSubmit();
  }, [sendNext]);
  const hydrated = useHydrated();
  // Replies take files (photos and PDFs); internal notes are text only.
  const picker = useAttachmentPicker();
  // Once the page runs (never in the server's HTML, which has no drafts), the box takes the stored
  // draft, unless words are in it already (typed before the script ran, or sent back by the page):
  // those become the draft. Another ticket in the same box (a link between tickets) brings its own
  // draft, and none of the other ticket's files or errors.
  const draftOf = useRef<string | null>(null);
  useEffect(() => {
    if (!draftKey || draftOf.current === draftKey) return;
    const first = draftOf.current === null;
    draftOf.current = draftKey;
    if (first && text.trim()) writeDraft(draftKey, text);
    else setText(readDraft(draftKey));
    if (!first) {
      pending.current = null;
      setError(null);
      picker.clear();
    }
    // Only a new key reads or writes here; the text is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draftKey]);
  const withFiles = variant === 'reply';
  const sending = uploading || fetcher.state !== 'idle';
  const drop = useFileDrop(picker, withFiles && !sending);
  const blank = text.trim() === '' && picker.files.length === 0;
  // Typing / at the start of the box lists the saved replies whose title has what follows.
  const [active, setActive] = useState(0);
  const query = text.startsWith('/') ? text.slice(1).trim().toLowerCase() : null;
  const matches =
    savedReplies && query !== null && !query.includes('\n')
      ? savedReplies.filter((reply) => reply.title.toLowerCase().includes(query)).slice(0, 8)
      : null;
  // The saved reply's first question ({{ask:…}}) is selected: what the agent types replaces it.
  // It is selected as the inserted text is committed, before the next key is handled (a frame
  // later, a fast typist's first letter landed after the question).
  const selectNext = useRef<{ start: number; end: number } | null>(null);
  useLayoutEffect(() => {
    const range = selectNext.current;
    if (!range) return;
    selectNext.current = null;
    const box = document.getElementById(inputId);
    if (box instanceof HTMLTextAreaElement) box.setSelectionRange(range.start, range.end);
  }, [text, inputId]);
  const insert = (reply: Pick<SavedReplyChoice, 'text' | 'question'>) => {
    selectNext.current = reply.question;
    update(reply.text);
    setActive(0);
    document.getElementById(inputId)?.focus();
  };

  function finish(
    result:
      { ok: true; message: M } | { ok: false; error: string; closed?: boolean | undefined; stale?: number | undefined },
  ) {
    const queued = enterWhileSending.current;
    enterWhileSending.current = false;
    if (result.ok) {
      pending.current = null;
      setStaleSince(null);
      // The server has the message: it leaves the box, and its draft is done with. Words typed
      // while it was on its way stay (they are the draft now), and go next if Enter was pressed.
      const typedSince = textNow.current !== sentText.current;
      if (!typedSince) {
        setText('');
        clearDraft(draftKey);
      }
      picker.clear();
      onSent(result.message);
      if (typedSince && queued) setSendNext((n) => n + 1);
      return;
    }
    if (result.stale !== undefined) {
      // Nothing was sent: the words stay, and the box lists what changed since they were begun.
      setStaleSince(result.stale);
      setError(null);
      return;
    }
    setError(result.error);
    if (result.closed) onClosed(sentText.current);
  }

  /** Discard: the words and their draft go; the box has seen the ticket as it is now. */
  function discard() {
    update('');
    clearDraft(draftKey);
    pending.current = null;
    setStaleSince(null);
    setSeen(current);
    document.getElementById(inputId)?.focus();
  }

  // The action's answer to the fetcher's send.
  const answered = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || answered.current === result) return;
    answered.current = result;
    if (result.ok && result.sent) finish({ ok: true, message: result.sent });
    else
      finish({
        ok: false,
        error: result.message ?? SUPPORT_TEXT.replyFailed,
        closed: result.closed,
        stale: result.stale?.seenVersion,
      });
    // finish reads the latest props; only a new answer runs it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  async function send(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blank) return;
    if (sending) {
      enterWhileSending.current = true;
      return;
    }
    const body = text.trim();
    sentText.current = text;
    // The same text and files sent again reuse the id: a message the server did store is not stored twice.
    const key = `${body}\n${picker.files.map((f) => f.key).join(',')}`;
    if (pending.current?.text !== key) pending.current = { text: key, clientId: newClientId() };
    const id = pending.current.clientId;
    setError(null);
    sentAgainst.current = against;
    const version: Record<string, string> = against !== undefined ? { seenVersion: String(against) } : {};
    if (!withFiles || picker.files.length === 0 || !upload) {
      void fetcher.submit(
        {
          messageBody: body,
          clientId: id,
          [IN_PLACE]: '1',
          ...version,
          ...(variant === 'note' ? { intent: 'note' } : {}),
        },
        { method: 'post' },
      );
      return;
    }
    // With files: a multipart form, and a progress bar while it goes.
    const form = new FormData();
    form.append('messageBody', body);
    form.append('clientId', id);
    if (against !== undefined) form.append('seenVersion', String(against));
    appendFiles(form, picker);
    setUploading(true);
    picker.setProgress(0);
    const result = await postWithProgress(upload.declaration, { params: upload.params }, form, picker.setProgress);
    picker.setProgress(null);
    setUploading(false);
    const message = result.ok ? (result.data as { message?: M } | null)?.message : undefined;
    if (message) finish({ ok: true, message });
    else if (result.status === 409)
      finish({
        ok: false,
        error: result.ok || !result.fromServer ? SUPPORT_TEXT.replyRejected : result.message,
        closed: true,
      });
    else if (result.status === 412 && sentAgainst.current !== undefined)
      finish({ ok: false, error: CONVERSATION_TEXT.stale, stale: sentAgainst.current });
    else if (result.status === 0) finish({ ok: false, error: REPLY_UNREACHABLE });
    else
      finish({
        ok: false,
        // The text's own refusal (a saved reply's question left in it) over the form's.
        error:
          !result.ok && result.fromServer ? (result.fields.messageBody ?? result.message) : SUPPORT_TEXT.replyFailed,
      });
  }

  const formId = `${inputId}-form`;
  return (
    <>
      {staleSince !== null && versioning ? (
        // Outside the form (above the box, which sticks to the bottom), its Send anyway still the
        // form's own submit button (the form attribute), so it works without JavaScript too.
        <div className="reply-box__stale" role="alert">
          <p>{CONVERSATION_TEXT.stale}</p>
          <ul className="reply-box__changes">
            {versioning.changesSince(staleSince).map((change) => (
              <li key={change.key}>{change.text}</li>
            ))}
            <li>{versioning.now}</li>
          </ul>
          <div className="reply-box__stale-actions">
            <button type="submit" form={formId} className="button button--primary" disabled={sending}>
              {CONVERSATION_TEXT.sendAnyway}
            </button>
            {hydrated ? (
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  setStaleSince(null);
                  setSeen(current);
                  document.getElementById(inputId)?.focus();
                }}
              >
                {CONVERSATION_TEXT.editReply}
              </button>
            ) : (
              <a className="button button--ghost" href={`#${inputId}`}>
                {CONVERSATION_TEXT.editReply}
              </a>
            )}
            {hydrated ? (
              <button type="button" className="button button--ghost" onClick={discard}>
                {CONVERSATION_TEXT.discardReply}
              </button>
            ) : (
              <Link className="button button--ghost" to={versioning.page}>
                {CONVERSATION_TEXT.discardReply}
              </Link>
            )}
          </div>
        </div>
      ) : null}
      {/* A plain form: the browser posts it to the page without JavaScript; with it, send() hands it to the fetcher. */}
      <form
        ref={formRef}
        className={`reply-box${variant === 'note' ? ' reply-box--note' : ' reply-box--files'}${drop.dragging ? ' reply-box--drop' : ''}`}
        method="post"
        encType={withFiles ? 'multipart/form-data' : undefined}
        {...drop.handlers}
        onSubmit={(event) => void send(event)}
        id={formId}
      >
        <input type="hidden" name="clientId" value={clientId} />
        {against !== undefined ? <input type="hidden" name="seenVersion" value={against} /> : null}
        {variant === 'note' ? <input type="hidden" name="intent" value="note" /> : null}
        {withFiles ? <AttachmentPicker picker={picker} id={`${inputId}-files`} disabled={sending} compact /> : null}
        <label htmlFor={inputId} className="visually-hidden">
          {variant === 'note' ? CONVERSATION_TEXT.internalNote : 'Your message'}
        </label>
        <textarea
          id={inputId}
          name="messageBody"
          className="textarea reply-box__input"
          rows={1}
          maxLength={MESSAGE_MAX_LENGTH}
          placeholder={variant === 'note' ? CONVERSATION_TEXT.notePlaceholder : 'Write a message'}
          // In the console, r and n enter the boxes (docs/decisions/146-console-keyboard.md).
          {...(versioning
            ? {
                'data-shortcut': variant === 'note' ? 'n' : 'r',
                'data-shortcut-label': variant === 'note' ? 'Internal note' : 'Reply',
              }
            : {})}
          value={text}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => {
            update(e.target.value);
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
                insert(matches[active] ?? { text: '', question: null });
                return;
              }
            }
            if (matches && e.key === 'Escape') {
              e.preventDefault();
              update(text.slice(1));
              return;
            }
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              formRef.current?.requestSubmit();
            }
          }}
        />
        {/* Without JavaScript nothing could enable Send again: the page's action refuses an empty message instead. */}
        <button
          type="submit"
          className="button button--primary reply-box__send"
          disabled={hydrated && (blank || sending)}
          aria-label={variant === 'note' ? CONVERSATION_TEXT.addNote : 'Send'}
        >
          <SendIcon />
        </button>
        {error ? (
          <p id={`${inputId}-error`} className="field__error reply-box__error" role="alert">
            {error}
          </p>
        ) : null}
        {matches ? (
          <ul id={`${inputId}-saved`} className="saved-menu" role="listbox" aria-label={SAVED_REPLY_PICKER_TEXT.title}>
            {matches.length === 0 ? <li className="saved-menu__empty">{SAVED_REPLY_PICKER_TEXT.noMatch}</li> : null}
            {matches.map((reply, i) => (
              <li
                key={reply.id}
                id={`${inputId}-saved-${i}`}
                role="option"
                aria-selected={i === active}
                className="saved-menu__option"
                onMouseDown={(e) => {
                  e.preventDefault();
                  insert(reply);
                }}
              >
                <strong>{reply.title}</strong> <span className="saved-menu__preview">{reply.text.slice(0, 80)}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </form>
      {savedReplies && savedReplies.length > 0 ? (
        <Form
          method="post"
          className="saved-picker"
          onSubmit={(event) => {
            // With JavaScript the text goes straight into the box; without it the page's action fills it in.
            event.preventDefault();
            const id = new FormData(event.currentTarget).get('savedReplyId');
            const chosen = savedReplies.find((reply) => reply.id === id);
            if (chosen) insert(chosen);
          }}
        >
          <input type="hidden" name="intent" value="insert-saved" />
          <label>
            <span className="visually-hidden">{SAVED_REPLY_PICKER_TEXT.pick}</span>
            <select name="savedReplyId" className="select" defaultValue="" required>
              <option value="" disabled>
                {SAVED_REPLY_PICKER_TEXT.pick}…
              </option>
              {savedReplies.map((reply) => (
                <option key={reply.id} value={reply.id}>
                  {reply.title}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button--ghost">
            {SAVED_REPLY_PICKER_TEXT.insert}
          </button>
        </Form>
      ) : null}
    </>
  );
}

/**
 * What was typed into a reply the page refused once the box is gone (the ticket closed meanwhile):
 * shown as text, so it can be copied into a new ticket instead of being lost. With `ticketId`, the
 * reply's stored draft shows too (after a reload, or a close while the page was away); nothing
 * shows when there are no words.
 */
export function UnsentReply({
  text,
  newTicket = false,
  ticketId,
}: {
  text: string;
  newTicket?: boolean;
  ticketId?: string;
}) {
  const user = useRouteLoaderData<RootData>('root')?.user?.email;
  const key = ticketId ? ticketDraftKey(user, ticketId) : null;
  // Read once the page runs: the server's HTML has no drafts.
  const [draft, setDraft] = useState('');
  useEffect(() => setDraft(readDraft(key)), [key]);
  const words = text.trim() ? text : draft;
  if (words.trim() === '') return null;
  return (
    <div className="ticket__unsent">
      <p>{SUPPORT_TEXT.replyNotSent}</p>
      <blockquote className="ticket__unsent-text">{words}</blockquote>
      {newTicket ? (
        <p>
          <Link to={`/support/create-ticket?${new URLSearchParams({ message: words })}`}>
            {SUPPORT_TEXT.newTicketWithMessage}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
