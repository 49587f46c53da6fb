import { data } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { sideApi } from '../../contracts/api/side-conversations.ts';
import { INBOUND_TEXT } from '../../contracts/inbound.ts';
import { WholeMailView, type WholeMailPageData } from '../features/support/whole-mail.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-side-mail';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${INBOUND_TEXT.wholeMailTitle} | ${ADMIN_TEXT.title}`);

/** The mail a side conversation's reply came in, read on the server through our API (admins only). */
export async function loader({ params, context }: Route.LoaderArgs): Promise<WholeMailPageData> {
  const { user, services } = context.get(requestContext);
  if (!user?.emailVerified || user.role !== 'admin') return { mail: null, failed: false };
  if (!/^[1-9]\d{0,15}$/.test(params.messageId)) throw data(null, { status: 404 });
  const answer = await services.api.call(sideApi.wholeMail, {
    params: { sideId: params.sideId, messageId: params.messageId },
  });
  if (!answer.ok && (answer.status === 404 || answer.status === 400)) throw data(null, { status: 404 });
  return answer.ok ? { mail: answer.data, failed: false } : { mail: null, failed: true };
}

/** /admin/support/{ticketId}/side/{sideId}/mail/{messageId}: the whole mail of a side conversation's reply. */
export default function AdminSideMail({ params, loaderData }: Route.ComponentProps) {
  return (
    <WholeMailView
      {...loaderData}
      heading="h1"
      className="admin-page"
      back={{ to: `/admin/support/${encodeURIComponent(params.ticketId)}`, label: 'Back to the ticket' }}
    />
  );
}
