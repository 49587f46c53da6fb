import { Link } from 'react-router';
import { type AuditEntry, auditActionLabel } from '../../../contracts/audit.ts';

const text = (value: unknown): string =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);

/** The record an entry touched, as a link to it in the console where there is one. */
export function AuditRecord({ entry }: { entry: AuditEntry }) {
  const d = entry.details ?? {};
  const id = entry.targetId ?? '';
  switch (entry.targetType) {
    case 'ticket':
      return <Link to={`/admin/support/${id}`}>Ticket #{text(d.ticketNo)}</Link>;
    case 'company':
      return <Link to={`/admin/partners/${id}`}>{text(d.companyName ?? id)}</Link>;
    case 'user':
      return <Link to={`/admin/users?q=${encodeURIComponent(text(d.email))}`}>{text(d.email ?? id)}</Link>;
    case 'faq':
      return <span>{id ? `FAQ entry ${id}` : `FAQ entries (${text(d.type)})`}</span>;
    case 'document':
      return <a href={`/documents/${id}`}>Document “{id}”</a>;
    default:
      return <span>{`${entry.targetType} ${id}`.trim()}</span>;
  }
}

/** Everything else the entry recorded, as name: value pairs (text, never markup). */
export function AuditDetails({ entry }: { entry: AuditEntry }) {
  const pairs = Object.entries(entry.details ?? {});
  if (pairs.length === 0) return <span>—</span>;
  return (
    <dl className="audit-details">
      {pairs.map(([key, value]) => (
        <div key={key} className="audit-details__pair">
          <dt>{key}</dt>
          <dd>{text(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export const auditWhat = (entry: AuditEntry) => auditActionLabel(entry.action);
