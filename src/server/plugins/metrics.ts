import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/connection.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's metrics in the Prometheus text format (docs/operations.md#metrics). */
    metrics: { contentType: string; render(): Promise<string> };
  }
}

export interface MetricsOptions {
  database: DatabaseHandle;
  /** Serve GET /metrics on the app's port to a client that sends `Authorization: Bearer <token>`. */
  token?: string;
}

/** The route label of a request: the route's pattern, never the raw URL (which would explode the series). */
function routeLabel(url: string | undefined, is404: boolean): string {
  if (is404 || !url) return 'unmatched';
  // The web handler answers every page through one catch-all route.
  return url === '/*' ? 'page' : url;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The request durations' buckets, in seconds (upper bounds; `+Inf` is the count). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One label set's requests: how many fell in each bucket (not yet cumulative), their sum and count. */
class Series {
  readonly inBucket = new Float64Array(DURATION_BUCKETS.length);
  sum = 0;
  count = 0;
  readonly labels: { method: string; route: string; status_code: string };
  constructor(labels: Series['labels']) {
    this.labels = labels;
  }

  observe(seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    let b = 0;
    while (b < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[b]!) b++;
    if (b < DURATION_BUCKETS.length) this.inBucket[b]!++;
    this.sum += seconds;
    this.count++;
  }
}

/**
 * `http_request_duration_seconds` (a histogram) and `http_requests_total` (a counter), by method,
 * route and status, kept as plain numbers per label set and handed to prom-client's registry as
 * its own histogram and counter are, at scrape time: prom-client checks the labels, builds a key
 * string and converts each bucket's bound to a string at every observation, a few per cent of a
 * prepared answer's CPU in a profile (decision 160). The registry formats them as it formats every
 * metric.
 */
class RequestSeries {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    const all = () => [...this.series.values()];
    // The registry reads a metric through its name, help, type, aggregator and get() only.
    const register = (name: string, help: string, type: 'histogram' | 'counter', values: () => object[]) => {
      const metric = { name, help, type, aggregator: 'sum' as const };
      registry.registerMetric({ ...metric, get: async () => ({ ...metric, values: values() }) } as unknown as Metric);
    };
    const bucket = 'http_request_duration_seconds_bucket';
    register(
      'http_request_duration_seconds',
      'Time from the request arriving to the response being sent, by route pattern, method and status.',
      'histogram',
      () =>
        all().flatMap(({ labels, inBucket, sum, count }) => {
          let below = 0;
          return [
            ...DURATION_BUCKETS.map((le, b) => {
              below += inBucket[b]!;
              return { labels: { ...labels, le }, value: below, metricName: bucket };
            }),
            { labels: { ...labels, le: '+Inf' }, value: count, metricName: bucket },
            { labels, value: sum, metricName: 'http_request_duration_seconds_sum' },
            { labels, value: count, metricName: 'http_request_duration_seconds_count' },
          ];
        }),
    );
    register('http_requests_total', 'Requests answered, by route pattern, method and status.', 'counter', () =>
      all().map(({ labels, count }) => ({ labels, value: count })),
    );
  }

  /** The series of one label set, made on its first request. */
  of(method: string, route: string, status: number): Series {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = new Series({ method, route, status_code: String(status) });
      this.series.set(key, series);
    }
    return series;
  }
}

/**
 * Prometheus metrics with prom-client: requests by route, method and status with their durations,
 * open live streams, the mail queue (depth, oldest age, failed), database connections and the
 * process's own figures (event-loop delay, memory, CPU, handles). Off the public internet: /metrics
 * exists only when METRICS_TOKEN is set and answers only that Bearer token; METRICS_PORT serves it
 * on 127.0.0.1 instead (`serveMetricsOnLocalPort`).
 */
export const metricsPlugin = fp<MetricsOptions>(
  async function metrics(app: FastifyInstance, options) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

    const requests = new RequestSeries(registry);
    // A callback hook: it waits for nothing, so no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      const route = routeLabel(request.routeOptions.url, request.is404);
      requests.of(request.method, route, reply.statusCode).observe(reply.elapsedTime / 1000);
      done();
    });
    // The prepared answers never reach Fastify's hooks (plugins/prepared.ts): counted here in the same
    // series, under the route that answers them the full way.
    const preparedSeries = new Map<string, Series>();
    app.preparedAnswers.onAnswered((answer, seconds) => {
      let series = preparedSeries.get(answer.route);
      if (!series) {
        series = requests.of('GET', routeLabel(answer.route, false), 200);
        preparedSeries.set(answer.route, series);
      }
      series.observe(seconds);
    });

    new Gauge({
      name: 'live_streams_open',
      help: 'Live support streams open in this process, by kind (a ticket thread, or a ticket list/inbox).',
      labelNames: ['kind'] as const,
      registers: [registry],
      collect() {
        const stats = app.supportLive.stats();
        this.set({ kind: 'ticket' }, stats.ticketStreams);
        this.set({ kind: 'list' }, stats.listStreams);
      },
    });

    // The mail queue is shared by every instance: each reports the same figures, read at scrape time.
    const mailQueue = new Gauge({
      name: 'mail_outbox_messages',
      help: 'Mail in the outbox by state (queued, sending, retrying, sent, failed).',
      labelNames: ['state'] as const,
      registers: [registry],
    });
    const mailOldest = new Gauge({
      name: 'mail_outbox_oldest_waiting_seconds',
      help: 'Age of the oldest mail not yet sent (queued, sending or retrying); 0 when none waits.',
      registers: [registry],
    });
    // One read serves both gauges (prom-client collects every metric of a scrape).
    let pending: Promise<void> | null = null;
    const readMail = () =>
      (pending ??= app.notifications
        .mailQueueStats()
        .then(({ counts, oldestWaitingAt }) => {
          for (const [state, n] of Object.entries(counts)) mailQueue.set({ state }, n);
          mailOldest.set(oldestWaitingAt ? Math.max(0, (Date.now() - Date.parse(oldestWaitingAt)) / 1000) : 0);
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'metrics: could not read the mail queue'))
        .finally(() => {
          pending = null;
        }));
    Object.assign(mailQueue, { collect: readMail });
    Object.assign(mailOldest, { collect: readMail });

    const { database } = options;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections of this process by state (total, idle, waiting clients); the embedded database has one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const pool = database.poolStats();
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });

    app.decorate('metrics', { contentType: registry.contentType, render: () => registry.metrics() });

    const { token } = options;
    if (token) {
      const expected = digest(`Bearer ${token}`);
      app.get(
        '/metrics',
        // Not a session route: the token below is the whole check (constant time).
        { config: { access: 'public' }, schema: { hide: true } },
        async (request, reply) => {
          const given = digest(request.headers.authorization ?? '');
          if (!timingSafeEqual(given, expected)) {
            return reply
              .status(401)
              .header('www-authenticate', 'Bearer realm="metrics"')
              .send({ error: { status: 'UNAUTHENTICATED', message: 'A metrics token is required.' } });
          }
          return reply
            .header('content-type', registry.contentType)
            .header('cache-control', 'no-store')
            .send(await registry.metrics());
        },
      );
    }
  },
  { name: 'metrics', dependencies: ['support', 'notifications', 'prepared-answers'] },
);

/**
 * METRICS_PORT: the metrics on their own port, bound to 127.0.0.1 only (a scraper on the same host
 * or a sidecar), with no token. Returns the server so the caller closes it on shutdown.
 */
export async function serveMetricsOnLocalPort(app: FastifyInstance, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    app.metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': app.metrics.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
