import type { Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A Server-Sent Events response on a hijacked Fastify reply. Each event may carry an `id:`; the
 * browser's EventSource sends the last one back as `Last-Event-ID` when it reconnects.
 */
export interface EventStream {
  send(event: string, data: unknown, id?: number | string): void;
  /** Ends the stream from the server side. */
  close(): void;
  readonly closed: boolean;
  onClose(listener: () => void): void;
}

/** The streams open on each HTTP server, ended when it closes. */
const openStreams = new WeakMap<object, Set<EventStream>>();

/**
 * Ends every event stream open on `server` (the app closing): browsers reconnect, to another
 * instance or to this one restarted, and resume from their Last-Event-ID. Without it a close waits
 * for each stream until the request timeout (5 minutes) ends it.
 */
export function endEventStreams(server: Server): void {
  for (const stream of [...(openStreams.get(server) ?? [])]) stream.close();
}

export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { heartbeatMs: number; retryMs?: number; onHeartbeat?: () => void },
): EventStream {
  const res = reply.raw;
  // Security headers set by the hooks travel with the hijacked response.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value as string);
  }
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    // Proxies such as nginx must pass events through as they come.
    'x-accel-buffering': 'no',
  });
  res.write(`retry: ${options.retryMs ?? 2000}\n\n`);

  const listeners: Array<() => void> = [];
  let closed = false;
  const heartbeat = setInterval(() => {
    if (closed) return;
    res.write(': heartbeat\n\n');
    options.onHeartbeat?.();
  }, options.heartbeatMs);
  heartbeat.unref();

  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const listener of listeners.splice(0)) listener();
  };
  request.raw.on('close', finish);
  res.on('close', finish);
  res.on('error', finish);

  const stream: EventStream = {
    send(event, data, id) {
      if (closed) return;
      const lines = [`event: ${event}`];
      if (id !== undefined) lines.push(`id: ${id}`);
      for (const line of JSON.stringify(data).split('\n')) lines.push(`data: ${line}`);
      res.write(`${lines.join('\n')}\n\n`);
    },
    close() {
      if (closed) return;
      res.end();
      finish();
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
  const server = request.server.server;
  let streams = openStreams.get(server);
  if (!streams) openStreams.set(server, (streams = new Set()));
  streams.add(stream);
  stream.onClose(() => streams.delete(stream));
  return stream;
}
