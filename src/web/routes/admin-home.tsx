import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { type AdminMailCounts, MAIL_TEXT } from '../../contracts/notifications.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { ADMIN_SECTIONS } from '../features/admin/admin-nav.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-home';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'admin', ADMIN_TEXT.title);

/** /admin: where each part of the console is. */
export default function AdminHome() {
  const { state } = useApiData<{ counts: AdminMailCounts }>('/api/admin/mail?state=failed');
  const failed = state.kind === 'ready' ? state.data.counts.failed : 0;
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
