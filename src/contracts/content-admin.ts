/** What the admin console edits of the public content: FAQ entries, legal links, hosted documents. */

// --- FAQs -----------------------------------------------------------------------------------------

export const FAQ_LIMITS = { titleMax: 300, contentMax: 5000, perType: 500 } as const;
export const FAQ_MESSAGES = {
  typeRequired: 'Choose a type',
  titleRequired: 'Title is required',
  titleTooLong: `Title can be at most ${FAQ_LIMITS.titleMax} characters`,
  contentRequired: 'Content is required',
  contentTooLong: `Content can be at most ${FAQ_LIMITS.contentMax} characters`,
  notFound: 'That FAQ entry does not exist.',
  orderChanged: 'The list changed while you were reordering it. It has been reloaded: please try again.',
} as const;

// --- Legal links and hosted documents ------------------------------------------------------------

export const LEGAL_LINK_MAX = 2000;
export const DOCUMENT_LIMITS = { titleMax: 200, bodyMax: 200_000 } as const;
export const LEGAL_MESSAGES = {
  linkRequired: 'A link is required',
  linkInvalid: 'Use an https:// address, or a path on this site that starts with / (for example /documents/terms)',
  linkTooLong: `A link can be at most ${LEGAL_LINK_MAX} characters`,
  titleRequired: 'Title is required',
  titleTooLong: `Title can be at most ${DOCUMENT_LIMITS.titleMax} characters`,
  bodyRequired: 'The document text is required',
  bodyTooLong: `The document text can be at most ${DOCUMENT_LIMITS.bodyMax} characters`,
  documentMissing: 'That document does not exist.',
} as const;

/**
 * Anything but printable characters (controls, spaces, line breaks, a lone UTF-16 surrogate, which
 * the settings document cannot even store): never part of a link we accept.
 */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0020\u007f-\u00a0\u2028\u2029\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PROBE_ORIGIN = 'https://origin.invalid';

/**
 * A link an admin may give the legal page (IN-04): an absolute https URL without credentials, or a
 * path on our own origin ("/…", never "//…" or "/\…", which browsers read as another host).
 * Everything else (javascript:, data:, vbscript:, http:, relative paths) is refused.
 */
export function isAllowedLegalLink(value: string): boolean {
  if (value.length === 0 || value.length > LEGAL_LINK_MAX || UNPRINTABLE.test(value)) return false;
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.startsWith('/\\')) return false;
    try {
      return new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;
    } catch {
      return false;
    }
  }
  // A host right after the scheme: URL parsers forgive "https:///host" and "https:\\host", we do not.
  if (!/^https:\/\/[^/\\?#]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
