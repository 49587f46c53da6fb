import type { DNSResolver } from 'mailauth';
import type { HeaderLines, ParsedMail } from 'mailparser';
import type { UndecidedWhy } from '../../../contracts/inbound.ts';

/**
 * What the inbound worker asks of a mail before it may change a ticket: is it automatic (RFC 3834,
 * list mail, a delivery report), and does the sender's domain vouch for its From address (DMARC, or
 * aligned SPF and DKIM)? Pure functions of the parsed mail, except the DMARC check, which asks DNS.
 */

const lower = (value: unknown) => (typeof value === 'string' ? value : '').trim().toLowerCase();

/** The raw value of each header line named `name` (lower case), top first. */
export function headerValues(lines: HeaderLines, name: string): string[] {
  return lines
    .filter((h) => h.key === name)
    .map((h) =>
      h.line
        .slice(h.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
}

/**
 * Why a mail is automatic, or null for a mail a person wrote. An automatic mail never creates or
 * changes a ticket and is never answered, which is what breaks mail loops with auto-responders.
 */
export function automaticReason(mail: ParsedMail, envelopeFrom: string | null): 'automatic' | 'delivery-report' | null {
  // mailparser gives Content-Type as { value, params }.
  const contentType = mail.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const type = lower(contentType?.value);
  const reportType = contentType?.params?.['report-type'];
  if (type === 'multipart/report' && lower(reportType) === 'delivery-status') return 'delivery-report';
  const lines = mail.headerLines;
  const autoSubmitted = headerValues(lines, 'auto-submitted').map((v) => lower(v.split(';')[0]));
  if (autoSubmitted.some((v) => v !== '' && v !== 'no')) return 'automatic';
  if (headerValues(lines, 'x-autoreply').length > 0 || headerValues(lines, 'x-autorespond').length > 0)
    return 'automatic';
  if (headerValues(lines, 'precedence').some((v) => ['bulk', 'junk', 'list'].includes(lower(v)))) return 'automatic';
  if (headerValues(lines, 'list-id').length > 0) return 'automatic';
  if (type === 'multipart/report') return 'automatic';
  // The null sender (<>) is for bounces and other automatic notices only (RFC 5321 4.5.5).
  if (envelopeFrom === '') return 'automatic';
  const from = lower(mail.from?.value[0]?.address);
  if (/^(mailer-daemon|postmaster)@/.test(from)) return 'automatic';
  return null;
}

export interface Bounce {
  /** The Message-ID of our mail that did not arrive. */
  messageId: string;
  /** A 5.x.x status: the address does not take mail; a 4.x.x one is only delayed. */
  hard: boolean;
  status: string;
  recipient: string | null;
}

/** What a delivery report (RFC 3464) says of the mail it is about, if it names one. */
export function readBounce(mail: ParsedMail): Bounce | null {
  const parts = mail.attachments.map((a) => ({ type: lower(a.contentType), text: a.content.toString('utf8') }));
  // mailparser shows a message/delivery-status part as text (it is text/plain-like), or as a part.
  const status = parts.find((p) => p.type === 'message/delivery-status')?.text ?? mail.text ?? '';
  const original = parts.find((p) => p.type === 'text/rfc822-headers' || p.type === 'message/rfc822')?.text ?? '';
  const messageId = /^Message-ID:\s*(<[^<>\s]+>)/im.exec(original)?.[1];
  if (!messageId) return null;
  const code = /^Status:\s*([245]\.\d{1,3}\.\d{1,3})/im.exec(status)?.[1] ?? '5.0.0';
  const action = lower(/^Action:\s*(\S+)/im.exec(status)?.[1]);
  const recipient = /^Final-Recipient:\s*[^;]*;\s*(\S+)/im.exec(status)?.[1] ?? null;
  return { messageId, hard: code.startsWith('5') && action !== 'delayed', status: code, recipient };
}

export type Trust = { trusted: true; how: string } | { trusted: false; how: string };

/**
 * Why a mail cannot be decided now (the answer may differ on a later try): the worker tries it
 * again, and after INBOUND_MAX_ATTEMPTS tries holds it for an admin with this reason
 * (docs/decisions/131-every-inbound-mail-decided.md).
 */
export class NotYetDecidable extends Error {
  override name = 'NotYetDecidable';
  readonly why: UndecidedWhy;
  constructor(why: UndecidedWhy, message: string) {
    super(message);
    this.why = why;
  }
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Whether `domain` (an SPF or DKIM domain) is aligned with the From domain: the same, or one a
 * subdomain of the other. Stricter than DMARC's relaxed alignment, which would also take two
 * sibling subdomains of one organisation: such a mail is held, never wrongly posted.
 */
function alignedWith(domain: string | undefined, fromDomain: string): boolean {
  const d = (domain ?? '').trim().toLowerCase().replace(/\.$/, '');
  return d !== '' && (d === fromDomain || fromDomain.endsWith(`.${d}`) || d.endsWith(`.${fromDomain}`));
}

/**
 * Reads the topmost Authentication-Results header whose authserv-id is the trusted relay's or
 * mailbox provider's (RFC 8601): DMARC passed for the From domain, or SPF and DKIM both passed for
 * domains aligned with it. Results under any other authserv-id are the sender's say-so and count
 * for nothing.
 */
export function trustFromHeader(mail: ParsedMail, authservId: string, fromAddress: string): Trust {
  const header = headerValues(mail.headerLines, 'authentication-results').find(
    (value) => lower(value.split(';')[0]) === authservId.toLowerCase(),
  );
  if (!header) return { trusted: false, how: `no Authentication-Results from ${authservId}` };
  const fromDomain = domainOf(fromAddress);
  const results = header
    .split(';')
    .slice(1)
    .map((part) => part.replace(/\([^)]*\)/g, ' ').trim())
    .map((part) => {
      const [method = '', result = ''] = (/^([a-z0-9-]+)\s*=\s*([a-z]+)/i.exec(part) ?? []).slice(1);
      const props = Object.fromEntries(
        [...part.matchAll(/([a-z]+\.[a-z-]+)\s*=\s*("?)([^\s";]+)\2/gi)].map((m) => [
          m[1]!.toLowerCase(),
          m[3]!.toLowerCase(),
        ]),
      );
      return { method: method.toLowerCase(), result: result.toLowerCase(), props };
    });
  const dmarc = results.find((r) => r.method === 'dmarc');
  if (dmarc?.result === 'pass' && (dmarc.props['header.from'] ?? fromDomain) === fromDomain)
    return { trusted: true, how: `dmarc=pass by ${authservId}` };
  const spf = results.find(
    (r) =>
      r.method === 'spf' && r.result === 'pass' && alignedWith(domainOf(r.props['smtp.mailfrom'] ?? ''), fromDomain),
  );
  const dkim = results.find(
    (r) => r.method === 'dkim' && r.result === 'pass' && alignedWith(r.props['header.d'], fromDomain),
  );
  if (spf && dkim) return { trusted: true, how: `aligned spf and dkim by ${authservId}` };
  return { trusted: false, how: `dmarc=${dmarc?.result ?? 'none'} by ${authservId}` };
}

const TEMPORARY = new Set(['temperror', 'temperr']);

/**
 * Our own check, when our SMTP receiver is the MX and so the first to see the sender's address:
 * mailauth verifies SPF for the connecting address, the DKIM signatures and the From domain's
 * DMARC policy. A domain with no DMARC record (common among small businesses) is judged on SPF and
 * DKIM: both passing for domains aligned with From vouch for it (mailauth gives no alignment then).
 * A DNS failure that could change the answer is not a verdict: NotYetDecidable, tried again.
 */
export async function trustFromDmarc(
  raw: Buffer,
  session: { ip: string | null; helo: string | null; sender: string | null; mta: string },
  resolver?: DNSResolver,
): Promise<Trust> {
  // mailauth loads with the first mail it checks: 0.3 s of a start otherwise (decision 101).
  const { authenticate } = await import('mailauth');
  const result = await authenticate(raw, {
    ip: session.ip ?? undefined,
    helo: session.helo ?? undefined,
    sender: session.sender ?? undefined,
    mta: session.mta,
    disableArc: true,
    disableBimi: true,
    ...(resolver ? { resolver } : {}),
  });
  const dmarc = result.dmarc;
  if (!dmarc) return { trusted: false, how: 'dmarc=none (no single From domain)' };
  const verdict = dmarc.status.result;
  if (verdict === 'pass') return { trusted: true, how: 'dmarc=pass' };
  if (TEMPORARY.has(verdict)) throw new NotYetDecidable('sender-check', `dmarc=temperror: ${dmarc.error ?? ''}`);
  if (verdict !== 'none') return { trusted: false, how: `dmarc=${verdict}` };

  const fromDomain = lower(dmarc.status.header?.from ?? domainOf(result.dkim.headerFrom[0] ?? ''));
  const spf = result.spf || null;
  const spfState =
    spf?.status.result === 'pass' && alignedWith(spf.domain, fromDomain)
      ? 'aligned'
      : spf && TEMPORARY.has(spf.status.result)
        ? 'temporary'
        : 'no';
  const signatures = result.dkim.results ?? [];
  const dkimState = signatures.some((r) => r.status.result === 'pass' && alignedWith(r.signingDomain, fromDomain))
    ? 'aligned'
    : signatures.some((r) => TEMPORARY.has(r.status.result) && alignedWith(r.signingDomain, fromDomain))
      ? 'temporary'
      : 'no';
  const how = `no DMARC record; spf ${spfState}, dkim ${dkimState}`;
  if (spfState === 'aligned' && dkimState === 'aligned')
    return { trusted: true, how: 'no DMARC record; aligned spf and dkim' };
  // Only when a later answer could still vouch for it: each of the two aligned or not known yet.
  if (spfState !== 'no' && dkimState !== 'no') throw new NotYetDecidable('sender-check', how);
  return { trusted: false, how };
}
