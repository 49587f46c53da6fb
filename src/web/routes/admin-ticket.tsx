import { useState } from 'react';
import { data, Form, Link, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router';
import { MESSAGE_FORM_MAX_BYTES } from '../../contracts/attachments.ts';
import { deskApi, supportApi } from '../../contracts/api/support.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import type { RouteHandle, ServerApiClient } from '../../contracts/web-context.ts';
import { DESK_TEXT, expandSavedReply, type SavedReply } from '../../contracts/desk.ts';
import { type AdminMessage, ADMIN_TEXT } from '../../contracts/admin.ts';
import { type AdminTicket, reasonLabel, SUPPORT_TEXT, waitingOn } from '../../contracts/support.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { deskAction } from '../features/support/desk-actions.ts';
import { DeskPanel } from '../features/support/desk-panel.tsx';
import { newClientId } from '../lib/client-id.ts';
import { Notice } from '../features/admin/notice.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import {
  IN_PLACE,
  isMultipart,
  loadTicketPage,
  replyAction,
  type ReplyResult,
  replyWithFilesAction,
  ticketClientAction,
} from '../features/support/ticket-page.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
import { api as browserApi } from '../lib/api-client.ts';
import { readForm } from '../lib/form.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';
import { Email } from '../components/ui/email.tsx';

/** A message with up to five files goes through this page's form (without JavaScript). */
export const handle: RouteHandle = { formBytes: MESSAGE_FORM_MAX_BYTES };

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `Ticket | ${ADMIN_TEXT.title}`);

async function savedRepliesOf(api: ServerApiClient): Promise<SavedReply[]> {
  const list = await api.call(deskApi.savedReplies);
  return list.ok ? list.data.savedReplies : [];
}

/**
 * The whole thread with its notes, and the admins it can be assigned to, read on the server so the
 * page has them without JavaScript (admins only: the layout refuses others).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const allowed = Boolean(user?.emailVerified && user.role === 'admin');
  // Three reads, side by side: the page waits for the slowest, not for their sum.
  const [page, agents, saved] = await Promise.all([
    loadTicketPage(allowed, () => services.api.call(deskApi.ticket, { params: { ticketId: params.ticketId } })),
    allowed ? services.api.call(deskApi.agents) : null,
    allowed ? savedRepliesOf(services.api) : [],
  ]);
  return data(
    {
      ...page.data,
      agents: agents?.ok ? agents.data.agents : [],
      savedReplies: saved,
      viewerEmail: user?.email ?? '',
      noteClientId: newClientId(),
    },
    page.init ?? undefined,
  );
}

/**
 * The page's forms, with or without JavaScript: the answer and the note, and close, reopen, assign,
 * privacy and keep-for-record (features/support/desk-actions.ts); then this page again, or the sent
 * message for the reply box's script.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const ticket = { ticketId: params.ticketId };
  const page = `/admin/support/${encodeURIComponent(params.ticketId)}`;
  // A reply with files streams on to the API unread (its form has no intent).
  if (isMultipart(request))
    return replyWithFilesAction(await api.forward(deskApi.reply, { params: ticket }, request), page);
  const values = await readForm(request);
  const intent = values.intent ?? '';
  if (intent === 'note')
    return replyAction(values, {
      form: 'note',
      page,
      send: (body) => api.call(deskApi.addNote, { params: ticket, body }),
    });
  if (intent === 'close' || intent === 'reopen')
    return deskAction(await api.call(deskApi[intent], { params: ticket }), { intent, page });
  if (intent === 'insert-saved') {
    // Without JavaScript, the picker's choice comes back as the reply box's text, filled in for this ticket.
    const chosen = (await savedRepliesOf(api)).find((reply) => reply.id === values.savedReplyId);
    const read = await api.call(deskApi.ticket, { params: ticket });
    const messageBody = chosen && read.ok ? expandSavedReply(chosen.body, read.data.ticket) : '';
    return {
      ok: true,
      message: null,
      fields: {},
      values: { messageBody, clientId: newClientId() },
      form: 'reply',
    } satisfies ReplyResult;
  }
  if (intent === 'privacy') {
    const body = { privacy: values.privacy === 'true' };
    return deskAction(await api.call(deskApi.setPrivacy, { params: ticket, body }), { intent, page });
  }
  if (intent === 'keep-for-record') {
    const body = { keep: values.keep === 'true' };
    return deskAction(await api.call(deskApi.setKeepForRecord, { params: ticket, body }), { intent, page });
  }
  if (intent === 'assign') {
    const body = { assignee: values.assignee || null };
    return deskAction(await api.call(deskApi.assign, { params: ticket, body }), { intent, page });
  }
  return replyAction(values, {
    form: 'reply',
    page,
    send: (body) => api.call(deskApi.reply, { params: ticket, body }),
  });
}

export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) =>
  ticketClientAction(request, serverAction);

/** An answer or a note sent by the page's script leaves the thread as it is: the live stream brings what changed. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get(IN_PLACE) ? false : defaultShouldRevalidate;
}

/** /admin/support/{ticketId}: the whole thread, live; answer as Admin; close or reopen. */
export default function AdminTicketPage({ params, loaderData, actionData }: Route.ComponentProps) {
  const { ticketId } = params;
  const encoded = encodeURIComponent(ticketId);
  // Admins may open the user's message stream: it sends the ticket first, then every message.
  const thread = useTicketThread<AdminTicket, AdminMessage>({
    streamUrl: pathOf(supportApi.messagesStream, { params: { ticketId } }),
    read: () => browserApi.call(deskApi.ticket, { params: { ticketId } }),
    missingStatuses: [404, 400],
    loaded: loaderData.thread,
    loadedMissing: loaderData.missing,
  });
  const { ticket, messages } = thread;
  // Who the ticket waits for follows the last message the user sees (notes do not count).
  const lastVisible = messages.findLast((message) => !message.internal);
  const hydrated = useHydrated();
  const busy = useNavigation().state === 'submitting';
  // What the page's action sent back: a refused answer or note (text kept), or a refused button.
  const kept = actionData?.form === 'reply' || actionData?.form === 'note' ? (actionData as ReplyResult) : undefined;
  const refusedReply = kept?.form === 'reply' ? kept : undefined;
  const refusedNote = kept?.form === 'note' ? kept : undefined;
  const problem = actionData && !kept && !actionData.ok ? actionData.message : null;
  const [unsent, setUnsent] = useState(
    refusedReply && !refusedReply.ok && refusedReply.values.messageBody?.trim() ? refusedReply.values.messageBody : '',
  );

  return (
    <section className="admin-page ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/admin/support">{ADMIN_TEXT.nav.support}</Link>
      </p>
      <header className="ticket__header">
        <div>
          <h1 id="ticket-title" className="admin-ticket__title">
            {thread.missing ? SUPPORT_TEXT.ticketMissing : ticket ? `Ticket #${ticket.ticketNo}` : SUPPORT_TEXT.loading}
          </h1>
          {ticket ? (
            <p className="ticket__reason">
              {reasonLabel(ticket.reason)} · from <Email className="admin-table__email" address={ticket.userEmail} /> ·
              opened {formatNzDateTime(ticket.creationDate)} ·{' '}
              <span className={`badge${ticket.open ? ' badge--open' : ''}`}>{ticket.open ? 'Open' : 'Closed'}</span>{' '}
              <WaitingBadge waiting={waitingOn(ticket.open, lastVisible?.admin)} />
            </p>
          ) : null}
        </div>
        <div className="admin-ticket__actions">
          {/* Live updates need the page's script: without it the status would say Connecting… for ever. */}
          {!thread.missing && hydrated ? <LiveIndicator status={thread.live} /> : null}
          {ticket ? (
            <Form method="post" preventScrollReset>
              <button
                type="submit"
                name="intent"
                value={ticket.open ? 'close' : 'reopen'}
                className="button button--ghost"
                disabled={busy}
              >
                {ticket.open ? ADMIN_TEXT.closeTicket : ADMIN_TEXT.reopenTicket}
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      {ticket ? <DeskPanel ticket={ticket} agents={loaderData.agents} viewerEmail={loaderData.viewerEmail} /> : null}
      {thread.viewers.length > 0 ? (
        <p className="desk-viewers" role="status">
          {DESK_TEXT.alsoViewing} {thread.viewers.join(', ')}
        </p>
      ) : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {thread.missing ? null : (
        <>
          <TicketThread
            messages={messages}
            mine={(message) => message.admin && !message.internal}
            note={(message) => message.internal}
            author={(message) =>
              message.admin
                ? message.internal
                  ? (message.authorEmail ?? 'Admin')
                  : 'Admin'
                : (message.authorEmail ?? 'User')
            }
            wholeMail={(message) => `/admin/support/${encoded}/mail/${message.id}`}
          />
          {ticket?.open ? (
            <ReplyBox<AdminMessage>
              upload={{ declaration: deskApi.reply, params: { ticketId } }}
              savedReplies={loaderData.savedReplies.map((reply) => ({
                id: reply.id,
                title: reply.title,
                text: expandSavedReply(reply.body, ticket),
              }))}
              clientId={refusedReply?.values.clientId || loaderData.clientId}
              kept={refusedReply}
              onSent={thread.addMessage}
              onClosed={(text) => {
                setUnsent(text);
                thread.setTicket({ ...ticket, open: false });
              }}
            />
          ) : ticket ? (
            <>
              <p className="ticket__closed" role="status">
                This ticket is closed. Reopen it to answer.
              </p>
              {unsent.trim() ? <UnsentReply text={unsent} /> : null}
            </>
          ) : null}
          {ticket ? (
            <ReplyBox<AdminMessage>
              variant="note"
              clientId={refusedNote?.values.clientId || loaderData.noteClientId}
              kept={refusedNote}
              onSent={thread.addMessage}
              onClosed={() => {}}
            />
          ) : null}
        </>
      )}
    </section>
  );
}
