import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  type AdminCompany,
  COMPANY_STATUS_LABELS,
  companyStatusOf,
  type MailOutcome,
  REJECTION_REASON_MAX,
  RejectCompanySchema,
  VERIFIED,
} from '../../contracts/partner-review.ts';
import { type AuditEntry } from '../../contracts/audit.ts';
import { formatNzDateTime } from '../../contracts/support.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { requestJson } from '../lib/api-client.ts';
import { AuditDetails, auditWhat } from '../features/admin/audit-view.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { TextAreaField } from '../components/ui/field.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import type { Route } from './+types/admin-partner';
import { privatePageMeta } from '../lib/page-meta.ts';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `Partner application | ${ADMIN_TEXT.title}`);

type Result = { tone: 'success' | 'error' | 'info'; text: string };

/** What the admin is told after a decision: who was emailed, or why nobody was. */
function decisionNotice(decision: 'Approved' | 'Rejected' | 'Email', company: AdminCompany, mail: MailOutcome): Result {
  const prefix = decision === 'Email' ? '' : `${decision}. `;
  if (mail === 'queued')
    return { tone: 'success', text: `${prefix}${ADMIN_TEXT.mailQueued(company.contactPersonEmail ?? '')}` };
  return { tone: 'info', text: `${prefix}${ADMIN_TEXT.noContactEmail}` };
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function Fields({ company }: { company: AdminCompany }) {
  const rows: Array<[string, string]> = [
    ['Company name', company.companyName],
    ['Phone number', company.phoneNumber],
    ['Address 1', company.address],
    ['Address 2', company.street ?? '—'],
    ['Contact person name', company.contactPersonName ?? '—'],
    ['Contact person job title', company.contactPersonJobTitle ?? '—'],
    ['Contact person phone number', company.contactPersonPhoneNumber ?? '—'],
    ['Contact person email', company.contactPersonEmail ?? '—'],
    ['Status', COMPANY_STATUS_LABELS[companyStatusOf({ ...company, isBanned: false })]],
    ['Banned', yesNo(company.isBanned)],
    ['Decision email sent', yesNo(company.isEmailSend)],
    ['Rejection reason', company.rejectionReason ?? '—'],
    ['Submitted', formatNzDateTime(company.createdAt)],
    ['Last updated', formatNzDateTime(company.lastUpdated)],
  ];
  return (
    <dl className="admin-fields">
      {rows.map(([label, value]) => (
        <div key={label} className="admin-fields__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** /admin/partners/{companyId}: every field, the licence, the decision buttons and the history. */
export default function AdminPartner({ params }: Route.ComponentProps) {
  const url = `/api/admin/companies/${encodeURIComponent(params.companyId)}`;
  const { state, reload, replace } = useApiData<{ company: AdminCompany }>(url);
  const history = useApiData<{ entries: AuditEntry[] }>(
    `/api/admin/audit?targetType=company&targetId=${encodeURIComponent(params.companyId)}`,
  );
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [reasonError, setReasonError] = useState<string | undefined>();

  async function act(
    path: string,
    body: unknown,
    done: (data: { company: AdminCompany; mail?: MailOutcome }) => Result,
  ) {
    setBusy(true);
    setResult(null);
    const res = await requestJson<{ company: AdminCompany; mail?: MailOutcome }>('POST', `${url}/${path}`, body);
    setBusy(false);
    history.reload();
    if (!res.ok) {
      if (res.fields.reason) setReasonError(res.fields.reason);
      else setResult({ tone: 'error', text: res.message });
      reload();
      return false;
    }
    replace({ company: res.data.company });
    setResult(done(res.data));
    return true;
  }

  async function reject(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = RejectCompanySchema.safeParse({ reason: new FormData(event.currentTarget).get('reason') });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message);
      return;
    }
    setReasonError(undefined);
    const ok = await act('reject', parsed.data, (d) => decisionNotice('Rejected', d.company, d.mail!));
    if (ok) setRejecting(false);
  }

  return (
    <section className="admin-page" aria-labelledby="partner-title">
      <p className="support-back">
        <Link to="/admin/partners">{ADMIN_TEXT.nav.partners}</Link>
      </p>
      <LoadState state={state} onRetry={reload}>
        {({ company }) => {
          const decided = company.verified === VERIFIED.verified || company.verified === VERIFIED.rejected;
          return (
            <>
              <div className="admin-page__header">
                <h1 id="partner-title">{company.companyName}</h1>
                <p className="admin-badges">
                  <span className={`badge badge--${companyStatusOf({ ...company, isBanned: false })}`}>
                    {COMPANY_STATUS_LABELS[companyStatusOf({ ...company, isBanned: false })]}
                  </span>
                  {company.isBanned ? <span className="badge badge--banned">Banned</span> : null}
                </p>
              </div>

              <div className="admin-actions" role="group" aria-label="Decision">
                {company.verified !== VERIFIED.verified ? (
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={busy}
                    onClick={() =>
                      void act('approve', undefined, (d) => decisionNotice('Approved', d.company, d.mail!))
                    }
                  >
                    {ADMIN_TEXT.approve}
                  </button>
                ) : null}
                {company.verified !== VERIFIED.rejected ? (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={busy}
                    aria-expanded={rejecting}
                    onClick={() => setRejecting(!rejecting)}
                  >
                    {ADMIN_TEXT.reject}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button button--ghost admin-button--danger"
                  disabled={busy}
                  onClick={() =>
                    void act(company.isBanned ? 'unban' : 'ban', undefined, (d) => ({
                      tone: 'success',
                      text: d.company.isBanned ? 'The company is banned.' : 'The ban is lifted.',
                    }))
                  }
                >
                  {company.isBanned ? ADMIN_TEXT.unban : ADMIN_TEXT.ban}
                </button>
                {decided && company.contactPersonEmail && !company.isEmailSend ? (
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={busy}
                    onClick={() => void act('notify', undefined, (d) => decisionNotice('Email', d.company, d.mail!))}
                  >
                    Send the decision email again
                  </button>
                ) : null}
              </div>

              {rejecting ? (
                <form
                  className="form form-card admin-reject"
                  onSubmit={(e) => void reject(e)}
                  noValidate
                  aria-labelledby="reject-title"
                >
                  <h2 id="reject-title" className="admin-section__title">
                    Reject this application
                  </h2>
                  <TextAreaField
                    label="Reason"
                    name="reason"
                    required
                    maxLength={REJECTION_REASON_MAX}
                    hint={
                      company.contactPersonEmail
                        ? `We email it to ${company.contactPersonEmail}.`
                        : 'There is no contact email: tell the company another way.'
                    }
                    error={reasonError}
                    onChange={() => setReasonError(undefined)}
                  />
                  <div className="form__actions">
                    <button type="submit" className="button button--primary" disabled={busy}>
                      Reject application
                    </button>
                    <button type="button" className="button button--ghost" onClick={() => setRejecting(false)}>
                      Cancel
                    </button>
                  </div>
                </form>
              ) : null}

              {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
              {!company.contactPersonEmail && !result ? (
                <Notice tone="info">{ADMIN_TEXT.noContactEmailYet}</Notice>
              ) : null}

              <div className="admin-columns">
                <section aria-labelledby="fields-title">
                  <h2 id="fields-title" className="admin-section__title">
                    Application
                  </h2>
                  <Fields company={company} />
                </section>
                <section aria-labelledby="licence-title">
                  <h2 id="licence-title" className="admin-section__title">
                    Commercial license
                  </h2>
                  {company.commercialLicenseUrl ? (
                    <figure className="admin-licence">
                      <img
                        src={company.commercialLicenseUrl}
                        alt={`Commercial license of ${company.companyName}`}
                        className="admin-licence__image"
                      />
                      <figcaption>
                        <a href={company.commercialLicenseUrl} download>
                          Download the license
                        </a>
                      </figcaption>
                    </figure>
                  ) : (
                    <p className="support-muted">No license was uploaded.</p>
                  )}
                </section>
              </div>

              <section aria-labelledby="history-title">
                <h2 id="history-title" className="admin-section__title">
                  History
                </h2>
                {history.state.kind === 'ready' && history.state.data.entries.length > 0 ? (
                  <ol className="admin-history">
                    {history.state.data.entries.map((entry) => (
                      <li key={entry.id}>
                        <p className="admin-history__line">
                          <strong>{auditWhat(entry)}</strong> by {entry.actorEmail ?? 'a removed account'} ·{' '}
                          <time dateTime={entry.at}>{formatNzDateTime(entry.at)}</time>
                        </p>
                        <AuditDetails entry={entry} />
                      </li>
                    ))}
                  </ol>
                ) : (
                  <p className="support-muted">No decisions yet.</p>
                )}
              </section>
            </>
          );
        }}
      </LoadState>
    </section>
  );
}
