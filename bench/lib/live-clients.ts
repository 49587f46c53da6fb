/**
 * The live-delivery clients, run as a child process of the bench (so they do not share an event
 * loop with the bench or the server). Opens every stream with node:http, tells the parent when all
 * are open, then on "go" posts admin answers and times each one from the moment its POST is sent
 * to the moment each subscriber has parsed the event. One clock (this process) times both ends.
 *
 * Protocol (IPC): parent sends { type: 'config', ... }; child answers { type: 'open', streams };
 * parent sends { type: 'go' }; child answers { type: 'done', result }.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './process-stats.ts';

export interface LiveConfig {
  base: string;
  adminToken: string;
  /** One stream each: ticket id and the owner's bearer token; `base` picks an instance (default `base`). */
  separate: Array<{ ticketId: string; token: string; base?: string }>;
  /** Instances the admin answers go through, in turn (default: `base` only). */
  postBases?: string[];
  /** Many streams on one ticket, spread over these sessions of its owner. */
  crowd: { ticketId: string; tokens: string[]; streams: number };
  /** Admin answers sent to the separate tickets at once (concurrent POSTs in flight). */
  concurrency: number;
  /** Admin answers sent to the crowd ticket, one after another. */
  crowdPosts: number;
  crowdGapMs: number;
  waitMs: number;
}

export interface DeliveryFigures {
  expected: number;
  received: number;
  missing: number;
  p50: number;
  p99: number;
  max: number;
  /** Admin POST round trip (client view), for comparison. */
  postP50: number;
  postP99: number;
}

export interface LiveResult {
  separate: DeliveryFigures;
  crowd: DeliveryFigures;
  openMs: number;
  failedStreams: number;
}

interface Stream {
  /** Message body → time the event was parsed here. */
  seen: Map<string, number>;
  req: http.ClientRequest;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const postAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function openStream(base: string, ticketId: string, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}/api/support/tickets/${ticketId}/messages/stream`);
    const seen = new Map<string, number>();
    const req = http.get(
      url,
      { agent, headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`stream ${ticketId}: HTTP ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let opened = false;
        res.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            // The first event after subscribing is the ticket's state: the stream is live from then on.
            if (!opened && event === 'ticket') {
              opened = true;
              resolve({ seen, req });
            }
            if (event === 'message' && data) {
              const body = (JSON.parse(data) as { messageBody: string }).messageBody;
              if (!seen.has(body)) seen.set(body, now);
            }
          }
        });
        res.on('error', () => {});
      },
    );
    req.on('error', reject);
  });
}

function post(base: string, path: string, token: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      new URL(base + path),
      {
        method: 'POST',
        agent: postAgent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * p50 and p99 use the bench's one `percentile` (process-stats.ts: the sorted value at index
 * ⌊p/100 × n⌋), as every other figure does; with 1,000 samples p99 is the 991st smallest, one
 * sample above the ⌈p/100 × n⌉-th nearest rank these figures used before.
 */
function figures(samples: number[], expected: number, postTimes: number[]): DeliveryFigures {
  return {
    expected,
    received: samples.length,
    missing: expected - samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: samples.length ? samples.reduce((a, b) => Math.max(a, b)) : Number.NaN,
    postP50: percentile(postTimes, 50),
    postP99: percentile(postTimes, 99),
  };
}

async function run(config: LiveConfig): Promise<void> {
  const started = performance.now();
  let failedStreams = 0;
  const open = async (ticketId: string, token: string, base = config.base) => {
    try {
      return await openStream(base, ticketId, token);
    } catch (error) {
      failedStreams++;
      process.stderr.write(`${(error as Error).message}\n`);
      return null;
    }
  };
  // Opened in batches, as many browsers arriving would.
  const separate: Array<Stream | null> = [];
  for (let i = 0; i < config.separate.length; i += 50) {
    separate.push(
      ...(await Promise.all(config.separate.slice(i, i + 50).map((s) => open(s.ticketId, s.token, s.base)))),
    );
  }
  const crowd: Array<Stream | null> = [];
  for (let i = 0; i < config.crowd.streams; i += 50) {
    const batch = Array.from({ length: Math.min(50, config.crowd.streams - i) }, (_, j) =>
      open(config.crowd.ticketId, config.crowd.tokens[(i + j) % config.crowd.tokens.length]!),
    );
    crowd.push(...(await Promise.all(batch)));
  }
  const openMs = performance.now() - started;
  process.send!({ type: 'open', streams: separate.length + crowd.length - failedStreams, failedStreams });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));

  // 1. One admin answer per separate ticket, `concurrency` POSTs in flight at a time.
  const sentAt = new Map<string, number>();
  const postTimes: number[] = [];
  let next = 0;
  const runId = Date.now().toString(36);
  await Promise.all(
    Array.from({ length: config.concurrency }, async () => {
      while (next < config.separate.length) {
        const i = next++;
        const body = `bench ${runId} answer ${i}`;
        const t0 = performance.now();
        sentAt.set(body, t0);
        const postBases = config.postBases ?? [config.base];
        const status = await post(
          postBases[i % postBases.length]!,
          `/api/admin/support/tickets/${config.separate[i]!.ticketId}/messages`,
          config.adminToken,
          { messageBody: body },
        );
        postTimes.push(performance.now() - t0);
        if (status !== 200) process.stderr.write(`admin POST answered ${status}\n`);
      }
    }),
  );
  // 2. Answers on the crowded ticket, one at a time.
  const crowdSent = new Map<string, number>();
  const crowdPostTimes: number[] = [];
  for (let i = 0; i < config.crowdPosts; i++) {
    const body = `bench ${runId} crowd ${i}`;
    const t0 = performance.now();
    crowdSent.set(body, t0);
    await post(config.base, `/api/admin/support/tickets/${config.crowd.ticketId}/messages`, config.adminToken, {
      messageBody: body,
    });
    crowdPostTimes.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, config.crowdGapMs));
  }

  // Whatever has not arrived within waitMs counts as missing.
  const collect = (streams: Array<Stream | null>, sent: Map<string, number>, perStream: (i: number) => string[]) => {
    const samples: number[] = [];
    streams.forEach((s, i) => {
      for (const body of perStream(i)) {
        const at = s?.seen.get(body);
        if (at !== undefined) samples.push(at - sent.get(body)!);
      }
    });
    return samples;
  };
  const expectedSeparate = config.separate.length;
  const expectedCrowd = config.crowd.streams * config.crowdPosts;
  const crowdBodies = [...crowdSent.keys()];
  const deadline = performance.now() + config.waitMs;
  let sepSamples: number[];
  let crowdSamples: number[];
  for (;;) {
    sepSamples = collect(separate, sentAt, (i) => [`bench ${runId} answer ${i}`]);
    crowdSamples = collect(crowd, crowdSent, () => crowdBodies);
    if ((sepSamples.length >= expectedSeparate && crowdSamples.length >= expectedCrowd) || performance.now() > deadline)
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const result: LiveResult = {
    separate: figures(sepSamples, expectedSeparate, postTimes),
    crowd: figures(crowdSamples, expectedCrowd, crowdPostTimes),
    openMs,
    failedStreams,
  };
  for (const s of [...separate, ...crowd]) s?.req.destroy();
  process.send!({ type: 'done', result }, () => process.exit(0));
}

process.once('message', (message: { type: 'config'; config: LiveConfig }) => {
  run(message.config).catch((error: unknown) => {
    process.stderr.write(`live clients failed: ${(error as Error).stack}\n`);
    process.exit(1);
  });
});
