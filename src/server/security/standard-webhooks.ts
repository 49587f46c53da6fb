import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com; docs/integrations.md): the secret
 * is `whsec_` and base64 of random bytes; the signature of a delivery is HMAC-SHA256, keyed with those
 * bytes, of `<webhook-id>.<webhook-timestamp>.<body>`, sent as `v1,<base64>` in `webhook-signature`.
 * Only node:crypto's HMAC: nothing of the algorithm is written here.
 */
export const SECRET_PREFIX = 'whsec_';

export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

export function signatureOf(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const digest = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The three headers of a signed request, for a body sent at `at`. */
export function signedHeaders(secret: string, webhookId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, webhookId, timestamp, body),
  };
}
