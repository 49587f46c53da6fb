/**
 * The yardstick for the message post: a bare Fastify route that inserts the same message row with
 * the same driver (node-postgres, a pool of the app's size) and answers the same bytes. No session,
 * no ticket check, no notification: what the database and the driver cost on their own.
 *
 * argv: DATABASE_URL, response body file, author user id, ticket ids (comma-separated)
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const [url, bodyFile, userId, ticketList] = process.argv.slice(2) as [string, string, string, string];
const body = fs.readFileSync(bodyFile);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const tickets = ticketList.split(',');
let next = 0;

const app = Fastify({ logger: false });
app.post('/*', async (request, reply) => {
  const ticketId = tickets[next++ % tickets.length];
  const { messageBody } = request.body as { messageBody: string };
  await pool.query(
    'insert into ticket_messages (ticket_id, message_body, user_id, admin, timestamp) values ($1, $2, $3, false, clock_timestamp()) returning id, ticket_id, message_body, timestamp, admin, user_id',
    [ticketId, messageBody, userId],
  );
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address}`);
