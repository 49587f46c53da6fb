import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { partnerReviewApi } from '../../contracts/api/partners.ts';
import { COMPANY_STATUS_LABELS, COMPANY_STATUSES, type CompanyStatus } from '../../contracts/partner-review.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { ReadFailed } from '../features/admin/notice.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-partners';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.partners} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['Company', 'Contact', 'Phone number', 'Submitted', 'Last updated'] as const;
const parseStatus = (value: string | null): CompanyStatus =>
  (COMPANY_STATUSES as readonly string[]).includes(value ?? '') ? (value as CompanyStatus) : 'pending';

/** The applications of the address's status and search, read as this admin (the layout refuses others). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const status = parseStatus(url.searchParams.get('status'));
  const q = url.searchParams.get('q')?.trim() ?? '';
  const read = await context
    .get(requestContext)
    .services.api.call(partnerReviewApi.list, { query: { status, ...(q ? { q } : {}) } });
  return { status, q, list: read.ok ? read.data : null, failed: read.ok ? null : read.message };
}

/** /admin/partners: applications by status; Pending is the queue, oldest first. */
export default function AdminPartners({ loaderData }: Route.ComponentProps) {
  const { status, q, list, failed } = loaderData;
  const counts = list?.counts ?? null;
  const options = COMPANY_STATUSES.map((value) => ({
    value,
    label: counts ? `${COMPANY_STATUS_LABELS[value]} (${counts[value]})` : COMPANY_STATUS_LABELS[value],
  }));
  const here = `/admin/partners?${new URLSearchParams({ status, ...(q ? { q } : {}) })}`;

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
          keep={{ status }}
        />
      </div>
      <ReadFailed message={failed} retryTo={here} />
      {list && list.companies.length === 0 ? (
        <p className="empty-state">
          {q
            ? 'No applications match your search.'
            : `There are no ${COMPANY_STATUS_LABELS[status].toLowerCase()} applications.`}
        </p>
      ) : null}
      {list && list.companies.length > 0 ? (
        <DataTable caption={`${COMPANY_STATUS_LABELS[status]} applications`} columns={COLUMNS} className="admin-table">
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
                    {company.contactPersonEmail}
                  </>
                ) : null}
              </td>
              <td data-label={COLUMNS[2]}>{company.phoneNumber}</td>
              <td data-label={COLUMNS[3]}>{formatNzDateTime(company.createdAt)}</td>
              <td data-label={COLUMNS[4]}>{formatNzDateTime(company.lastUpdated)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
