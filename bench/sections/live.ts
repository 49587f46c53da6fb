/**
 * Section "live": delivery of admin answers to open streams (1,000 streams on separate tickets, 100
 * on one ticket), the clients in a child process, and the server's memory per idle stream.
 */
import type { LiveConfig } from '../lib/live-clients.ts';
import { runLiveClients } from '../lib/live-runner.ts';
import { MB, rssOf, sleep } from '../lib/process-stats.ts';
import { ms, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const liveSection: Section<ServerBench> = {
  name: 'live',
  title: 'Live delivery: 1,000 streams on separate tickets + 100 on one ticket, clients in a child process',
  async run({ base, pid, session, adminSession, ownerSessions, ownerTickets, crowdOwner, crowdTicket }) {
    const separate: LiveConfig['separate'] = [];
    for (const [i, { token }] of ownerSessions.entries()) {
      for (const ticketId of ownerTickets[i]!) separate.push({ ticketId, token });
    }
    // Each session stays within STREAMS_PER_SESSION (default 100): 50 per owner, 50 per crowd session.
    const crowdTokens = [(await session(crowdOwner)).token, (await session(crowdOwner)).token];
    const config: LiveConfig = {
      base,
      adminToken: adminSession.token,
      separate,
      crowd: { ticketId: crowdTicket, tokens: crowdTokens, streams: 100 },
      concurrency: 4,
      crowdPosts: 20,
      crowdGapMs: 100,
      waitMs: 10_000,
    };
    await sleep(1000);
    const rssBefore = rssOf(pid);
    let rssIdle = 0;
    const { streams, failedStreams, result } = await runLiveClients(config, async () => {
      await sleep(3000);
      rssIdle = rssOf(pid);
    });
    const s = result.separate;
    const c = result.crowd;
    row(
      '1,000 streams, one admin answer each',
      `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`,
      'p99 ≤ 50 ms',
      s.p99 <= 50,
      `POST → event parsed by the subscriber; 4 POSTs in flight; admin POST p50 ${ms(s.postP50)}`,
    );
    row('  missing', String(s.missing), '0', s.missing === 0, `${s.received} of ${s.expected} delivered`);
    row(
      '100 streams on one ticket, 20 answers',
      `p50 ${ms(c.p50)}, p99 ${ms(c.p99)}, max ${ms(c.max)}`,
      'p99 ≤ 50 ms',
      c.p99 <= 50,
      `to every subscriber (${c.expected} deliveries); answers 100 ms apart; admin POST p50 ${ms(c.postP50)}`,
    );
    row('  missing', String(c.missing), '0', c.missing === 0, `${c.received} of ${c.expected} delivered`);
    const perStream = (rssIdle - rssBefore) / streams;
    row(
      'memory per idle stream',
      `${(perStream / 1024).toFixed(1)} kB`,
      '',
      undefined,
      `server RSS ${MB(rssBefore)} → ${MB(rssIdle)} with ${streams} streams open (${failedStreams} failed to open; opened in ${(result.openMs / 1000).toFixed(1)} s)`,
    );
    results.live = { ...result, streams, rssBefore, rssIdle, perStream };
  },
};
