import { useMemo, useState } from 'react';
import type { Message, Ticket, TicketPresence } from '../../../contracts/support.schemas.ts';
import { askWhyRefused, type LiveStatus, useLiveStream } from '../../lib/live.ts';

/** Adds messages by id: a message seen twice (the page's own, a reconnect, our own send) is shown once. */
function mergeMessages<M extends Message>(current: M[], incoming: M[]): M[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export interface TicketThread<T, M> {
  /** Null until the page's data or the stream has said what the ticket is. */
  ticket: T | null;
  missing: boolean;
  messages: M[];
  live: LiveStatus;
  /** Other admins with this ticket open, and those of them typing (sent to admins only). */
  presence: TicketPresence | undefined;
  addMessage(message: M): void;
  setTicket(ticket: T): void;
}

/**
 * A ticket's thread as the page shows it: what the server rendered (the loader's read), with the
 * live stream's ticket and messages merged in by id. The stream sends the ticket first and then
 * every message, so it only repeats what the page has, and wins where it is newer (a close).
 */
export function useTicketThread<T extends Ticket, M extends Message>(options: {
  /** The live stream's address (pathOf its declaration). */
  streamUrl: string;
  /** Reads the ticket the plain way, to ask why the stream was refused (askWhyRefused). */
  read(): Promise<{ status: number }>;
  missingStatuses?: readonly number[];
  loaded: { ticket: T; messages: M[] } | null;
  loadedMissing: boolean;
  /** The ticket was merged into another (or its split taken back): the page goes there. */
  onMoved(ticketId: string): void;
  /** The ticket's side conversations changed (the team's streams only): the page reads them again. */
  onSide?: () => void;
}): TicketThread<T, M> {
  const [liveTicket, setLiveTicket] = useState<T | null>(null);
  const [liveMessages, setLiveMessages] = useState<M[]>([]);
  // The whole thread as the stream last sent it (messages moved in or out), for the page's data
  // it was sent over; once the page reads its data again, that reading is newer and wins.
  const [resent, setResent] = useState<{ over: unknown; messages: M[] } | null>(null);
  const [gone, setGone] = useState(false);
  const [presence, setPresence] = useState<TicketPresence | undefined>(undefined);
  // A link to another ticket (one that follows or continues this one) keeps the page mounted: what
  // the last ticket's stream brought is dropped, not merged into the next ticket's thread.
  const [watched, setWatched] = useState(options.streamUrl);
  if (watched !== options.streamUrl) {
    setWatched(options.streamUrl);
    setLiveTicket(null);
    setLiveMessages([]);
    setResent(null);
    setGone(false);
    setPresence(undefined);
  }
  const missing = options.loadedMissing || gone;

  // A ticket the server already said does not exist is not watched.
  const live = useLiveStream(
    missing ? null : options.streamUrl,
    {
      ticket: (data) => setLiveTicket(data as T),
      message: (data) => setLiveMessages((current) => mergeMessages(current, [data as M])),
      thread: (data) => {
        setResent({ over: options.loaded, messages: (data as { messages: M[] }).messages });
        setLiveMessages([]);
      },
      moved: (data) => options.onMoved((data as { ticketId: string }).ticketId),
      viewers: (data) => setPresence(data as TicketPresence),
      side: () => options.onSide?.(),
    },
    { onRefused: askWhyRefused(options.read, () => setGone(true), options.missingStatuses) },
  );

  const base = resent && resent.over === options.loaded ? resent.messages : options.loaded?.messages;
  const messages = useMemo(() => mergeMessages(base ?? [], liveMessages), [base, liveMessages]);
  return {
    ticket: missing ? null : (liveTicket ?? options.loaded?.ticket ?? null),
    missing,
    messages,
    live,
    presence,
    addMessage: (message) => setLiveMessages((current) => mergeMessages(current, [message])),
    setTicket: setLiveTicket,
  };
}
