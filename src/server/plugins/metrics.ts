import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
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

    const requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request arriving to the response being sent, by route pattern, method and status.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const requestsTotal = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route pattern, method and status.',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    });
    // A callback hook: it waits for nothing, so no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: routeLabel(request.routeOptions.url, request.is404),
        status_code: String(reply.statusCode),
      };
      requests.observe(labels, reply.elapsedTime / 1000);
      requestsTotal.inc(labels);
      done();
    });
    // The prepared answers never reach Fastify's hooks (plugins/prepared.ts): counted here in the same
    // series, under the route that answers them the full way (the label set made once per route).
    const preparedSeries = new Map<string, { duration: { observe(seconds: number): void }; total: { inc(): void } }>();
    app.preparedAnswers.onAnswered((answer, seconds) => {
      let series = preparedSeries.get(answer.route);
      if (!series) {
        const labels = { method: 'GET', route: routeLabel(answer.route, false), status_code: '200' };
        series = { duration: requests.labels(labels), total: requestsTotal.labels(labels) };
        preparedSeries.set(answer.route, series);
      }
      series.duration.observe(seconds);
      series.total.inc();
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
