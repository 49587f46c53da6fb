/**
 * `npm run dev`: the development server (Vite hot reload), with the delivery app's stand-in
 * (scripts/delivery-app.ts) beside it in the same process, so a ticket given the reference BGS-1001
 * shows its delivery card (docs/decisions/151-delivery-card.md). With DELIVERY_CONTEXT_URL set, the
 * server asks that app instead and no stand-in starts.
 */
import { randomBytes } from 'node:crypto';
import { FIXTURE_REFERENCES, startDeliveryApp } from './delivery-app.ts';

process.env.NODE_ENV ??= 'development';
if (!process.env.DELIVERY_CONTEXT_URL) {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  // BAGSPACE_WEBHOOK_SECRET: the secret of a webhook endpoint made for its /webhooks/bagspace, so
  // its payout ledger takes claim decisions (docs/integrations.md).
  const app = await startDeliveryApp({
    secret,
    webhookSecret: process.env.BAGSPACE_WEBHOOK_SECRET,
    port: Number(process.env.DELIVERY_APP_PORT ?? 0),
  });
  process.env.DELIVERY_CONTEXT_URL = app.url;
  process.env.DELIVERY_CONTEXT_SECRET = secret;
  console.log(
    `The delivery app's stand-in answers at ${app.url}: give a ticket the reference ` +
      `${Object.values(FIXTURE_REFERENCES).join(', ')} or any other (unknown). It takes webhooks at ` +
      `${app.webhookUrl} and shows its payouts at ${app.payoutsUrl}.`,
  );
}
await import('../src/server/main.ts');
