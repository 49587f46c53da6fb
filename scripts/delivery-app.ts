/**
 * A stand-in for our app's delivery endpoint (docs/integrations.md;
 * docs/decisions/151-delivery-card.md), for the tests and for `npm run dev`. It checks each
 * request's Standard Webhooks signature (401 when it is wrong or more than 5 minutes old) and
 * answers the documented shape for a few references:
 *
 * - `BGS-1001`: delivered, with its history and two handover photos;
 * - `BGS-1002`: in transit;
 * - `BGS-SLOW`: answers after 5 s (the card gives up after 2);
 * - `BGS-500`: answers 500;
 * - `BGS-MALFORMED`: answers a body that is not JSON;
 * - `BGS-BADLINK`: a photo link that is not http(s) (not the documented shape);
 * - any other: 404, the app knows no such delivery.
 *
 * The special ones answer so for any reference they begin (`BGS-SLOW-7f3a`), so a test can take one
 * no earlier test's look is still kept for (the server keeps a failure 10 s).
 *
 * It also keeps the app's payout ledger (docs/integrations.md, "Holding and releasing payouts"): our
 * webhooks arrive at `/webhooks/bagspace`, signed with the endpoint's own secret (`webhookSecret`,
 * or `setWebhookSecret` once the endpoint is made), and each `claim.decided` becomes one entry per
 * claim version: upheld in full or in part pays the sender and holds the traveller's payout for the
 * delivery; declined releases it. A delivery seen before (its webhook-id) or a version already in the
 * ledger (`claimId` + `version`) changes nothing, so a retry or "Deliver again" pays nobody twice.
 * Other events are taken (2xx) and ignored: `ticket.created` does not say whether a ticket is a
 * claim, and nothing is held before a decision. `GET /payouts` answers the ledger as JSON.
 *
 * `node scripts/delivery-app.ts` serves it on DELIVERY_APP_PORT (a free port when unset) with the
 * secret DELIVERY_CONTEXT_SECRET (and BAGSPACE_WEBHOOK_SECRET, the webhook endpoint's, when set),
 * and prints its addresses.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_REFERENCES = {
  delivered: 'BGS-1001',
  inTransit: 'BGS-1002',
  slow: 'BGS-SLOW',
  failing: 'BGS-500',
  malformed: 'BGS-MALFORMED',
  badLink: 'BGS-BADLINK',
} as const;

/** How long BGS-SLOW takes to answer: longer than the card waits. */
export const SLOW_ANSWER_MS = 5_000;
/** A signature older (or newer) than this is refused, as the Standard Webhooks libraries do. */
const TOLERANCE_SECONDS = 5 * 60;

/** One request the app received, as it came (the tests check the signature themselves too). */
export interface ReceivedRequest {
  /** `/webhooks/bagspace` for our webhooks; any other path is the delivery endpoint. */
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
  /** Whether this app found the signature good (with the webhook endpoint's secret for a webhook). */
  verified: boolean;
}

/** What the app did about one claim version's decision. */
export interface PayoutEntry {
  claimId: string;
  version: number;
  ticketId: string;
  deliveryReference: string;
  outcome: 'upheld' | 'part' | 'declined';
  /** What the sender is paid, in cents (0 when declined). */
  amount: number;
  currency: string;
  appeal: boolean;
  sender: 'pay' | 'nothing';
  traveller: 'hold' | 'release';
  /** The effect in words, as the app's finance people read it. */
  effect: string;
  /** The delivery that made the entry. */
  webhookId: string;
}

/** `GET /payouts`: every entry in the order made, and where each delivery's traveller payout stands. */
export interface PayoutLedger {
  entries: PayoutEntry[];
  /** By delivery reference: the effect of its claim's latest version. */
  travellerPayouts: Record<string, 'held' | 'released'>;
  /** Deliveries taken and changing nothing: a webhook-id seen before, or a claim version already in the ledger. */
  repeats: number;
}

export interface DeliveryApp {
  url: string;
  /** Where Bagspace's webhooks go (register it as an endpoint for `claim.decided`). */
  webhookUrl: string;
  /** The payout ledger, as JSON. */
  payoutsUrl: string;
  received: ReceivedRequest[];
  /** The webhook endpoint's signing secret (`whsec_…`), known once the endpoint is made. */
  setWebhookSecret(secret: string): void;
  close(): Promise<void>;
}

const PHOTO_BASE = 'https://photos.bagspace.example/handover';

/** BGS-1001: from Auckland to Wellington, delivered, with its photos. */
function delivered(reference: string) {
  return {
    reference,
    status: 'delivered',
    route: { from: 'Auckland', to: 'Wellington' },
    dates: {
      booked: '2026-11-20T21:15:00Z',
      pickedUp: '2026-11-22T19:40:00Z',
      delivered: '2026-11-23T02:05:00Z',
      expected: '2026-11-23',
    },
    sender: { name: 'Mere Tane', email: 'mere@example.nz' },
    traveller: { name: 'Sam Wilson', email: 'sam.traveller@example.nz' },
    item: { description: 'A box of books (about 4 kg)', declaredValue: { amount: 120, currency: 'NZD' } },
    history: [
      { at: '2026-11-20T21:15:00Z', status: 'booked' },
      { at: '2026-11-22T19:40:00Z', status: 'picked-up', note: 'Handed over at Auckland Airport, domestic terminal' },
      { at: '2026-11-23T02:05:00Z', status: 'delivered', note: 'Signed for by the recipient' },
    ],
    photos: [
      { url: `${PHOTO_BASE}/${reference}/pickup.jpg`, caption: 'At pickup', takenAt: '2026-11-22T19:41:00Z' },
      { url: `${PHOTO_BASE}/${reference}/delivery.jpg`, caption: 'At delivery', takenAt: '2026-11-23T02:06:00Z' },
    ],
    // Fields the card does not read are ignored.
    internalScore: 7,
  };
}

/** BGS-1002: from Christchurch to Dunedin, on its way. */
function inTransit(reference: string) {
  return {
    reference,
    status: 'in-transit',
    route: { from: 'Christchurch', to: 'Dunedin' },
    dates: { booked: '2026-11-28T03:00:00Z', pickedUp: '2026-11-29T20:30:00Z', expected: '2026-11-30' },
    sender: { name: 'Aroha Ngata' },
    traveller: { name: 'Priya Patel', email: null },
    item: { description: 'A framed painting', declaredValue: { amount: 450.5, currency: 'NZD' } },
    history: [
      { at: '2026-11-28T03:00:00Z', status: 'booked' },
      { at: '2026-11-29T20:30:00Z', status: 'in-transit' },
    ],
    photos: [],
  };
}

/** Whether the request carries a good Standard Webhooks signature of `body`, made within the tolerance. */
export function verifySignature(secret: string, headers: IncomingMessage['headers'], body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const WEBHOOK_PATH = '/webhooks/bagspace';
const PAYOUTS_PATH = '/payouts';

const CLAIM_OUTCOMES = ['upheld', 'part', 'declined'] as const;

/** A `claim.decided` event's data, as far as the ledger reads it (docs/integrations.md). */
interface ClaimDecided {
  claimId: string;
  ticketId: string;
  deliveryReference: string;
  version: number;
  outcome: PayoutEntry['outcome'];
  amount: number;
  currency: string;
  appeal: boolean;
}

function claimDecidedOf(data: unknown): ClaimDecided | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const ok =
    typeof d.claimId === 'string' &&
    typeof d.ticketId === 'string' &&
    typeof d.deliveryReference === 'string' &&
    Number.isInteger(d.version) &&
    (CLAIM_OUTCOMES as readonly unknown[]).includes(d.outcome) &&
    Number.isInteger(d.amount) &&
    typeof d.currency === 'string';
  return ok ? ({ ...d, appeal: d.appeal === true } as ClaimDecided) : null;
}

/** The payout ledger: one entry per claim version, each delivery and each version taken once. */
function createPayoutLedger() {
  const entries: PayoutEntry[] = [];
  const seenWebhookIds = new Set<string>();
  let repeats = 0;
  return {
    /** Takes one verified delivery; false when it changed nothing (a repeat or another event). */
    take(webhookId: string, type: string, data: unknown): boolean | 'malformed' {
      if (seenWebhookIds.has(webhookId)) {
        repeats++;
        return false;
      }
      if (type !== 'claim.decided') {
        seenWebhookIds.add(webhookId);
        return false;
      }
      const decided = claimDecidedOf(data);
      if (!decided) return 'malformed';
      seenWebhookIds.add(webhookId);
      // The same version told under another webhook-id (a second endpoint, a replay by hand): one decision.
      if (entries.some((e) => e.claimId === decided.claimId && e.version === decided.version)) {
        repeats++;
        return false;
      }
      const pays = decided.outcome !== 'declined';
      const amount = pays ? decided.amount : 0;
      entries.push({
        claimId: decided.claimId,
        version: decided.version,
        ticketId: decided.ticketId,
        deliveryReference: decided.deliveryReference,
        outcome: decided.outcome,
        amount,
        currency: decided.currency,
        appeal: decided.appeal,
        sender: pays ? 'pay' : 'nothing',
        traveller: pays ? 'hold' : 'release',
        effect: pays
          ? `Pay the sender ${(amount / 100).toFixed(2)} ${decided.currency}; hold the traveller's payout for ${decided.deliveryReference}.`
          : `Release the traveller's payout for ${decided.deliveryReference}.`,
        webhookId,
      });
      return true;
    },
    read(): PayoutLedger {
      // A delivery's traveller payout follows its claim's latest version (an appeal overrules the first decision).
      const latest = new Map<string, PayoutEntry>();
      for (const entry of entries) {
        const before = latest.get(entry.claimId);
        if (!before || entry.version > before.version) latest.set(entry.claimId, entry);
      }
      const travellerPayouts: PayoutLedger['travellerPayouts'] = {};
      for (const entry of latest.values()) {
        travellerPayouts[entry.deliveryReference] = entry.traveller === 'hold' ? 'held' : 'released';
      }
      return { entries, travellerPayouts, repeats };
    },
  };
}

export async function startDeliveryApp(options: {
  /** The Standard Webhooks secret (`whsec_…`) the requests are signed with. */
  secret: string;
  /** The webhook endpoint's signing secret, when already known (else `setWebhookSecret`). */
  webhookSecret?: string | undefined;
  port?: number;
  host?: string;
}): Promise<DeliveryApp> {
  const received: ReceivedRequest[] = [];
  const ledger = createPayoutLedger();
  let webhookSecret = options.webhookSecret ?? null;
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };

  /** A Bagspace webhook: 2xx once taken (even a repeat, so it is not sent again), 401 unsigned. */
  const webhook = (req: IncomingMessage, res: ServerResponse, body: string, verified: boolean) => {
    if (!verified) return json(res, 401, { error: 'bad signature' });
    let event: { type?: unknown; data?: unknown };
    try {
      event = JSON.parse(body) as typeof event;
    } catch {
      return json(res, 400, { error: 'not JSON' });
    }
    const taken = ledger.take(String(req.headers['webhook-id']), String(event.type), event.data);
    if (taken === 'malformed') return json(res, 400, { error: 'not a claim.decided payload' });
    return json(res, 200, { taken });
  };

  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://delivery-app').pathname;
    if (pathname === PAYOUTS_PATH && req.method === 'GET') return json(res, 200, ledger.read());
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const isWebhook = pathname === WEBHOOK_PATH;
      const secret = isWebhook ? webhookSecret : options.secret;
      const verified = secret !== null && verifySignature(secret, req.headers, body);
      received.push({
        path: pathname,
        headers: Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'].map((name) => [
            name,
            req.headers[name] as string | undefined,
          ]),
        ),
        body,
        verified,
      });
      if (req.method !== 'POST') return json(res, 405, { error: 'POST only' });
      if (isWebhook) return webhook(req, res, body, verified);
      if (!verified) return json(res, 401, { error: 'bad signature' });
      let reference = '';
      try {
        reference = String((JSON.parse(body) as { deliveryReference?: unknown }).deliveryReference ?? '');
      } catch {
        return json(res, 400, { error: 'not JSON' });
      }
      const special = (
        [
          FIXTURE_REFERENCES.slow,
          FIXTURE_REFERENCES.failing,
          FIXTURE_REFERENCES.malformed,
          FIXTURE_REFERENCES.badLink,
        ] as string[]
      ).find((prefix) => reference.startsWith(prefix));
      switch (special ?? reference) {
        case FIXTURE_REFERENCES.delivered:
          return json(res, 200, delivered(reference));
        case FIXTURE_REFERENCES.inTransit:
          return json(res, 200, inTransit(reference));
        case FIXTURE_REFERENCES.slow: {
          // Answers late, unless the caller gave up first.
          const timer = setTimeout(() => json(res, 200, inTransit(reference)), SLOW_ANSWER_MS);
          res.on('close', () => clearTimeout(timer));
          return;
        }
        case FIXTURE_REFERENCES.failing:
          return json(res, 500, { error: 'something broke' });
        case FIXTURE_REFERENCES.malformed:
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"reference": "BGS-MALFORMED", "status": ');
        case FIXTURE_REFERENCES.badLink: {
          const answer = delivered(reference);
          answer.photos[0]!.url = 'javascript:alert(document.cookie)';
          return json(res, 200, answer);
        }
        default:
          return json(res, 404, { error: 'no such delivery' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/deliveries/context`,
    webhookUrl: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
    payoutsUrl: `http://127.0.0.1:${port}${PAYOUTS_PATH}`,
    received,
    setWebhookSecret(secret) {
      webhookSecret = secret;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const secret = process.env.DELIVERY_CONTEXT_SECRET;
  if (!secret) {
    console.error('Set DELIVERY_CONTEXT_SECRET (whsec_ followed by base64), the secret the server signs with.');
    process.exit(1);
  }
  const app = await startDeliveryApp({
    secret,
    webhookSecret: process.env.BAGSPACE_WEBHOOK_SECRET,
    port: Number(process.env.DELIVERY_APP_PORT ?? 0),
  });
  console.log(`The delivery app answers at ${app.url} (${Object.values(FIXTURE_REFERENCES).join(', ')})`);
  console.log(`It takes webhooks at ${app.webhookUrl} and shows its payouts at ${app.payoutsUrl}`);
}
