import { MAILED_TEXT } from '../../contracts/conversation.ts';
import { loadWholeMail, WholeMailView } from '../features/support/whole-mail.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support-ticket-mail';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'support', MAILED_TEXT.wholeMailTitle);

/** The mail, read on the server (the layout signs in anyone else; the API shows a user only their own). */
export function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return loadWholeMail(context, {
    allowed: Boolean(user?.emailVerified),
    ticketId: params.ticketId,
    messageId: params.messageId,
  });
}

/** /support/ticket/{ticketId}/mail/{messageId}: the whole mail one of the ticket's messages came from. */
export default function SupportTicketMail({ params, loaderData }: Route.ComponentProps) {
  return (
    <WholeMailView
      {...loaderData}
      heading="h2"
      className="support-panel"
      back={{ to: `/support/ticket/${encodeURIComponent(params.ticketId)}`, label: 'Back to the ticket' }}
    />
  );
}
