import { data, Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { deskApi } from '../../contracts/api/support.ts';
import { DELIVERY_TEXT } from '../../contracts/delivery-card.ts';
import type { DeliveryCard } from '../../contracts/delivery-card.schemas.ts';
import { SUPPORT_TEXT } from '../../contracts/support.ts';
import { DeliveryCardView } from '../features/support/delivery-card.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-ticket-delivery';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${DELIVERY_TEXT.cardTitle} | ${ADMIN_TEXT.title}`);

/**
 * The card, waited for on the server (2 s at most): the page the ticket page's card links to while
 * it loads, so that without JavaScript, where the streamed card cannot replace its fallback, the
 * card is one link away (docs/decisions/151-delivery-card.md). Staff who read tickets only: the
 * layout refuses others, and the API answers 404 for a ticket that is not there.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  if (!user?.emailVerified || !user.permissions.includes('tickets.read')) return { card: null, missing: false };
  const answer = await services.api.call(deskApi.delivery, { params: { ticketId: params.ticketId } });
  if (!answer.ok && (answer.status === 404 || answer.status === 400))
    return data({ card: null, missing: true }, { status: 404 });
  const card: DeliveryCard = answer.ok ? answer.data : { state: 'unavailable', reference: '' };
  return { card, missing: false };
}

/** /admin/support/{ticketId}/delivery: the ticket's delivery card on a page of its own. */
export default function AdminTicketDelivery({ params, loaderData }: Route.ComponentProps) {
  const { card, missing } = loaderData;
  const title =
    card && 'reference' in card && card.reference
      ? DELIVERY_TEXT.ownPageTitle(card.reference)
      : DELIVERY_TEXT.cardTitle;
  return (
    <section className="admin-page delivery" aria-labelledby="delivery-title">
      <p className="support-back">
        <Link to={`/admin/support/${encodeURIComponent(params.ticketId)}`}>{DELIVERY_TEXT.backToTicket}</Link>
      </p>
      <h1 id="delivery-title">{missing ? SUPPORT_TEXT.ticketMissing : title}</h1>
      {card ? <DeliveryCardView card={card} /> : null}
    </section>
  );
}
