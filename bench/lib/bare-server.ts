/**
 * The yardstick: a bare Fastify route answering the very same bytes, in its own process, so every
 * throughput figure is a ratio to what this machine does with no app work at all.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const body = fs.readFileSync(process.argv[2]!);
const contentType = process.argv[3] ?? 'text/html; charset=utf-8';
const app = Fastify({ logger: false });
app.get('/*', async (_request, reply) => reply.type(contentType).send(body));
app.post('/*', async (_request, reply) => reply.type(contentType).send(body));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address}`);
