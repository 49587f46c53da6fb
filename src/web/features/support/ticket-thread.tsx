import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CONVERSATION_TEXT, MAILED_TEXT } from '../../../contracts/conversation.ts';
import type { Message } from '../../../contracts/support.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { arriveAtThreadEnd, takeArrival } from '../../lib/thread-arrival.ts';
import { MailedWords } from './mailed-words.tsx';
import { MessageAttachments } from './message-attachments.tsx';

/** How close to the end of the thread still counts as reading the newest message (px). */
const NEAR_END = 48;

/**
 * The messages of a ticket, for the user's page and the admin's alike: a live log (announced
 * politely, focusable so a keyboard can scroll it) in a chat layout. It fills the viewport with
 * the reply box pinned under it (support.css), keeps the newest message in view as messages arrive
 * while the reader is at the end, and otherwise shows a 'New messages' marker that takes them
 * there. Which side a bubble sits on and who it names differ by page: `mine` and `author` say;
 * `team` marks, in the console, another admin's answer (its own colour, on the other side: never
 * mistaken for the reader's own).
 * A message posted from a mail (reply by email) is marked so, with a link to the whole mail
 * (`wholeMail` gives its page's address, which differs by page too). A line the system wrote (an
 * auto-close) is the same on both pages: a centred note across the thread, with no author.
 */
export function TicketThread<M extends Message>({
  messages,
  mine,
  author,
  note = () => false,
  team = () => false,
  wholeMail,
}: {
  messages: readonly M[];
  mine(message: M): boolean;
  author(message: M): ReactNode;
  /** An internal note (the console only): drawn apart and labelled. */
  note?(message: M): boolean;
  /** Another admin's answer (the console only): the team's colour, not the reader's own. */
  team?(message: M): boolean;
  /** The page that shows the whole mail a message was posted from. */
  wholeMail(message: M): string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const seen = useRef(0);
  const [unseen, setUnseen] = useState(0);

  // Following the thread jumps (behavior 'instant' overrides the stylesheet's smooth scrolling): a
  // smooth scroll passes through positions short of the end, each a scroll event that would mark the
  // reader as having scrolled away, and its target is fixed before the thread resizes. Only the
  // reader's own click on the marker scrolls as the stylesheet says ('auto': it glides, or jumps for a
  // reader who asked for less motion); while it glides the reader counts as at the end (a message
  // arriving then is followed, not announced) until the scroll reaches the end or the reader takes
  // over with the wheel, a touch or a key.
  const gliding = useRef(false);
  const toEnd = (behavior: ScrollBehavior = 'instant') => {
    const list = listRef.current;
    if (!list) return;
    list.scrollTo({ top: list.scrollHeight, behavior });
    atEnd.current = true;
    gliding.current = behavior !== 'instant';
    setUnseen(0);
  };

  // On arrival, the page jumps so the thread's end and the reply box under it are in view: a chat
  // opens at its end. A page the server drew made that jump before hydrating (lib/thread-arrival.ts);
  // a thread the app draws itself (a ticket opened from the inbox) makes it here.
  useLayoutEffect(() => {
    if (!takeArrival()) arriveAtThreadEnd(listRef.current);
  }, []);

  useLayoutEffect(() => {
    const added = messages.length - seen.current;
    seen.current = messages.length;
    if (added <= 0) return;
    const last = messages.at(-1);
    // The reader's own message, or a reader already at the end: follow. Otherwise say so.
    if (atEnd.current || (last && mine(last))) toEnd();
    else setUnseen((n) => n + added);
  }, [messages, mine]);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onScroll = () => {
      const near = list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_END;
      if (gliding.current) {
        gliding.current = !near;
        return;
      }
      atEnd.current = near;
      if (near) setUnseen(0);
    };
    const takeOver = () => {
      gliding.current = false;
    };
    const intents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    list.addEventListener('scroll', onScroll, { passive: true });
    for (const intent of intents) list.addEventListener(intent, takeOver, { passive: true });
    // The thread grows or shrinks with the screen (an on-screen keyboard opening): a reader at the
    // end stays at the end.
    const resized = new ResizeObserver(() => {
      if (atEnd.current) list.scrollTo({ top: list.scrollHeight, behavior: 'instant' });
    });
    resized.observe(list);
    return () => {
      list.removeEventListener('scroll', onScroll);
      for (const intent of intents) list.removeEventListener(intent, takeOver);
      resized.disconnect();
    };
  }, []);

  return (
    <div className="thread-frame">
      <div ref={listRef} className="thread" role="log" aria-live="polite" aria-label="Messages" tabIndex={0}>
        <ol className="thread__list">
          {messages.map((message) =>
            message.systemEvent ? (
              // A line the system wrote (an auto-close): a note across the thread, nobody's bubble.
              <li key={message.id} id={`message-${message.id}`} className="thread__system">
                <p className="thread__system-body">{message.messageBody}</p>
                <time dateTime={message.timestamp}>{formatNzDateTime(message.timestamp)}</time>
              </li>
            ) : (
              <li
                key={message.id}
                id={`message-${message.id}`}
                className={`bubble ${mine(message) ? 'bubble--mine' : team(message) ? 'bubble--team' : 'bubble--theirs'}${note(message) ? ' bubble--note' : ''}`}
              >
                <p className="bubble__meta">
                  {note(message) ? <span className="bubble__note-label">{CONVERSATION_TEXT.internalNote}</span> : null}
                  <span className="bubble__author">{author(message)}</span>
                  <time dateTime={message.timestamp}>{formatNzDateTime(message.timestamp)}</time>
                  {message.byEmail ? <span className="bubble__by-email">{MAILED_TEXT.byEmail}</span> : null}
                </p>
                {!message.messageBody ? null : message.byEmail ? (
                  <MailedWords text={message.messageBody} />
                ) : (
                  <p className="bubble__body">{message.messageBody}</p>
                )}
                <MessageAttachments attachments={message.attachments} />
                {message.byEmail ? (
                  <p className="bubble__whole-mail">
                    <Link to={wholeMail(message)}>{MAILED_TEXT.showWholeMail}</Link>
                  </p>
                ) : null}
              </li>
            ),
          )}
        </ol>
      </div>
      {unseen > 0 ? (
        <button type="button" className="thread__new button button--primary" onClick={() => toEnd('auto')}>
          New messages ({unseen})
        </button>
      ) : null}
    </div>
  );
}
