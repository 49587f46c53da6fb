import { useState } from 'react';
import { data, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigate } from 'react-router';
import { MESSAGE_FORM_MAX_BYTES } from '../../contracts/attachments.ts';
import { supportApi } from '../../contracts/api/support.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import type { RouteHandle } from '../../contracts/web-context.ts';
import { reasonLabel, SUPPORT_TEXT, waitingOn } from '../../contracts/support.ts';
import type { Message, Ticket } from '../../contracts/support.schemas.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import {
  IN_PLACE,
  isMultipart,
  loadTicketPage,
  type ReplyResult,
  ticketClientAction,
} from '../features/support/ticket-page.ts';
import { replyAction, replyWithFilesAction } from '../features/support/reply-action.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { TicketLinks } from '../features/support/ticket-links.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
import { useSeenReport } from '../features/support/use-seen-report.ts';
import { deskAction } from '../features/support/desk-actions.ts';
import { RatingForm } from '../features/support/rating-form.tsx';
import { RatingFormSchema } from '../../contracts/desk.schemas.ts';
import { api } from '../lib/api-client.ts';
import { claimsApi } from '../../contracts/api/claims.ts';
import { CLAIM_APPEAL_INTENT, SenderClaimPanel } from '../features/support/sender-claim.tsx';
import { type FormResult, invalid, readForm } from '../lib/form.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';

/** A message with up to five files goes through this page's form (without JavaScript). */
export const handle: RouteHandle = { formBytes: MESSAGE_FORM_MAX_BYTES };

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'support', 'Support Ticket');

/** The thread, read on the server so the page has it without JavaScript (the layout signs in anyone else). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const allowed = Boolean(user?.emailVerified);
  const [page, claim] = await Promise.all([
    loadTicketPage(allowed, () => services.api.call(supportApi.ticket, { params: { ticketId: params.ticketId } }), {
      ticketId: params.ticketId,
      pageOf: (id) => `/support/ticket/${encodeURIComponent(id)}`,
    }),
    // The ticket's incident claim, if it has one (docs/decisions/153-claim-life.md).
    allowed ? services.api.call(claimsApi.senderClaim, { params: { ticketId: params.ticketId } }) : null,
  ]);
  return data({ ...page.data, claim: claim?.ok ? claim.data.claim : null }, page.init ?? undefined);
}

/**
 * The page's forms, with or without JavaScript: the reply and, once closed, the rating
 * (intent=rate); then this page again, or the sent message for the reply box's script.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  const ticket = { ticketId: params.ticketId };
  const page = `/support/ticket/${encodeURIComponent(params.ticketId)}`;
  // A reply with files streams on to the API unread (its form has no intent).
  if (isMultipart(request))
    return replyWithFilesAction(await services.api.forward(supportApi.reply, { params: ticket }, request), page);
  const values = await readForm(request);
  if (values.intent === CLAIM_APPEAL_INTENT) {
    const typed = { reason: values.reason ?? '' };
    const appealed = await services.api.call(claimsApi.appeal, { params: ticket, body: typed });
    if (appealed.ok) return redirect(`${page}#claim`, 303);
    return data<FormResult>(
      { ok: false, form: CLAIM_APPEAL_INTENT, message: appealed.message, fields: appealed.fields, values: typed },
      { status: appealed.status || 500 },
    );
  }
  if (values.intent === 'rate') {
    const parsed = RatingFormSchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, values, 'rate');
    return deskAction(await services.api.call(supportApi.rate, { params: ticket, body: parsed.data }), {
      intent: 'rate',
      page,
    });
  }
  return replyAction(values, {
    form: 'reply',
    page,
    send: (body) => services.api.call(supportApi.reply, { params: ticket, body }),
  });
}

export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) =>
  ticketClientAction(request, serverAction);

/** A reply sent by the page's script leaves the thread as it is: the live stream brings what changed. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get(IN_PLACE) ? false : defaultShouldRevalidate;
}

/** /support/ticket/{ticketId}: the conversation with support, live. */
export default function SupportTicket({ params, loaderData, actionData }: Route.ComponentProps) {
  const { ticketId } = params;
  const encoded = encodeURIComponent(ticketId);
  const navigate = useNavigate();
  const thread = useTicketThread<Ticket, Message>({
    streamUrl: pathOf(supportApi.messagesStream, { params: { ticketId } }),
    read: () => api.call(supportApi.ticket, { params: { ticketId } }),
    loaded: loaderData.thread,
    loadedMissing: loaderData.missing,
    // Merged into another ticket while open here: its thread goes on there.
    onMoved: (movedTo) => void navigate(`/support/ticket/${encodeURIComponent(movedTo)}`, { replace: true }),
  });
  const { ticket, messages } = thread;
  // Answers the reader had in front of them are not mailed; ones the page merely received are.
  useSeenReport(ticketId, messages);
  // Words a refused reply carried: kept on the page, with a way to send them as a new ticket.
  const refusedReply = actionData?.form === 'reply' ? (actionData as ReplyResult) : undefined;
  const rating = actionData?.form === 'rate' ? actionData : undefined;
  const appeal = actionData?.form === CLAIM_APPEAL_INTENT ? (actionData as FormResult) : undefined;
  const [unsent, setUnsent] = useState(refusedReply?.values.messageBody?.trim() ? refusedReply.values.messageBody : '');
  // The rating's 7 days are counted from the page's load (the server decides on a send).
  const [now] = useState(() => Date.now());

  return (
    <section className="support-panel ticket" aria-labelledby="ticket-title">
      <p className="support-back">
        <Link to="/support/">{SUPPORT_TEXT.myTickets}</Link>
      </p>
      {/* The status sits beside the title, the reason on the line below across the whole width: the
          header keeps its height whichever status it shows (Connecting… is twice as wide as Live). */}
      <header className="ticket__header ticket__header--chat">
        <h2 id="ticket-title">
          {thread.missing ? SUPPORT_TEXT.ticketMissing : ticket ? `Ticket #${ticket.ticketNo}` : SUPPORT_TEXT.loading}
        </h2>
        {/* Live updates need the page's script: without it the status would say Connecting… for ever. */}
        {thread.missing ? null : <LiveIndicator status={thread.live} />}
        {ticket ? (
          <p className="ticket__reason">
            {reasonLabel(ticket.reason)} {/* From the thread itself, so it changes the moment a message arrives. */}
            {/* A person's last message decides it: a line the system wrote (a merge, a split) is nobody's. */}
            <WaitingBadge waiting={waitingOn(ticket.open, messages.findLast((m) => !m.systemEvent)?.admin)} />
          </p>
        ) : null}
        {ticket ? (
          <TicketLinks
            follows={ticket.follows}
            continuedIn={ticket.continuedIn}
            href={(id) => `/support/ticket/${encodeURIComponent(id)}`}
          />
        ) : null}
      </header>
      {thread.missing ? null : (
        <>
          {loaderData.claim ? <SenderClaimPanel claim={loaderData.claim} refused={appeal} /> : null}
          <TicketThread
            messages={messages}
            mine={(message) => message.mine}
            author={(message) => (message.admin ? 'Admin' : 'Me')}
            wholeMail={(message) => `/support/ticket/${encoded}/mail/${message.id}`}
          />
          {ticket?.open ? (
            <ReplyBox
              upload={{ declaration: supportApi.reply, params: { ticketId } }}
              ticketId={ticketId}
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
                This ticket is closed. {SUPPORT_TEXT.replyRejected}
              </p>
              <UnsentReply text={unsent} ticketId={ticketId} newTicket />
              <RatingForm rating={ticket.rating} result={rating} now={now} ticketId={ticket.id} />
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
