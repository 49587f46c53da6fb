import { useState } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';
import {
  AgentListSchema,
  DESK_TEXT,
  expandSavedReply,
  type SavedReply,
  SavedReplyListSchema,
} from '../../contracts/desk.ts';
import { type AdminMessage, ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  type AdminTicket,
  AdminTicketWithMessagesSchema,
  formatNzDateTime,
  reasonLabel,
  SUPPORT_TEXT,
  waitingOn,
} from '../../contracts/support.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { deskFormAction, textField } from '../features/support/desk-actions.ts';
import { DeskPanel } from '../features/support/desk-panel.tsx';
import { newClientId } from '../lib/client-id.ts';
import { Notice } from '../features/admin/notice.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import { isMultipart, loadTicketPage, type ReplyFormResult, replyFormAction } from '../features/support/ticket-page.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { requestContext, type RequestContextValue } from '../lib/request-context.ts';
import type { Route } from './+types/admin-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';
import { Email } from '../components/ui/email.tsx';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `Ticket | ${ADMIN_TEXT.title}`);

async function savedRepliesOf(services: RequestContextValue['services']): Promise<SavedReply[]> {
  const list = SavedReplyListSchema.safeParse((await services.callApi('GET', '/api/admin/support/saved-replies')).body);
  return list.success ? list.data.savedReplies : [];
}

/**
 * The whole thread with its notes, and the admins it can be assigned to, read on the server so the
 * page has them without JavaScript (admins only: the layout refuses others).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const allowed = Boolean(user?.emailVerified && user.role === 'admin');
  const page = await loadTicketPage(context, {
    allowed,
    api: `/api/admin/support/tickets/${encodeURIComponent(params.ticketId)}`,
    schema: AdminTicketWithMessagesSchema,
  });
  const agents = allowed
    ? AgentListSchema.safeParse((await services.callApi('GET', '/api/admin/support/agents')).body)
    : null;
  const saved = allowed ? await savedRepliesOf(services) : [];
  return data(
    {
      ...page.data,
      agents: agents?.success ? agents.data.agents : [],
      savedReplies: saved,
      viewerEmail: user?.email ?? '',
      noteClientId: newClientId(),
    },
    page.init ?? undefined,
  );
}

/**
 * The page's forms, with or without JavaScript: the answer and the note (the endpoints their boxes
 * call), and close, reopen and assign (features/support/desk-actions.ts); then this page again.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const ticket = encodeURIComponent(params.ticketId);
  const api = `/api/admin/support/tickets/${ticket}`;
  const page = `/admin/support/${ticket}`;
  // A reply with files streams on to the API unread (its form has no intent).
  if (isMultipart(request)) return replyFormAction(request, context, { api: `${api}/messages`, page });
  const form = await request.clone().formData();
  const intent = textField(form, 'intent');
  if (intent === 'note') return replyFormAction(request, context, { api: `${api}/notes`, page });
  if (intent === 'close' || intent === 'reopen')
    return deskFormAction(context, { intent, api: `${api}/${intent}`, body: {}, page });
  if (intent === 'insert-saved') {
    // Without JavaScript, the picker's choice comes back as the reply box's text, filled in for this ticket.
    const { services } = context.get(requestContext);
    const chosen = (await savedRepliesOf(services)).find((reply) => reply.id === textField(form, 'savedReplyId'));
    const read = AdminTicketWithMessagesSchema.safeParse((await services.callApi('GET', api)).body);
    const messageBody = chosen && read.success ? expandSavedReply(chosen.body, read.data.ticket) : '';
    return data<ReplyFormResult>({ messageBody, clientId: newClientId(), error: '', closed: false, note: false });
  }
  if (intent === 'privacy')
    return deskFormAction(context, {
      intent,
      api: `${api}/privacy`,
      body: { privacy: textField(form, 'privacy') === 'true' },
      page,
    });
  if (intent === 'keep-for-record')
    return deskFormAction(context, {
      intent,
      api: `${api}/keep-for-record`,
      body: { keep: textField(form, 'keep') === 'true' },
      page,
    });
  if (intent === 'assign') {
    const assignee = textField(form, 'assignee');
    return deskFormAction(context, { intent, api: `${api}/assign`, body: { assignee: assignee || null }, page });
  }
  return replyFormAction(request, context, { api: `${api}/messages`, page });
}

/** /admin/support/{ticketId}: the whole thread, live; answer as Admin; close or reopen. */
export default function AdminTicketPage({ params, loaderData, actionData }: Route.ComponentProps) {
  const { ticketId } = params;
  const encoded = encodeURIComponent(ticketId);
  // Admins may open the user's message stream: it sends the ticket first, then every message.
  const thread = useTicketThread<AdminTicket, AdminMessage>({
    streamUrl: `/api/support/tickets/${encoded}/messages/stream`,
    readUrl: `/api/admin/support/tickets/${encoded}`,
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
  const kept = actionData && 'messageBody' in actionData ? actionData : undefined;
  const refusedReply = kept && !kept.note ? kept : undefined;
  const refusedNote = kept?.note ? kept : undefined;
  const problem = actionData && 'intent' in actionData && !('messageBody' in actionData) ? actionData.error : null;
  const [unsent, setUnsent] = useState(refusedReply?.messageBody.trim() ? refusedReply.messageBody : '');

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
              ticketId={ticketId}
              postUrl={`/api/admin/support/tickets/${encoded}/messages`}
              savedReplies={loaderData.savedReplies.map((reply) => ({
                id: reply.id,
                title: reply.title,
                text: expandSavedReply(reply.body, ticket),
              }))}
              clientId={refusedReply?.clientId || loaderData.clientId}
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
              ticketId={ticketId}
              postUrl={`/api/admin/support/tickets/${encoded}/notes`}
              clientId={refusedNote?.clientId || loaderData.noteClientId}
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
