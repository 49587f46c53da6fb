import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { apiKeysApi, webhooksApi } from '../../contracts/api/integrations.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import {
  API_KEY_LIMITS,
  API_SCOPES,
  type ApiScope,
  INTEGRATION_TEXT as T,
  SCOPE_TEXT,
  WEBHOOK_EVENT_TEXT,
  WEBHOOK_EVENTS,
  WEBHOOK_LIMITS,
  type WebhookEvent,
} from '../../contracts/integrations.ts';
import type { ApiKey } from '../../contracts/integrations.schemas.ts';
import { InputField } from '../components/ui/field.tsx';
import { DataTable } from '../components/ui/data-table.tsx';
import { ChoiceList } from '../features/admin/choice-list.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { type FormResult, refused } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-integrations';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${T.title} | ${ADMIN_TEXT.title}`);

/** The keys and webhook endpoints, read on the server (docs/integrations.md). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const done = new URL(request.url).searchParams.get('done');
  const manage = Boolean(user?.permissions.includes('integrations.manage'));
  if (!user?.emailVerified || !user.permissions.includes('integrations.read'))
    return { keys: [], endpoints: [], manage: false, done: null };
  const [keys, endpoints] = await Promise.all([
    services.api.call(apiKeysApi.list),
    services.api.call(webhooksApi.list),
  ]);
  return {
    keys: keys.ok ? keys.data.keys : [],
    endpoints: endpoints.ok ? endpoints.data.endpoints : [],
    manage,
    done,
  };
}

/** What an action shows in place: a new key's secret, once (never in an address, never stored). */
type Shown = FormResult & { secret?: string; keyName?: string };

/** Each form posts here with its intent; a new key or rotation answers with its secret, in place. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const value = (name: string) => String(form.get(name) ?? '');
  const intent = value('intent');
  const { api } = context.get(requestContext).services;
  const done = (message: string) => redirect(`/admin/integrations?${new URLSearchParams({ done: message })}`, 303);
  if (intent === 'create-key' || intent === 'rotate') {
    const result =
      intent === 'create-key'
        ? await api.call(apiKeysApi.create, {
            body: {
              name: value('name'),
              scopes: form.getAll('scopes').map(String) as ApiScope[],
              expiresInDays: value('expiresInDays') || API_KEY_LIMITS.expiryDaysDefault,
            },
          })
        : await api.call(apiKeysApi.rotate, {
            params: { keyId: value('keyId') },
            body: { overlapHours: value('overlapHours') || API_KEY_LIMITS.overlapHoursDefault },
          });
    const formName = intent === 'create-key' ? 'create-key' : value('keyId');
    if (!result.ok) return refused(result, { name: value('name') }, formName);
    return data<Shown>({
      ok: true,
      form: formName,
      message: intent === 'create-key' ? T.keyCreated : T.keyRotated,
      fields: {},
      values: {},
      secret: result.data.secret,
      keyName: result.data.key.name,
    });
  }
  if (intent === 'revoke') {
    const result = await api.call(apiKeysApi.revoke, { params: { keyId: value('keyId') } });
    return result.ok ? done(T.keyRevoked(result.data.key.name)) : refused(result, {}, value('keyId'));
  }
  if (intent === 'add-webhook') {
    const result = await api.call(webhooksApi.create, {
      body: {
        url: value('url'),
        description: value('description'),
        events: form.getAll('events').map(String) as WebhookEvent[],
      },
    });
    if (!result.ok) return refused(result, { url: value('url'), description: value('description') }, 'add-webhook');
    return redirect(`/admin/integrations/webhooks/${result.data.endpoint.id}?added=1`, 303);
  }
  return data<FormResult>({ ok: false, message: 'Choose what to do.', fields: {}, values: {} }, { status: 400 });
}

/** A webhook's events as choices: each with what it tells. */
const EVENT_CHOICES = WEBHOOK_EVENTS.map((event) => ({ value: event, text: WEBHOOK_EVENT_TEXT[event] }));

const keyState = (key: ApiKey) =>
  key.revokedAt ? 'Revoked' : key.live ? `Until ${formatNzDateTime(key.expiresAt)}` : 'Expired';

/** /admin/integrations: API keys and webhook endpoints; making and revoking for admins, reading for auditors. */
export default function AdminIntegrations({ loaderData, actionData }: Route.ComponentProps) {
  const { keys, endpoints, manage, done } = loaderData;
  const busy = useNavigation().state === 'submitting';
  const shown = actionData as Shown | undefined;
  const mine = (form: string) => (shown?.form === form ? shown : undefined);
  const created = mine('create-key');
  return (
    <section className="admin-page" aria-labelledby="integrations-title">
      <div className="admin-page__header">
        <h1 id="integrations-title">{T.title}</h1>
      </div>
      <p>{T.intro}</p>
      {done && !actionData ? <Notice tone="success">{done}</Notice> : null}
      {shown?.secret ? (
        <div className="integration-secret" role="status">
          <Notice tone="success">{shown.message}</Notice>
          <p>
            {shown.keyName}: <code data-testid="new-key">{shown.secret}</code>
          </p>
        </div>
      ) : null}

      <h2>{T.keysTitle}</h2>
      <p>{T.keysIntro}</p>
      {keys.length === 0 ? (
        <p className="empty-state">{T.noKeys}</p>
      ) : (
        <DataTable caption={T.keysTitle} columns={['Name', 'Ends in', 'What it may do', 'Works', 'Last used', '']}>
          {keys.map((key) => (
            <tr key={key.id}>
              <td data-label="Name">{key.name}</td>
              <td data-label="Ends in">
                <code>{`…${key.lastFour}`}</code>
              </td>
              <td data-label="What it may do">{key.scopes.join(', ')}</td>
              <td data-label="Works">{keyState(key)}</td>
              <td data-label="Last used">{key.lastUsedAt ? formatNzDateTime(key.lastUsedAt) : 'Never'}</td>
              <td data-label="">
                {manage && key.live ? (
                  <>
                    <Form method="post" className="admin-inline-form" preventScrollReset>
                      <input type="hidden" name="keyId" value={key.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="revoke"
                        className="button button--ghost"
                        disabled={busy}
                      >
                        {T.revoke}
                      </button>
                    </Form>
                    <Form method="post" className="integration-rotate" preventScrollReset>
                      <input type="hidden" name="keyId" value={key.id} />
                      <InputField
                        label={T.overlapHours}
                        name="overlapHours"
                        type="number"
                        min={0}
                        max={API_KEY_LIMITS.overlapHoursMax}
                        defaultValue={API_KEY_LIMITS.overlapHoursDefault}
                        error={mine(key.id)?.fields.overlapHours}
                      />
                      <button type="submit" name="intent" value="rotate" className="button" disabled={busy}>
                        {T.rotate}
                      </button>
                    </Form>
                    {mine(key.id)?.message && !mine(key.id)?.ok ? (
                      <Notice tone="error">{mine(key.id)!.message}</Notice>
                    ) : null}
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {manage ? (
        <Form method="post" className="form" aria-label={T.createKey} noValidate>
          <h3>{T.createKey}</h3>
          <InputField
            label={T.keyName}
            name="name"
            maxLength={API_KEY_LIMITS.nameMax}
            defaultValue={created && !created.ok ? (created.values.name ?? '') : ''}
            error={created?.fields.name}
            required
          />
          <ChoiceList
            legend={T.keyScopes}
            name="scopes"
            options={API_SCOPES.map((scope) => ({ value: scope, text: SCOPE_TEXT[scope] }))}
            checked={() => false}
            error={created?.fields.scopes}
          />
          <InputField
            label={T.keyExpiry}
            name="expiresInDays"
            type="number"
            min={1}
            max={API_KEY_LIMITS.expiryDaysMax}
            defaultValue={API_KEY_LIMITS.expiryDaysDefault}
            error={created?.fields.expiresInDays}
          />
          {created?.message && !created.ok ? <Notice tone="error">{created.message}</Notice> : null}
          <button type="submit" name="intent" value="create-key" className="button button--primary" disabled={busy}>
            {T.createKey}
          </button>
        </Form>
      ) : null}

      <h2>{T.webhooksTitle}</h2>
      <p>{T.webhooksIntro}</p>
      {endpoints.length === 0 ? (
        <p className="empty-state">{T.noWebhooks}</p>
      ) : (
        <DataTable caption={T.webhooksTitle} columns={['Endpoint', 'Events', 'State', 'Waiting', 'Given up']}>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td data-label="Endpoint">
                <Link to={`/admin/integrations/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                {endpoint.description ? <div>{endpoint.description}</div> : null}
              </td>
              <td data-label="Events">{endpoint.events.join(', ')}</td>
              <td data-label="State">
                {endpoint.enabled
                  ? T.enabled
                  : `${T.disabled}${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`}
              </td>
              <td data-label="Waiting">{endpoint.pending}</td>
              <td data-label="Given up">{endpoint.failed}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {manage ? <WebhookFields result={mine('add-webhook')} busy={busy} /> : null}
    </section>
  );
}

/** A new endpoint: its URL, a description and the events it hears. */
function WebhookFields({ result, busy }: { result: FormResult | undefined; busy: boolean }) {
  return (
    <Form method="post" className="form" aria-label={T.addWebhook} noValidate>
      <h3>{T.addWebhook}</h3>
      <InputField
        label={T.url}
        name="url"
        type="url"
        maxLength={WEBHOOK_LIMITS.urlMax}
        defaultValue={result?.values.url ?? ''}
        error={result?.fields.url}
        required
      />
      <InputField
        label={T.description}
        name="description"
        maxLength={WEBHOOK_LIMITS.descriptionMax}
        defaultValue={result?.values.description ?? ''}
        error={result?.fields.description}
      />
      <ChoiceList
        legend={T.events}
        name="events"
        options={EVENT_CHOICES}
        checked={() => true}
        error={result?.fields.events}
      />
      {result?.message && !result.ok ? <Notice tone="error">{result.message}</Notice> : null}
      <button type="submit" name="intent" value="add-webhook" className="button button--primary" disabled={busy}>
        {T.addWebhook}
      </button>
    </Form>
  );
}
