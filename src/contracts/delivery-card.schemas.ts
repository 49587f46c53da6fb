import { DELIVERY_REFERENCE_MAX_LENGTH, DELIVERY_REFERENCE_PATTERN, DELIVERY_TEXT } from './delivery-card.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of delivery-card.ts: the reference staff set on a ticket, the answer our app gives
 * about a delivery (docs/integrations.md), and the card our API hands the console.
 */

/** Trimmed; empty means no reference; at most 64 of [A-Za-z0-9._-]. */
export const DeliveryReferenceSchema = z
  .string({ error: DELIVERY_TEXT.referenceNotText })
  .trim()
  .max(DELIVERY_REFERENCE_MAX_LENGTH, DELIVERY_TEXT.referenceTooLong)
  .regex(DELIVERY_REFERENCE_PATTERN, DELIVERY_TEXT.referenceCharacters)
  .transform((value) => (value === '' ? null : value));

export const DeliveryReferenceBodySchema = z.object({ deliveryReference: DeliveryReferenceSchema.nullable() });

/** An instant as ISO 8601 with its offset (`2026-12-01T09:30:00Z`, `2026-12-01T22:30:00+13:00`). */
const Instant = z.iso.datetime({ offset: true });
/** A day alone is read too (an expected delivery day). */
const InstantOrDay = z.union([Instant, z.iso.date()]);
const Words = (max: number) => z.string().trim().min(1).max(max);
/** Only http(s) links are taken: a `javascript:` or `data:` link from the app fails the whole answer. */
const WebLink = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).max(2000);
const Person = z.object({ name: Words(200), email: z.email().max(320).nullish() });

/** What the app answers about one delivery (docs/integrations.md). Other keys are ignored. */
export const DeliveryContextSchema = z.object({
  reference: Words(DELIVERY_REFERENCE_MAX_LENGTH),
  status: Words(60),
  route: z.object({ from: Words(200), to: Words(200) }),
  dates: z.object({
    booked: InstantOrDay,
    pickedUp: InstantOrDay.nullish(),
    delivered: InstantOrDay.nullish(),
    expected: InstantOrDay.nullish(),
  }),
  sender: Person,
  traveller: Person,
  item: z.object({
    description: Words(1000),
    declaredValue: z.object({
      amount: z.number().nonnegative().max(1_000_000_000),
      currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as NZD'),
    }),
  }),
  history: z.array(z.object({ at: Instant, status: Words(60), note: z.string().trim().max(1000).nullish() })).max(200),
  photos: z
    .array(z.object({ url: WebLink, caption: z.string().trim().max(200).nullish(), takenAt: Instant.nullish() }))
    .max(50),
});
export type DeliveryContext = z.infer<typeof DeliveryContextSchema>;

/**
 * A ticket's delivery card, as GET …/tickets/:ticketId/delivery answers it: `off` (no
 * DELIVERY_CONTEXT_URL on this server), `none` (the ticket has no reference), `found`, `unknown`
 * (the app knows no such delivery) or `unavailable` (no answer in 2 s, an error, or an answer that
 * is not the documented shape).
 */
export const DeliveryCardSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('none') }),
  z.object({ state: z.literal('found'), reference: z.string(), delivery: DeliveryContextSchema }),
  z.object({ state: z.literal('unknown'), reference: z.string() }),
  z.object({ state: z.literal('unavailable'), reference: z.string() }),
]);
export type DeliveryCard = z.infer<typeof DeliveryCardSchema>;
