import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver on 127.0.0.1 that checks each delivery the way a receiver written from the
 * Standard Webhooks specification would: with its reference library (`standardwebhooks`, its own
 * HMAC-SHA256, not node:crypto and nothing of ours). Every request is kept with its verdict; the
 * answer is the status `answer()` gives (200 unless a test says otherwise), after `delayMs`.
 */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: Record<string, string>;
  verified: boolean;
  error: string | null;
  /** The parsed payload, when verified. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
}

export async function startWebhookReceiver(options: { delayMs?: number } = {}) {
  const received: ReceivedWebhook[] = [];
  let secret: string | null = null;
  let answer: (request: ReceivedWebhook) => number = () => 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(',') : (value ?? ''),
        ]),
      );
      const entry: ReceivedWebhook = {
        id: headers['webhook-id'] ?? '',
        timestamp: headers['webhook-timestamp'] ?? '',
        signature: headers['webhook-signature'] ?? '',
        body,
        headers,
        verified: false,
        error: null,
        payload: null,
      };
      try {
        if (!secret) throw new Error('the receiver has no secret yet');
        entry.payload = new Webhook(secret).verify(body, headers) as ReceivedWebhook['payload'];
        entry.verified = true;
      } catch (error) {
        entry.error = (error as Error).message;
      }
      received.push(entry);
      const status = answer(entry);
      setTimeout(() => response.writeHead(status).end(), options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    setSecret(value: string) {
      secret = value;
    },
    answerWith(rule: (request: ReceivedWebhook) => number) {
      answer = rule;
    },
    /** Verifies a delivery again as the library would, e.g. with its body or timestamp changed. */
    verify(body: string, headers: Record<string, string>) {
      return new Webhook(secret!).verify(body, headers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
