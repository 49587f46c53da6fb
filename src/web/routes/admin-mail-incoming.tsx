import { data, Form, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { inboundApi } from '../../contracts/api/inbound.ts';
import { UNEXPECTED_FAILURE } from '../../contracts/endpoint.ts';
import {
  INBOUND_STATE_LABELS,
  INBOUND_TEXT,
  INBOUND_VIEW_STATES,
  type InboundViewState,
} from '../../contracts/inbound.ts';
import type { InboundMail } from '../../contracts/inbound.schemas.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { FilterLinks, MailDirection } from '../features/admin/filter-links.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { type FormResult, readForm, refused } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-mail-incoming';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `Incoming ${ADMIN_TEXT.nav.mail.toLowerCase()} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['Received', 'From', 'Subject', 'State', 'Ticket', 'Actions'] as const;
const PAGE = '/admin/mail/incoming';
const DONE = { post: INBOUND_TEXT.posted, discard: INBOUND_TEXT.discarded } as const;
type Intent = keyof typeof DONE;

const stateFrom = (value: string | null): InboundViewState | undefined =>
  INBOUND_VIEW_STATES.find((state) => state === value);
const intentFrom = (value: string | null): Intent | undefined =>
  value === 'post' || value === 'discard' ? value : undefined;

/** This page at a state filter (none: all), with what was just done when something was. */
function pageAt(state: InboundViewState | undefined, done?: { intent: Intent; ticketId?: string }) {
  const query = new URLSearchParams({
    ...(state ? { state } : {}),
    ...(done ? { done: done.intent } : {}),
    ...(done?.ticketId ? { ticket: done.ticketId } : {}),
  }).toString();
  return query ? `${PAGE}?${query}` : PAGE;
}

/** The list, read as this admin (the layout refuses others), at the URL's state filter. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const url = new URL(request.url);
  const state = stateFrom(url.searchParams.get('state'));
  const intent = intentFrom(url.searchParams.get('done'));
  const done = intent ? { intent, ticketId: url.searchParams.get('ticket') || null } : null;
  const read = await services.api.call(inboundApi.list, { query: { state } });
  return { list: read.ok ? read.data : null, failed: !read.ok, state, done };
}

/**
 * The list is read again after every post here, a refused one too (React Router skips that after a
 * 4xx by default): a 409 usually means another admin decided first, and the list should show it.
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' || defaultShouldRevalidate;
}

/**
 * Post and Discard: plain forms posted here (intent, inboundId), sent on to the API as this admin,
 * then this page again (303, so a reload sends nothing twice) at the same filter, saying what was
 * done. A refusal (say, another admin decided first) answers the page with the API's words; the
 * result names the mail (`form`: its id).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const intent = intentFrom(values.intent ?? null);
  const inboundId = values.inboundId ?? '';
  const state = stateFrom(new URL(request.url).searchParams.get('state'));
  if (!intent || !/^[1-9]\d{0,15}$/.test(inboundId))
    return data<FormResult>(
      { ok: false, message: 'Choose Post or Discard on a held mail.', fields: {}, values },
      { status: 400 },
    );
  const { api } = context.get(requestContext).services;
  const params = { inboundId: Number(inboundId) };
  if (intent === 'post') {
    const posted = await api.call(inboundApi.post, { params });
    return posted.ok
      ? redirect(pageAt(state, { intent, ticketId: posted.data.ticketId }), 303)
      : refused(posted, values, inboundId);
  }
  const discarded = await api.call(inboundApi.discard, { params });
  return discarded.ok ? redirect(pageAt(state, { intent }), 303) : refused(discarded, values, inboundId);
}

/** Why a post or discard was refused, naming the mail when it is still in the list. */
function refusal(result: FormResult, mails: readonly InboundMail[]) {
  const error = result.message ?? Object.values(result.fields)[0] ?? UNEXPECTED_FAILURE;
  const mail = mails.find((m) => String(m.id) === result.form);
  return mail ? `“${mail.subject || 'no subject'}”: ${error}` : error;
}

/** A dash on screen, words for a screen reader. */
function Nothing({ words }: { words: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{words}</span>
    </>
  );
}

function StateCell({ mail }: { mail: InboundMail }) {
  return (
    <div className="mail-state">
      <span className={`badge mail-state__badge mail-state__badge--in-${mail.state}`}>
        {INBOUND_STATE_LABELS[mail.state]}
      </span>
      {mail.reasonText ? <span className="mail-state__detail">{mail.reasonText}</span> : null}
      {mail.decidedBy && (mail.state === 'posted' || mail.state === 'discarded') && mail.decidedAt ? (
        <span className="mail-state__detail">
          by <Email address={mail.decidedBy} />, {formatNzDateTime(mail.decidedAt)}
        </span>
      ) : null}
    </div>
  );
}

const HELD_ACTIONS = [
  { intent: 'post', label: 'Post', busy: 'Posting…', className: 'button button--primary admin-button--small' },
  {
    intent: 'discard',
    label: 'Discard',
    busy: 'Discarding…',
    className: 'button button--ghost admin-button--small admin-button--danger',
  },
] as const satisfies ReadonlyArray<{ intent: Intent; label: string; busy: string; className: string }>;

/** Post and Discard, each its own small form: they work without JavaScript. */
function HeldActions({ mail }: { mail: InboundMail }) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' ? navigation.formData : undefined;
  const mine = sending?.get('inboundId') === String(mail.id) ? sending.get('intent') : null;
  const subject = mail.subject || 'no subject';
  return (
    <div className="inbound-actions">
      {HELD_ACTIONS.map((action) => (
        <Form method="post" preventScrollReset key={action.intent}>
          <input type="hidden" name="inboundId" value={mail.id} />
          <button
            type="submit"
            name="intent"
            value={action.intent}
            className={action.className}
            disabled={Boolean(sending)}
          >
            {mine === action.intent ? action.busy : action.label}
            <span className="visually-hidden"> the mail “{subject}”</span>
          </button>
        </Form>
      ))}
    </div>
  );
}

/** /admin/mail/incoming: every mail received, newest first; filter by state; post or discard a held one. */
export default function AdminMailIncoming({ loaderData, actionData }: Route.ComponentProps) {
  const { list, failed, state, done } = loaderData;
  const counts = list?.counts;
  const total = counts ? INBOUND_VIEW_STATES.reduce((sum, s) => sum + counts[s], 0) : null;
  const filters = [
    { to: pageAt(undefined), label: total === null ? 'All' : `All (${total})`, current: state === undefined },
    ...INBOUND_VIEW_STATES.map((s) => ({
      to: pageAt(s),
      label: counts ? `${INBOUND_STATE_LABELS[s]} (${counts[s]})` : INBOUND_STATE_LABELS[s],
      current: state === s,
    })),
  ];

  return (
    <section className="admin-page" aria-labelledby="mail-title">
      <div className="admin-page__header">
        <h1 id="mail-title">{ADMIN_TEXT.nav.mail}</h1>
        <Link to={pageAt(state)} className="button button--ghost admin-button--small" preventScrollReset>
          Refresh
        </Link>
      </div>
      <MailDirection current="incoming" />
      <p>
        Replies to the site’s mail come in here. A reply from the person it was sent to is posted to its ticket; one we
        cannot be sure of is Held until an admin posts or discards it; automatic mail is Ignored.
      </p>
      <FilterLinks label="Show incoming mail that is" links={filters} />
      {actionData ? <Notice tone="error">{refusal(actionData, list?.mails ?? [])}</Notice> : null}
      {done && !actionData ? (
        <Notice tone="success">
          {DONE[done.intent]}
          {done.intent === 'post' && done.ticketId ? (
            <>
              {' '}
              <Link to={`/admin/support/${encodeURIComponent(done.ticketId)}`}>Open the ticket</Link>
            </>
          ) : null}
        </Notice>
      ) : null}
      {failed ? <Notice tone="error">We could not read the incoming mail. Please try again in a moment.</Notice> : null}
      {list && list.mails.length === 0 ? (
        <p className="empty-state">
          {state
            ? `No ${INBOUND_STATE_LABELS[state].toLowerCase()} mail.`
            : 'No mail has come in yet. Replies to the site’s mail will appear here.'}
        </p>
      ) : null}
      {list && list.mails.length > 0 ? (
        <DataTable caption="Incoming mail, newest first" columns={COLUMNS} className="admin-table inbound-mail">
          {list.mails.map((mail) => (
            <tr key={mail.id}>
              <td data-label={COLUMNS[0]}>
                <time dateTime={mail.receivedAt}>{formatNzDateTime(mail.receivedAt)}</time>
              </td>
              <td data-label={COLUMNS[1]} className="admin-table__email">
                {mail.from ? <Email address={mail.from} /> : <Nothing words="Unknown" />}
              </td>
              <td data-label={COLUMNS[2]} className="inbound-mail__subject">
                {mail.subject || <span className="support-muted">(no subject)</span>}
              </td>
              <td data-label={COLUMNS[3]}>
                <StateCell mail={mail} />
              </td>
              <td data-label={COLUMNS[4]}>
                {mail.ticketId && mail.ticketNo !== null ? (
                  <Link to={`/admin/support/${encodeURIComponent(mail.ticketId)}`} className="ticket-table__link">
                    #{mail.ticketNo}
                  </Link>
                ) : (
                  <Nothing words="No ticket" />
                )}
              </td>
              <td data-label={COLUMNS[5]} className="admin-table__actions">
                {mail.state === 'held' ? <HeldActions mail={mail} /> : <span aria-hidden="true">—</span>}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
