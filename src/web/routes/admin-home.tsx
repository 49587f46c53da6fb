import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { notificationsApi } from '../../contracts/api/notifications.ts';
import { partnerReviewApi } from '../../contracts/api/partners.ts';
import { MAIL_TEXT } from '../../contracts/notifications.ts';
import { REVIEW_DUE_TEXT } from '../../contracts/partner-review.ts';
import { ADMIN_SECTIONS } from '../features/admin/admin-nav.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-home';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'admin', ADMIN_TEXT.title);

/**
 * How many mails failed for good (the outbox's count) and how many partner applications are late
 * for review (the partner list's count), for the warnings at the top.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { api } = context.get(requestContext).services;
  const [mail, partners] = await Promise.all([
    api.call(notificationsApi.listMail, { query: { state: 'failed' } }),
    api.call(partnerReviewApi.list, { query: { status: 'pending', due: 'late' } }),
  ]);
  return { failed: mail.ok ? mail.data.counts.failed : 0, latePartners: partners.ok ? partners.data.counts.late : 0 };
}

/** /admin: where each part of the console is. */
export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const { failed, latePartners } = loaderData;
  return (
    <section className="admin-page" aria-labelledby="admin-home-title">
      <h1 id="admin-home-title">{ADMIN_TEXT.title}</h1>
      {failed > 0 ? (
        <div className="alert alert--error" role="alert">
          <p>
            {MAIL_TEXT.failedOnHome(failed)} <Link to="/admin/mail?state=failed">See the failed mail</Link>
          </p>
        </div>
      ) : null}
      {latePartners > 0 ? (
        <div className="alert alert--info" role="status">
          <p>
            {REVIEW_DUE_TEXT.lateOnHome(latePartners)}{' '}
            <Link to="/admin/partners?status=pending&due=late">{REVIEW_DUE_TEXT.lateLink}</Link>
          </p>
        </div>
      ) : null}
      <ul className="admin-cards">
        {ADMIN_SECTIONS.map((section) => (
          <li key={section.to} className="admin-card">
            <h2 className="admin-card__title">
              <Link to={section.to}>{section.label}</Link>
            </h2>
            <p>{section.about}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
