import { Form, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { auditApi } from '../../contracts/api/audit.ts';
import { auditActor } from '../../contracts/audit.ts';
import { partnerChangesApi, partnerReviewApi } from '../../contracts/api/partners.ts';
import { CHANGES_TEXT } from '../../contracts/partner-changes.ts';
import { RequestChangesSchema } from '../../contracts/partner-changes.schemas.ts';
import { RequestChangesForm, RequestedChangesNotice, requestFromForm } from '../features/admin/partner-changes.tsx';
import {
  COMPANY_STATUS_LABELS,
  companyStatusOf,
  type MailOutcome,
  REJECTION_REASON_MAX,
  REVIEW_DUE_TEXT,
  VERIFIED,
  LICENCE_TEXT,
  LICENCE_VIEW_TEXT,
} from '../../contracts/partner-review.ts';
import {
  type AdminCompany,
  RejectCompanySchema,
  AcceptLicenseFormSchema,
  ApproveFormSchema,
  RefuseLicenseSchema,
} from '../../contracts/partner-review.schemas.ts';
import { NZBN_TEXT, nzbnNamesMatch } from '../../contracts/companies.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { AuditFacts, AuditSentence } from '../features/admin/audit-view.tsx';
import { ApproveForm, licenceExpiryText, RenewalSection } from '../features/admin/partner-licence.tsx';
import { Email } from '../components/ui/email.tsx';
import { Notice, ReadFailed } from '../features/admin/notice.tsx';
import { TextAreaField } from '../components/ui/field.tsx';
import { type FormResult, invalid, readForm, refused, useFormCheck } from '../lib/form.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-partner';
import { privatePageMeta } from '../lib/page-meta.ts';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `Partner application | ${ADMIN_TEXT.title}`);

type Tone = 'success' | 'info';

/** What the admin is told after a decision: who was emailed, or why nobody was. */
function decisionNotice(
  decision: 'Approved' | 'Rejected' | 'Email',
  company: AdminCompany,
  mail: MailOutcome,
): { tone: Tone; text: string } {
  const prefix = decision === 'Email' ? '' : `${decision}. `;
  if (mail === 'queued')
    return { tone: 'success', text: `${prefix}${ADMIN_TEXT.mailQueued(company.contactPersonEmail ?? '')}` };
  return { tone: 'info', text: `${prefix}${ADMIN_TEXT.noContactEmail}` };
}

/** This page, with what was just done (and how to show it) when something was, or the reject form open. */
function pageAt(companyId: string, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  return `/admin/partners/${encodeURIComponent(companyId)}${search ? `?${search}` : ''}`;
}

/** The application and its history, read as this admin (the layout refuses others). */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { api } = context.get(requestContext).services;
  const query = new URL(request.url).searchParams;
  const [read, history] = await Promise.all([
    api.call(partnerReviewApi.get, { params: { companyId: params.companyId } }),
    api.call(auditApi.list, { query: { targetType: 'company', targetId: params.companyId } }),
  ]);
  const done = query.get('done');
  return {
    company: read.ok ? read.data.company : null,
    reviewDue: read.ok ? read.data.reviewDue : null,
    failed: read.ok ? null : read.message,
    entries: history.ok ? history.data.entries : [],
    rejecting: query.has('reject'),
    changing: query.has('changes'),
    done: done ? { text: done, tone: (query.get('tone') === 'info' ? 'info' : 'success') as Tone } : null,
  };
}

/** The application is read again after a refused decision too: a 409 usually means it changed meanwhile. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' || defaultShouldRevalidate;
}

/**
 * Approve, reject (with its reason), email again, ban and unban: each a form posted here, sent on to
 * the API as this admin, then this page again (303, so a reload sends nothing twice) saying what was
 * done. A refusal answers the page with the API's words.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  const intent = values.intent ?? '';
  const companyId = params.companyId;
  const target = { params: { companyId } };
  const done = ({ tone, text }: { tone: Tone; text: string }) =>
    redirect(pageAt(companyId, { done: text, ...(tone === 'info' ? { tone } : {}) }), 303);

  if (intent === 'approve') {
    // The console always records the licence's expiry date (docs/decisions/115-licence-expiry.md).
    const parsed = ApproveFormSchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, values, intent);
    const result = await api.call(partnerReviewApi.approve, { ...target, body: parsed.data });
    return result.ok
      ? done(decisionNotice('Approved', result.data.company, result.data.mail))
      : refused(result, values, intent);
  }
  if (intent === 'reject') {
    const parsed = RejectCompanySchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, values, intent);
    const result = await api.call(partnerReviewApi.reject, { ...target, body: parsed.data });
    return result.ok
      ? done(decisionNotice('Rejected', result.data.company, result.data.mail))
      : refused(result, values, intent);
  }
  if (intent === 'request-changes') {
    // Checkboxes as the endpoint's lists (docs/decisions/113-changes-requested.md).
    const body = requestFromForm(values);
    const parsed = RequestChangesSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error, values, intent);
    const result = await api.call(partnerChangesApi.request, { ...target, body });
    return result.ok
      ? done({
          tone: result.data.mail === 'queued' ? 'success' : 'info',
          text: CHANGES_TEXT.requested(result.data.mail === 'queued'),
        })
      : refused(result, values, intent);
  }
  if (intent === 'accept-licence' || intent === 'refuse-licence') {
    const accepting = intent === 'accept-licence';
    const parsed = (accepting ? AcceptLicenseFormSchema : RefuseLicenseSchema).safeParse(values);
    if (!parsed.success) return invalid(parsed.error, values, intent);
    const result = accepting
      ? await api.call(partnerReviewApi.acceptLicense, { ...target, body: parsed.data as { licenseExpiresOn: string } })
      : await api.call(partnerReviewApi.refuseLicense, { ...target, body: parsed.data as { reason: string } });
    return result.ok
      ? done({ tone: 'success', text: accepting ? LICENCE_TEXT.accepted : LICENCE_TEXT.refused })
      : refused(result, values, intent);
  }
  if (intent === 'notify') {
    const result = await api.call(partnerReviewApi.notify, target);
    return result.ok
      ? done(decisionNotice('Email', result.data.company, result.data.mail))
      : refused(result, values, intent);
  }
  if (intent === 'ban' || intent === 'unban') {
    const result = await api.call(intent === 'ban' ? partnerReviewApi.ban : partnerReviewApi.unban, target);
    return result.ok
      ? done({
          tone: 'success',
          text: result.data.company.isBanned ? 'The company is banned.' : 'The ban is lifted.',
        })
      : refused(result, values, intent);
  }
  return redirect(pageAt(companyId), 303);
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/**
 * The application's one status: the one the list files it under (a ban first, then an
 * expired licence's hold), and for a pending one how far its review is ('In review', 'Changes requested').
 */
function statusBadge(company: AdminCompany): { label: string; tone: string } {
  const status = companyStatusOf(company);
  if (status === 'pending' && company.reviewStage !== 'received')
    return { label: CHANGES_TEXT.stageLabels[company.reviewStage], tone: 'stage' };
  return { label: COMPANY_STATUS_LABELS[status], tone: status };
}

/** What the NZBN register said about the number (docs/decisions/114-nzbn-lookup.md). */
function nzbnCheckRows({ companyName, nzbn, nzbnCheck: check }: AdminCompany): Array<[string, string]> {
  if (check === null) return [[NZBN_TEXT.checkLabel, nzbn ? NZBN_TEXT.notCheckedNoKey : NZBN_TEXT.notChecked]];
  switch (check.result) {
    case 'waiting':
      return [[NZBN_TEXT.checkLabel, NZBN_TEXT.waiting]];
    case 'not-found':
      return [[NZBN_TEXT.checkLabel, NZBN_TEXT.notFound(formatNzDateTime(check.checkedAt))]];
    case 'failed':
      return [
        [
          NZBN_TEXT.checkLabel,
          NZBN_TEXT.failed(NZBN_TEXT.errors[check.error], formatNzDateTime(check.checkedAt), check.retrying),
        ],
      ];
    case 'found':
      return [
        [
          NZBN_TEXT.checkLabel,
          nzbnNamesMatch(companyName, check.registeredName)
            ? NZBN_TEXT.namesMatch
            : NZBN_TEXT.namesDiffer(check.registeredName),
        ],
        [NZBN_TEXT.registeredNameLabel, check.registeredName],
        [NZBN_TEXT.registerStatusLabel, NZBN_TEXT.registerStatus(check.status, formatNzDateTime(check.checkedAt))],
      ];
  }
}

function Fields({ company }: { company: AdminCompany }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Company name', company.companyName],
    [NZBN_TEXT.adminLabel, company.nzbn ?? NZBN_TEXT.notGiven],
    ...nzbnCheckRows(company),
    ['Phone number', company.phoneNumber],
    ['Address 1', company.address],
    ['Address 2', company.street ?? '—'],
    ['Contact person name', company.contactPersonName ?? '—'],
    ['Contact person job title', company.contactPersonJobTitle ?? '—'],
    ['Contact person phone number', company.contactPersonPhoneNumber ?? '—'],
    ['Contact person email', company.contactPersonEmail ? <Email address={company.contactPersonEmail} /> : '—'],
    ['Status', statusBadge(company).label],
    ['Banned', yesNo(company.isBanned)],
    ['Decision email sent', yesNo(company.isEmailSend)],
    ['Rejection reason', company.rejectionReason ?? '—'],
    [LICENCE_TEXT.fieldLabel, licenceExpiryText(company)],
    ['Submitted', formatNzDateTime(company.createdAt)],
    ...(company.submittedAt !== company.createdAt
      ? [[CHANGES_TEXT.resubmittedLabel, formatNzDateTime(company.submittedAt)] as [string, string]]
      : []),
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

/** One decision: a button in a form of its own, posted to the page's action. */
function DecisionButton({
  intent,
  className,
  busy,
  children,
}: {
  intent: string;
  className: string;
  busy: boolean;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" className="admin-inline-form" preventScrollReset>
      <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
        {children}
      </button>
    </Form>
  );
}

/** The reject form's schema, loaded when the form is first used (useFormCheck). */
const loadRejectCompanySchema = () =>
  import('../../contracts/partner-review.schemas.ts').then((m) => m.RejectCompanySchema);

/** Rejecting needs a reason: the same schema checks it here before it is sent and in the action. */
function RejectForm({
  company,
  result,
  busy,
}: {
  company: AdminCompany;
  result: FormResult | undefined;
  busy: boolean;
}) {
  const { errors, onSubmit, formRef } = useFormCheck(loadRejectCompanySchema, result);
  return (
    <Form
      method="post"
      ref={formRef}
      className="form form-card admin-reject"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="reject-title"
      preventScrollReset
    >
      <h2 id="reject-title" className="admin-section__title">
        Reject this application
      </h2>
      <input type="hidden" name="intent" value="reject" />
      <TextAreaField
        label="Reason"
        name="reason"
        required
        maxLength={REJECTION_REASON_MAX}
        defaultValue={result?.values.reason ?? ''}
        hint={
          company.contactPersonEmail
            ? `We email it to ${company.contactPersonEmail}.`
            : 'There is no contact email: tell the company another way.'
        }
        error={errors.reason}
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          Reject application
        </button>
        {/* Closes the form: the Reject button's own form (a GET to this page without ?reject). */}
        <button type="submit" form="reject-toggle" className="button button--ghost">
          Cancel
        </button>
      </div>
    </Form>
  );
}

/** /admin/partners/{companyId}: every field, the licence, the decision buttons and the history. */
export default function AdminPartner({ loaderData, actionData, params }: Route.ComponentProps) {
  const { company, reviewDue, failed, entries, rejecting, changing, done } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.formMethod?.toUpperCase() === 'POST';
  // A field's error is shown at its field in the form it belongs to; other refusals above the page.
  const inForm = ['reject', 'approve', 'accept-licence', 'refuse-licence', 'request-changes'].includes(
    actionData?.form ?? '',
  );
  const refusal =
    actionData && !actionData.ok ? (actionData.message ?? (inForm ? null : Object.values(actionData.fields)[0])) : null;
  // A refused reason keeps the form open, with what was typed.
  const rejectResult = actionData?.form === 'reject' ? actionData : undefined;
  const notice = actionData ? null : done;

  if (!company) {
    return (
      <section className="admin-page" aria-labelledby="partner-title">
        <p className="support-back">
          <Link to="/admin/partners">{ADMIN_TEXT.nav.partners}</Link>
        </p>
        <ReadFailed message={failed} retryTo={pageAt(params.companyId)} />
      </section>
    );
  }

  const decided = company.verified === VERIFIED.verified || company.verified === VERIFIED.rejected;
  const canReject = company.verified !== VERIFIED.rejected;
  const showReject = canReject && (rejecting || (rejectResult !== undefined && !rejectResult.ok));
  // Changes can be asked of an application waiting for a decision, once at a time.
  const canAskChanges =
    company.verified === VERIFIED.pending && !company.isBanned && company.reviewStage !== 'changes_requested';
  const changesResult = actionData?.form === 'request-changes' ? actionData : undefined;
  const showChanges = canAskChanges && (changing || (changesResult !== undefined && !changesResult.ok));
  return (
    <section className="admin-page" aria-labelledby="partner-title">
      <p className="support-back">
        <Link to="/admin/partners">{ADMIN_TEXT.nav.partners}</Link>
      </p>
      <div className="admin-page__header">
        <h1 id="partner-title">{company.companyName}</h1>
        <p className="admin-badges">
          <span className={`badge badge--${statusBadge(company).tone}`}>{statusBadge(company).label}</span>
        </p>
      </div>

      {reviewDue ? (
        <p className={`admin-review-due${reviewDue.late ? ' admin-review-due--late' : ''}`}>
          {reviewDue.late
            ? `${REVIEW_DUE_TEXT.late}: ${REVIEW_DUE_TEXT.wasDue(reviewDue.dueDate)}`
            : REVIEW_DUE_TEXT.due(reviewDue.dueDate)}
        </p>
      ) : null}
      {company.licenseHoldAt && company.licenseExpiresOn ? (
        <Notice tone="info">{LICENCE_TEXT.onHold(company.licenseExpiresOn)}</Notice>
      ) : null}

      {company.verified !== VERIFIED.verified ? (
        <ApproveForm
          result={actionData?.form === 'approve' ? actionData : undefined}
          busy={busy}
          label={ADMIN_TEXT.approve}
        />
      ) : null}
      <div className="admin-actions" role="group" aria-label="Decision">
        {canReject ? (
          // Opening the reject form is a step in the address (?reject), so it works without JavaScript.
          <Form method="get" id="reject-toggle" className="admin-inline-form" preventScrollReset>
            {showReject ? null : <input type="hidden" name="reject" value="1" />}
            <button type="submit" className="button button--ghost" disabled={busy} aria-expanded={showReject}>
              {ADMIN_TEXT.reject}
            </button>
          </Form>
        ) : null}
        {canAskChanges ? (
          <Form method="get" id="changes-toggle" className="admin-inline-form" preventScrollReset>
            {showChanges ? null : <input type="hidden" name="changes" value="1" />}
            <button type="submit" className="button button--ghost" disabled={busy} aria-expanded={showChanges}>
              {CHANGES_TEXT.button}
            </button>
          </Form>
        ) : null}
        <DecisionButton
          intent={company.isBanned ? 'unban' : 'ban'}
          className="button button--ghost admin-button--danger"
          busy={busy}
        >
          {company.isBanned ? ADMIN_TEXT.unban : ADMIN_TEXT.ban}
        </DecisionButton>
        {decided && company.contactPersonEmail && !company.isEmailSend ? (
          <DecisionButton intent="notify" className="button button--ghost" busy={busy}>
            Send the decision email again
          </DecisionButton>
        ) : null}
      </div>

      {showReject ? <RejectForm company={company} result={rejectResult} busy={busy} /> : null}
      {showChanges ? (
        <RequestChangesForm email={company.contactPersonEmail} result={changesResult} busy={busy} />
      ) : null}
      {company.reviewStage === 'changes_requested' &&
      company.requestedChanges &&
      company.verified === VERIFIED.pending ? (
        <RequestedChangesNotice changes={company.requestedChanges} />
      ) : null}

      {refusal ? <Notice tone="error">{refusal}</Notice> : null}
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {!company.contactPersonEmail && !notice && !refusal ? (
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
            {LICENCE_VIEW_TEXT.heading}
          </h2>
          {company.commercialLicenseUrl ? (
            <figure className="admin-licence">
              {company.licenseFormat === 'pdf' ? (
                // The browser's own PDF viewer, from the first page, in a frame our CSP allows (decision 130).
                <iframe
                  src={`${company.commercialLicenseUrl}/preview#page=1&view=FitH`}
                  title={LICENCE_VIEW_TEXT.pdfPreviewTitle(company.companyName)}
                  className="admin-licence__frame"
                />
              ) : (
                <img
                  src={company.commercialLicenseUrl}
                  alt={LICENCE_VIEW_TEXT.imageAlt(company.companyName)}
                  className="admin-licence__image"
                />
              )}
              <figcaption>
                <a href={company.commercialLicenseUrl} download>
                  {company.licenseFormat === 'pdf' ? LICENCE_VIEW_TEXT.downloadPdf : LICENCE_VIEW_TEXT.download}
                </a>
              </figcaption>
            </figure>
          ) : (
            <p className="support-muted">{LICENCE_VIEW_TEXT.none}</p>
          )}
        </section>
      </div>

      <RenewalSection company={company} result={actionData} busy={busy} />

      <section aria-labelledby="history-title">
        <h2 id="history-title" className="admin-section__title">
          History
        </h2>
        {entries.length > 0 ? (
          <ol className="admin-history">
            {entries.map((entry) => (
              <li key={entry.id}>
                <p className="admin-history__line">
                  <strong>
                    <AuditSentence entry={entry} here={pageAt(company.id)} />
                  </strong>
                </p>
                <p className="admin-history__meta">
                  by {entry.actorEmail ? <Email address={entry.actorEmail} /> : auditActor(entry)} ·{' '}
                  <time dateTime={entry.at}>{formatNzDateTime(entry.at)}</time>
                </p>
                <AuditFacts entry={entry} here={pageAt(company.id)} />
              </li>
            ))}
          </ol>
        ) : (
          <p className="support-muted">No decisions yet.</p>
        )}
      </section>
    </section>
  );
}
