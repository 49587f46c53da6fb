import { data, Link } from 'react-router';
import { partnersApi } from '../../contracts/api/partners.ts';
import { APPLICATION_STATUS_TEXT as TEXT, type ApplicationStatus, historyDay } from '../../contracts/partner-status.ts';
import type { PageHandle } from '../lib/static-page.ts';
import { rootDataFrom } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/partner-status';
import '../styles/partner-status.css';

/**
 * /partners/status/:token: the applicant's own application, by the private link of the 'application
 * received' mail (docs/decisions/112-application-status-page.md). Server-rendered HTML with no
 * React in the browser; never kept by a cache, and the token never goes on in a Referer.
 */
export const handle: PageHandle = { hydrate: false };

export function headers() {
  return { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
}

type PageData =
  { state: 'found'; status: ApplicationStatus } | { state: 'invalid' } | { state: 'refused'; message: string };

export async function loader({ params, context }: Route.LoaderArgs) {
  const answer = await context
    .get(requestContext)
    .services.api.call(partnersApi.status, { params: { token: params.token } });
  if (answer.ok) return data<PageData>({ state: 'found', status: answer.data });
  if (answer.status === 404 || answer.status === 400) return data<PageData>({ state: 'invalid' }, { status: 404 });
  return data<PageData>({ state: 'refused', message: answer.message }, { status: answer.status });
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: `${loaderData?.state === 'invalid' ? TEXT.notFoundTitle : TEXT.title} | ${rootDataFrom(matches)?.site.companyName ?? 'Bagspace'}`,
  },
  { name: 'robots', content: 'noindex' },
];

const DETAIL_FIELDS = [
  'companyName',
  'nzbn',
  'phoneNumber',
  'address',
  'street',
  'contactPersonName',
  'contactPersonJobTitle',
  'contactPersonPhoneNumber',
  'contactPersonEmail',
] as const;

export default function PartnerStatus({ loaderData }: Route.ComponentProps) {
  if (loaderData.state !== 'found') {
    return (
      <div className="page page--narrow partner-status">
        <header className="page__header">
          <p className="eyebrow">Partners</p>
          <h1>{loaderData.state === 'invalid' ? TEXT.notFoundTitle : TEXT.title}</h1>
        </header>
        <div className="alert alert--error" role="alert">
          <p>{loaderData.state === 'invalid' ? TEXT.notFound : loaderData.message}</p>
        </div>
        <p>
          <Link to="/support">{TEXT.supportLink}</Link>
        </p>
      </div>
    );
  }
  const { company, state, reviewDueDate, history } = loaderData.status;
  return (
    <div className="page page--narrow partner-status">
      <header className="page__header">
        <p className="eyebrow">Partners</p>
        <h1>{TEXT.title}</h1>
      </header>
      <section className="partner-status__state" aria-labelledby="partner-status-state">
        <h2 id="partner-status-state" className="partner-status__state-label">
          {TEXT.stateLabel}
        </h2>
        <p className="partner-status__state-value">{TEXT.states[state]}</p>
        {reviewDueDate ? <p className="partner-status__due">{TEXT.reviewBy(reviewDueDate)}</p> : null}
        {state === 'on-hold' ? <p className="partner-status__due">{TEXT.onHold}</p> : null}
      </section>
      <section className="partner-status__section" aria-labelledby="partner-status-history">
        <h2 id="partner-status-history">{TEXT.historyHeading}</h2>
        <ol className="partner-status__history">
          {history.map((event, index) => (
            <li key={index}>
              <span className="partner-status__event">{TEXT.events[event.kind]}</span>{' '}
              <time dateTime={event.at}>{historyDay(event.at)}</time>
              {event.reason ? (
                <p className="partner-status__reason">
                  {TEXT.reasonLabel}: {event.reason}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      <section className="partner-status__section" aria-labelledby="partner-status-details">
        <h2 id="partner-status-details">{TEXT.detailsHeading}</h2>
        <dl className="partner-status__details">
          {DETAIL_FIELDS.map((field) => (
            <div key={field} className="partner-status__detail">
              <dt>{TEXT.fields[field]}</dt>
              <dd>{company[field] || TEXT.notGiven}</dd>
            </div>
          ))}
          <div className="partner-status__detail">
            <dt>{TEXT.fields.license}</dt>
            <dd>{company.licenseSent ? TEXT.licenseSent : TEXT.licenseNotSent}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
