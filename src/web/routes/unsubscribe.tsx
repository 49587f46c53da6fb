import { Form, Link } from 'react-router';
import { NOTIFICATION_TEXT } from '../../contracts/notifications.ts';
import { AuthCard, SuccessPanel } from '../features/auth/auth-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/unsubscribe';
import '../styles/auth.css';

/**
 * /unsubscribe/{token}: the address in every notification mail's List-Unsubscribe header (RFC 8058).
 * Opening it only asks (link checkers open links too); a POST, from the button here or sent by the
 * mail program with `List-Unsubscribe=One-Click` and no cookie, switches that kind of mail off for
 * the person the link was made for.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { link: await services.notifications.describeUnsubscribe(params.token) };
}

export async function action({ params, context }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  const done = await services.notifications.unsubscribe(params.token);
  return { done };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: `${NOTIFICATION_TEXT.unsubscribeTitle} | {company}`,
    description: 'Stop a kind of mail from {company}.',
    path: '/unsubscribe',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const manage = (
    <p>
      <Link to="/account/notifications">{NOTIFICATION_TEXT.manageLink}</Link>
    </p>
  );
  if (actionData?.done) {
    return (
      <AuthCard eyebrow="Email" title={NOTIFICATION_TEXT.unsubscribeTitle}>
        <SuccessPanel title={NOTIFICATION_TEXT.unsubscribed(actionData.done.label, actionData.done.email)}>
          {manage}
        </SuccessPanel>
      </AuthCard>
    );
  }
  const link = loaderData.link;
  if (!link || actionData) {
    return (
      <AuthCard eyebrow="Email" title={NOTIFICATION_TEXT.unsubscribeTitle}>
        <div className="alert alert--error" role="alert">
          <p>{NOTIFICATION_TEXT.unsubscribeInvalid}</p>
        </div>
        {manage}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      eyebrow="Email"
      title={NOTIFICATION_TEXT.unsubscribeTitle}
      lead={NOTIFICATION_TEXT.unsubscribeAsk(link.label, link.email)}
    >
      <Form method="post">
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {NOTIFICATION_TEXT.unsubscribeButton}
          </button>
        </div>
      </Form>
      {manage}
    </AuthCard>
  );
}
