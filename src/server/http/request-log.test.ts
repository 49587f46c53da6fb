import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoggableRequest, loggerOptions } from '../logging.ts';
import { errorsPlugin } from '../plugins/errors.ts';
import { RequestLog, requestJson, writeRequestLine } from './request-log.ts';

type Line = Record<string, unknown> & { msg: string; reqId?: string };

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
});

/** An app logging at info into `lines`, as the server does (logging.ts's options, this request log, the error handler). */
async function appLogging() {
  const lines: Line[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
  const app = Fastify({ logger: loggerOptions('info', stream), logController: new RequestLog() });
  open.push(app);
  await app.register(errorsPlugin);
  app.get('/fine', async () => ({ ok: true }));
  app.get('/broken', async () => {
    throw new Error('the database went away');
  });
  return { app, lines };
}

describe('the request log', () => {
  it('writes one line per request, when it is answered: method, redacted address, status, time and id', async () => {
    const { app, lines } = await appLogging();
    const res = await app.inject({ method: 'GET', url: '/fine?token=secret-value&page=2' });
    expect(res.statusCode).toBe(200);
    const mine = lines.filter((line) => line.reqId !== undefined);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/fine?token=[redacted]&page=2' },
      res: { statusCode: 200 },
    });
    expect(typeof mine[0]!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-value');
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });

  it('still logs a failed request with its error, and its line with the status sent', async () => {
    const { app, lines } = await appLogging();
    const res = await app.inject({ method: 'GET', url: '/broken' });
    expect(res.statusCode).toBe(500);
    const mine = lines.filter((line) => line.reqId !== undefined);
    expect(mine.map((line) => line.msg)).toEqual(['request failed', 'request completed']);
    expect(mine[0]).toMatchObject({ level: 50, err: { message: 'the database went away' } });
    expect(mine[1]).toMatchObject({ res: { statusCode: 500 } });
  });
});

describe('a request line', () => {
  /** A logger as the server's (logging.ts's options), its lines kept as written, at a fixed time. */
  function capture() {
    const written: string[] = [];
    const logger = pino(
      { ...loggerOptions('info'), timestamp: () => ',"time":1796397502719' },
      { write: (line: string) => void written.push(line) },
    );
    return { logger, written };
  }
  const requests: LoggableRequest[] = [
    { method: 'GET', url: '/faqs', host: '127.0.0.1:4390', ip: '127.0.0.1', socket: { remotePort: 51234 } },
    { method: 'GET', url: '/unsubscribe/tok-123?token=abc&page=2', host: 'bagspace.nz', ip: '::1', socket: {} },
    { method: 'POST', url: '/search?q="quoted"\\back\tslash\u0001é🙂\ud800', ip: undefined, socket: undefined },
    { method: 'GET', url: `/${'long-path/'.repeat(40)}`, host: 'a"b', ip: '10.0.0.1', socket: { remotePort: 1 } },
  ];

  it('is the very bytes pino writes for the same fields, bound to the request or given its id', () => {
    const times = [0.0732, 12, Number.NaN, 1e21];
    for (const [i, request] of requests.entries()) {
      const { logger, written } = capture();
      const bound = logger.child({ reqId: `req-${i}` });
      const fields = { req: request, res: { statusCode: 200 + i }, responseTime: times[i]! };
      bound.info(fields, 'request completed');
      writeRequestLine(bound as FastifyBaseLogger, undefined, request, 200 + i, times[i]!);
      logger.info({ reqId: `req-${i}`, ...fields }, 'request completed');
      writeRequestLine(logger as FastifyBaseLogger, `req-${i}`, request, 200 + i, times[i]!);
      // A prepared answer's way: the request as requestJson made it (once per connection).
      writeRequestLine(logger as FastifyBaseLogger, `req-${i}`, requestJson(request), 200 + i, times[i]!);
      expect(written).toHaveLength(5);
      expect(written[1]).toBe(written[0]);
      expect(written[3]).toBe(written[2]);
      expect(written[4]).toBe(written[2]);
      expect(written[0]).toBe(written[2]);
      expect(JSON.parse(written[0]!)).toMatchObject({ reqId: `req-${i}`, msg: 'request completed' });
    }
  });

  it('keeps the secrets out and is not written below its level', () => {
    const { logger, written } = capture();
    writeRequestLine(logger as FastifyBaseLogger, 'r1', requests[1]!, 200, 1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      req: { url: '/unsubscribe/[redacted]?token=[redacted]&page=2' },
    });
    logger.level = 'warn';
    writeRequestLine(logger as FastifyBaseLogger, 'r2', requests[0]!, 200, 1);
    expect(written).toHaveLength(1);
  });
});
