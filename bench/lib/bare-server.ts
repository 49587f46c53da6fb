/**
 * The yardstick: a bare Fastify route answering the very same bytes, in its own process, so every
 * throughput figure is a ratio to what this machine does with no app work at all. Given a third
 * argument (a JSON file of response headers), it sends those headers too, as captured from our
 * answer: the same bytes on the wire save the per-response values (nonce, request id, date).
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const body = fs.readFileSync(process.argv[2]!);
const contentType = process.argv[3] ?? 'text/html; charset=utf-8';
const headers = process.argv[4]
  ? (JSON.parse(fs.readFileSync(process.argv[4], 'utf8')) as Record<string, string>)
  : undefined;
const app = Fastify({ logger: false });
app.get('/*', async (_request, reply) => (headers ? reply.headers(headers) : reply).type(contentType).send(body));
app.post('/*', async (_request, reply) => reply.type(contentType).send(body));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address}`);
