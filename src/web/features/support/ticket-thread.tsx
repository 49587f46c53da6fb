import { useEffect, useRef } from 'react';
import { formatNzDateTime, type Message } from '../../../contracts/support.ts';

/**
 * The messages of a ticket, for the user's page and the admin's alike: a live log (announced
 * politely, focusable so a keyboard can scroll it) that keeps the newest message in view. Which
 * side a bubble sits on and who it names differ by page: `mine` and `author` say.
 */
export function TicketThread<M extends Message>({
  messages,
  mine,
  author,
}: {
  messages: readonly M[];
  mine(message: M): boolean;
  author(message: M): string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  return (
    <div ref={listRef} className="thread" role="log" aria-live="polite" aria-label="Messages" tabIndex={0}>
      <ol className="thread__list">
        {messages.map((message) => (
          <li
            key={message.id}
            id={`message-${message.id}`}
            className={`bubble ${mine(message) ? 'bubble--mine' : 'bubble--theirs'}`}
          >
            <p className="bubble__meta">
              <span className="bubble__author">{author(message)}</span>
              <time dateTime={message.timestamp}>{formatNzDateTime(message.timestamp)}</time>
            </p>
            <p className="bubble__body">{message.messageBody}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
