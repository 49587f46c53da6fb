import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { webhooksApi } from '../../contracts/api/integrations.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import {
  INTEGRATION_TEXT as T,
  WEBHOOK_EVENT_TEXT,
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  type WebhookEvent,
} from '../../contracts/integrations.ts';
import type { WebhookDelivery } from '../../contracts/integrations.schemas.ts';
import { InputField } from '../components/ui/field.tsx';
import { DataTable } from '../components/ui/data-table.tsx';
import { ChoiceList } from '../features/admin/choice-list.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { type FormResult, refused } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-webhook';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${T.webhooksTitle} | ${ADMIN_TEXT.title}`);

/** One endpoint with its delivery log, newest first, a page at a time (?before=<delivery id>). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const url = new URL(request.url);
  const manage = Boolean(user?.permissions.includes('integrations.manage'));
  if (!user?.emailVerified || !user.permissions.includes('integrations.read'))
    return { endpoint: null, deliveries: [], nextBefore: null, manage: false, notice: null };
  const before = Number(url.searchParams.get('before')) || undefined;
  const [list, log] = await Promise.all([
    services.api.call(webhooksApi.list),
    services.api.call(webhooksApi.deliveries, {
      params: { endpointId: params.endpointId },
      query: before ? { before } : {},
    }),
  ]);
  const endpoint = list.ok ? (list.data.endpoints.find((e) => e.id === params.endpointId) ?? null) : null;
  if (!endpoint) throw data(T.webhookMissing, { status: 404 });
  return {
    endpoint,
    deliveries: log.ok ? log.data.deliveries : [],
    nextBefore: log.ok ? log.data.nextBefore : null,
    manage,
    notice: url.searchParams.get('added')
      ? 'Endpoint added. Show its signing secret to verify its deliveries.'
      : url.searchParams.get('done'),
  };
}

type Shown = FormResult & { secret?: string };

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const value = (name: string) => String(form.get(name) ?? '');
  const intent = value('intent');
  const { api } = context.get(requestContext).services;
  const endpointId = params.endpointId;
  const back = (done: string) =>
    redirect(`/admin/integrations/webhooks/${encodeURIComponent(endpointId)}?${new URLSearchParams({ done })}`, 303);
  if (intent === 'secret') {
    const result = await api.call(webhooksApi.secret, { params: { endpointId } });
    if (!result.ok) return refused(result, {}, 'secret');
    return data<Shown>({ ok: true, form: 'secret', message: null, fields: {}, values: {}, secret: result.data.secret });
  }
  if (intent === 'save') {
    const values = { url: value('url'), description: value('description') };
    const result = await api.call(webhooksApi.update, {
      params: { endpointId },
      body: {
        ...values,
        events: form.getAll('events').map(String) as WebhookEvent[],
        enabled: value('enabled') === 'on',
      },
    });
    return result.ok ? back('Endpoint saved.') : refused(result, values, 'save');
  }
  if (intent === 'remove') {
    const result = await api.call(webhooksApi.remove, { params: { endpointId } });
    if (!result.ok) return refused(result, {}, 'remove');
    return redirect(
      `/admin/integrations?${new URLSearchParams({ done: `Removed ${result.data.endpoint.url}.` })}`,
      303,
    );
  }
  if (intent === 'redeliver') {
    const result = await api.call(webhooksApi.redeliver, { params: { deliveryId: value('deliveryId') } });
    return result.ok ? back(T.deliveringAgain) : refused(result, {}, 'redeliver');
  }
  return data<FormResult>({ ok: false, message: 'Choose what to do.', fields: {}, values: {} }, { status: 400 });
}

const attemptText = (attempt: WebhookDelivery['attempts'][number]) =>
  `${formatNzDateTime(attempt.at)}: ${attempt.status === null ? (attempt.error ?? 'no answer') : `answered ${attempt.status}`} (${attempt.durationMs} ms)`;

const STATE_TEXT: Record<WebhookDelivery['state'], string> = {
  pending: 'Waiting',
  delivered: 'Delivered',
  failed: 'Given up',
};

/** /admin/integrations/webhooks/:endpointId: the endpoint, its signing secret, its deliveries. */
export default function AdminWebhook({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoint, deliveries, nextBefore, manage, notice } = loaderData;
  const busy = useNavigation().state === 'submitting';
  const shown = actionData as Shown | undefined;
  if (!endpoint) return null;
  const saving = shown?.form === 'save' ? shown : undefined;
  return (
    <section className="admin-page" aria-labelledby="webhook-title">
      <p className="support-back">
        <Link to="/admin/integrations">{T.title}</Link>
      </p>
      <div className="admin-page__header">
        <h1 id="webhook-title">{endpoint.url}</h1>
      </div>
      <p>
        {endpoint.enabled ? T.enabled : T.disabled}
        {endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}
        {endpoint.failingSince ? ` Failing since ${formatNzDateTime(endpoint.failingSince)}.` : ''}
      </p>
      {notice && !actionData ? <Notice tone="success">{notice}</Notice> : null}
      {shown?.message && !shown.ok && shown.form !== 'save' ? <Notice tone="error">{shown.message}</Notice> : null}

      {manage ? (
        <Form method="post" className="webhook-secret" preventScrollReset>
          <h2>{T.secret}</h2>
          {shown?.secret ? (
            <p>
              <code data-testid="webhook-secret">{shown.secret}</code>
            </p>
          ) : (
            <button type="submit" name="intent" value="secret" className="button" disabled={busy}>
              {T.showSecret}
            </button>
          )}
        </Form>
      ) : null}

      <h2>{T.deliveries}</h2>
      {deliveries.length === 0 ? (
        <p className="empty-state">{T.noDeliveries}</p>
      ) : (
        <DataTable caption={T.deliveries} columns={['Event', 'Happened', 'State', 'Attempts', '']}>
          {deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td data-label="Event">
                <code>{delivery.type}</code>
                <div>
                  <small>{delivery.webhookId}</small>
                </div>
              </td>
              <td data-label="Happened">{formatNzDateTime(delivery.occurredAt)}</td>
              <td data-label="State">
                {STATE_TEXT[delivery.state]}
                {delivery.state === 'pending' && delivery.nextAttemptAt
                  ? `, next try ${formatNzDateTime(delivery.nextAttemptAt)}`
                  : ''}
              </td>
              <td data-label="Attempts">
                {delivery.attempts.length === 0 ? (
                  'None yet'
                ) : (
                  <ol className="webhook-attempts">
                    {delivery.attempts.map((attempt, index) => (
                      <li key={index}>{attemptText(attempt)}</li>
                    ))}
                  </ol>
                )}
              </td>
              <td data-label="">
                {manage && delivery.state !== 'pending' ? (
                  <Form method="post" className="admin-inline-form" preventScrollReset>
                    <input type="hidden" name="deliveryId" value={delivery.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="redeliver"
                      className="button button--ghost"
                      disabled={busy}
                    >
                      {T.deliverAgain}
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {nextBefore ? (
        <p>
          <Link to={`?before=${nextBefore}`}>Older deliveries</Link>
        </p>
      ) : null}

      {manage ? (
        <>
          <Form method="post" className="form" aria-label="Change the endpoint" noValidate>
            <h2>Change the endpoint</h2>
            <InputField
              label={T.url}
              name="url"
              type="url"
              maxLength={WEBHOOK_LIMITS.urlMax}
              defaultValue={saving?.values.url ?? endpoint.url}
              error={saving?.fields.url}
              required
            />
            <InputField
              label={T.description}
              name="description"
              maxLength={WEBHOOK_LIMITS.descriptionMax}
              defaultValue={saving?.values.description ?? endpoint.description}
              error={saving?.fields.description}
            />
            <ChoiceList
              legend={T.events}
              name="events"
              options={WEBHOOK_EVENTS.map((event) => ({ value: event, text: WEBHOOK_EVENT_TEXT[event] }))}
              checked={(event) => endpoint.events.includes(event)}
              error={saving?.fields.events}
            />
            <label className="integration-choice">
              <input type="checkbox" name="enabled" defaultChecked={endpoint.enabled} /> {T.enabled}
            </label>
            {saving?.message ? <Notice tone="error">{saving.message}</Notice> : null}
            <button type="submit" name="intent" value="save" className="button button--primary" disabled={busy}>
              {T.saveWebhook}
            </button>
          </Form>
          <Form method="post" preventScrollReset>
            <button type="submit" name="intent" value="remove" className="button button--ghost" disabled={busy}>
              {T.removeWebhook}
            </button>
          </Form>
        </>
      ) : null}
    </section>
  );
}
