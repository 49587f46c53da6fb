import { data, Link } from 'react-router';
import { formatBytes } from '../../../contracts/attachments.ts';
import { inboundApi } from '../../../contracts/api/inbound.ts';
import { INBOUND_TEXT } from '../../../contracts/inbound.ts';
import type { WholeMail } from '../../../contracts/inbound.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { Email } from '../../components/ui/email.tsx';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

/**
 * The whole mail a ticket message was posted from (reply by email, docs/decisions/105-reply-by-email.md),
 * for the user's ticket page and the console's alike: read on the server through our own API as this
 * visitor, so who may see it (the ticket's owner, or an admin) is decided by the API alone.
 */
type Context = { get(key: typeof requestContext): RequestContextValue };

export interface WholeMailPageData {
  /** Null while the layout shows its login screen or refusal instead, or when the read failed. */
  mail: WholeMail | null;
  /** The read failed for a reason other than "no such mail": the page says so. */
  failed: boolean;
}

/**
 * Reads the mail behind message `messageId` of ticket `ticketId`. A mail the API does not know for
 * this visitor (someone else's ticket, a message that came by the site, an id that cannot be one)
 * is the site's 404 page, as an unknown address is.
 */
export async function loadWholeMail(
  context: Context,
  options: { allowed: boolean; ticketId: string; messageId: string },
): Promise<WholeMailPageData> {
  if (!options.allowed) return { mail: null, failed: false };
  if (!/^[1-9]\d{0,15}$/.test(options.messageId)) throw data(null, { status: 404 });
  // In process through the API's own route (services.api): who may read the mail is its rule alone.
  const answer = await context.get(requestContext).services.api.call(inboundApi.wholeMail, {
    params: { ticketId: options.ticketId, messageId: options.messageId },
  });
  // 400 is an id that cannot be one (too long): it does not exist either.
  if (!answer.ok && (answer.status === 404 || answer.status === 400)) throw data(null, { status: 404 });
  return answer.ok ? { mail: answer.data, failed: false } : { mail: null, failed: true };
}

/** The mail as text: its From, To, Subject and Date, its words (never its HTML), and its files' names. */
export function WholeMailView({
  mail,
  failed,
  back,
  heading: Heading,
  className,
}: WholeMailPageData & {
  /** The ticket's page, and what its link says. */
  back: { to: string; label: string };
  /** The page's title is its h1 in the console, an h2 under the support area's own h1. */
  heading: 'h1' | 'h2';
  className?: string;
}) {
  const SubHeading = Heading === 'h1' ? 'h2' : 'h3';
  return (
    <section className={['whole-mail', className].filter(Boolean).join(' ')} aria-labelledby="whole-mail-title">
      <p className="support-back">
        <Link to={back.to}>{back.label}</Link>
      </p>
      <Heading id="whole-mail-title" className="whole-mail__title">
        {INBOUND_TEXT.wholeMailTitle}
      </Heading>
      {failed ? (
        <div className="alert alert--error" role="alert">
          <p>We could not show this mail. Please try again in a moment.</p>
        </div>
      ) : null}
      {mail ? (
        <>
          <dl className="whole-mail__fields">
            <div className="whole-mail__field">
              <dt>From</dt>
              <dd>{mail.from ? <Email address={mail.from} /> : '—'}</dd>
            </div>
            <div className="whole-mail__field">
              <dt>To</dt>
              <dd>{mail.to ? <Email address={mail.to} /> : '—'}</dd>
            </div>
            <div className="whole-mail__field">
              <dt>Subject</dt>
              <dd>{mail.subject || '—'}</dd>
            </div>
            <div className="whole-mail__field">
              <dt>Date</dt>
              <dd>{mail.date ? <time dateTime={mail.date}>{formatNzDateTime(mail.date)}</time> : '—'}</dd>
            </div>
          </dl>
          {/* Plain text only: React writes it as text, so markup in a mail shows as the characters it is. */}
          <pre className="whole-mail__text">{mail.text || '(no text)'}</pre>
          {mail.attachments.length > 0 ? (
            <section className="whole-mail__files" aria-labelledby="whole-mail-files">
              <SubHeading id="whole-mail-files">Files in the mail</SubHeading>
              <ul>
                {mail.attachments.map((file, i) => (
                  <li key={i}>
                    <span className="whole-mail__file-name">{file.name}</span>{' '}
                    <span className="whole-mail__file-size">{formatBytes(file.size)}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
