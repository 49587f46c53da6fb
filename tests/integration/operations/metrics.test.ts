import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/ports.ts';
import { startServer } from '../../helpers/server-process.ts';
import { postJson, uniqueEmail } from '../../helpers/accounts.ts';
import { supportUser } from '../../helpers/support.ts';
import { createTestApp, testDatabaseKind, type TestApp, withMigratedDatabase } from '../../helpers/test-app.ts';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';

/** The value of one sample of the Prometheus text, e.g. sample(text, 'mail_outbox_messages{state="queued"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN }, mailWorker: false });
  });
  afterAll(() => t.close());

  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
  /** The app's port on 127.0.0.1, listening from the first test that needs a real socket. */
  const listening = async () => {
    if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
    return (t.app.server.address() as net.AddressInfo).port;
  };

  it('answers only the Bearer token, and never to a session', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      expect(res.body).not.toContain('http_request');
    }
    const admin = await supportUser(t, { role: 'admin' });
    const asAdmin = await t.app.inject({ method: 'GET', url: '/metrics', headers: admin.headers });
    expect(asAdmin.statusCode).toBe(401);
  });

  it('counts requests by route pattern and status, with durations', async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/faqs?type=general' })).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/support/tickets/00000000-0000-4000-8000-000000000000/messages' });
    await t.app.inject({ method: 'GET', url: '/no/such/api/route', headers: { accept: 'application/json' } });
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    expect(sample(text, 'http_requests_total{method="GET",route="/api/faqs",status_code="200"}')).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/faqs",status_code="200"}')).toBe(
      3,
    );
    expect(
      sample(
        text,
        'http_requests_total{method="GET",route="/api/support/tickets/:ticketId/messages",status_code="401"}',
      ),
    ).toBe(1);
    // Unknown paths share one series: the raw URL never becomes a label.
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(text).not.toContain('/no/such/api/route');
  });

  it('counts the prepared public answers, sent before Fastify, under the route that answers them the full way', async () => {
    const port = await listening();
    const series = 'http_requests_total{method="GET",route="/api/legal/links",status_code="200"}';
    const duration = 'http_request_duration_seconds_count{method="GET",route="/api/legal/links",status_code="200"}';
    const before = (await scrape(`Bearer ${TOKEN}`)).body;
    // The first goes the full way and prepares the answer; the three after it are the prepared one.
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/legal/links`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const after = (await scrape(`Bearer ${TOKEN}`)).body;
    expect((sample(after, series) ?? 0) - (sample(before, series) ?? 0)).toBe(4);
    expect((sample(after, duration) ?? 0) - (sample(before, duration) ?? 0)).toBe(4);
    // A histogram Prometheus reads: buckets that only grow, the last (+Inf) every request, a sum of seconds.
    const labels = 'method="GET",route="/api/legal/links",status_code="200"';
    const buckets = after
      .split('\n')
      .filter((line) => line.startsWith(`http_request_duration_seconds_bucket{${labels},le=`))
      .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
    expect(buckets).toHaveLength(12);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(buckets.at(-1)).toBe(sample(after, `http_request_duration_seconds_count{${labels}}`));
    expect(sample(after, `http_request_duration_seconds_bucket{${labels},le="+Inf"}`)).toBe(buckets.at(-1));
    const sum = sample(after, `http_request_duration_seconds_sum{${labels}}`)!;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(10);
    expect(after).toContain('# TYPE http_request_duration_seconds histogram');
    expect(after).toContain('# TYPE http_requests_total counter');
  });

  it('reports the mail queue, live streams, database connections and the event loop', async () => {
    // A sign-up records its confirmation mail (just after answering, so that the answer's timing
    // tells nothing); with the worker stopped it waits in the queue.
    const signup = await postJson(t, '/api/auth/signup', {
      email: uniqueEmail('metrics'),
      password: 'Harbour-metrics-kite-42',
    });
    expect(signup.statusCode).toBe(202);
    await expect
      .poll(async () => sample((await scrape(`Bearer ${TOKEN}`)).body, 'mail_outbox_messages{state="queued"}'))
      .toBeGreaterThanOrEqual(1);
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(text, 'mail_outbox_messages{state="failed"}')).toBe(0);
    expect(sample(text, 'mail_outbox_oldest_waiting_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'live_streams_open{kind="ticket"}')).toBe(0);
    expect(sample(text, 'live_streams_open{kind="list"}')).toBe(0);
    expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts an open live stream while it is open', async () => {
    const user = await supportUser(t);
    const port = await listening();
    const request = http.get({
      host: '127.0.0.1',
      port,
      path: '/api/support/tickets/stream',
      headers: { ...user.headers, accept: 'text/event-stream' },
    });
    const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
    expect(response.statusCode).toBe(200);
    // The stream is counted once its first event (the list) has been sent.
    await new Promise<void>((resolve) => response.once('data', () => resolve()));
    expect(sample((await scrape(`Bearer ${TOKEN}`)).body, 'live_streams_open{kind="list"}')).toBe(1);
    request.destroy();
    await expect
      .poll(async () => sample((await scrape(`Bearer ${TOKEN}`)).body, 'live_streams_open{kind="list"}'))
      .toBe(0);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('does not exist on the app’s port', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http_request');
    } finally {
      await t.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'pglite')('METRICS_PORT', () => {
  it('serves the metrics on 127.0.0.1 only, without a token, next to the app', async () => {
    const dataDir = withMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-metrics-')));
    const metricsPort = String(await freePort());
    const server = startServer({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: metricsPort });
    try {
      const base = await server.ready;
      expect(server.output()).toContain(`Metrics: http://127.0.0.1:${metricsPort}/metrics`);
      expect((await fetch(`${base}/api/faqs?type=general`)).status).toBe(200);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'http_requests_total{method="GET",route="/api/faqs",status_code="200"}')).toBe(1);
      // Not on the app's own port, and the metrics port is not listening on other addresses.
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      const addresses = Object.values(os.networkInterfaces())
        .flat()
        .filter((a) => a && a.family === 'IPv4' && !a.internal)
        .map((a) => a!.address);
      for (const address of addresses) {
        await expect(fetch(`http://${address}:${metricsPort}/metrics`)).rejects.toThrow();
      }
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
