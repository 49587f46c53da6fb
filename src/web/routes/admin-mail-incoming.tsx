import { data, Link, redirect, type ShouldRevalidateFunctionArgs } from 'react-router';
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
import { HeldActions, OpenedMail } from '../features/admin/held-mail.tsx';
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

/**
 * This page at a state filter (none: all), with what was just done when something was, or with one
 * mail opened (`mail`: its id).
 */
function pageAt(state: InboundViewState | undefined, done?: { intent: Intent; ticketId?: string }, mail?: number) {
  const query = new URLSearchParams({
    ...(state ? { state } : {}),
    ...(done ? { done: done.intent } : {}),
    ...(done?.ticketId ? { ticket: done.ticketId } : {}),
    ...(mail ? { mail: String(mail) } : {}),
  }).toString();
  return query ? `${PAGE}?${query}` : PAGE;
}

const ID = /^[1-9]\d{0,15}$/;

/**
 * The list, read as this admin (the layout refuses others), at the URL's state filter; and the mail
 * the URL opens (`mail`), read beside it: its text, files and headers.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const url = new URL(request.url);
  const state = stateFrom(url.searchParams.get('state'));
  const intent = intentFrom(url.searchParams.get('done'));
  const done = intent ? { intent, ticketId: url.searchParams.get('ticket') || null } : null;
  const mailId = url.searchParams.get('mail');
  const [read, opened] = await Promise.all([
    services.api.call(inboundApi.list, { query: { state } }),
    mailId === null
      ? null
      : ID.test(mailId)
        ? services.api.call(inboundApi.read, { params: { inboundId: Number(mailId) } })
        : ({ ok: false, status: 404, message: INBOUND_TEXT.notFound } as const),
  ]);
  return {
    list: read.ok ? read.data : null,
    failed: !read.ok,
    state,
    done,
    opened: opened?.ok ? opened.data : null,
    // Why the mail the URL names cannot be shown: gone, or the read failed.
    openFailed: opened && !opened.ok ? (opened.status === 404 ? INBOUND_TEXT.notFound : UNEXPECTED_FAILURE) : null,
  };
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
  if (!intent || !ID.test(inboundId))
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

/**
 * /admin/mail/incoming: every mail received, newest first; filter by state; open a held one to read
 * it (?mail=id), then post or discard it.
 */
export default function AdminMailIncoming({ loaderData, actionData }: Route.ComponentProps) {
  const { list, failed, state, done, opened, openFailed } = loaderData;
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
      {openFailed ? <Notice tone="error">{openFailed}</Notice> : null}
      {opened ? <OpenedMail mail={opened} closeTo={pageAt(state)} /> : null}
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
                {mail.state === 'held' ? (
                  <div className="inbound-actions">
                    <Link
                      to={pageAt(state, undefined, mail.id)}
                      className="button button--ghost admin-button--small"
                      aria-current={opened?.id === mail.id ? 'true' : undefined}
                    >
                      {INBOUND_TEXT.read}
                      <span className="visually-hidden"> the mail “{mail.subject || 'no subject'}”</span>
                    </Link>
                    <HeldActions mail={mail} />
                  </div>
                ) : (
                  <span aria-hidden="true">—</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
