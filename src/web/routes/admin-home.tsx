import { Link } from 'react-router';
import { ADMIN_TEXT, FIRST_STEPS_TEXT } from '../../contracts/admin.ts';
import { deskApi } from '../../contracts/api/support.ts';
import type { FirstSteps } from '../../contracts/desk.schemas.ts';
import { notificationsApi } from '../../contracts/api/notifications.ts';
import { partnerReviewApi } from '../../contracts/api/partners.ts';
import { MAIL_TEXT } from '../../contracts/notifications.ts';
import { REVIEW_DUE_TEXT } from '../../contracts/partner-review.ts';
import { sectionsFor } from '../features/admin/admin-nav.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Permission } from '../../contracts/roles.ts';
import type { Route } from './+types/admin-home';

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, 'admin', ADMIN_TEXT.title);

/**
 * How many mails failed for good (the outbox's count) and how many partner applications are late
 * for review (the partner list's count), for the warnings at the top; and the first steps, while
 * some are left.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const { api } = services;
  const may = (permission: Permission) => Boolean(user?.permissions.includes(permission));
  // Only what this member of staff may read is asked for (the rest would be refused anyway).
  const [mail, partners, steps] = await Promise.all([
    may('mail.read') ? api.call(notificationsApi.listMail, { query: { state: 'failed' } }) : null,
    may('partners.read') ? api.call(partnerReviewApi.list, { query: { status: 'pending', due: 'late' } }) : null,
    may('desk.manage') ? api.call(deskApi.firstSteps, {}) : null,
  ]);
  return {
    failed: mail?.ok ? mail.data.counts.failed : 0,
    latePartners: partners?.ok ? partners.data.counts.late : 0,
    firstSteps: steps?.ok ? steps.data : null,
    sections: sectionsFor(user?.permissions ?? []),
  };
}

const STEP_ORDER = ['businessHours', 'teammate', 'savedReply', 'testTicket'] as const satisfies ReadonlyArray<
  keyof FirstSteps
>;

/** The first steps with a tick for each one done; nothing once all are. */
function FirstStepsList({ steps }: { steps: FirstSteps }) {
  const done = STEP_ORDER.filter((key) => steps[key]).length;
  if (done === STEP_ORDER.length) return null;
  return (
    <section className="first-steps" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">{FIRST_STEPS_TEXT.title}</h2>
      <p>
        {FIRST_STEPS_TEXT.lead} <strong>{FIRST_STEPS_TEXT.progress(done, STEP_ORDER.length)}</strong>
      </p>
      <ol className="first-steps__list">
        {STEP_ORDER.map((key) => {
          const step = FIRST_STEPS_TEXT.steps[key];
          return (
            <li key={key} className={`first-steps__step${steps[key] ? ' first-steps__step--done' : ''}`}>
              <span className={`badge ${steps[key] ? 'badge--open' : 'badge--pending'}`}>
                {steps[key] ? FIRST_STEPS_TEXT.done : FIRST_STEPS_TEXT.toDo}
              </span>{' '}
              <Link to={step.to}>{step.label}</Link>
              <p>{step.about}</p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** /admin: where each part of the console is. */
export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const { failed, latePartners, firstSteps, sections } = loaderData;
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
      {firstSteps ? <FirstStepsList steps={firstSteps} /> : null}
      <ul className="admin-cards">
        {sections.map((section) => (
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
