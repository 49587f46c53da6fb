/**
 * Where PostgreSQL LISTEN/NOTIFY bites (docs/performance.md, "10. Scale-out"; docs/decisions/099-scale-out.md),
 * measured on the bench database with the `pg` driver, outside the app:
 *
 * - payload: the largest payload NOTIFY takes (PostgreSQL documents "shorter than 8000 bytes");
 * - the commit-time lock: durable transactions that insert a row, with and without a NOTIFY in
 *   them, and the app's way (the durable insert, then the NOTIFY in an asynchronous-commit
 *   transaction of its own), at 1, 4 and 16 concurrent clients;
 * - the queue: how full the notification queue gets per event of our size while one listening
 *   session is stuck in a transaction (nothing can be cleaned up behind it), extrapolated to the
 *   point where NOTIFY starts failing.
 */
import pg from 'pg';

export interface NotifyLimits {
  payloadLimitBytes: number;
  commits: Array<{ clients: number; plain: number; notifyInside: number; notifyAfter: number }>;
  queue: { events: number; payloadBytes: number; usage: number; eventsToFill: number };
}

/** A payload the size of ours: a message.created event with two uuids and an id. */
const EVENT = JSON.stringify({
  type: 'message.created',
  ticketId: '00000000-0000-4000-8000-000000000000',
  userId: '00000000-0000-4000-8000-000000000001',
  messageId: 123456789,
});

async function txPerSecond(url: string, clients: number, seconds: number, work: (c: pg.Client) => Promise<void>) {
  const conns = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    conns.map(async (c) => {
      while (performance.now() < until) {
        await work(c);
        done++;
      }
    }),
  );
  await Promise.all(conns.map((c) => c.end()));
  return done / seconds;
}

async function payloadLimit(c: pg.Client): Promise<number> {
  // Binary search for the largest payload that NOTIFY accepts.
  let ok = 0;
  let bad = 1_000_000;
  while (bad - ok > 1) {
    const size = Math.floor((ok + bad) / 2);
    try {
      await c.query(`select pg_notify('bench_payload', $1)`, ['x'.repeat(size)]);
      ok = size;
    } catch {
      bad = size;
    }
  }
  return ok;
}

export async function measureNotifyLimits(url: string, seconds = 3): Promise<NotifyLimits> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('create table if not exists bench_notify (id bigserial primary key, body text not null)');
    const payloadLimitBytes = await payloadLimit(admin);

    const insert = (c: pg.Client) => c.query('insert into bench_notify (body) values ($1)', [EVENT]);
    const commits: NotifyLimits['commits'] = [];
    for (const clients of [1, 4, 16]) {
      const plain = await txPerSecond(url, clients, seconds, async (c) => {
        await insert(c);
      });
      const notifyInside = await txPerSecond(url, clients, seconds, async (c) => {
        await c.query('begin');
        await insert(c);
        await c.query(`select pg_notify('bench_events', $1)`, [EVENT]);
        await c.query('commit');
      });
      const notifyAfter = await txPerSecond(url, clients, seconds, async (c) => {
        await insert(c);
        await c.query(`select set_config('synchronous_commit', 'off', true), pg_notify('bench_events', $1)`, [EVENT]);
      });
      commits.push({ clients, plain, notifyInside, notifyAfter });
    }

    // The queue, with one listener stuck in a transaction.
    const stuck = new pg.Client({ connectionString: url });
    await stuck.connect();
    await stuck.query('listen bench_queue');
    await stuck.query('begin');
    await stuck.query('select 1');
    const events = 20_000;
    for (let i = 0; i < events; i += 500) {
      const batch = Array.from({ length: 500 }, (_, j) => `select pg_notify('bench_queue', '${EVENT}${i + j}')`);
      await admin.query(batch.join(';'));
    }
    const [row] = (await admin.query<{ usage: number }>('select pg_notification_queue_usage() as usage')).rows;
    const usage = Number(row!.usage);
    await stuck.query('rollback');
    await stuck.end();
    await admin.query('drop table bench_notify');
    return {
      payloadLimitBytes,
      commits,
      queue: {
        events,
        payloadBytes: Buffer.byteLength(EVENT) + 5,
        usage,
        eventsToFill: usage > 0 ? Math.round(events / usage) : Number.POSITIVE_INFINITY,
      },
    };
  } finally {
    await admin.end();
  }
}
