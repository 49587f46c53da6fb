import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { INBOUND_TEXT } from '../../contracts/inbound.ts';
import { loadWholeMail, WholeMailView } from '../features/support/whole-mail.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-ticket-mail';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${INBOUND_TEXT.wholeMailTitle} | ${ADMIN_TEXT.title}`);

/** The mail, read on the server (admins only: the layout refuses others). */
export function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return loadWholeMail(context, {
    allowed: Boolean(user?.emailVerified && user.role === 'admin'),
    ticketId: params.ticketId,
    messageId: params.messageId,
  });
}

/** /admin/support/{ticketId}/mail/{messageId}: the whole mail one of the ticket's messages came from. */
export default function AdminTicketMail({ params, loaderData }: Route.ComponentProps) {
  return (
    <WholeMailView
      {...loaderData}
      heading="h1"
      className="admin-page"
      back={{ to: `/admin/support/${encodeURIComponent(params.ticketId)}`, label: 'Back to the ticket' }}
    />
  );
}
