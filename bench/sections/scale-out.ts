/**
 * Section "scaleout": a second instance on the same PostgreSQL (bench/lib/scale-out.ts), then
 * PostgreSQL's own NOTIFY limits (bench/lib/notify-limits.ts).
 */
import { measureNotifyLimits } from '../lib/notify-limits.ts';
import { scaleOut } from '../lib/scale-out.ts';
import { results, rounds, row, scaleStreams, seconds, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const scaleOutSection: Section<ServerBench> = {
  name: 'scaleout',
  title: 'Scale-out: a second instance on the same PostgreSQL',
  async run({ serverEnv, base, pid, db, databaseUrl, adminSession, listerSession, posterSession, postTickets }) {
    results.scaleOut = await scaleOut(
      {
        env: serverEnv,
        first: { base, pid },
        db,
        adminToken: adminSession.token,
        lister: listerSession,
        poster: posterSession,
        postTickets,
        seconds,
        rounds,
        streams: scaleStreams,
      },
      row,
    );
    const limits = await measureNotifyLimits(databaseUrl);
    row('NOTIFY payload limit', `${limits.payloadLimitBytes} B`, '', undefined, 'our events are ids only, about 130 B');
    for (const c of limits.commits) {
      row(
        `durable inserts, ${c.clients} client${c.clients > 1 ? 's' : ''}`,
        `${Math.round(c.plain)} tx/s`,
        '',
        undefined,
        `with NOTIFY inside: ${Math.round(c.notifyInside)} (${(c.notifyInside / c.plain).toFixed(2)}×); NOTIFY after, async commit (ours): ${Math.round(c.notifyAfter)} (${(c.notifyAfter / c.plain).toFixed(2)}×)`,
      );
    }
    row(
      'NOTIFY queue behind a stuck listener',
      `${(limits.queue.usage * 100).toFixed(3)} % after ${limits.queue.events.toLocaleString('en-NZ')} events`,
      '',
      undefined,
      `full (NOTIFY fails) after about ${limits.queue.eventsToFill.toLocaleString('en-NZ')} events of ${limits.queue.payloadBytes} B`,
    );
    (results.scaleOut as Record<string, unknown>).notify = limits;
  },
};
