import { data, Link, redirect } from 'react-router';
import { partnersApi } from '../../contracts/api/partners.ts';
import { APPLICATION_STATUS_TEXT as TEXT, historyDay } from '../../contracts/partner-status.ts';
import type { ApplicationStatus } from '../../contracts/partner-status.schemas.ts';
import {
  COMPANY_TEXT_FIELDS,
  type CompanyTextField,
  LICENSE_FIELD,
  LICENSE_PICKER_ACCEPT,
  REGISTRATION_FORM_MAX_BYTES,
} from '../../contracts/companies.ts';
import { CHANGES_MESSAGES, CHANGES_TEXT, licenseRequired } from '../../contracts/partner-changes.ts';
import type { RequestedChanges } from '../../contracts/partner-changes.schemas.ts';
import { LICENCE_NEVER, licenceDay, reviewDay } from '../../contracts/partner-review.ts';
import { InputField } from '../components/ui/field.tsx';
import { FormError } from '../features/auth/auth-form.tsx';
import type { FormResult } from '../lib/form.ts';
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
export const handle: PageHandle = { hydrate: false, formBytes: REGISTRATION_FORM_MAX_BYTES };

export function headers() {
  // same-origin, not no-referrer: the token never goes to another site, and the page's own forms keep
  // their Origin (no-referrer makes a browser send Origin: null, which form actions refuse).
  return { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' };
}

type Sent = 'changes' | 'renewal';
type PageData =
  | { state: 'found'; status: ApplicationStatus; sent: Sent | null }
  | { state: 'invalid' }
  | { state: 'refused'; message: string };

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const answer = await context
    .get(requestContext)
    .services.api.call(partnersApi.status, { params: { token: params.token } });
  const sent = new URL(request.url).searchParams.get('sent');
  if (answer.ok)
    return data<PageData>({
      state: 'found',
      status: answer.data,
      sent: sent === 'changes' || sent === 'renewal' ? sent : null,
    });
  if (answer.status === 404 || answer.status === 400) return data<PageData>({ state: 'invalid' }, { status: 404 });
  return data<PageData>({ state: 'refused', message: answer.message }, { status: answer.status });
}

/**
 * The applicant's changes, or a new licence, posted by the plain form (multipart): it goes on as it
 * streams to the endpoint an API client uses, so the registration's rules, limits and messages hold.
 * Sent: back to the page with its thanks (303). Refused: the page with the messages under the fields
 * and what was typed (a browser cannot be given a file back).
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { result, fields } = await context
    .get(requestContext)
    .services.api.forward(partnersApi.sendChanges, { params: { token: params.token } }, request);
  if (result.ok) {
    const sent = (result.data as { sent: Sent }).sent;
    return redirect(`/partners/status/${encodeURIComponent(params.token)}?sent=${sent}`, 303);
  }
  const answered = result.fromServer && result.status < 500;
  const hasFields = answered && Object.keys(result.fields).length > 0;
  return data<FormResult>(
    {
      ok: false,
      message: hasFields ? null : answered ? result.message : CHANGES_MESSAGES.sendFailed,
      fields: answered ? result.fields : {},
      values: Object.fromEntries(Object.entries(fields).filter(([name]) => name !== LICENSE_FIELD)),
    },
    { status: result.status >= 400 ? result.status : 500 },
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: `${loaderData?.state === 'invalid' ? TEXT.notFoundTitle : TEXT.title} | ${rootDataFrom(matches)?.site.companyName ?? 'Bagspace'}`,
  },
  { name: 'robots', content: 'noindex' },
];

const DETAIL_FIELDS = COMPANY_TEXT_FIELDS;

/** The input each registration field is asked again with (the registration form's kinds of input). */
const INPUT_KIND: Partial<
  Record<CompanyTextField, { type?: string; inputMode?: 'numeric' | 'tel'; autoComplete?: string }>
> = {
  companyName: { autoComplete: 'organization' },
  nzbn: { inputMode: 'numeric', autoComplete: 'off' },
  phoneNumber: { type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
  contactPersonPhoneNumber: { type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
  contactPersonEmail: { type: 'email', autoComplete: 'email' },
};

/**
 * What the admin asked for and the form that sends it: only the fields the request opened, filled
 * with what the application holds (or what was just typed), and the licence when it was asked for.
 */
function ChangesForm({
  changes,
  company,
  result,
}: {
  changes: RequestedChanges;
  company: ApplicationStatus['company'];
  result: FormResult | undefined;
}) {
  const errors = result && !result.ok ? result.fields : {};
  const values = result && !result.ok ? (result.values ?? {}) : {};
  const textFields = changes.fields.filter((field): field is CompanyTextField => field !== 'license');
  const askLicense = changes.fields.includes('license');
  const mustLicense = licenseRequired(changes);
  const formError = result && !result.ok ? (result.message ?? errors._ ?? null) : null;
  return (
    <section className="partner-status__section partner-status__due-box" aria-labelledby="partner-status-asked">
      <h2 id="partner-status-asked">{CHANGES_TEXT.dueHeading}</h2>
      <ul className="partner-status__asked">
        {changes.reasons.map((reason) => (
          <li key={reason}>{CHANGES_TEXT.applicantReasons[reason]}</li>
        ))}
      </ul>
      {changes.note ? (
        <div className="partner-status__note">
          <h3>{CHANGES_TEXT.noteHeading}</h3>
          <p>{changes.note}</p>
        </div>
      ) : null}
      <form
        method="post"
        encType="multipart/form-data"
        className="form form-card"
        aria-labelledby="partner-status-send"
      >
        <h3 id="partner-status-send">{CHANGES_TEXT.sendTitle}</h3>
        {textFields.map((field) => (
          <InputField
            key={field}
            label={TEXT.fields[field]}
            name={field}
            {...INPUT_KIND[field]}
            defaultValue={values[field] ?? company[field] ?? ''}
            error={errors[field]}
          />
        ))}
        {askLicense ? (
          <InputField
            label={CHANGES_TEXT.licenseLabel}
            name={LICENSE_FIELD}
            type="file"
            accept={LICENSE_PICKER_ACCEPT}
            required={mustLicense}
            mark={mustLicense ? 'required' : 'optional'}
            hint={CHANGES_TEXT.licenseHint}
            error={errors[LICENSE_FIELD]}
          />
        ) : null}
        <FormError message={formError} />
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {CHANGES_TEXT.submit}
          </button>
        </div>
      </form>
    </section>
  );
}

/** An approved partner sends the renewed licence here; an admin accepts it in the console. */
function RenewalForm({ result, waitingSince }: { result: FormResult | undefined; waitingSince: string | null }) {
  const errors = result && !result.ok ? result.fields : {};
  const formError = result && !result.ok ? (result.message ?? errors._ ?? null) : null;
  return (
    <section className="partner-status__section" aria-labelledby="partner-status-renewal">
      <h2 id="partner-status-renewal">{CHANGES_TEXT.renewalTitle}</h2>
      {waitingSince ? <p>{CHANGES_TEXT.renewalWaiting(historyDay(waitingSince))}</p> : null}
      <form
        method="post"
        encType="multipart/form-data"
        className="form form-card"
        aria-labelledby="partner-status-renewal"
      >
        <InputField
          label={CHANGES_TEXT.licenseLabel}
          name={LICENSE_FIELD}
          type="file"
          accept={LICENSE_PICKER_ACCEPT}
          required
          mark="required"
          hint={`${CHANGES_TEXT.renewalHint} ${CHANGES_TEXT.licenseHint}`}
          error={errors[LICENSE_FIELD]}
        />
        <FormError message={formError} />
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {CHANGES_TEXT.renewalSubmit}
          </button>
        </div>
      </form>
    </section>
  );
}

export default function PartnerStatus({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state !== 'found') {
    return (
      <div className="page page--narrow partner-status">
        <header className="page__header">
          <p className="eyebrow">Partners</p>
          <h1>{loaderData.state === 'invalid' ? TEXT.notFoundTitle : TEXT.title}</h1>
        </header>
        <FormError message={loaderData.state === 'invalid' ? TEXT.notFound : loaderData.message} />
        <p>
          <Link to="/partners/status">{TEXT.findLink}</Link>
        </p>
        <p>
          <Link to="/support">{TEXT.supportLink}</Link>
        </p>
      </div>
    );
  }
  const { company, state, reviewDueDate, history, requestedChanges, hold, licenseExpiresOn, renewalSentAt } =
    loaderData.status;
  const sent = actionData ? null : loaderData.sent;
  const result = actionData as FormResult | undefined;
  // An approved partner (or one on hold because the licence expired) can send a renewed licence.
  const renewal = state === 'approved' || hold === 'license-expired';
  return (
    <div className="page page--narrow partner-status">
      <header className="page__header">
        <p className="eyebrow">Partners</p>
        <h1>{TEXT.title}</h1>
      </header>
      {sent ? (
        <div className="alert alert--success" role="status">
          <p>
            {sent === 'changes' && reviewDueDate
              ? CHANGES_TEXT.sent(reviewDay(reviewDueDate))
              : CHANGES_TEXT.renewalSent}
          </p>
        </div>
      ) : null}
      <section className="partner-status__state" aria-labelledby="partner-status-state">
        <h2 id="partner-status-state" className="partner-status__state-label">
          {TEXT.stateLabel}
        </h2>
        <p className="partner-status__state-value">{TEXT.states[state]}</p>
        {reviewDueDate ? <p className="partner-status__due">{TEXT.reviewBy(reviewDueDate)}</p> : null}
        {state === 'on-hold' ? (
          <p className="partner-status__due">{hold === 'license-expired' ? TEXT.licenseHold : TEXT.onHold}</p>
        ) : null}
        {licenseExpiresOn ? (
          <p className="partner-status__due">
            {licenseExpiresOn === LICENCE_NEVER
              ? TEXT.licenseNeverExpires
              : TEXT.licenseExpires(licenceDay(licenseExpiresOn))}
          </p>
        ) : null}
      </section>
      {state === 'changes-requested' && requestedChanges ? (
        <ChangesForm changes={requestedChanges} company={company} result={result} />
      ) : null}
      {renewal ? <RenewalForm result={result} waitingSince={renewalSentAt} /> : null}
      <section className="partner-status__section" aria-labelledby="partner-status-history">
        <h2 id="partner-status-history">{TEXT.historyHeading}</h2>
        <ol className="partner-status__history">
          {history.map((event, index) => (
            <li key={index}>
              <span className="partner-status__event">{TEXT.events[event.kind]}</span>{' '}
              <time dateTime={event.at}>{historyDay(event.at)}</time>
              {event.reason ? (
                <p className="partner-status__reason">
                  {event.kind === 'resubmitted' ? TEXT.sentLabel : TEXT.reasonLabel}: {event.reason}
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
