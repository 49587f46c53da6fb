import { Form, Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { auditApi } from '../../contracts/api/audit.ts';
import { AUDIT_ACTIONS, type AuditAction, auditActor } from '../../contracts/audit.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { AuditFacts, AuditSentence } from '../features/admin/audit-view.tsx';
import { ReadFailed } from '../features/admin/notice.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { InputField, SelectField } from '../components/ui/field.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-audit';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.audit} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['When', 'Who', 'What', 'Details'] as const;
const PAGE = '/admin/audit';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters in the address (a GET form's fields); anything malformed is as if not given. */
interface Filters {
  actor: string;
  action: AuditAction | '';
  from: string;
  to: string;
}

function filtersOf(params: URLSearchParams): Filters {
  const day = (value: string | null) => (value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '');
  const action = params.get('action') ?? '';
  return {
    actor: params.get('actor')?.trim().slice(0, 320) ?? '',
    action: Object.hasOwn(AUDIT_ACTIONS, action) ? (action as AuditAction) : '',
    from: day(params.get('from')),
    to: day(params.get('to')),
  };
}

/** This page at the filters (and a page back, `before`); empty filters stay out of the address. */
function pageAt(filters: Filters, before?: number | null) {
  const query = new URLSearchParams(
    Object.entries({ ...filters, before: before ? String(before) : '' }).filter(([, value]) => value !== ''),
  ).toString();
  return query ? `${PAGE}?${query}` : PAGE;
}

/** One page of the log at the address's filters, as this admin reads it: the newest, or the one before `?before=<id>`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filters = filtersOf(params);
  const before = Number.parseInt(params.get('before') ?? '', 10);
  const paged = Number.isFinite(before) && before > 0 ? before : undefined;
  const query = {
    before: paged,
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  const read = await context.get(requestContext).services.api.call(auditApi.list, { query });
  return {
    page: read.ok ? read.data : null,
    failed: read.ok ? null : read.message,
    before: paged ?? null,
    filters,
  };
}

/** Narrow the log by who acted, what they did and between which New Zealand days: a GET form, so no script is needed. */
function FilterForm({ filters, actors }: { filters: Filters; actors: string[] }) {
  const people = filters.actor && !actors.includes(filters.actor) ? [filters.actor, ...actors] : actors;
  const backwards = filters.from !== '' && filters.to !== '' && filters.to < filters.from;
  const filtered = Object.values(filters).some((value) => value !== '');
  return (
    <Form method="get" className="audit-filters" aria-label="Filter the audit log" preventScrollReset>
      <SelectField label="Who" name="actor" defaultValue={filters.actor} key={`actor-${filters.actor}`}>
        <option value="">Anyone</option>
        {people.map((email) => (
          <option key={email} value={email}>
            {email}
          </option>
        ))}
      </SelectField>
      <SelectField label="What" name="action" defaultValue={filters.action} key={`action-${filters.action}`}>
        <option value="">Any action</option>
        {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
          <option key={action} value={action}>
            {label}
          </option>
        ))}
      </SelectField>
      <InputField
        label="From"
        name="from"
        type="date"
        defaultValue={filters.from}
        key={`from-${filters.from}`}
        hint="New Zealand date"
      />
      <InputField
        label="To"
        name="to"
        type="date"
        defaultValue={filters.to}
        key={`to-${filters.to}`}
        hint="New Zealand date, included"
        error={backwards ? 'Choose a day on or after the From date.' : undefined}
      />
      <div className="audit-filters__actions">
        <button type="submit" className="button button--primary">
          Show entries
        </button>
        {filtered ? (
          <Link to={PAGE} className="button button--ghost">
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** /admin/audit: every admin action, newest first, a page at a time; each told as a sentence, filtered as asked. */
export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { page, failed, before, filters } = loaderData;
  const here = pageAt(filters, before);
  const filtered = Object.values(filters).some((value) => value !== '');

  return (
    <section className="admin-page" aria-labelledby="audit-title">
      <div className="admin-page__header">
        <h1 id="audit-title">{ADMIN_TEXT.nav.audit}</h1>
        <Link to={here} className="button button--ghost admin-button--small" preventScrollReset>
          Refresh
        </Link>
      </div>
      <FilterForm filters={filters} actors={page?.actors ?? []} />
      <ReadFailed message={failed} retryTo={here} />
      {page ? (
        <>
          {page.entries.length === 0 ? (
            <p className="empty-state">
              {filtered ? 'No entries match these filters.' : 'Nothing has been done in the console yet.'}
            </p>
          ) : (
            <DataTable caption="Admin actions, newest first" columns={COLUMNS} className="admin-table admin-audit">
              {page.entries.map((entry) => (
                <tr key={entry.id}>
                  <td data-label={COLUMNS[0]}>
                    <time dateTime={entry.at}>{formatNzDateTime(entry.at)}</time>
                  </td>
                  <td data-label={COLUMNS[1]} className="admin-table__email">
                    {entry.actorEmail ? <Email address={entry.actorEmail} /> : auditActor(entry)}
                  </td>
                  <td data-label={COLUMNS[2]}>
                    <AuditSentence entry={entry} />
                  </td>
                  <td data-label={COLUMNS[3]}>
                    <AuditFacts entry={entry} empty="—" />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <nav className="admin-pager" aria-label="Pages of the audit log">
            {before !== null ? <Link to={pageAt(filters)}>Newest entries</Link> : null}
            {page.nextBefore !== null ? <Link to={pageAt(filters, page.nextBefore)}>Older entries</Link> : null}
          </nav>
        </>
      ) : null}
    </section>
  );
}
