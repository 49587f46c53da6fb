import { data, Form, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { notificationsApi } from '../../contracts/api/notifications.ts';
import { MAIL_STATE_LABELS, MAIL_STATES, MAIL_TEXT, type MailStateName } from '../../contracts/notifications.ts';
import type { AdminMail } from '../../contracts/notifications.schemas.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { Notice, ReadFailed } from '../features/admin/notice.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { MailDirection } from '../features/admin/filter-links.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { type FormResult, readForm, refused } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-mail';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.mail} | ${ADMIN_TEXT.title}`);

const PAGE = '/admin/mail';
const COLUMNS = ['Recorded', 'To', 'Subject', 'State', 'Attempts', 'Actions'] as const;
type Filter = MailStateName | 'all';

/** A delivery report's words ('hard 5.1.1', 'soft 4.2.2') as the state cell says them: Bounced (5.1.1). */
function bounceLabel(bounce: string): string {
  const status = bounce.replace(/^(hard|soft)\b\s*/i, '').trim();
  return status ? `Bounced (${status})` : 'Bounced';
}

function StateCell({ mail }: { mail: AdminMail }) {
  return (
    <div className="mail-state">
      <span className={`badge mail-state__badge mail-state__badge--${mail.state}`}>
        {MAIL_STATE_LABELS[mail.state]}
      </span>
      {mail.state === 'sent' && mail.sentAt ? (
        <span className="mail-state__detail">at {formatNzDateTime(mail.sentAt)}</span>
      ) : null}
      {mail.state === 'retrying' ? (
        <span className="mail-state__detail">next try {formatNzDateTime(mail.nextAttemptAt)}</span>
      ) : null}
      {mail.lastError && mail.state !== 'sent' ? <span className="mail-state__error">{mail.lastError}</span> : null}
      {/* A delivery report can come back after the server took the mail: it was sent, then bounced. */}
      {mail.bounce ? (
        <span className="badge mail-state__badge mail-state__badge--failed">{bounceLabel(mail.bounce)}</span>
      ) : null}
    </div>
  );
}

/** The filters in the address: a state (none: all) and a recipient search. */
function filtersOf(url: URL) {
  const asked = url.searchParams.get('state') ?? '';
  const state = MAIL_STATES.find((s) => s === asked);
  const q = url.searchParams.get('q')?.trim() ?? '';
  return { state, q };
}

/** This page at the given filters, with what was just done when something was. */
function pageAt(filters: { state: MailStateName | undefined; q: string }, done?: string) {
  const query = new URLSearchParams({
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.q ? { q: filters.q } : {}),
    ...(done ? { done } : {}),
  }).toString();
  return query ? `${PAGE}?${query}` : PAGE;
}

/** The outbox at the address's filters, read as this admin (the layout refuses others). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = filtersOf(url);
  const { api } = context.get(requestContext).services;
  const read = await api.call(notificationsApi.listMail, {
    query: { ...(filters.state ? { state: filters.state } : {}), ...(filters.q ? { q: filters.q } : {}) },
  });
  return {
    ...filters,
    list: read.ok ? read.data : null,
    failed: read.ok ? null : read.message,
    done: url.searchParams.get('done'),
  };
}

/** The list is read again after a refused retry too: a 409 usually means the mail moved on meanwhile. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' || defaultShouldRevalidate;
}

/**
 * Retry: a form posted here (mailId), sent on to the API as this admin, then this page again (303,
 * so a reload sends nothing twice) at the same filters, saying what was done. A refusal (say, the
 * mail was sent meanwhile) answers the page with the API's words.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const mailId = Number(values.mailId);
  if (!Number.isSafeInteger(mailId) || mailId <= 0)
    return data<FormResult>({ ok: false, message: MAIL_TEXT.notFound, fields: {}, values }, { status: 404 });
  const { api } = context.get(requestContext).services;
  const retried = await api.call(notificationsApi.retryMail, { params: { mailId } });
  if (!retried.ok) return refused(retried, values);
  const done = `The mail to ${retried.data.mail.recipient} is queued again.`;
  return redirect(pageAt(filtersOf(new URL(request.url)), done), 303);
}

/** Retry on a failed mail: its own small form, which works without JavaScript. */
function RetryForm({ mail }: { mail: AdminMail }) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' ? navigation.formData : undefined;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="mailId" value={mail.id} />
      <button type="submit" className="button button--ghost admin-button--small" disabled={Boolean(sending)}>
        {sending?.get('mailId') === String(mail.id) ? 'Queuing…' : 'Retry'}
      </button>
    </Form>
  );
}

/** /admin/mail: every mail the site recorded, newest first; filter by state, find by recipient, send a failed one again. */
export default function AdminMailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { state, q, list, failed, done } = loaderData;
  const counts = list?.counts ?? null;
  const here = pageAt({ state, q });
  const options: Array<{ value: Filter; label: string }> = [
    { value: 'all', label: 'All' },
    ...MAIL_STATES.map((s) => ({
      value: s as Filter,
      label: counts ? `${MAIL_STATE_LABELS[s]} (${counts[s]})` : MAIL_STATE_LABELS[s],
    })),
  ];
  const refusal = actionData && !actionData.ok ? (actionData.message ?? Object.values(actionData.fields)[0]) : null;

  return (
    <section className="admin-page" aria-labelledby="mail-title">
      <div className="admin-page__header">
        <h1 id="mail-title">{ADMIN_TEXT.nav.mail}</h1>
        <Link to={here} className="button button--ghost admin-button--small" preventScrollReset>
          Refresh
        </Link>
      </div>
      <MailDirection current="outgoing" />
      <p>
        Every mail the site sends is recorded here first and then delivered; a mail the server refused for good is
        Failed and can be sent again.
      </p>
      <div className="admin-toolbar">
        <SwitchButtons<Filter>
          name="state"
          label="Show mail that is"
          options={options}
          value={state ?? 'all'}
          keep={{ q: q || undefined }}
        />
        <SearchForm label="Find mail by recipient" value={q} placeholder="Recipient email" keep={{ state }} />
      </div>
      {refusal ? <Notice tone="error">{refusal}</Notice> : null}
      {done && !actionData ? <Notice tone="success">{done}</Notice> : null}
      <ReadFailed message={failed} retryTo={here} />
      {list && list.mails.length === 0 ? <p className="empty-state">No mail here.</p> : null}
      {list && list.mails.length > 0 ? (
        <DataTable caption="Mail, newest first" columns={COLUMNS} className="admin-table admin-mail">
          {list.mails.map((mail) => (
            <tr key={mail.id}>
              <td data-label={COLUMNS[0]}>
                <time dateTime={mail.createdAt}>{formatNzDateTime(mail.createdAt)}</time>
              </td>
              <td data-label={COLUMNS[1]} className="admin-table__email">
                <Email address={mail.recipient} />
              </td>
              <td data-label={COLUMNS[2]}>{mail.subject}</td>
              <td data-label={COLUMNS[3]}>
                <StateCell mail={mail} />
              </td>
              <td data-label={COLUMNS[4]}>{mail.attempts}</td>
              <td data-label={COLUMNS[5]} className="admin-table__actions">
                {mail.state === 'failed' ? <RetryForm mail={mail} /> : <span aria-hidden="true">—</span>}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
