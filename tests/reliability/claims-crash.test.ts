/**
 * kill -9 while claims are decided (DATA-02, docs/decisions/152-incident-claims.md): a decision is
 * one statement (the claim's next version and that version's `claim_decisions` row, whose trigger
 * writes the `claim.decided` event), so a server killed mid-decision must leave each claim decided
 * once or not at all. Staff's tabs decide many claims, each against the version it read (1), while
 * the server is SIGKILLed a few times; a request whose answer never came is sent again, the same
 * body, once the server is back, as a real client retries. For some claims a second tab sends a
 * different decision on the same version. Afterwards, for every claim: one decision row per
 * version, the version one more than its decisions, one `claim.decided` event per decision, every
 * request answered at last, 200 with the decision it sent, or 409 when another decision was made.
 * Runs on PGlite and on PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { generateSecret } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigure, runs } from '../helpers/figures.ts';
import { runCliHere } from '../helpers/server-process.ts';
import { totpAt } from '../helpers/second-factor.ts';
import { heldWithin } from '../helpers/wait.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import {
  type AppServer,
  ACK_WAIT_MS,
  cleanupAll,
  killApp,
  mailCrashWorld,
  newPassword,
  type Query,
  signIn,
  sleep,
  startApp,
} from './crash-harness.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
/**
 * A few kills, each with several decisions in flight. Start-ups are most of the run's time, and an
 * embedded database's start (its recovery after the kill) takes about twice PostgreSQL's: one kill
 * fewer there keeps the file near 20 s.
 */
const KILLS = runs(kind === 'pglite' ? 2 : 3, 20);
const CLAIMS = runs(60, 400);
/** Staff's tabs deciding at once. */
const TABS = 6;
/** Each claim's item value, in cents. */
const VALUE_CENTS = 15_000;

afterAll(cleanupAll);

type Outcome = 'upheld' | 'part' | 'declined';
interface DecisionBody {
  outcome: Outcome;
  amount?: number;
  reason?: string;
  seenVersion: number;
}
/** One tab's decision of one claim, sent until it is answered 200 or 4xx. */
interface Intent {
  claim: number;
  ticketId: string;
  rival: boolean;
  body: DecisionBody;
  /** What each send ended in: a status, or the error of a request whose answer never came. */
  tries: string[];
  answer?: { status: number; decision?: { outcome: string; amountCents: number; decidedAt: string } };
  /** When the send that was answered left: a retry answered with a decision made before it found an earlier send's. */
  answeredSendAt?: number;
}

const centsOf = (body: DecisionBody) =>
  body.outcome === 'upheld' ? VALUE_CENTS : body.outcome === 'part' ? Math.round(body.amount! * 100) : 0;

/** The decision a tab makes of claim `i`; every fourth claim also gets a different one from a second tab. */
function intentsOf(i: number, ticketId: string): Intent[] {
  const outcomes: DecisionBody[] = [
    { outcome: 'upheld', seenVersion: 1 },
    { outcome: 'part', amount: 40.5, seenVersion: 1 },
    { outcome: 'declined', reason: `Claim ${i}: handed over whole, with a photo.`, seenVersion: 1 },
  ];
  const main = outcomes[i % 3]!;
  const intents: Intent[] = [{ claim: i, ticketId, rival: false, body: main, tries: [] }];
  if (i % 4 === 0) {
    const other: DecisionBody =
      main.outcome === 'declined'
        ? { outcome: 'part', amount: 10, seenVersion: 1 }
        : { outcome: 'declined', reason: `Claim ${i}: the other tab says no.`, seenVersion: 1 };
    intents.push({ claim: i, ticketId, rival: true, body: other, tries: [] });
  }
  return intents;
}

/** Sends one decision; undefined when no answer came (refused, reset, timed out) or the server failed (5xx). */
async function send(app: AppServer, cookie: string, intent: Intent): Promise<Intent['answer'] | undefined> {
  const sentAt = Date.now();
  let res: Response;
  try {
    res = await fetch(`${app.url}/api/admin/support/tickets/${intent.ticketId}/claim/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: app.url },
      body: JSON.stringify(intent.body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    intent.tries.push((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
    return undefined;
  }
  const json = (await res.json().catch(() => null)) as {
    claim?: { decision?: NonNullable<Intent['answer']>['decision'] | null };
  } | null;
  intent.tries.push(String(res.status));
  if (res.status >= 500 || json === null) return undefined;
  intent.answeredSendAt = sentAt;
  const decision = res.status === 200 ? (json.claim?.decision ?? undefined) : undefined;
  return decision ? { status: res.status, decision } : { status: res.status };
}

/**
 * The tabs, deciding the queue's intents until it is empty or the server is gone. An intent whose
 * answer never came goes back to the front of the queue (sent again, the same body, once the
 * server is back); a tab whose request found no server stops.
 */
function decide(app: AppServer, cookie: string, queue: Intent[], acked: { n: number }) {
  const tab = async () => {
    for (let sends = 0; sends < 10_000; sends++) {
      const intent = queue.shift();
      if (!intent) return;
      const answer = await send(app, cookie, intent);
      if (answer) {
        intent.answer = answer;
        acked.n++;
        continue;
      }
      queue.unshift(intent);
      // No answer and no server: the tab waits for the next start. A 5xx from a live server is sent again now.
      if (!/^5\d\d$/.test(intent.tries.at(-1)!)) return;
    }
  };
  return Promise.all(Array.from({ length: TABS }, tab));
}

/** What the database holds at the end: each claim's version and decision, its decision rows, events and audit entries. */
async function readBack(query: Query) {
  return {
    claims: await query<{
      ticket_id: string;
      id: string;
      version: number;
      outcome: string | null;
      amount_cents: number | null;
      decisions: string;
    }>(
      `select c.ticket_id, c.id, c.version, c.outcome, c.amount_cents,
         (select count(*) from claim_decisions d where d.claim_id = c.id) as decisions
       from incident_claims c`,
    ),
    perVersion: await query<{ claim_id: string; version: number; n: string }>(
      `select claim_id, version, count(*) as n from claim_decisions group by claim_id, version`,
    ),
    events: await query<{ claim_id: string; version: string; n: string }>(
      `select payload->>'claimId' as claim_id, payload->>'version' as version, count(*) as n
       from webhook_events where type = 'claim.decided' group by 1, 2`,
    ),
    audits: await query<{ target_id: string; n: string }>(
      `select target_id, count(*) as n from audit_log where action = 'claim.decide' group by target_id`,
    ),
  };
}

/** The claims, made straight in the database (as a ticket's statement makes them), each at version 1; and the app's webhook endpoint. */
async function makeClaims(query: Query, webhook: { url: string; secret: string }): Promise<string[]> {
  await query(`insert into webhook_endpoints (url, events, secret) values ($1, $2, $3)`, [
    webhook.url,
    ['claim.decided'],
    webhook.secret,
  ]);
  const [sender] = await query<{ id: string }>(
    `insert into users (email, password_hash, email_verified_at) values ($1, 'x', now()) returning id`,
    [`claims-sender-${randomUUID().slice(0, 8)}@example.nz`],
  );
  const rows = await query<{ ticket_id: string }>(
    `with t as (
       insert into support_tickets (user_id, reason, delivery_reference)
       select $1::uuid, 'Incident', 'BGS-' || (9000 + n) from generate_series(1, $2::int) n
       returning id, delivery_reference
     )
     insert into incident_claims (ticket_id, kind, delivery_reference, item_value_cents, delivered_on)
     select id, 'lost', delivery_reference, $3::int, current_date - 1 from t
     returning ticket_id`,
    [sender!.id, CLAIMS, VALUE_CENTS],
  );
  return rows.map((r) => r.ticket_id);
}

describe('kill -9 while claims are decided (DATA-02)', () => {
  it(
    `decides each claim once per version over ${KILLS} SIGKILLs, every retry answered with its own decision`,
    { timeout: 240_000 + KILLS * 60_000 },
    async () => {
      const receiver = await startWebhookReceiver();
      const world = await mailCrashWorld('bagspace-claims-crash-', { WEBHOOK_ALLOW_HTTP: 'true' });
      const { env, readRunning } = world;
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      receiver.setSecret(secret);
      const admin = { email: `claims-desk-${randomUUID().slice(0, 8)}@bagspace.test`, password: newPassword() };
      const adminSecret = generateSecret();
      // The operator's command, in this process (a child's start-up is seconds of a loaded machine).
      const made = await runCliHere(
        ['create-user', '--email', admin.email, '--password-stdin', '--admin', '--totp-secret', adminSecret],
        { NODE_ENV: 'production', ...env },
        `${admin.password}\n`,
      );
      expect(made.code, made.stderr).toBe(0);

      let ticketIds: string[] = [];
      let intents: Intent[] = [];
      const queue: Intent[] = [];
      let found: Awaited<ReturnType<typeof readBack>> | undefined;
      let cookie: string | undefined;
      let inFlightAtKills = 0;
      const acked = { n: 0 };
      try {
        for (let run = 0; run <= KILLS; run++) {
          const app = await startApp(env);
          cookie ??= await signIn(app.url, admin.email, admin.password, await totpAt(adminSecret));
          if (run === 0) {
            // Through the running server (the embedded database has one user at a time).
            ticketIds = await readRunning((query) => makeClaims(query, { url: receiver.url(), secret }));
            intents = ticketIds.flatMap((ticketId, i) => intentsOf(i, ticketId));
            queue.push(...intents);
          }
          const before = acked.n;
          const tabs = decide(app, cookie, queue, acked);
          if (run === KILLS) {
            // The last start: no kill; every decision left is answered, then read through the running server.
            await tabs;
            found = await readRunning(readBack);
            expect(await app.process.stop('SIGTERM')).toBe(0);
            break;
          }
          // The kill lands after a random number of this run's answers, while the other tabs' requests are in flight.
          const target = 3 + Math.floor(Math.random() * 12);
          let done = false;
          void tabs.then(() => (done = true));
          await heldWithin(`${target} answered decisions`, () => done || acked.n - before >= target, {
            timeoutMs: ACK_WAIT_MS,
            intervalMs: 2,
          });
          await sleep(Math.floor(Math.random() * 40)); // Time is the subject: the kill lands at any moment of a decision, its commit and its answer among them.
          await killApp(app);
          await tabs;
          // Sent and not answered: in flight at the kill (a refused one never reached the server).
          inFlightAtKills += queue.filter((i) => i.tries.length > 0 && i.tries.at(-1) !== 'ECONNREFUSED').length;
        }

        if (!found) throw new Error('the last run read nothing back');

        const byTicket = new Map(found.claims.map((c) => [c.ticket_id, c]));
        const eventsOf = new Map(found.events.map((e) => [`${e.claim_id}:${e.version}`, Number(e.n)]));
        const decisionKeys = new Set(found.perVersion.map((d) => `${d.claim_id}:${d.version}`));
        const problems: string[] = [];
        for (const [i, ticketId] of ticketIds.entries()) {
          const claim = byTicket.get(ticketId)!;
          const decisions = Number(claim.decisions);
          if (decisions !== 1) problems.push(`claim ${i}: ${decisions} decisions`);
          if (Number(claim.version) !== decisions + 1)
            problems.push(`claim ${i}: version ${claim.version} with ${decisions} decisions`);
          for (let version = 2; version <= Number(claim.version); version++) {
            const events = eventsOf.get(`${claim.id}:${version}`) ?? 0;
            if (events !== 1) problems.push(`claim ${i}: ${events} claim.decided events for version ${version}`);
          }
          const mine = intents.filter((intent) => intent.claim === i);
          const answered200 = mine.filter((intent) => intent.answer?.status === 200);
          if (answered200.length !== 1) problems.push(`claim ${i}: ${answered200.length} decisions answered 200`);
          for (const intent of mine) {
            const same = claim.outcome === intent.body.outcome && Number(claim.amount_cents) === centsOf(intent.body);
            const status = intent.answer?.status;
            if (status === 200) {
              // Answered with the decision it sent, and that is the claim's.
              if (!same) problems.push(`claim ${i}: answered 200 but the claim holds ${claim.outcome}`);
              if (intent.answer!.decision?.outcome !== intent.body.outcome)
                problems.push(`claim ${i}: answered 200 with ${intent.answer!.decision?.outcome}`);
            } else if (status === 409) {
              if (same) problems.push(`claim ${i}: the same decision refused 409`);
            } else {
              problems.push(`claim ${i}: ended ${status ?? 'unanswered'} after ${intent.tries.join(', ')}`);
            }
          }
        }
        // Nothing but the claims' versions: no decision row and no event for a version without the other.
        for (const d of found.perVersion)
          if (Number(d.n) !== 1) problems.push(`${d.claim_id} v${d.version}: ${d.n} rows`);
        for (const key of eventsOf.keys())
          if (!decisionKeys.has(key)) problems.push(`an event without a decision: ${key}`);

        const retried = intents.filter((intent) => intent.tries.length > 1);
        const retriedAnswered = (status: number) => retried.filter((intent) => intent.answer?.status === status).length;
        // A retry answered with a decision made before it was sent: an earlier send committed, its answer lost to the kill.
        const foundOwn = retried.filter(
          (intent) =>
            intent.answer?.status === 200 && Date.parse(intent.answer.decision!.decidedAt) < intent.answeredSendAt!,
        ).length;
        const audited = found.audits.reduce((sum, a) => sum + Number(a.n), 0);
        const values = {
          kills: KILLS,
          claims: CLAIMS,
          decisions: intents.length,
          inFlightAtKills,
          retried: retried.length,
          retriedAnswered200: retriedAnswered(200),
          retriedAnswered409: retriedAnswered(409),
          retryFoundItsDecision: foundOwn,
          rivalsRefused: intents.filter((intent) => intent.answer?.status === 409).length,
          // The audit entry is written by the decision's own statement: a kill keeps both or neither.
          decisionsNotAudited: CLAIMS - audited,
          problems: problems.length,
        };
        console.log(`claims-crash-${kind}: ${JSON.stringify(values)}`);
        recordFigure('claims-crash', {
          checks: ['DATA-02'],
          label: `kill -9 while deciding claims: one decision and one claim.decided event per version (${kind})`,
          values,
        });
        expect(problems).toEqual([]);
        expect(found.claims).toHaveLength(CLAIMS);
        // Every claim was decided once, and each decision has its one audit entry.
        expect(found.audits.map((a) => Number(a.n))).toEqual(found.audits.map(() => 1));
        expect(audited).toBe(CLAIMS);
      } finally {
        await receiver.close();
        await world.close();
      }
    },
  );
});
