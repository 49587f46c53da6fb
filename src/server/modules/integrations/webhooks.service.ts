import { INTEGRATION_TEXT as T, WEBHOOK_LIMITS, type WebhookEvent } from '../../../contracts/integrations.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../../../contracts/integrations.schemas.ts';
import type { Clock } from '../../clock.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { newWebhookSecret } from '../../security/standard-webhooks.ts';
import type { AuditRecord, AuditService } from '../audit/audit.service.ts';

type AuditActor = AuditRecord['actor'];
import { createWebhooksRepository, type DeliveryRow, type EndpointRow } from './webhooks.repository.ts';

export const toEndpointDto = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEvent[],
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  pending: Number(row.pending),
  failed: Number(row.failed),
});

const toDeliveryDto = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  type: row.type,
  occurredAt: row.occurredAt.toISOString(),
  state: row.state,
  nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
  attempts: row.attempts.map((a) => ({
    at: a.at.toISOString(),
    status: a.status,
    error: a.error,
    durationMs: a.durationMs,
  })),
});

const endpointMissing = () => new AppError('NOT_FOUND', T.webhookMissing);

export interface WebhookInput {
  url: string;
  description: string;
  events: readonly WebhookEvent[];
  enabled: boolean;
}

/** Webhook endpoints and their delivery log (docs/decisions/150-webhooks.md). */
export function createWebhooksService(options: {
  db: AppDatabase;
  audit: AuditService;
  clock: Clock;
  allowHttp: boolean;
  /** Wakes the worker: a redelivery goes at once. */
  wake: () => void;
}) {
  const { audit, clock } = options;
  const repository = createWebhooksRepository(options.db);

  /** Plain http only where allowed (outside production); never a URL with a user name or password. */
  function checkUrl(url: string) {
    if (!options.allowHttp && new URL(url).protocol !== 'https:') {
      throw new AppError('INVALID_ARGUMENT', T.urlInvalid, { fields: { url: T.urlInvalid } });
    }
  }
  const values = (input: WebhookInput) => ({
    url: input.url,
    description: input.description,
    events: [...new Set(input.events)],
    enabled: input.enabled,
  });

  async function find(endpointId: string): Promise<EndpointRow> {
    const row = isUuid(endpointId) ? await repository.find(endpointId) : null;
    if (!row) throw endpointMissing();
    return row;
  }

  return {
    async list(): Promise<WebhookEndpoint[]> {
      return (await repository.list()).map(toEndpointDto);
    },

    async create(actor: AuditActor, input: WebhookInput): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      checkUrl(input.url);
      if ((await repository.count()) >= WEBHOOK_LIMITS.endpoints)
        throw new AppError('ALREADY_EXISTS', T.tooManyWebhooks);
      const row = await repository.insert({ ...values(input), secret: newWebhookSecret() });
      await audit.record({
        actor,
        action: 'webhook.create',
        targetType: 'webhook',
        targetId: row.id,
        details: { url: row.url, events: row.events },
      });
      return { endpoint: toEndpointDto(row), secret: row.secret };
    },

    async update(actor: AuditActor, endpointId: string, input: WebhookInput): Promise<WebhookEndpoint> {
      checkUrl(input.url);
      const before = await find(endpointId);
      const row = await repository.update(endpointId, values(input));
      if (!row) throw endpointMissing();
      await audit.record({
        actor,
        action: 'webhook.update',
        targetType: 'webhook',
        targetId: row.id,
        details: {
          before: { url: before.url, events: before.events, enabled: before.enabled },
          now: { url: row.url, events: row.events, enabled: row.enabled },
        },
      });
      if (row.enabled && !before.enabled) options.wake();
      return toEndpointDto(row);
    },

    async remove(actor: AuditActor, endpointId: string): Promise<WebhookEndpoint> {
      if (!isUuid(endpointId)) throw endpointMissing();
      const row = await repository.remove(endpointId);
      if (!row) throw endpointMissing();
      await audit.record({
        actor,
        action: 'webhook.remove',
        targetType: 'webhook',
        targetId: row.id,
        details: { url: row.url },
      });
      return toEndpointDto(row);
    },

    async secret(endpointId: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      const row = await find(endpointId);
      return { endpoint: toEndpointDto(row), secret: row.secret };
    },

    async endpoint(endpointId: string): Promise<WebhookEndpoint> {
      return toEndpointDto(await find(endpointId));
    },

    async deliveries(
      endpointId: string,
      before: number | undefined,
    ): Promise<{ deliveries: WebhookDelivery[]; nextBefore: number | null }> {
      await find(endpointId);
      const rows = await repository.deliveries(endpointId, before ?? null, WEBHOOK_LIMITS.pageSize + 1);
      const page = rows.slice(0, WEBHOOK_LIMITS.pageSize);
      return {
        deliveries: page.map(toDeliveryDto),
        nextBefore: rows.length > WEBHOOK_LIMITS.pageSize ? page[page.length - 1]!.id : null,
      };
    },

    async redeliver(actor: AuditActor, deliveryId: number): Promise<WebhookDelivery> {
      const row = await repository.redeliver(deliveryId, clock.now());
      if (!row) throw new AppError('NOT_FOUND', T.deliveryMissing);
      await audit.record({
        actor,
        action: 'webhook.redeliver',
        targetType: 'webhook',
        targetId: row.endpointId,
        details: { deliveryId },
      });
      options.wake();
      const delivery = await repository.delivery(row.endpointId, deliveryId);
      if (!delivery) throw new AppError('NOT_FOUND', T.deliveryMissing);
      return toDeliveryDto(delivery);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
