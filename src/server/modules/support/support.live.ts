import type { DomainEvent, EventBus } from '../../realtime/event-bus.ts';
import type { EventStream } from '../../realtime/sse.ts';
import type { Clock } from '../../clock.ts';
import { toAdminMessageDto, toAdminTicketDto, toMessageDto, toTicketDto } from './support.service.ts';
import type { SupportRepository } from './support.repository.ts';
import type { MessageRow } from './support.rows.ts';
import { LIVE_EVENTS } from '../../../contracts/support.ts';
import type { TicketPresence } from '../../../contracts/support.schemas.ts';

/**
 * Live support updates for every open stream of this process.
 *
 * One feed per ticket reads new messages once per event and hands each subscriber the ones after
 * the last id it was sent, so a subscriber never misses or repeats a message: the database is the
 * source of truth and an event is only a nudge to read it. A viewer's right to see the ticket is
 * checked when it subscribes, again before delivery when the last check is older than `authTtlMs`,
 * on every heartbeat, and at once when that user's sessions end.
 *
 * A message is announced right after its commit (support.repository.ts); should that announcement
 * be lost (the posting process died in between), a sweep every `sweepMs` compares each watched
 * ticket's newest message id with what its subscribers were sent, and delivers what is missing.
 */
export interface LiveViewer {
  userId: string;
  /** Shown to other admins viewing the same ticket. */
  email: string;
  admin: boolean;
  /** True while the viewer's session is still valid and still allowed to see this stream. */
  authorize(): Promise<boolean>;
}

interface Subscriber {
  viewer: LiveViewer;
  stream: EventStream;
  lastSent: number;
  checkedAt: number;
}

interface Feed {
  subscribers: Set<Subscriber>;
  busy: boolean;
  again: boolean;
  /** Messages moved in or out: the next round sends each subscriber the whole thread. */
  resend: boolean;
  /** The ticket was merged into this one (or its split taken back): subscribers are sent there. */
  movedTo?: string;
}

interface ListSubscriber {
  viewer: LiveViewer;
  stream: EventStream;
  refresh(): Promise<void>;
  timer?: NodeJS.Timeout;
}

const PAGE = 1000;
/** A console page beats every third of this (PRESENCE_BEAT_MS): gone 12 s after its last beat at most. */
const PRESENCE_TTL_MS = 12_000;
const TYPING_TTL_MS = 6_000;

export function createSupportLive(options: {
  bus: EventBus;
  repository: SupportRepository;
  log: { error(obj: object, msg: string): void };
  /** The app's clock: a privacy request's overdue mark on the tickets sent. */
  clock: Clock;
  authTtlMs?: number;
  listDebounceMs?: number;
  sweepMs?: number;
  /**
   * How long an admin's "viewing this ticket" lasts unless their page renews it (its beat comes every
   * third of it): a closed tab ends it at once, a lost connection once this has passed.
   */
  presenceTtlMs?: number;
  /** How long "typing" lasts after the page last said its agent typed. */
  typingTtlMs?: number;
  /** How often expired presence is looked for (and the inboxes told). */
  presenceSweepMs?: number;
}) {
  const { repository, log } = options;
  const authTtlMs = options.authTtlMs ?? 5000;
  const listDebounceMs = options.listDebounceMs ?? 25;
  const feeds = new Map<string, Feed>();
  /** Admins with each ticket open, on any instance (ticket.viewing events): id → email and expiries. */
  const viewing = new Map<string, Map<string, { email: string; until: number; typingUntil: number }>>();
  const presenceTtlMs = options.presenceTtlMs ?? PRESENCE_TTL_MS;
  const typingTtlMs = options.typingTtlMs ?? TYPING_TTL_MS;
  // Presence reads the app's clock (tests move it past a page's last beat); the authorisation cache is real time.
  const clockMs = () => options.clock.now().getTime();
  let presenceTimer: NodeJS.Timeout | undefined;
  const userLists = new Map<string, Set<ListSubscriber>>();
  const adminLists = new Set<ListSubscriber>();
  /** Every live subscription of a user, to re-check them all when their sessions end. */
  const byUser = new Map<string, Set<() => Promise<void>>>();

  function track(userId: string, recheck: () => Promise<void>): () => void {
    let set = byUser.get(userId);
    if (!set) byUser.set(userId, (set = new Set()));
    set.add(recheck);
    return () => {
      set.delete(recheck);
      if (set.size === 0) byUser.delete(userId);
    };
  }

  async function stillAllowed(sub: { viewer: LiveViewer; stream: EventStream; checkedAt?: number }, force = false) {
    if (sub.stream.closed) return false;
    if (!force && sub.checkedAt !== undefined && Date.now() - sub.checkedAt < authTtlMs) return true;
    let allowed = false;
    try {
      allowed = await sub.viewer.authorize();
    } catch (error) {
      log.error({ err: error }, 'live authorization check failed');
    }
    if (!allowed) {
      // Said before closing, so the page shows the login screen now rather than after a reconnect.
      sub.stream.send(LIVE_EVENTS.ended, { reason: 'not-allowed' });
      sub.stream.close();
      return false;
    }
    sub.checkedAt = Date.now();
    return true;
  }

  function send(sub: Subscriber, row: MessageRow) {
    // An internal note is for admins only: the owner's stream passes over it.
    if (row.internal && !sub.viewer.admin) {
      sub.lastSent = row.id;
      return;
    }
    const dto = sub.viewer.admin ? toAdminMessageDto(row, sub.viewer.userId) : toMessageDto(row, sub.viewer.userId);
    sub.stream.send(LIVE_EVENTS.message, dto, row.id);
    sub.lastSent = row.id;
  }

  /** Every message of the ticket, oldest first (notes too: `send` leaves them out for owners). */
  async function wholeThread(ticketId: string): Promise<MessageRow[]> {
    const all: MessageRow[] = [];
    for (;;) {
      const rows = await repository.listMessages(ticketId, all.at(-1)?.id ?? 0, { notes: true });
      all.push(...rows);
      if (rows.length < PAGE) return all;
    }
  }

  /**
   * After a merge, split or undo the thread's ids no longer only grow (older messages moved in, or
   * some moved out), so "after the last id sent" cannot describe the change: each subscriber is sent
   * the whole thread, which replaces what its page shows, or the ticket the thread went on in.
   */
  async function resendThread(feed: Feed, ticketId: string, subscribers: Subscriber[]) {
    const allowed = await Promise.all(subscribers.map((sub) => stillAllowed(sub, true)));
    const movedTo = feed.movedTo;
    if (movedTo) {
      subscribers.forEach((sub, i) => {
        if (allowed[i]) sub.stream.send(LIVE_EVENTS.moved, { ticketId: movedTo });
      });
      return;
    }
    const rows = await wholeThread(ticketId);
    const last = rows.at(-1)?.id;
    subscribers.forEach((sub, i) => {
      if (!allowed[i]) return;
      const messages = rows
        .filter((row) => sub.viewer.admin || !row.internal)
        .map((row) =>
          sub.viewer.admin ? toAdminMessageDto(row, sub.viewer.userId) : toMessageDto(row, sub.viewer.userId),
        );
      sub.stream.send(LIVE_EVENTS.thread, { messages }, last);
      sub.lastSent = last ?? 0;
    });
  }

  async function pump(ticketId: string) {
    const feed = feeds.get(ticketId);
    if (!feed) return;
    if (feed.busy) {
      feed.again = true;
      return;
    }
    feed.busy = true;
    try {
      do {
        feed.again = false;
        const subscribers = [...feed.subscribers].filter((s) => !s.stream.closed);
        if (subscribers.length === 0) break;
        if (feed.resend) {
          feed.resend = false;
          await resendThread(feed, ticketId, subscribers);
          if (feed.movedTo) break;
        }
        let after = Math.min(...subscribers.map((s) => s.lastSent));
        for (;;) {
          const rows = await repository.listMessages(ticketId, after, { notes: true });
          // Rights are re-checked for every due subscriber at once, not one after another: with 100
          // viewers on a ticket, a sequential check made the last one wait for 99 lookups first.
          const due = subscribers.filter((sub) => rows.some((r) => r.id > sub.lastSent));
          const allowed = await Promise.all(due.map((sub) => stillAllowed(sub)));
          // Delivering an answer to the owner's page is not their seeing it (a background tab, a page
          // closed at once): only the page's own report keeps it out of their mail (support.seen).
          due.forEach((sub, i) => {
            if (allowed[i]) for (const row of rows) if (row.id > sub.lastSent) send(sub, row);
          });
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1]!.id;
        }
      } while (feed.again);
    } catch (error) {
      log.error({ err: error, ticketId }, 'live message delivery failed');
    } finally {
      feed.busy = false;
    }
  }

  async function pushTicketState(ticketId: string) {
    const feed = feeds.get(ticketId);
    if (!feed || feed.subscribers.size === 0) return;
    try {
      const ticket = await repository.findAdminTicket(ticketId);
      if (!ticket) return;
      for (const sub of feed.subscribers) {
        if (!(await stillAllowed(sub))) continue;
        sub.stream.send(
          LIVE_EVENTS.ticket,
          sub.viewer.admin ? toAdminTicketDto(ticket, options.clock.now()) : toTicketDto(ticket),
        );
      }
    } catch (error) {
      log.error({ err: error, ticketId }, 'live ticket update failed');
    }
  }

  /** Drops what has expired on one ticket; true when anyone left or stopped typing. */
  function expire(ticketId: string, now: number): boolean {
    const present = viewing.get(ticketId);
    if (!present) return false;
    let changed = false;
    for (const [id, entry] of present) {
      if (entry.until <= now) {
        present.delete(id);
        changed = true;
      } else if (entry.typingUntil !== 0 && entry.typingUntil <= now) {
        entry.typingUntil = 0;
        changed = true;
      }
    }
    if (present.size === 0) viewing.delete(ticketId);
    return changed;
  }

  /** Who has the ticket open and who is typing on it, as `userId` sees it (themselves left out). */
  function presenceOf(ticketId: string, userId: string): TicketPresence {
    const others = [...(viewing.get(ticketId) ?? [])].filter(([id]) => id !== userId).map(([, entry]) => entry);
    const names = (list: typeof others) => [...new Set(list.map((entry) => entry.email))].sort();
    return { viewers: names(others), typing: names(others.filter((entry) => entry.typingUntil !== 0)) };
  }

  /** Tells each admin on the ticket, and every admin inbox, who has it open and who is typing now. */
  function pushViewers(ticketId: string) {
    expire(ticketId, clockMs());
    for (const sub of feeds.get(ticketId)?.subscribers ?? []) {
      if (!sub.viewer.admin || sub.stream.closed) continue;
      sub.stream.send(LIVE_EVENTS.viewers, presenceOf(ticketId, sub.viewer.userId));
    }
    for (const sub of adminLists) sendListPresence(sub, ticketId);
  }

  /** An inbox's view of presence: one ticket's (after a change), or every ticket's (when it opens). */
  function sendListPresence(sub: ListSubscriber, ticketId?: string) {
    if (sub.stream.closed) return;
    const tickets: Record<string, TicketPresence> = {};
    for (const id of ticketId ? [ticketId] : viewing.keys()) tickets[id] = presenceOf(id, sub.viewer.userId);
    sub.stream.send(LIVE_EVENTS.presence, { tickets, whole: !ticketId });
  }

  /** While anyone is present, looks for expiries: a lost connection is gone a sweep after its time. */
  function watchExpiry() {
    if (presenceTimer || viewing.size === 0) return;
    presenceTimer = setInterval(() => {
      const at = clockMs();
      for (const ticketId of [...viewing.keys()]) if (expire(ticketId, at)) pushViewers(ticketId);
      if (viewing.size === 0) {
        clearInterval(presenceTimer);
        presenceTimer = undefined;
      }
    }, options.presenceSweepMs ?? 1000);
    presenceTimer.unref();
  }

  function announceViewing(ticketId: string, viewer: LiveViewer, until: number, typingUntil = 0) {
    void options.bus
      .publish({
        type: 'ticket.viewing',
        ticketId,
        userId: '',
        viewerId: viewer.userId,
        email: viewer.email,
        until,
        typingUntil,
      })
      .catch((error: unknown) => log.error({ err: error, ticketId }, 'could not announce a viewer'));
  }

  function scheduleRefresh(sub: ListSubscriber) {
    if (sub.timer) return;
    sub.timer = setTimeout(() => {
      sub.timer = undefined;
      void (async () => {
        if (!(await stillAllowed(sub, true))) return;
        await sub.refresh().catch((error: unknown) => log.error({ err: error }, 'live list refresh failed'));
      })();
    }, listDebounceMs);
  }

  function onEvent(event: DomainEvent) {
    if (event.type === 'sessions.ended') {
      for (const recheck of byUser.get(event.userId) ?? []) void recheck();
      return;
    }
    if (event.type === 'ticket.viewing') {
      let present = viewing.get(event.ticketId);
      if (!present) viewing.set(event.ticketId, (present = new Map()));
      const before = present.get(event.viewerId);
      const here = event.until > clockMs();
      if (here) present.set(event.viewerId, { email: event.email, until: event.until, typingUntil: event.typingUntil });
      else present.delete(event.viewerId);
      // A beat that only renews changes nothing anyone sees: nobody is told.
      if (!before || !here || (before.typingUntil !== 0) !== (event.typingUntil !== 0)) pushViewers(event.ticketId);
      else if (present.size === 0) viewing.delete(event.ticketId);
      watchExpiry();
      return;
    }
    if (event.type === 'side.changed') {
      // Side conversations are the team's alone (decision 138): an owner's stream is never told.
      for (const sub of feeds.get(event.ticketId)?.subscribers ?? [])
        if (sub.viewer.admin && !sub.stream.closed) sub.stream.send(LIVE_EVENTS.side, { ticketId: event.ticketId });
    }
    if (event.type === 'message.created') void pump(event.ticketId);
    if (event.type === 'ticket.updated') void pushTicketState(event.ticketId);
    if (event.type === 'ticket.reshaped') {
      const feed = feeds.get(event.ticketId);
      if (feed) {
        feed.resend = true;
        feed.movedTo = event.movedTo;
        void pushTicketState(event.ticketId).then(() => pump(event.ticketId));
      }
    }
    for (const sub of userLists.get(event.userId) ?? []) scheduleRefresh(sub);
    for (const sub of adminLists) scheduleRefresh(sub);
  }
  const unsubscribe = options.bus.subscribe(onEvent);

  /** Delivers messages whose announcement never arrived: one query for every watched ticket. */
  async function sweep() {
    const behind = new Map<string, number>();
    for (const [ticketId, feed] of feeds) {
      const open = [...feed.subscribers].filter((s) => !s.stream.closed);
      if (open.length > 0) behind.set(ticketId, Math.min(...open.map((s) => s.lastSent)));
    }
    if (behind.size === 0) return;
    try {
      const latest = await repository.latestMessageIds([...behind.keys()]);
      for (const [ticketId, newest] of latest) if (newest > (behind.get(ticketId) ?? newest)) void pump(ticketId);
    } catch (error) {
      log.error({ err: error }, 'live sweep failed');
    }
  }
  const sweepTimer = setInterval(() => void sweep(), options.sweepMs ?? 10_000);
  sweepTimer.unref();

  return {
    /** Streams a ticket's messages after `afterId`, then every new one, then state changes. */
    async watchTicket(ticketId: string, viewer: LiveViewer, afterId: number, stream: EventStream) {
      let feed = feeds.get(ticketId);
      if (!feed) feeds.set(ticketId, (feed = { subscribers: new Set(), busy: false, again: false, resend: false }));
      const sub: Subscriber = { viewer, stream, lastSent: afterId, checkedAt: Date.now() };
      feed.subscribers.add(sub);
      const untrack = track(viewer.userId, async () => {
        await stillAllowed(sub, true);
      });
      // An admin's presence is announced to every instance; the page's beats renew it (`beat`), so a
      // connection lost without a close (a laptop shut, a network gone) ends it once they stop.
      if (viewer.admin) announceViewing(ticketId, viewer, clockMs() + presenceTtlMs);
      stream.onClose(() => {
        untrack();
        feed.subscribers.delete(sub);
        // Left, unless the same person still has the ticket open in another tab here.
        const stillHere = [...feed.subscribers].some((s) => s.viewer.userId === viewer.userId && !s.stream.closed);
        if (viewer.admin && !stillHere) announceViewing(ticketId, viewer, 0);
        if (feed.subscribers.size === 0 && !feed.busy) feeds.delete(ticketId);
      });
      await pushTicketState(ticketId);
      // The new page hears who else is on the ticket. Everyone else hears of it when its
      // announcement comes back from the bus: told now, an inbox would read the ticket's row before
      // this viewer was on it (on PostgreSQL the bus is a round trip), an agent seen to leave at once.
      if (viewer.admin && !stream.closed) stream.send(LIVE_EVENTS.viewers, presenceOf(ticketId, viewer.userId));
      await pump(ticketId);
    },

    /** Streams snapshots of a list (the user's own tickets, or the admin inbox) whenever it may have changed. */
    async watchList(viewer: LiveViewer, stream: EventStream, load: () => Promise<unknown>, scope: 'own' | 'all') {
      const sub: ListSubscriber = {
        viewer,
        stream,
        refresh: async () => stream.send(LIVE_EVENTS.tickets, await load()),
      };
      if (scope === 'all') {
        adminLists.add(sub);
        sendListPresence(sub);
      } else {
        let set = userLists.get(viewer.userId);
        if (!set) userLists.set(viewer.userId, (set = new Set()));
        set.add(sub);
      }
      const untrack = track(viewer.userId, async () => {
        await stillAllowed(sub, true);
      });
      stream.onClose(() => {
        untrack();
        clearTimeout(sub.timer);
        adminLists.delete(sub);
        const set = userLists.get(viewer.userId);
        set?.delete(sub);
        if (set?.size === 0) userLists.delete(viewer.userId);
      });
      await sub.refresh();
    },

    /** A console page with the ticket open says so (and whether its agent is typing): renews presence. */
    beat(ticketId: string, viewer: LiveViewer, typing: boolean) {
      const at = clockMs();
      announceViewing(ticketId, viewer, at + presenceTtlMs, typing ? at + typingTtlMs : 0);
    },

    /** Who else is on the ticket now, as `userId` sees it. */
    presenceOf(ticketId: string, userId: string): TicketPresence {
      expire(ticketId, clockMs());
      return presenceOf(ticketId, userId);
    },

    /** Re-checks a stream's viewer (heartbeats call this). */
    async recheck(viewer: LiveViewer, stream: EventStream) {
      await stillAllowed({ viewer, stream }, true);
    },

    stats() {
      let tickets = 0;
      for (const feed of feeds.values()) tickets += feed.subscribers.size;
      let lists = adminLists.size;
      for (const set of userLists.values()) lists += set.size;
      return { ticketStreams: tickets, listStreams: lists, feeds: feeds.size };
    },

    /** Runs the missed-announcement sweep now (tests; the timer runs it every `sweepMs`). */
    sweep,

    close() {
      clearInterval(sweepTimer);
      clearInterval(presenceTimer);
      unsubscribe();
    },
  };
}

export type SupportLive = ReturnType<typeof createSupportLive>;
