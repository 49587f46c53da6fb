import { randomBytes } from 'node:crypto';

/**
 * How our mail about a ticket is threaded and answered (docs/decisions/105-reply-by-email.md).
 *
 * Every mail about a ticket names one thread root in `In-Reply-To` and `References`, a Message-ID
 * that is never itself sent (as GitHub's notifications do), so every mail program shows one
 * conversation per ticket whoever the mail went to. Replies go to `reply+<token>@REPLY_DOMAIN`: the
 * token is 24 random bytes in lower-case hex, because some relays lower-case an address's local
 * part (base64url would not survive that) and the whole local part must stay within 64 characters.
 */
export const REPLY_TOKEN_SHAPE = /^[0-9a-f]{48}$/;

export const createReplyToken = () => randomBytes(24).toString('hex');

export const ticketThreadId = (ticketId: string, domain: string) => `<ticket-${ticketId}@${domain}>`;

const THREAD_ID = /^<?ticket-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@([^>\s]+)>?$/i;

/** The ticket a thread root of ours names, or null (another domain's, or not a thread root). */
export function ticketIdOfThreadId(messageId: string, domain: string): string | null {
  const match = THREAD_ID.exec(messageId.trim());
  return match && match[2]!.toLowerCase() === domain.toLowerCase() ? match[1]!.toLowerCase() : null;
}

export const replyAddress = (token: string, replyDomain: string) => `reply+${token}@${replyDomain}`;

/** The token of a reply address on our domain, lower-cased; null for any other address. */
export function replyTokenOf(address: string, replyDomain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== replyDomain.toLowerCase()) return null;
  const local = address.slice(0, at).toLowerCase();
  if (!local.startsWith('reply+')) return null;
  const token = local.slice('reply+'.length);
  return REPLY_TOKEN_SHAPE.test(token) ? token : null;
}

/** Message-IDs in a References or In-Reply-To header value (mailparser gives a string or a list). */
export function messageIdsIn(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(' ') : (value ?? '');
  return [...text.matchAll(/<[^<>\s]+>/g)].map((m) => m[0]);
}
