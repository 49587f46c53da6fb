/**
 * Section "throughput": autocannon against the server and, side by side, a bare Fastify answering
 * the same bytes, a bare route running the same queries, and a raw insert of a message. The server
 * is one of the section's own at the default log level (info: one line per request, through pino's
 * buffered destination), its output a pipe drained as a log collector would (lib/logging-server.ts).
 * The public answers are measured twice in the run: on a quiet machine, and with a second process
 * holding one core (`stress-ng --cpu 1`, or a Node loop where stress-ng is missing).
 */
import { hashToken } from '../../src/server/security/tokens.ts';
import {
  load,
  type LoadResult,
  type SideBySide,
  sideBySide,
  startBareInsertServer,
  startBareQueryServer,
  startBareServer,
} from '../lib/load.ts';
import { holdOneCore, startLoggingServer } from '../lib/logging-server.ts';
import { cpuSecondsOf, sleep } from '../lib/process-stats.ts';
import { fixed, results, rounds, row, seconds, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

/**
 * The public answers run more pairs of rounds than the rest, as long as the rest's: their two
 * figures differ by 10-25% between rounds on a shared host, as much as the gap they measure, so the
 * median of many pairs is the figure and the pairs' range is printed beside it.
 */
const PUBLIC_ROUNDS = Math.max(rounds, 8);
const PUBLIC_SECONDS = seconds;
/** The diagnostic comparisons (our headers replayed) keep shorter rounds: they explain, not judge. */
const DIAGNOSTIC_ROUNDS = Math.max(rounds, 6);
const DIAGNOSTIC_SECONDS = Math.min(seconds, 3);
const PUBLIC_GOAL = 0.8;

/** '0.84× (8 pairs 0.77-0.90)': the median ratio and the range of the pairs of rounds. */
const ratioWithSpread = (r: SideBySide) =>
  `${fixed(r.ratio)}×${r.pairs.length > 2 ? ` (${r.pairs.length} pairs ${fixed(Math.min(...r.pairs))}-${fixed(Math.max(...r.pairs))})` : ''}`;

/** 'CPU per request 38 vs 31 µs (0.82×)': what one request cost each process, as a ratio like the rest. */
const cpuWords = (r: SideBySide) =>
  r.cpuPerRequest
    ? `; CPU per request ${Math.round(r.cpuPerRequest.ours)} vs ${Math.round(r.cpuPerRequest.yardstick)} µs (${fixed(r.cpuPerRequest.yardstick / r.cpuPerRequest.ours)}×)`
    : '';

/** Headers Node writes itself for every answer, and the length of this one: not replayed. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The two machines the public answers are measured on, in this order, in one run. */
const VARIANTS = [
  { name: 'quiet', suffix: '' },
  { name: 'one core held', suffix: ', one core held' },
] as const;

export const throughputSection: Section<ServerBench> = {
  name: 'throughput',
  title: `Throughput: autocannon, 10 connections, loopback, a server at the default log level (info); alternating rounds, ${PUBLIC_ROUNDS} pairs of ${PUBLIC_SECONDS} s for the public answers (quiet, then with one core held), ${rounds} of ${seconds} s for the rest`,
  async run({ pid: sharedPid, serverEnv, databaseUrl, lister, listerSession, poster, posterSession, postTickets }) {
    const server = await startLoggingServer(serverEnv);
    try {
      await measure(server);
    } finally {
      await server.stop();
    }

    async function measure({ url: base, pid, logged }: Awaited<ReturnType<typeof startLoggingServer>>) {
      const throughput: Record<string, SideBySide & { bytes: number; logLinesPerRequest?: number }> = {};
      // The set-up's tickets each sent a mail, written by the servers' outbox workers after their
      // requests were answered (about 10 s at 60% of a core for 1,111 mails): rounds started then
      // measured that work, not the requests'. Wait, bounded, until both servers are at rest.
      const waitFrom = Date.now();
      const cpuOfBoth = () => cpuSecondsOf(pid) + cpuSecondsOf(sharedPid);
      let atRest = Infinity;
      for (let i = 0; i < 60 && atRest > 0.1; i++) {
        const from = cpuOfBoth();
        await sleep(1000);
        atRest = cpuOfBoth() - from;
      }
      results.serverCpuAtRest = atRest;
      row(
        'server CPU at rest before the rounds',
        `${Math.round(atRest * 100)}% of a core`,
        '',
        undefined,
        `over 1 s, no requests, after waiting ${Math.round((Date.now() - waitFrom) / 1000)} s for the set-up's mail to be written (both servers)`,
      );

      const publicCases = [
        { label: 'SSR /faqs page', path: '/faqs', type: 'text/html; charset=utf-8' },
        { label: 'GET /api/faqs', path: '/api/faqs?type=general', type: 'application/json; charset=utf-8' },
      ];
      for (const variant of VARIANTS) {
        const hog = variant.name === 'quiet' ? undefined : await holdOneCore();
        try {
          for (const c of publicCases) {
            const res = await fetch(base + c.path);
            const body = Buffer.from(await res.arrayBuffer());
            if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}`);
            const bare = await startBareServer(body, c.type);
            const answered: LoadResult[] = [];
            const ours = async (length: number) => {
              const result = await load(base + c.path, { seconds: length });
              answered.push(result);
              return result;
            };
            try {
              const logFrom = logged().lines;
              const cpuFrom = cpuSecondsOf(pid);
              const r = await sideBySide(
                () => ours(PUBLIC_SECONDS),
                () => load(bare.url + c.path, { seconds: PUBLIC_SECONDS }),
                // A warm-up of 5 s each: the server's JIT has seen none of this route's requests
                // yet (or not since the other variant); one second left the first rounds 20-30% slower.
                async () => {
                  await ours(seconds);
                  await load(bare.url + c.path, { seconds });
                },
                PUBLIC_ROUNDS,
                { ours: pid, yardstick: bare.pid },
              );
              // The server works only in its own rounds and warm-up: its share of a core while loaded.
              const busy = (cpuSecondsOf(pid) - cpuFrom) / (PUBLIC_ROUNDS * PUBLIC_SECONDS + seconds);
              // Lines still in the server's buffer are written within its periodic flush.
              await sleep(1500);
              const requests = answered.reduce((sum, a) => sum + a.requests, 0);
              const linesPerRequest = (logged().lines - logFrom) / requests;
              throughput[`${c.label}${variant.suffix}`] = {
                ...r,
                bytes: body.length,
                logLinesPerRequest: linesPerRequest,
              };
              row(
                `${c.label}${variant.suffix}`,
                `${ratioWithSpread(r)} bare Fastify`,
                `≥ ${PUBLIC_GOAL}`,
                r.ratio >= PUBLIC_GOAL,
                `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s, ${body.length} B, ${PUBLIC_ROUNDS} pairs of ${PUBLIC_SECONDS} s; p99 ${r.ours.p99} vs ${r.yardstick.p99} ms; errors ${r.ours.non2xx + r.yardstick.non2xx}; server at ${Math.round(busy * 100)}% of a core${cpuWords(r)}; log lines per request ${fixed(linesPerRequest)}${hog ? `; ${hog.what} running` : ''}`,
              );
            } finally {
              bare.stop();
            }
            if (hog) continue;
            // How much of the gap is the headers every answer of ours carries (security headers,
            // request id): the same yardstick sending them too, as captured (decision 118).
            const own: Record<string, string> = {};
            for (const [name, value] of res.headers) if (!PER_CONNECTION.has(name)) own[name] = value;
            const withHeaders = await startBareServer(body, c.type, own);
            try {
              const r = await sideBySide(
                () => load(base + c.path, { seconds: DIAGNOSTIC_SECONDS }),
                () => load(withHeaders.url + c.path, { seconds: DIAGNOSTIC_SECONDS }),
                async () => load(withHeaders.url + c.path, { seconds: 1 }),
                DIAGNOSTIC_ROUNDS,
                { ours: pid, yardstick: withHeaders.pid },
              );
              throughput[`${c.label} vs bare with our headers`] = { ...r, bytes: body.length };
              row(
                `  the same against a bare route sending our headers too`,
                ratioWithSpread(r),
                '',
                undefined,
                `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s: the ${Object.keys(own).length} headers of our answer, replayed; ${DIAGNOSTIC_ROUNDS} pairs of ${DIAGNOSTIC_SECONDS} s; errors ${r.yardstick.non2xx}${cpuWords(r)}`,
              );
            } finally {
              withHeaders.stop();
            }
          }
        } finally {
          await hog?.stop();
        }
      }

      // A signed-in request: the session's lookup and the list's query on PostgreSQL.
      {
        const c = {
          label: 'signed-in ticket list (10 tickets)',
          path: '/api/support/tickets?open=true',
          headers: { cookie: listerSession.cookie },
          type: 'application/json; charset=utf-8',
          goal: 0.2,
        };
        const res = await fetch(base + c.path, { headers: c.headers });
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}`);
        const bare = await startBareServer(body, c.type);
        try {
          const cpuFrom = cpuSecondsOf(pid);
          const r = await sideBySide(
            () => load(base + c.path, { headers: c.headers, seconds }),
            () => load(bare.url + c.path, { seconds }),
            async () => {
              await load(base + c.path, { headers: c.headers, seconds });
              await load(bare.url + c.path, { seconds });
            },
            rounds,
            { ours: pid, yardstick: bare.pid },
          );
          const busy = (cpuSecondsOf(pid) - cpuFrom) / (rounds * seconds + seconds);
          throughput[c.label] = { ...r, bytes: body.length };
          row(
            c.label,
            `${ratioWithSpread(r)} bare Fastify`,
            `≥ ${c.goal}`,
            r.ratio >= c.goal,
            `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s, ${body.length} B, ${rounds} pairs of ${seconds} s; p99 ${r.ours.p99} vs ${r.yardstick.p99} ms; errors ${r.ours.non2xx + r.yardstick.non2xx}; server at ${Math.round(busy * 100)}% of a core${cpuWords(r)}`,
          );
        } finally {
          bare.stop();
        }
        // Where the gap is: the same two queries (session, list) from a bare route, same driver and pool.
        const same = await startBareQueryServer(databaseUrl, body, hashToken(listerSession.token), lister.id);
        try {
          const r = await sideBySide(
            () => load(base + c.path, { headers: c.headers, seconds }),
            () => load(same.url + c.path, { seconds }),
            async () => load(same.url + c.path, { seconds: 1 }),
            rounds,
          );
          throughput[`${c.label} vs same queries`] = { ...r, bytes: body.length };
          row(
            `  the same against a bare route running its 2 queries`,
            `${fixed(r.ratio)}×`,
            '',
            undefined,
            `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s: what Fastify, hooks, validation and serialisation cost on top of the database; errors ${r.yardstick.non2xx}`,
          );
        } finally {
          same.stop();
        }
      }

      // The message post against a raw insert of the same row through the same driver.
      const postPaths = postTickets.map((id) => `/api/support/tickets/${id}/messages`);
      const headers = { cookie: posterSession.cookie, 'content-type': 'application/json' };
      const body = JSON.stringify({ messageBody: 'Benchmark message: is my parcel on its way?' });
      const sample = await fetch(base + postPaths[0], { method: 'POST', headers, body });
      const sampleBody = Buffer.from(await sample.arrayBuffer());
      if (sample.status !== 200) throw new Error(`message post answered ${sample.status}: ${sampleBody}`);
      const insert = await startBareInsertServer(databaseUrl, sampleBody, poster.id, postTickets);
      try {
        const options = { method: 'POST', headers, body, paths: postPaths };
        const r = await sideBySide(
          () => load(base, { ...options, seconds }),
          () => load(insert.url, { ...options, seconds }),
          async () => {
            await load(base, { ...options, seconds: 1 });
            await load(insert.url, { ...options, seconds: 1 });
          },
          rounds,
        );
        throughput['message post (PostgreSQL)'] = { ...r, bytes: sampleBody.length };
        row(
          'message post on PostgreSQL',
          `${fixed(r.ratio)}× raw insert`,
          '≥ 0.5',
          r.ratio >= 0.5,
          `${Math.round(r.ours.rps)} vs ${Math.round(r.yardstick.rps)} req/s over 100 tickets; p99 ${r.ours.p99} vs ${r.yardstick.p99} ms; errors ${r.ours.non2xx + r.yardstick.non2xx}`,
        );
      } finally {
        insert.stop();
      }
      results.throughput = throughput;
    }
  },
};
