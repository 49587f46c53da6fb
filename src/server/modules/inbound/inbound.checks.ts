import type { DNSResolver } from 'mailauth';
import { authenticate } from 'mailauth';
import type { HeaderLines, ParsedMail } from 'mailparser';

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

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

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
  const aligned = (domain: string | undefined) =>
    domain !== undefined &&
    (domain === fromDomain || fromDomain.endsWith(`.${domain}`) || domain.endsWith(`.${fromDomain}`));
  const dmarc = results.find((r) => r.method === 'dmarc');
  if (dmarc?.result === 'pass' && (dmarc.props['header.from'] ?? fromDomain) === fromDomain)
    return { trusted: true, how: `dmarc=pass by ${authservId}` };
  const spf = results.find(
    (r) => r.method === 'spf' && r.result === 'pass' && aligned(domainOf(r.props['smtp.mailfrom'] ?? '')),
  );
  const dkim = results.find((r) => r.method === 'dkim' && r.result === 'pass' && aligned(r.props['header.d']));
  if (spf && dkim) return { trusted: true, how: `aligned spf and dkim by ${authservId}` };
  return { trusted: false, how: `dmarc=${dmarc?.result ?? 'none'} by ${authservId}` };
}

/**
 * Our own check, when our SMTP receiver is the MX and so the first to see the sender's address:
 * mailauth verifies SPF for the connecting address, the DKIM signatures and the From domain's
 * DMARC policy.
 */
export async function trustFromDmarc(
  raw: Buffer,
  session: { ip: string | null; helo: string | null; sender: string | null; mta: string },
  resolver?: DNSResolver,
): Promise<Trust> {
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
  if (dmarc && dmarc.status.result === 'pass') return { trusted: true, how: 'dmarc=pass' };
  // No DMARC record at all: SPF and DKIM both passing for domains aligned with From still vouch for it.
  if (dmarc && dmarc.status.result === 'none' && dmarc.alignment.spf.result && dmarc.alignment.dkim.result)
    return { trusted: true, how: 'aligned spf and dkim' };
  return { trusted: false, how: `dmarc=${dmarc ? dmarc.status.result : 'none'}` };
}
