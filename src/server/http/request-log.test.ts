import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loggerOptions } from '../logging.ts';
import { errorsPlugin } from '../plugins/errors.ts';
import { RequestLog } from './request-log.ts';

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
