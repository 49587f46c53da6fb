/**
 * A second yardstick for the signed-in ticket list: a bare Fastify route that runs the same two
 * queries the app runs for it (the session lookup and the ticket list) with the same driver and
 * pool size, and answers the same bytes. Ours ÷ this is what the framework, validation and
 * serialisation cost on top of the database work.
 *
 * argv: DATABASE_URL, response body file, session token hash, user id
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const [url, bodyFile, tokenHash, userId] = process.argv.slice(2) as [string, string, string, string];
const body = fs.readFileSync(bodyFile);
const pool = new pg.Pool({ connectionString: url, max: 10 });

const app = Fastify({ logger: false });
app.get('/*', async (_request, reply) => {
  const session = await pool.query(
    `select s.token_hash, u.id, u.email, u.role, u.email_verified_at is not null as verified, s.expires_at,
       s.last_seen_at < now() - interval '1 minute' as stale
     from sessions s join users u on u.id = s.user_id
     where s.token_hash = $1 and s.expires_at > now() and s.last_seen_at > now() - interval '1 hour' and u.disabled_at is null`,
    [tokenHash],
  );
  if (session.rowCount !== 1) return reply.status(401).send();
  await pool.query(
    `select t.id, t.ticket_no, t.reason, t.open, t.creation_date, t.last_message, t.user_id from support_tickets t
     where t.user_id = $1 and t.open = true order by t.last_message desc, t.ticket_no desc limit 500`,
    [userId],
  );
  return reply.type('application/json; charset=utf-8').send(body);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address}`);
