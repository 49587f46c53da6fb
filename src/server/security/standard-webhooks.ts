import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com; docs/integrations.md): the secret
 * is `whsec_` and base64 of random bytes; the signature of a delivery is HMAC-SHA256, keyed with those
 * bytes, of `<webhook-id>.<webhook-timestamp>.<body>`, sent as `v1,<base64>` in `webhook-signature`.
 * Only node:crypto's HMAC: nothing of the algorithm is written here.
 */
export const SECRET_PREFIX = 'whsec_';

export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** A secret's key bytes: the base64 after `whsec_`. */
export const secretKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/** The three headers of a signed request: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`. */
export function signatureHeaders(
  key: Buffer,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const digest = createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${digest}`,
  };
}

/** The headers of a body sent at `at`, signed with a `whsec_` secret. */
export const signedHeaders = (secret: string, webhookId: string, at: Date, body: string) =>
  signatureHeaders(secretKey(secret), webhookId, Math.floor(at.getTime() / 1000), body);
