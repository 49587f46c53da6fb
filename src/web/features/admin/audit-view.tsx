import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { type AuditFact, type AuditPart, describeAudit } from '../../../contracts/audit.ts';
import type { AuditEntry } from '../../../contracts/audit.schemas.ts';
import { Email } from '../../components/ui/email.tsx';

/** A word or a record of a sentence: records link to their page in the console (unless it is this one). */
function Part({ part, here }: { part: AuditPart | AuditFact; here: string | undefined }) {
  const text = 'text' in part ? part.text : part.value;
  const shown = part.email ? <Email address={text} /> : text;
  return part.href && part.href !== here ? <Link to={part.href}>{shown}</Link> : <>{shown}</>;
}

/**
 * An entry as one plain sentence ('Approved the application of Kea Couriers Ltd'), built from its
 * action and details (contracts/audit.ts). `here` is the page showing it: no link back to itself.
 */
export function AuditSentence({ entry, here }: { entry: AuditEntry; here?: string }) {
  const { sentence } = describeAudit(entry);
  return (
    <span className="audit-sentence">
      {sentence.map((part, i) => (
        <Fragment key={i}>
          <Part part={part} here={here} />
        </Fragment>
      ))}
    </span>
  );
}

/** What else the entry recorded, under labels people read (text, never markup); `empty` when there is nothing. */
export function AuditFacts({ entry, here, empty = null }: { entry: AuditEntry; here?: string; empty?: ReactNode }) {
  const { facts } = describeAudit(entry);
  if (facts.length === 0) return <>{empty}</>;
  return (
    <dl className="audit-details">
      {facts.map((fact, i) => (
        <div key={`${fact.label}-${i}`} className="audit-details__pair">
          <dt>{fact.label}</dt>
          <dd>
            <Part part={fact} here={here} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
