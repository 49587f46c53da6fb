import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { auditApi } from '../../contracts/api/audit.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { AuditDetails, AuditRecord, auditWhat } from '../features/admin/audit-view.tsx';
import { ReadFailed } from '../features/admin/notice.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-audit';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.audit} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['When', 'Who', 'What', 'Record', 'Details'] as const;

/** One page of the log, as this admin reads it: the newest, or the one before `?before=<id>`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const before = Number.parseInt(new URL(request.url).searchParams.get('before') ?? '', 10);
  const paged = Number.isFinite(before) && before > 0 ? before : undefined;
  const read = await context.get(requestContext).services.api.call(auditApi.list, { query: { before: paged } });
  return { page: read.ok ? read.data : null, failed: read.ok ? null : read.message, before: paged ?? null };
}

/** /admin/audit: every admin action, newest first, a page at a time. */
export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { page, failed, before } = loaderData;
  const here = before === null ? '/admin/audit' : `/admin/audit?before=${before}`;

  return (
    <section className="admin-page" aria-labelledby="audit-title">
      <div className="admin-page__header">
        <h1 id="audit-title">{ADMIN_TEXT.nav.audit}</h1>
        <Link to={here} className="button button--ghost admin-button--small" preventScrollReset>
          Refresh
        </Link>
      </div>
      <ReadFailed message={failed} retryTo={here} />
      {page ? (
        <>
          {page.entries.length === 0 ? (
            <p className="empty-state">Nothing has been done in the console yet.</p>
          ) : (
            <DataTable caption="Admin actions, newest first" columns={COLUMNS} className="admin-table admin-audit">
              {page.entries.map((entry) => (
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
            {before !== null ? <Link to="/admin/audit">Newest entries</Link> : null}
            {page.nextBefore !== null ? <Link to={`/admin/audit?before=${page.nextBefore}`}>Older entries</Link> : null}
          </nav>
        </>
      ) : null}
    </section>
  );
}
