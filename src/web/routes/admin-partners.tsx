import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { partnerReviewApi } from '../../contracts/api/partners.ts';
import {
  COMPANY_STATUS_LABELS,
  COMPANY_STATUSES,
  type CompanyStatus,
  LICENCE_TEXT,
  REVIEW_DUE_TEXT,
} from '../../contracts/partner-review.ts';
import type { ReviewDue } from '../../contracts/partner-review.schemas.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { licenceExpiryText } from '../features/admin/partner-licence.tsx';
import { ReadFailed } from '../features/admin/notice.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-partners';
import { Email } from '../components/ui/email.tsx';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.partners} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['Company', 'Contact', 'Phone number', 'Submitted', 'Last updated'] as const;
/** The pending queue has one more column: its review due date (docs/decisions/111-partner-review-due.md). */
const PENDING_COLUMNS = [...COLUMNS, REVIEW_DUE_TEXT.column] as const;
/** Approved partners, and those on hold, show their licence's expiry (docs/decisions/115-licence-expiry.md). */
const LICENCE_COLUMNS = [...COLUMNS, LICENCE_TEXT.fieldLabel] as const;
const withLicence = (status: CompanyStatus) => status === 'verified' || status === 'on-hold';
const parseStatus = (value: string | null): CompanyStatus =>
  (COMPANY_STATUSES as readonly string[]).includes(value ?? '') ? (value as CompanyStatus) : 'pending';

const SORT_OPTIONS = [
  { value: 'submitted', label: REVIEW_DUE_TEXT.sortSubmitted },
  { value: 'due', label: REVIEW_DUE_TEXT.sortDue },
] as const;

/**
 * The applications of the address's status, search, and for the pending queue its review filter
 * (`due=late`) and order (`sort=due`), read as this admin (the layout refuses others).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const status = parseStatus(url.searchParams.get('status'));
  const q = url.searchParams.get('q')?.trim() ?? '';
  // Only waiting applications have a review due date: the filter and order are the queue's.
  const due = status === 'pending' && url.searchParams.get('due') === 'late' ? 'late' : 'all';
  const sort = status === 'pending' && url.searchParams.get('sort') === 'due' ? 'due' : 'submitted';
  const read = await context.get(requestContext).services.api.call(partnerReviewApi.list, {
    query: {
      status,
      ...(q ? { q } : {}),
      ...(due !== 'all' ? { due } : {}),
      ...(sort !== 'submitted' ? { sort } : {}),
    },
  });
  return { status, q, due, sort, list: read.ok ? read.data : null, failed: read.ok ? null : read.message };
}

/** 'Review due Wed 3 Dec', or 'Late' (a badge, words not colour) and the day it was due. */
function ReviewDueCell({ due }: { due: ReviewDue | null }) {
  if (!due) return null;
  if (!due.late) return <>{REVIEW_DUE_TEXT.due(due.dueDate)}</>;
  return (
    <>
      <span className="badge badge--danger">{REVIEW_DUE_TEXT.late}</span> {REVIEW_DUE_TEXT.wasDue(due.dueDate)}
    </>
  );
}

/** /admin/partners: applications by status; Pending is the queue, oldest first. */
export default function AdminPartners({ loaderData }: Route.ComponentProps) {
  const { status, q, due, sort, list, failed } = loaderData;
  const counts = list?.counts ?? null;
  const options = COMPANY_STATUSES.map((value) => ({
    value,
    label: counts ? `${COMPANY_STATUS_LABELS[value]} (${counts[value]})` : COMPANY_STATUS_LABELS[value],
  }));
  const dueOptions = [
    { value: 'all', label: REVIEW_DUE_TEXT.anyDue },
    { value: 'late', label: counts ? REVIEW_DUE_TEXT.lateOnly(counts.late) : REVIEW_DUE_TEXT.late },
  ] as const;
  const pending = status === 'pending';
  const kept = { ...(q ? { q } : {}), ...(due !== 'all' ? { due } : {}), ...(sort !== 'submitted' ? { sort } : {}) };
  const here = `/admin/partners?${new URLSearchParams({ status, ...kept })}`;
  const columns = pending ? PENDING_COLUMNS : withLicence(status) ? LICENCE_COLUMNS : COLUMNS;

  return (
    <section className="admin-page" aria-labelledby="partners-title">
      <div className="admin-page__header">
        <h1 id="partners-title">{ADMIN_TEXT.nav.partners}</h1>
      </div>
      <div className="admin-toolbar">
        <SwitchButtons name="status" label="Which applications" options={options} value={status} keep={{ q }} />
        <SearchForm
          label="Search applications"
          value={q}
          placeholder="Name, email, phone or contact"
          keep={{ status, ...kept, q: undefined }}
        />
      </div>
      {pending ? (
        <div className="admin-toolbar">
          <SwitchButtons
            name="due"
            label={REVIEW_DUE_TEXT.filterLabel}
            options={dueOptions}
            value={due}
            keep={{ status, ...kept, due: undefined }}
          />
          <SwitchButtons
            name="sort"
            label={REVIEW_DUE_TEXT.sortLabel}
            options={SORT_OPTIONS}
            value={sort}
            keep={{ status, ...kept, sort: undefined }}
          />
        </div>
      ) : null}
      <ReadFailed message={failed} retryTo={here} />
      {list && list.companies.length === 0 ? (
        <p className="empty-state">
          {q
            ? 'No applications match your search.'
            : due === 'late'
              ? REVIEW_DUE_TEXT.noLate
              : `There are no ${COMPANY_STATUS_LABELS[status].toLowerCase()} applications.`}
        </p>
      ) : null}
      {list && list.companies.length > 0 ? (
        <DataTable caption={`${COMPANY_STATUS_LABELS[status]} applications`} columns={columns} className="admin-table">
          {list.companies.map((company) => (
            <tr key={company.id}>
              <td data-label={COLUMNS[0]}>
                <Link to={`/admin/partners/${company.id}`} className="ticket-table__link">
                  {company.companyName}
                </Link>
              </td>
              <td data-label={COLUMNS[1]} className="admin-table__email">
                {company.contactPersonName ?? '—'}
                {company.contactPersonEmail ? (
                  <>
                    <br />
                    <Email address={company.contactPersonEmail} />
                  </>
                ) : null}
              </td>
              <td data-label={COLUMNS[2]}>{company.phoneNumber}</td>
              <td data-label={COLUMNS[3]}>{formatNzDateTime(company.createdAt)}</td>
              <td data-label={COLUMNS[4]}>{formatNzDateTime(company.lastUpdated)}</td>
              {pending ? (
                <td data-label={REVIEW_DUE_TEXT.column}>
                  <ReviewDueCell due={company.reviewDue} />
                </td>
              ) : null}
              {withLicence(status) ? <td data-label={LICENCE_TEXT.fieldLabel}>{licenceExpiryText(company)}</td> : null}
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
