import { Link, useSearchParams } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  type AdminCompany,
  COMPANY_STATUS_LABELS,
  COMPANY_STATUSES,
  type CompanyStatus,
} from '../../contracts/partner-review.ts';
import { formatNzDateTime } from '../../contracts/support.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-partners';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.partners} | ${ADMIN_TEXT.title}`);

type CompanyList = { companies: AdminCompany[]; counts: Record<CompanyStatus, number> };
const COLUMNS = ['Company', 'Contact', 'Phone number', 'Submitted', 'Last updated'] as const;
const parseStatus = (value: string | null): CompanyStatus =>
  (COMPANY_STATUSES as readonly string[]).includes(value ?? '') ? (value as CompanyStatus) : 'pending';

/** /admin/partners: applications by status; Pending is the queue, oldest first. */
export default function AdminPartners() {
  const [params] = useSearchParams();
  const status = parseStatus(params.get('status'));
  const q = params.get('q')?.trim() ?? '';
  const { state, reload } = useApiData<CompanyList>(
    `/api/admin/companies?status=${status}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
  );
  const counts = state.kind === 'ready' ? state.data.counts : null;
  const options = COMPANY_STATUSES.map((value) => ({
    value,
    label: counts ? `${COMPANY_STATUS_LABELS[value]} (${counts[value]})` : COMPANY_STATUS_LABELS[value],
  }));

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
      <LoadState state={state} onRetry={reload}>
        {({ companies }) =>
          companies.length === 0 ? (
            <p className="empty-state">
              {q
                ? 'No applications match your search.'
                : `There are no ${COMPANY_STATUS_LABELS[status].toLowerCase()} applications.`}
            </p>
          ) : (
            <DataTable
              caption={`${COMPANY_STATUS_LABELS[status]} applications`}
              columns={COLUMNS}
              className="admin-table"
            >
              {companies.map((company) => (
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
          )
        }
      </LoadState>
    </section>
  );
}
