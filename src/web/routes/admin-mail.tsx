import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  type AdminMail,
  type AdminMailCounts,
  MAIL_STATE_LABELS,
  MAIL_STATES,
  type MailStateName,
} from '../../contracts/notifications.ts';
import { formatNzDateTime } from '../../contracts/support.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { requestJson } from '../lib/api-client.ts';
import { Notice } from '../features/admin/notice.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { MailDirection } from '../features/admin/filter-links.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-mail';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.mail} | ${ADMIN_TEXT.title}`);

const COLUMNS = ['Recorded', 'To', 'Subject', 'State', 'Attempts', 'Actions'] as const;
type Filter = MailStateName | 'all';

/** A delivery report's words ('hard 5.1.1', 'soft 4.2.2') as the state cell says them: Bounced (5.1.1). */
function bounceLabel(bounce: string): string {
  const status = bounce.replace(/^(hard|soft)\b\s*/i, '').trim();
  return status ? `Bounced (${status})` : 'Bounced';
}

function StateCell({ mail }: { mail: AdminMail }) {
  return (
    <div className="mail-state">
      <span className={`badge mail-state__badge mail-state__badge--${mail.state}`}>
        {MAIL_STATE_LABELS[mail.state]}
      </span>
      {mail.state === 'sent' && mail.sentAt ? (
        <span className="mail-state__detail">at {formatNzDateTime(mail.sentAt)}</span>
      ) : null}
      {mail.state === 'retrying' ? (
        <span className="mail-state__detail">next try {formatNzDateTime(mail.nextAttemptAt)}</span>
      ) : null}
      {mail.lastError && mail.state !== 'sent' ? <span className="mail-state__error">{mail.lastError}</span> : null}
      {/* A delivery report can come back after the server took the mail: it was sent, then bounced. */}
      {mail.bounce ? (
        <span className="badge mail-state__badge mail-state__badge--failed">{bounceLabel(mail.bounce)}</span>
      ) : null}
    </div>
  );
}

/** /admin/mail: every mail the site recorded, newest first; filter by state, find by recipient, send a failed one again. */
export default function AdminMailPage() {
  const [params] = useSearchParams();
  const state = (MAIL_STATES as readonly string[]).includes(params.get('state') ?? '')
    ? (params.get('state') as MailStateName)
    : undefined;
  const q = params.get('q')?.trim() ?? '';
  const query = new URLSearchParams({ ...(state ? { state } : {}), ...(q ? { q } : {}) }).toString();
  const { state: data, reload } = useApiData<{ mails: AdminMail[]; counts: AdminMailCounts }>(
    `/api/admin/mail${query ? `?${query}` : ''}`,
  );
  const [busy, setBusy] = useState<number | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function retry(mail: AdminMail) {
    setBusy(mail.id);
    setResult(null);
    const res = await requestJson<{ mail: AdminMail }>('POST', `/api/admin/mail/${mail.id}/retry`);
    setBusy(null);
    setResult(
      res.ok
        ? { tone: 'success', text: `The mail to ${mail.recipient} is queued again.` }
        : { tone: 'error', text: res.message },
    );
    reload();
  }

  const counts = data.kind === 'ready' ? data.data.counts : null;
  const options: Array<{ value: Filter; label: string }> = [
    { value: 'all', label: 'All' },
    ...MAIL_STATES.map((s) => ({
      value: s as Filter,
      label: counts ? `${MAIL_STATE_LABELS[s]} (${counts[s]})` : MAIL_STATE_LABELS[s],
    })),
  ];

  return (
    <section className="admin-page" aria-labelledby="mail-title">
      <div className="admin-page__header">
        <h1 id="mail-title">{ADMIN_TEXT.nav.mail}</h1>
        <button type="button" className="button button--ghost admin-button--small" onClick={reload}>
          Refresh
        </button>
      </div>
      <MailDirection current="outgoing" />
      <p>
        Every mail the site sends is recorded here first and then delivered; a mail the server refused for good is
        Failed and can be sent again.
      </p>
      <div className="admin-toolbar">
        <SwitchButtons<Filter>
          name="state"
          label="Show mail that is"
          options={options}
          value={state ?? 'all'}
          keep={{ q: q || undefined }}
        />
        <SearchForm label="Find mail by recipient" value={q} placeholder="Recipient email" keep={{ state }} />
      </div>
      {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      <LoadState state={data} onRetry={reload}>
        {({ mails }) =>
          mails.length === 0 ? (
            <p className="empty-state">No mail here.</p>
          ) : (
            <DataTable caption="Mail, newest first" columns={COLUMNS} className="admin-table admin-mail">
              {mails.map((mail) => (
                <tr key={mail.id}>
                  <td data-label={COLUMNS[0]}>
                    <time dateTime={mail.createdAt}>{formatNzDateTime(mail.createdAt)}</time>
                  </td>
                  <td data-label={COLUMNS[1]} className="admin-table__email">
                    <Email address={mail.recipient} />
                  </td>
                  <td data-label={COLUMNS[2]}>{mail.subject}</td>
                  <td data-label={COLUMNS[3]}>
                    <StateCell mail={mail} />
                  </td>
                  <td data-label={COLUMNS[4]}>{mail.attempts}</td>
                  <td data-label={COLUMNS[5]} className="admin-table__actions">
                    {mail.state === 'failed' ? (
                      <button
                        type="button"
                        className="button button--ghost admin-button--small"
                        disabled={busy !== null}
                        onClick={() => void retry(mail)}
                      >
                        {busy === mail.id ? 'Queuing…' : 'Retry'}
                      </button>
                    ) : (
                      <span aria-hidden="true">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </LoadState>
    </section>
  );
}
