import { Link, useSearchParams } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { type AuditEntry } from '../../contracts/audit.ts';
import { formatNzDateTime } from '../../contracts/support.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { AuditDetails, AuditRecord, auditWhat } from '../features/admin/audit-view.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-audit';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.audit} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['When', 'Who', 'What', 'Record', 'Details'] as const;

/** /admin/audit: every admin action, newest first, a page at a time. */
export default function AdminAudit() {
  const [params] = useSearchParams();
  const before = Number.parseInt(params.get('before') ?? '', 10);
  const { state, reload } = useApiData<{ entries: AuditEntry[]; nextBefore: number | null }>(
    `/api/admin/audit${Number.isFinite(before) && before > 0 ? `?before=${before}` : ''}`,
  );

  return (
    <section className="admin-page" aria-labelledby="audit-title">
      <div className="admin-page__header">
        <h1 id="audit-title">{ADMIN_TEXT.nav.audit}</h1>
        <button type="button" className="button button--ghost admin-button--small" onClick={reload}>
          Refresh
        </button>
      </div>
      <LoadState state={state} onRetry={reload}>
        {({ entries, nextBefore }) => (
          <>
            {entries.length === 0 ? (
              <p className="empty-state">Nothing has been done in the console yet.</p>
            ) : (
              <DataTable caption="Admin actions, newest first" columns={COLUMNS} className="admin-table admin-audit">
                {entries.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label={COLUMNS[0]}>
                      <time dateTime={entry.at}>{formatNzDateTime(entry.at)}</time>
                    </td>
                    <td data-label={COLUMNS[1]} className="admin-table__email">
                      {entry.actorEmail ? <Email address={entry.actorEmail} /> : 'A removed account'}
                    </td>
                    <td data-label={COLUMNS[2]}>{auditWhat(entry)}</td>
                    <td data-label={COLUMNS[3]}>
                      <AuditRecord entry={entry} />
                    </td>
                    <td data-label={COLUMNS[4]}>
                      <AuditDetails entry={entry} />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
            <nav className="admin-pager" aria-label="Pages of the audit log">
              {Number.isFinite(before) ? <Link to="/admin/audit">Newest entries</Link> : null}
              {nextBefore !== null ? <Link to={`/admin/audit?before=${nextBefore}`}>Older entries</Link> : null}
            </nav>
          </>
        )}
      </LoadState>
    </section>
  );
}
