import { API_KEY_LIMITS, API_SCOPES, INTEGRATION_TEXT as T, WEBHOOK_EVENTS, WEBHOOK_LIMITS } from './integrations.ts';
import { incidentCheck, IncidentFieldsShape, readIncident } from './claims.schemas.ts';
import { DeliveryReferenceSchema } from './delivery-card.schemas.ts';
import { clientIdSchema, TicketReasonSchema, TicketSchema, MessageSchema } from './support.schemas.ts';
import { MESSAGE_MAX_LENGTH, SUPPORT_TEXT } from './support.ts';
import { z } from './zod.ts';

/** The zod schemas of integrations.ts: keys, webhooks and the app's own ticket endpoints. */

const ApiScopeSchema = z.enum(API_SCOPES, { error: T.scopeUnknown });
const WebhookEventSchema = z.enum(WEBHOOK_EVENTS, { error: T.eventUnknown });

/** A key in the list: never its secret, only the last four characters. */
export const ApiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  lastFour: z.string(),
  scopes: z.array(ApiScopeSchema),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** The key this one replaced by a rotation. */
  rotatedFrom: z.uuid().nullable(),
  /** Works now: neither revoked nor past its end. */
  live: z.boolean(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;
export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) });
export const ApiKeyParamsSchema = z.object({ keyId: z.string().max(64) });

export const CreateApiKeySchema = z.object({
  name: z.string({ error: T.nameRequired }).trim().min(1, T.nameRequired).max(API_KEY_LIMITS.nameMax, T.nameTooLong),
  scopes: z
    .array(ApiScopeSchema, { error: T.scopesRequired })
    .min(1, T.scopesRequired)
    .max(API_SCOPES.length, T.scopeUnknown),
  expiresInDays: z.coerce
    .number({ error: T.expiryRange })
    .int(T.expiryRange)
    .min(1, T.expiryRange)
    .max(API_KEY_LIMITS.expiryDaysMax, T.expiryRange)
    .default(API_KEY_LIMITS.expiryDaysDefault),
});
export const RotateApiKeySchema = z.object({
  overlapHours: z.coerce
    .number({ error: T.overlapRange })
    .int(T.overlapRange)
    .min(0, T.overlapRange)
    .max(API_KEY_LIMITS.overlapHoursMax, T.overlapRange)
    .default(API_KEY_LIMITS.overlapHoursDefault),
});
/** A new key: the secret is in this answer and nowhere else, ever. */
export const ApiKeySecretSchema = z.object({ key: ApiKeySchema, secret: z.string() });
export const ApiKeyResultSchema = z.object({ key: ApiKeySchema });

export const WebhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventSchema),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  /** Deliveries still to be made, and those given up on. */
  pending: z.number().int(),
  failed: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
export const WebhookEndpointListSchema = z.object({ endpoints: z.array(WebhookEndpointSchema) });
export const WebhookParamsSchema = z.object({ endpointId: z.string().max(64) });

const webhookUrl = z
  .string({ error: T.urlRequired })
  .trim()
  .min(1, T.urlRequired)
  .max(WEBHOOK_LIMITS.urlMax, T.urlTooLong)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, T.urlInvalid);

export const WebhookBodySchema = z.object({
  url: webhookUrl,
  description: z.string().trim().max(WEBHOOK_LIMITS.descriptionMax, T.descriptionTooLong).default(''),
  events: z
    .array(WebhookEventSchema, { error: T.eventsRequired })
    .min(1, T.eventsRequired)
    .max(WEBHOOK_EVENTS.length, T.eventUnknown),
  /** Turning a disabled endpoint on again (or off by hand). */
  enabled: z.boolean().default(true),
});
export const WebhookSecretSchema = z.object({ endpoint: WebhookEndpointSchema, secret: z.string() });
export const WebhookResultSchema = z.object({ endpoint: WebhookEndpointSchema });

export const WebhookAttemptSchema = z.object({
  at: z.string(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});
export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  /** The `webhook-id` header: the same in every attempt and redelivery. */
  webhookId: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  attempts: z.array(WebhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.object({
  deliveries: z.array(WebhookDeliverySchema),
  nextBefore: z.number().int().nullable(),
});
export const WebhookDeliveriesQuerySchema = z.object({
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const DeliveryParamsSchema = z.object({
  deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export const DeliveryResultSchema = z.object({ delivery: WebhookDeliverySchema });

// --- The app's own ticket endpoints ---------------------------------------------------------------

const messageBody = z
  .string({ error: SUPPORT_TEXT.fieldRequired })
  .trim()
  .min(1, SUPPORT_TEXT.fieldRequired)
  .max(MESSAGE_MAX_LENGTH, `Messages can be at most ${MESSAGE_MAX_LENGTH} characters long`);

/** Which app user: their account's email or id (exactly one). */
const appUser = {
  userEmail: z
    .string({ error: T.userMissing })
    .trim()
    .max(254, T.userMissing)
    .pipe(z.email({ error: T.userMissing }))
    .optional(),
  userId: z.uuid({ error: T.userMissing }).optional(),
};
const oneUser = (value: { userEmail?: string | undefined; userId?: string | undefined }) =>
  (value.userEmail === undefined) !== (value.userId === undefined);

/**
 * A ticket the app opens, and the claim it opens with the Contact us form's own incident fields
 * (`claimKind`, `itemValue`, `deliveredOn`; the ticket's `deliveryReference` is the claim's
 * delivery), checked by the same rules in the same words (claims.schemas.ts).
 */
export const AppOpenTicketSchema = z
  .object({
    ...appUser,
    reason: TicketReasonSchema,
    message: messageBody,
    deliveryReference: DeliveryReferenceSchema.optional(),
    clientId: clientIdSchema,
    claimKind: IncidentFieldsShape.claimKind,
    itemValue: IncidentFieldsShape.itemValue,
    deliveredOn: IncidentFieldsShape.deliveredOn,
  })
  .refine(oneUser, { message: T.userRequired, path: ['userEmail'] })
  .check(incidentCheck)
  // A ticket's reference may have dots (the delivery card's rule); a claim's is the form's stricter one.
  .superRefine((values, ctx) => {
    if (!values.claimKind || !values.deliveryReference) return;
    const claimDelivery = IncidentFieldsShape.deliveryReference.safeParse(values.deliveryReference);
    for (const issue of claimDelivery.error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: ['deliveryReference'], message: issue.message });
    }
  })
  .transform((values) => ({ ...values, incident: readIncident(values) }));
export const AppTicketCreatedSchema = z.object({ ticketId: z.uuid(), ticketNo: z.number().int() });

export const AppMessageSchema = z.object({ messageBody, clientId: clientIdSchema });

export const AppTicketSchema = TicketSchema.extend({
  userId: z.uuid(),
  deliveryReference: z.string().nullable(),
});
export const AppTicketWithMessagesSchema = z.object({ ticket: AppTicketSchema, messages: z.array(MessageSchema) });
export const AppTicketsQuerySchema = z
  .object({ ...appUser, open: z.enum(['true', 'false']).optional() })
  .refine(oneUser, { message: T.userRequired, path: ['userEmail'] });
export const AppTicketListSchema = z.object({ tickets: z.array(AppTicketSchema) });
export const AppMessageResultSchema = z.object({ message: MessageSchema });

export const AppPartnerSchema = z.object({
  id: z.uuid(),
  companyName: z.string(),
  status: z.enum(['pending', 'verified', 'on-hold', 'rejected', 'banned']),
  lastUpdated: z.string(),
});
export const AppPartnersQuerySchema = z.object({
  status: z.enum(['pending', 'verified', 'on-hold', 'rejected', 'banned']).optional(),
});
export const AppPartnerListSchema = z.object({ partners: z.array(AppPartnerSchema) });
