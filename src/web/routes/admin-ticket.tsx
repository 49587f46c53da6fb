import { useEffect, useRef, useState } from 'react';
import {
  data,
  Form,
  Link,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useNavigate,
  useRevalidator,
} from 'react-router';
import { sideApi } from '../../contracts/api/side-conversations.ts';
import { labelsApi } from '../../contracts/api/labels.ts';
import { SideConversations, type SideFormResult } from '../features/support/side-conversations.tsx';
import { isSideIntent, sideAction } from '../features/support/side-actions.ts';
import { MESSAGE_FORM_MAX_BYTES } from '../../contracts/attachments.ts';
import { inboundApi } from '../../contracts/api/inbound.ts';
import { deskApi, supportApi } from '../../contracts/api/support.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import type { RouteHandle, ServerApiClient } from '../../contracts/web-context.ts';
import { DESK_TEXT, expandSavedReply } from '../../contracts/desk.ts';
import { firstQuestion } from '../../contracts/macros.ts';
import { bulkApi } from '../../contracts/api/bulk.ts';
import { describeMacro, hasMacroActions, MACRO_ACTION_TEXT } from '../../contracts/macro-actions.ts';
import { MacroPanel } from '../features/support/macro-panel.tsx';
import type { SavedReply } from '../../contracts/desk.schemas.ts';
import { type AdminMessage, ADMIN_TEXT } from '../../contracts/admin.ts';
import { reasonLabel, SUPPORT_TEXT, waitingOn } from '../../contracts/support.ts';
import type { AdminTicket } from '../../contracts/support.schemas.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { WaitingBadge } from '../features/support/waiting-badge.tsx';
import { deskAction } from '../features/support/desk-actions.ts';
import { DeskFacts, DeskToolbar } from '../features/support/desk-panel.tsx';
import { MERGE_TEXT } from '../../contracts/ticket-merge.ts';
import { newClientId } from '../lib/client-id.ts';
import { Notice } from '../features/admin/notice.tsx';
import { HeldMailNote } from '../features/admin/held-mail.tsx';
import { LiveIndicator } from '../features/support/live-indicator.tsx';
import { PresenceLine, usePresenceBeat } from '../features/support/presence.tsx';
import { ReplyBox, UnsentReply } from '../features/support/reply-box.tsx';
import {
  IN_PLACE,
  isMultipart,
  loadTicketPage,
  type ReplyResult,
  ticketClientAction,
} from '../features/support/ticket-page.ts';
import { replyAction, replyWithFilesAction, seenVersionOf } from '../features/support/reply-action.ts';
import { TicketThread } from '../features/support/ticket-thread.tsx';
import { TicketLinks } from '../features/support/ticket-links.tsx';
import { useTicketThread } from '../features/support/use-ticket-thread.ts';
import { api as browserApi } from '../lib/api-client.ts';
import { type FormResult, readForm, tickedNames } from '../lib/form.ts';
import { DELIVERY_TEXT } from '../../contracts/delivery-card.ts';
import { claimsApi } from '../../contracts/api/claims.ts';
import { ClaimPanel, isClaimIntent } from '../features/admin/claim-panel.tsx';
import { claimAction } from '../features/admin/claim-action.ts';
import type { DeliveryCard } from '../../contracts/delivery-card.schemas.ts';
import { DELIVERY_INTENT, DeliveryCardPanel, DeliveryReferenceForm } from '../features/support/delivery-card.tsx';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-ticket';
import '../styles/support.css';
import { privatePageMeta } from '../lib/page-meta.ts';
import { Email } from '../components/ui/email.tsx';
import { useNow } from '../lib/use-now.ts';

/**
 * A message with up to five files goes through this page's form (without JavaScript). The page
 * streams: the delivery card follows the page when the app answers (docs/decisions/151-delivery-card.md).
 */
export const handle: RouteHandle = { formBytes: MESSAGE_FORM_MAX_BYTES, streams: true };

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
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { user, services, site } = context.get(requestContext);
  const allowed = Boolean(user?.emailVerified && user.permissions.includes('tickets.read'));
  // An auditor reads the ticket; the tools that change it are for those whose roles do.
  const canWrite = Boolean(allowed && user?.permissions.includes('tickets.write'));
  const readsMail = Boolean(allowed && user?.permissions.includes('mail.read'));
  // The reads side by side: the page waits for the slowest, not for their sum.
  const [page, agents, saved, targets, merges, held, sides, labels, claim] = await Promise.all([
    loadTicketPage(allowed, () => services.api.call(deskApi.ticket, { params: { ticketId: params.ticketId } }), {
      ticketId: params.ticketId,
      pageOf: (id) => `/admin/support/${encodeURIComponent(id)}`,
    }),
    allowed ? services.api.call(deskApi.agents) : null,
    allowed ? savedRepliesOf(services.api) : [],
    allowed ? services.api.call(deskApi.mergeTargets, { params: { ticketId: params.ticketId } }) : null,
    allowed ? services.api.call(deskApi.merges, { params: { ticketId: params.ticketId } }) : null,
    // Mail that would belong to this ticket, held for an admin (reply by email): the page says so.
    readsMail ? services.api.call(inboundApi.list, { query: { state: 'held', ticketId: params.ticketId } }) : null,
    // The team's mail with third parties about this ticket (decision 138): staff only, like the rest here.
    allowed ? services.api.call(sideApi.list, { params: { ticketId: params.ticketId } }) : null,
    // The team's labels, to choose the ticket's among (decision 141).
    allowed ? services.api.call(labelsApi.list) : null,
    // The ticket's incident claim, if it has one (decision 152).
    allowed ? services.api.call(claimsApi.claim, { params: { ticketId: params.ticketId } }) : null,
  ]);
  const agentList = agents?.ok ? agents.data.agents : [];
  const labelList = labels?.ok ? labels.data.labels.map(({ id, name }) => ({ id, name })) : [];
  // A macro chosen for a preview (?macro=), or one just applied (?macroApplied=, with its undo).
  const search = new URL(request.url).searchParams;
  const macros = saved.filter((reply) => hasMacroActions(reply.actions));
  const chosen = macros.find((reply) => reply.id === search.get('macro'));
  const names = {
    labels: new Map(labelList.map((label) => [label.id, label.name])),
    agents: new Map(agentList.map((agent) => [agent.id, agent.email])),
  };
  const shown = page.data.thread?.ticket;
  const macroPreview =
    chosen && shown
      ? {
          id: chosen.id,
          title: chosen.title,
          text: expandSavedReply(chosen.body, shown),
          lines: describeMacro(chosen.actions, names, false),
        }
      : null;
  // The delivery card (docs/decisions/151-delivery-card.md), not waited for: the page goes out with
  // its fallback and the card follows in the same response once the app answers (2 s at most).
  const deliveryReference = shown?.deliveryReference ?? null;
  const delivery: Promise<DeliveryCard> | null =
    site.deliveryCard && deliveryReference
      ? services.api
          .call(deskApi.delivery, { params: { ticketId: params.ticketId } })
          .then((answer) => (answer.ok ? answer.data : { state: 'unavailable', reference: deliveryReference }))
      : null;
  const appliedId = search.get('macroApplied');
  const appliedMacro = saved.find((reply) => reply.id === search.get('macroOf'));
  return data(
    {
      ...page.data,
      macros: macros.map(({ id, title }) => ({ id, title })),
      macroPreview,
      macroApplied: appliedId ? { undoId: appliedId, title: appliedMacro?.title ?? 'the macro' } : null,
      macroUndone: search.has('macroUndone'),
      agents: agentList,
      mergeTargets: targets?.ok ? targets.data.tickets : [],
      merges: merges?.ok ? merges.data.merges : [],
      heldMails: held?.ok ? held.data.mails.map((mail) => ({ id: mail.id, subject: mail.subject })) : [],
      sideConversations: sides?.ok ? sides.data.conversations : [],
      teamLabels: labelList,
      savedReplies: saved,
      viewerEmail: user?.email ?? '',
      canWrite,
      delivery,
      claim: claim?.ok ? claim.data.claim : null,
      carriers: claim?.ok ? claim.data.carriers : [],
      noteClientId: newClientId(),
      macroClientId: newClientId(),
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
  if (isSideIntent(intent)) return sideAction(api, intent, values, { ticketId: params.ticketId, page });
  if (intent === 'note')
    return replyAction(values, {
      form: 'note',
      page,
      send: (body) => api.call(deskApi.addNote, { params: ticket, body }),
    });
  // The version the page showed (decision 140): a change since stops the action, and says so.
  const seen = seenVersionOf(values);
  const seenVersion = seen !== undefined ? { seenVersion: seen } : {};
  if (intent === 'close' || intent === 'reopen')
    return deskAction(await api.call(deskApi[intent], { params: ticket, query: seenVersion }), { intent, page });
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
  if (intent === 'macro') {
    // A macro applied from its preview (docs/decisions/145-macro-actions.md): then the page with its Undo.
    const applied = await api.call(deskApi.applyMacro, {
      params: ticket,
      body: {
        savedReplyId: values.savedReplyId ?? '',
        messageBody: values.messageBody ?? '',
        ...(values.clientId ? { clientId: values.clientId } : {}),
        ...seenVersion,
      },
    });
    if (applied.ok)
      return redirect(
        `${page}?${new URLSearchParams({ macroApplied: applied.data.undoId, macroOf: values.savedReplyId ?? '' })}#macro-panel`,
        303,
      );
    return data(
      {
        ok: false,
        form: 'macro',
        message: applied.fields.messageBody ?? Object.values(applied.fields)[0] ?? applied.message,
        values: { messageBody: values.messageBody ?? '' },
        fields: applied.fields,
      },
      { status: applied.status || 500 },
    );
  }
  if (intent === 'undo-macro') {
    const undone = await api.call(bulkApi.undo, { params: { bulkId: values.undoId ?? '' } });
    if (undone.ok) return redirect(`${page}?macroUndone=1#macro-panel`, 303);
    return deskAction(undone, { intent, page });
  }
  // The claim's forms (docs/decisions/152-incident-claims.md, 153-claim-life.md): then the page again, at the claim.
  if (isClaimIntent(intent)) return claimAction(api, intent, values, { ticketId: params.ticketId, page });
  if (intent === DELIVERY_INTENT) {
    // The delivery's reference (docs/decisions/151-delivery-card.md): then the page again, at its card.
    const typed = values.deliveryReference ?? '';
    const saved = await api.call(deskApi.setDeliveryReference, { params: ticket, body: { deliveryReference: typed } });
    if (saved.ok) return redirect(`${page}#delivery`, 303);
    return data<FormResult>(
      {
        ok: false,
        form: DELIVERY_INTENT,
        message: saved.fields.deliveryReference ?? saved.message,
        fields: saved.fields,
        values: { deliveryReference: typed },
      },
      { status: saved.status || 500 },
    );
  }
  if (intent === 'privacy') {
    const body = { privacy: values.privacy === 'true' };
    return deskAction(await api.call(deskApi.setPrivacy, { params: ticket, body }), { intent, page });
  }
  if (intent === 'keep-for-record') {
    const body = { keep: values.keep === 'true' };
    return deskAction(await api.call(deskApi.setKeepForRecord, { params: ticket, body }), { intent, page });
  }
  if (intent === 'merge') {
    // Merged: the ticket it went into (docs/decisions/116-ticket-merge.md).
    const merged = await api.call(deskApi.merge, {
      params: ticket,
      body: { targetTicketId: values.targetTicketId ?? '', ...seenVersion },
    });
    if (merged.ok) return redirect(`/admin/support/${encodeURIComponent(merged.data.targetTicketId)}`, 303);
    return deskAction(merged, { intent, page });
  }
  if (intent === 'split') {
    // Split: the new ticket (docs/decisions/116-ticket-merge.md).
    const split = await api.call(deskApi.split, {
      params: ticket,
      body: { messageId: Number(values.messageId), reason: (values.reason ?? 'General') as 'General' },
    });
    if (split.ok) return redirect(`/admin/support/${encodeURIComponent(split.data.newTicketId)}`, 303);
    return deskAction(split, { intent, page });
  }
  if (intent === 'undo-merge') {
    const undone = await api.call(deskApi.undoMerge, { params: { mergeId: Number(values.mergeId) } });
    // An undone split's new ticket may be gone: the ticket it came from is where the messages are.
    if (undone.ok && values.kind === 'split')
      return redirect(`/admin/support/${encodeURIComponent(undone.data.sourceTicketId)}`, 303);
    return deskAction(undone, { intent, page });
  }
  if (intent === 'labels') {
    // The ticked boxes are the ticket's labels; the others come off (decision 141).
    const labelIds = tickedNames(values, 'label-');
    return deskAction(await api.call(labelsApi.setTicketLabels, { params: ticket, body: { labelIds } }), {
      intent,
      page,
    });
  }
  if (intent === 'assign') {
    const body = { assignee: values.assignee || null, ...seenVersion };
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
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  // Admins may open the user's message stream: it sends the ticket first, then every message.
  const thread = useTicketThread<AdminTicket, AdminMessage>({
    streamUrl: pathOf(supportApi.messagesStream, { params: { ticketId } }),
    read: () => browserApi.call(deskApi.ticket, { params: { ticketId } }),
    missingStatuses: [404, 400],
    loaded: loaderData.thread,
    loadedMissing: loaderData.missing,
    // Merged into another ticket while open here: its thread goes on there.
    onMoved: (movedTo) => void navigate(`/admin/support/${encodeURIComponent(movedTo)}`, { replace: true }),
    // A side conversation was started, written, answered or closed: its list is the loader's.
    onSide: () => void revalidator.revalidate(),
  });
  const { ticket, messages } = thread;
  // The team sees who has this ticket open and who types in its boxes (inside this page's section).
  const presenceArea = useRef<HTMLElement>(null);
  usePresenceBeat(thread.missing ? null : ticketId, presenceArea);
  // Who the ticket waits for follows the last message the user sees (notes do not count), of a
  // person: the lines a merge or split writes are nobody's, as the server counts them.
  const lastVisible = messages.findLast((message) => !message.internal);
  const lastWritten = messages.findLast((message) => !message.internal && !message.systemEvent);
  // What the page's action sent back: a refused answer or note (text kept), or a refused button.
  const kept = actionData?.form === 'reply' || actionData?.form === 'note' ? (actionData as ReplyResult) : undefined;
  const refusedReply = kept?.form === 'reply' ? kept : undefined;
  const refusedNote = kept?.form === 'note' ? kept : undefined;
  const sideRefused =
    actionData && typeof actionData.form === 'string' && actionData.form.startsWith('side-')
      ? (actionData as SideFormResult)
      : undefined;
  const macroRefusal =
    actionData?.form === 'macro' && !actionData.ok
      ? { message: actionData.message ?? '', messageBody: actionData.values?.messageBody }
      : null;
  const deliveryRefused = actionData?.form === DELIVERY_INTENT ? (actionData as FormResult) : undefined;
  const claimRefused = isClaimIntent(actionData?.form) ? (actionData as FormResult) : undefined;
  const problem =
    actionData && !kept && !sideRefused && !macroRefusal && !deliveryRefused && !claimRefused && !actionData.ok
      ? actionData.message
      : null;
  // The stale-write check (docs/decisions/140-stale-writes-stopped.md): the ticket's version as this
  // page knows it (the ticket's own, or a newer message's, a note's included, from the live
  // stream), and what changed since a version, in words.
  const versioning = ticket
    ? {
        current: Math.max(ticket.version, ...messages.map((message) => message.ticketVersion)),
        page: `/admin/support/${encoded}`,
        changesSince: (version: number) => [
          ...messages
            .filter((message) => message.ticketVersion > version)
            .map((message) => ({
              key: `message-${message.id}`,
              mine: !message.systemEvent && message.admin && message.authorEmail === loaderData.viewerEmail,
              text: DESK_TEXT.staleMessage(
                message.systemEvent
                  ? DESK_TEXT.staleWho.system
                  : message.internal
                    ? `${DESK_TEXT.internalNote} (${message.authorEmail ?? DESK_TEXT.staleWho.team})`
                    : message.admin
                      ? (message.authorEmail ?? DESK_TEXT.staleWho.team)
                      : DESK_TEXT.staleWho.customer,
                message.messageBody.length > 140 ? `${message.messageBody.slice(0, 139)}…` : message.messageBody,
              ),
            })),
        ],
        now: DESK_TEXT.staleNow(ticket.open, ticket.assignee?.email ?? null),
      }
    : undefined;
  const [unsent, setUnsent] = useState(
    refusedReply && !refusedReply.ok && refusedReply.values.messageBody?.trim() ? refusedReply.values.messageBody : '',
  );
  // The due time changes with the thread: an answer ends the wait, the customer's next message
  // starts one. The stream sends the ticket only when it opens or changes state, so a new message
  // the customer sees makes the page read the ticket again, with the server's clock (`now`).
  const loadedNow = loaderData.thread?.now;
  const [read, setRead] = useState<{ now: string; after: string | undefined } | null>(null);
  const now = useNow(read && read.after === loadedNow ? read.now : (loadedNow ?? new Date(0).toISOString()));
  const lastVisibleId = lastVisible?.id;
  const seenLast = useRef(lastVisibleId);
  const { setTicket } = thread;
  useEffect(() => {
    if (lastVisibleId === seenLast.current) return;
    seenLast.current = lastVisibleId;
    let current = true;
    void browserApi.call(deskApi.ticket, { params: { ticketId } }).then((answer) => {
      if (!current || !answer.ok) return;
      setTicket(answer.data.ticket);
      setRead({ now: answer.data.now, after: loadedNow });
    });
    return () => {
      current = false;
    };
    // Only a new visible message asks again; the ticket's id and loader time are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastVisibleId]);

  return (
    <>
      <section ref={presenceArea} className="admin-page ticket" aria-labelledby="ticket-title">
        <p className="support-back">
          <Link to="/admin/support">{ADMIN_TEXT.nav.support}</Link>
        </p>
        {/* The ticket's number, reason, customer and tools stay in view while the thread scrolls. */}
        <header className="ticket__header admin-ticket__header">
          <div>
            <h1 id="ticket-title" className="admin-ticket__title">
              {thread.missing
                ? SUPPORT_TEXT.ticketMissing
                : ticket
                  ? `Ticket #${ticket.ticketNo}`
                  : SUPPORT_TEXT.loading}
            </h1>
            {ticket ? (
              <p className="ticket__reason">
                {reasonLabel(ticket.reason)} · from <Email className="admin-table__email" address={ticket.userEmail} />{' '}
                · opened {formatNzDateTime(ticket.creationDate)} ·{' '}
                <span className={`badge${ticket.open ? ' badge--open' : ''}`}>{ticket.open ? 'Open' : 'Closed'}</span>{' '}
                <WaitingBadge waiting={waitingOn(ticket.open, lastWritten?.admin)} to="staff" />
              </p>
            ) : null}
            {ticket ? (
              <TicketLinks
                follows={ticket.follows}
                continuedIn={ticket.continuedIn}
                href={(id) => `/admin/support/${encodeURIComponent(id)}`}
              />
            ) : null}
            {ticket ? <HeldMailNote mails={loaderData.heldMails} /> : null}
          </div>
          {ticket && !loaderData.canWrite ? <LiveIndicator status={thread.live} /> : null}
          {ticket && loaderData.canWrite ? (
            <DeskToolbar
              ticket={ticket}
              seenVersion={versioning?.current}
              teamLabels={loaderData.teamLabels}
              agents={loaderData.agents}
              mergeTargets={loaderData.mergeTargets}
              // The customer's messages after the first: where a new ticket can start (a split).
              splitPoints={messages
                .slice(1)
                .filter((message) => !message.admin && !message.internal && !message.systemEvent)}
              viewerEmail={loaderData.viewerEmail}
              // Live updates need the page's script: without it the status would say Connecting… for ever.
              live={<LiveIndicator status={thread.live} />}
            />
          ) : null}
        </header>
        {ticket ? <DeskFacts ticket={ticket} viewerEmail={loaderData.viewerEmail} now={now} /> : null}
        {/* Announced politely as it changes (who came, who is typing); nothing when nobody else is here. */}
        <p className="desk-viewers" role="status" hidden={!thread.presence?.viewers.length}>
          <PresenceLine presence={thread.presence} />
        </p>
        {problem ? <Notice tone="error">{problem}</Notice> : null}
        {loaderData.macroUndone && !actionData ? <Notice tone="success">{MACRO_ACTION_TEXT.undone}</Notice> : null}
        {/* Above the thread, like the other tools: the page opens at the thread's end, and the
            composer below it keeps the screen for the thread (a form here comes back at #macro-panel). */}
        {ticket && !thread.missing && loaderData.canWrite ? (
          <MacroPanel
            macros={loaderData.macros}
            preview={loaderData.macroPreview}
            applied={loaderData.macroApplied}
            refusal={macroRefusal}
            page={`/admin/support/${encoded}`}
            seenVersion={versioning?.current}
            clientId={loaderData.macroClientId}
          />
        ) : null}
        {(loaderData.canWrite ? loaderData.merges : []).map((merged) => (
          // A merge into this ticket can be undone for 30 days (docs/decisions/116-ticket-merge.md).
          // A whole page load after it: the thread the page's script holds is read again from the start,
          // as the undo takes messages out of it (the live stream only adds).
          <Form key={merged.id} method="post" className="desk-merged" reloadDocument>
            <input type="hidden" name="intent" value="undo-merge" />
            <input type="hidden" name="mergeId" value={merged.id} />
            <input type="hidden" name="kind" value={merged.kind} />
            <p>
              {merged.kind === 'split'
                ? MERGE_TEXT.undoSplitHint(merged.sourceTicketNo, merged.targetTicketNo)
                : MERGE_TEXT.undoHint(merged.sourceTicketNo)}
            </p>
            <button type="submit" className="button button--ghost">
              {merged.kind === 'split' ? MERGE_TEXT.undoSplit : MERGE_TEXT.undo}
            </button>
          </Form>
        ))}
        {thread.missing ? null : (
          <>
            <TicketThread
              messages={messages}
              // Decided by id on the server: only the reader's own answers and notes are theirs.
              mine={(message) => message.mine}
              note={(message) => message.internal}
              team={(message) => message.admin && !message.internal && !message.mine}
              author={(message) =>
                message.admin ? (
                  message.internal ? (
                    message.authorEmail ? (
                      <Email address={message.authorEmail} />
                    ) : (
                      'Admin'
                    )
                  ) : message.authorEmail ? (
                    <>
                      Admin · <Email address={message.authorEmail} />
                      {message.mine ? ' (you)' : null}
                    </>
                  ) : (
                    'Admin'
                  )
                ) : message.authorEmail ? (
                  <Email address={message.authorEmail} />
                ) : (
                  'User'
                )
              }
              wholeMail={(message) => `/admin/support/${encoded}/mail/${message.id}`}
            />
            {!loaderData.canWrite ? null : ticket?.open ? (
              <ReplyBox<AdminMessage>
                upload={{ declaration: deskApi.reply, params: { ticketId } }}
                ticketId={ticketId}
                savedReplies={loaderData.savedReplies.map((reply) => {
                  const text = expandSavedReply(reply.body, ticket);
                  return { id: reply.id, title: reply.title, text, question: firstQuestion(text) };
                })}
                clientId={refusedReply?.values.clientId || loaderData.clientId}
                kept={refusedReply}
                versioning={versioning}
                onSent={thread.addMessage}
                onClosed={(text) => {
                  setUnsent(text);
                  thread.setTicket({ ...ticket, open: false, due: null });
                }}
              />
            ) : ticket ? (
              <>
                <p className="ticket__closed" role="status">
                  This ticket is closed. Reopen it to answer.
                </p>
                <UnsentReply text={unsent} ticketId={ticketId} />
              </>
            ) : null}
            {ticket && loaderData.canWrite ? (
              <ReplyBox<AdminMessage>
                variant="note"
                ticketId={ticketId}
                clientId={refusedNote?.values.clientId || loaderData.noteClientId}
                kept={refusedNote}
                versioning={versioning}
                onSent={thread.addMessage}
                onClosed={() => {}}
              />
            ) : null}
          </>
        )}
      </section>
      {ticket && loaderData.claim ? (
        <ClaimPanel
          claim={loaderData.claim}
          carriers={loaderData.carriers}
          canWrite={loaderData.canWrite}
          served={claimRefused}
        />
      ) : null}
      {/* The delivery the ticket is about, and what the app says of it (decision 151): after the
          ticket, like the side conversations, so the thread keeps the screen. */}
      {ticket && (loaderData.canWrite || ticket.deliveryReference) ? (
        <section className="admin-page delivery" id="delivery" aria-labelledby="delivery-title">
          <h2 id="delivery-title">{DELIVERY_TEXT.cardTitle}</h2>
          {loaderData.canWrite ? (
            <DeliveryReferenceForm reference={ticket.deliveryReference} served={deliveryRefused} />
          ) : (
            <p>
              {DELIVERY_TEXT.reference}: <strong>{ticket.deliveryReference}</strong>
            </p>
          )}
          {loaderData.delivery ? (
            <DeliveryCardPanel card={loaderData.delivery} ownPage={`/admin/support/${encoded}/delivery`} />
          ) : null}
        </section>
      ) : null}
      {/* After the ticket, not inside it: the ticket's end (its reply and note boxes) is where the
          page opens, and a long start form would push them off the screen. */}
      {ticket ? (
        <SideConversations
          conversations={loaderData.sideConversations}
          quotable={messages
            .filter((message) => !message.internal && !message.systemEvent)
            .map(({ id, admin, messageBody, timestamp }) => ({ id, admin, messageBody, timestamp }))}
          files={messages.flatMap((message) => message.attachments.map(({ id, name, size }) => ({ id, name, size })))}
          wholeMail={(sideId, messageId) =>
            `/admin/support/${encoded}/side/${encodeURIComponent(sideId)}/mail/${messageId}`
          }
          fileUrl={(inboundId, fileIndex) => pathOf(inboundApi.file, { params: { inboundId, fileIndex } })}
          refused={sideRefused}
          readOnly={!loaderData.canWrite}
        />
      ) : null}
    </>
  );
}
