import { Fragment, type ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { formatBytes } from '../../../contracts/attachments.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { heldMailPage, heldMailsText, INBOUND_STATE_LABELS, INBOUND_TEXT } from '../../../contracts/inbound.ts';
import type { InboundMail, InboundMailRead } from '../../../contracts/inbound.schemas.ts';
import { Email } from '../../components/ui/email.tsx';

/**
 * A held mail as an admin reads it before deciding (the Mail page's Incoming view,
 * docs/decisions/134-held-mail-read-on-the-incoming-view.md): its words as text, its files as
 * downloads, its headers on request, and Post and Discard, each a plain form.
 */

const HELD_ACTIONS = [
  { intent: 'post', label: 'Post', busy: 'Posting…', className: 'button button--primary admin-button--small' },
  {
    intent: 'discard',
    label: 'Discard',
    busy: 'Discarding…',
    className: 'button button--ghost admin-button--small admin-button--danger',
  },
] as const;

/** Post and Discard, each its own small form posted to the Incoming view: they work without JavaScript. */
export function HeldActions({ mail }: { mail: Pick<InboundMail, 'id' | 'subject'> }) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' ? navigation.formData : undefined;
  const mine = sending?.get('inboundId') === String(mail.id) ? sending.get('intent') : null;
  const subject = mail.subject || 'no subject';
  return (
    <div className="inbound-actions">
      {HELD_ACTIONS.map((action) => (
        <Form method="post" preventScrollReset key={action.intent}>
          <input type="hidden" name="inboundId" value={mail.id} />
          <button
            type="submit"
            name="intent"
            value={action.intent}
            className={action.className}
            disabled={Boolean(sending)}
          >
            {mine === action.intent ? action.busy : action.label}
            <span className="visually-hidden"> the mail “{subject}”</span>
          </button>
        </Form>
      ))}
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="whole-mail__field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One mail opened on the Incoming view; `closeTo` is the list without it. */
export function OpenedMail({ mail, closeTo }: { mail: InboundMailRead; closeTo: string }) {
  const title = mail.state === 'held' ? INBOUND_TEXT.heldMailTitle : `${INBOUND_STATE_LABELS[mail.state]} mail`;
  return (
    <section className="whole-mail held-mail" aria-labelledby="opened-mail-title">
      <div className="held-mail__header">
        <h2 id="opened-mail-title" className="whole-mail__title">
          {`${title}: “${mail.subject || 'no subject'}”`}
        </h2>
        <Link to={closeTo} className="button button--ghost admin-button--small" preventScrollReset>
          {INBOUND_TEXT.closeMail}
        </Link>
      </div>
      <dl className="whole-mail__fields">
        <Field label="From">{mail.from ? <Email address={mail.from} /> : '—'}</Field>
        <Field label="To">{mail.to ? <Email address={mail.to} /> : '—'}</Field>
        <Field label="Subject">{mail.subject || '—'}</Field>
        <Field label="Date">{mail.date ? <time dateTime={mail.date}>{formatNzDateTime(mail.date)}</time> : '—'}</Field>
        <Field label="Received">
          <time dateTime={mail.receivedAt}>{formatNzDateTime(mail.receivedAt)}</time>
        </Field>
        {mail.reasonText ? <Field label="Why">{mail.reasonText}</Field> : null}
        <Field label="Ticket">
          {mail.ticketId && mail.ticketNo !== null ? (
            <Link to={`/admin/support/${encodeURIComponent(mail.ticketId)}`}>#{mail.ticketNo}</Link>
          ) : (
            '—'
          )}
        </Field>
      </dl>
      {/* Plain text only: React writes it as text, so markup in a mail shows as the characters it is. */}
      <pre className="whole-mail__text">{mail.text || INBOUND_TEXT.noText}</pre>
      <section className="whole-mail__files" aria-labelledby="opened-mail-files">
        <h3 id="opened-mail-files">{INBOUND_TEXT.filesInMail}</h3>
        {mail.attachments.length === 0 ? (
          <p>{INBOUND_TEXT.noFiles}</p>
        ) : (
          <>
            <p className="support-muted">{INBOUND_TEXT.filesNote}</p>
            <ul>
              {mail.attachments.map((file) => (
                <li key={file.index}>
                  {/* The API's own address: a download, to admins only (never shown in the page). */}
                  <a href={file.url} className="whole-mail__file-name">
                    {file.name}
                  </a>{' '}
                  <span className="whole-mail__file-size">
                    {formatBytes(file.size)}, {file.contentType}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      {/* A disclosure: open without JavaScript too; the headers are in the page already. */}
      <details className="held-mail__headers">
        <summary>{INBOUND_TEXT.showHeaders}</summary>
        <pre className="whole-mail__text held-mail__header-text">{mail.headers}</pre>
      </details>
      {mail.state === 'held' ? <HeldActions mail={mail} /> : null}
    </section>
  );
}

/**
 * The console's ticket page, when mail that would belong to the ticket is held: "1 held mail"
 * linking to it on the Incoming view, or "N held mails" and a link to each.
 */
export function HeldMailNote({ mails }: { mails: ReadonlyArray<Pick<InboundMail, 'id' | 'subject'>> }) {
  const [first] = mails;
  if (!first) return null;
  const words = heldMailsText(mails.length);
  return (
    <p className="held-mail-note">
      {mails.length === 1 ? (
        <Link to={heldMailPage(first.id)}>{words}</Link>
      ) : (
        <>
          {words}:{' '}
          {mails.map((mail, i) => (
            <Fragment key={mail.id}>
              {i > 0 ? ', ' : null}
              <Link to={heldMailPage(mail.id)}>{`“${mail.subject || 'no subject'}”`}</Link>
            </Fragment>
          ))}
        </>
      )}
    </p>
  );
}
