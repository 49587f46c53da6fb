import { useEffect, useRef } from 'react';
import { supportApi } from '../../../contracts/api/support.ts';
import type { Message } from '../../../contracts/support.schemas.ts';
import { SEEN_IDS_MAX } from '../../../contracts/support.ts';
import { api } from '../../lib/api-client.ts';

/**
 * How long an answer must stay in front of the reader before it counts as seen (ms): a page closed,
 * or put away, within moments of an answer arriving has not shown it to anyone.
 */
export const SEEN_AFTER_MS = 3000;

/** An answer from the team, as the owner's page shows it (the system's lines and their own are not). */
const isAnswer = (message: Message) => message.admin && !message.mine && !message.systemEvent;

/**
 * Tells the server which answers of the owner's ticket page were actually in front of the reader,
 * so the mail for them is left out (modules/notifications); an answer the page merely received is
 * still mailed (docs/decisions/135-seen-means-seen.md). An answer is in sight while the page is
 * visible (`document.visibilityState`) and either has the focus (`document.hasFocus()`) or shows
 * that answer on screen (an IntersectionObserver on its bubble, `#message-{id}`); it is seen once it
 * has stayed in sight for SEEN_AFTER_MS. A background tab, a window behind another, or a page closed
 * within moments sees nothing.
 *
 * Each report names every answer seen since the page opened (the newest SEEN_IDS_MAX), not only the
 * new ones: the server moves its mark only over answers that were all seen, so an answer that never
 * came into view keeps its mail even when a later one was seen.
 */
export function useSeenReport(ticketId: string, messages: readonly Message[]) {
  const key = messages
    .filter(isAnswer)
    .map((message) => message.id)
    .join(',');
  /** Per ticket: the answers seen, how many of them the server has been told, when each came into sight. */
  const state = useRef({
    ticketId,
    seen: new Set<number>(),
    told: 0,
    sending: false,
    since: new Map<number, number>(),
  });
  if (state.current.ticketId !== ticketId)
    state.current = { ticketId, seen: new Set(), told: 0, sending: false, since: new Map() };

  useEffect(() => {
    const current = state.current;
    const pending = (key ? key.split(',').map(Number) : []).filter((id) => !current.seen.has(id));
    if (pending.length === 0) return;
    const { since } = current;
    const onScreen = new Set<number>();
    let timer: number | undefined;

    const report = async () => {
      if (current.sending || current.seen.size === current.told) return;
      current.sending = true;
      const size = current.seen.size;
      const messageIds = [...current.seen].sort((a, b) => a - b).slice(-SEEN_IDS_MAX);
      const result = await api.call(supportApi.seen, { params: { ticketId: current.ticketId }, body: { messageIds } });
      current.sending = false;
      // A failed report is made again with the next answer seen; until then the answer is mailed.
      if (!result.ok) return;
      current.told = size;
      void report();
    };

    const look = () => {
      const visible = document.visibilityState === 'visible';
      const focused = visible && document.hasFocus();
      const now = performance.now();
      let added = false;
      let next = Infinity;
      for (const id of pending) {
        if (current.seen.has(id)) continue;
        if (!visible || !(focused || onScreen.has(id))) {
          since.delete(id);
          continue;
        }
        const from = since.get(id) ?? now;
        since.set(id, from);
        if (now - from >= SEEN_AFTER_MS) {
          current.seen.add(id);
          since.delete(id);
          added = true;
        } else next = Math.min(next, from + SEEN_AFTER_MS);
      }
      window.clearTimeout(timer);
      timer = next === Infinity ? undefined : window.setTimeout(look, next - now);
      if (added) void report();
    };

    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const id = Number(entry.target.id.slice('message-'.length));
        if (entry.isIntersecting) onScreen.add(id);
        else onScreen.delete(id);
      }
      look();
    });
    for (const id of pending) {
      const bubble = document.getElementById(`message-${id}`);
      if (bubble) observer.observe(bubble);
    }
    document.addEventListener('visibilitychange', look);
    window.addEventListener('focus', look);
    window.addEventListener('blur', look);
    look();
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', look);
      window.removeEventListener('focus', look);
      window.removeEventListener('blur', look);
      window.clearTimeout(timer);
    };
  }, [ticketId, key]);
}
