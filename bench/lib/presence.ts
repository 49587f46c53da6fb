/**
 * Presence across instances (docs/decisions/142-presence.md): an agent's inbox stream on instance A,
 * a colleague on instance B. For each of `count` tickets the colleague opens the ticket's stream on
 * B (viewing), beats that they type (typing), and closes the stream (gone); each time is from the
 * colleague's act to the inbox's `presence` event saying so, one ticket at a time. A connection lost
 * without a close is not timed: it ends PRESENCE_SECONDS (12 s) after the page's last beat, plus
 * at most one 1 s sweep, by design.
 */
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import type { TicketPresence } from '../../src/contracts/support.schemas.ts';
import { openSse, type SseEvent } from '../../tests/helpers/sse-client.ts';
import { createAccounts, signIn } from './fixtures.ts';
import { median, percentile } from './process-stats.ts';

export interface PresenceFigures {
  count: number;
  viewing: { p50: number; p95: number; max: number };
  typing: { p50: number; p95: number; max: number };
  gone: { p50: number; p95: number; max: number };
}

const summary = (values: number[]) => ({
  p50: median(values),
  p95: percentile(values, 95),
  max: Math.max(...values),
});

export async function measurePresence(
  db: DatabaseHandle,
  bases: [string, string],
  tickets: string[],
  count = 40,
): Promise<PresenceFigures> {
  const [agent, colleague] = await createAccounts(db, 'presence', 2, 'admin');
  const [a, b] = [await signIn(bases[0], agent!.email), await signIn(bases[1], colleague!.email)];
  const inbox = await openSse(`${bases[0]}/api/admin/support/tickets/stream`, a.bearer);
  const seen = (from: number, ticketId: string, holds: (presence: TicketPresence) => boolean) =>
    inbox.waitFor((events: SseEvent[]) =>
      events
        .slice(from)
        .some(
          (e) =>
            e.event === 'presence' &&
            (e.data as { tickets: Record<string, TicketPresence> }).tickets[ticketId] !== undefined &&
            holds((e.data as { tickets: Record<string, TicketPresence> }).tickets[ticketId]!),
        ),
    );
  const viewing: number[] = [];
  const typing: number[] = [];
  const gone: number[] = [];
  try {
    for (const ticketId of tickets.slice(0, count)) {
      let from = inbox.events.length;
      let t0 = performance.now();
      const stream = await openSse(`${bases[1]}/api/support/tickets/${ticketId}/messages/stream`, b.bearer);
      await seen(from, ticketId, (p) => p.viewers.includes(colleague!.email));
      viewing.push(performance.now() - t0);

      from = inbox.events.length;
      t0 = performance.now();
      const beat = await fetch(`${bases[1]}/api/admin/support/tickets/${ticketId}/presence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...b.bearer },
        body: JSON.stringify({ typing: true }),
      });
      if (beat.status !== 200) throw new Error(`presence beat failed: ${beat.status}`);
      await seen(from, ticketId, (p) => p.typing.includes(colleague!.email));
      typing.push(performance.now() - t0);

      from = inbox.events.length;
      t0 = performance.now();
      stream.close();
      await seen(from, ticketId, (p) => p.viewers.length === 0);
      gone.push(performance.now() - t0);
    }
  } finally {
    inbox.close();
  }
  return { count: viewing.length, viewing: summary(viewing), typing: summary(typing), gone: summary(gone) };
}
