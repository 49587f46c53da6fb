import EmailReplyParser from 'email-reply-parser';
import { compile, htmlToText } from 'html-to-text';
import { DomUtils, parseDocument } from 'htmlparser2';

/**
 * "Only the new words" of a mailed reply: a customer answers a notification from their mail
 * program, which appends the history (quoted or not) and often a signature. The text part goes
 * through email-reply-parser, with a few rules of our own for shapes it misses; an HTML-only mail
 * first loses its quote containers, then becomes text and takes the same road.
 */

export type NewWords = { text: string; trimmed: boolean };

type Fragment = ReturnType<ReturnType<EmailReplyParser['read']>['getFragments']>[number];
type DomDocument = ReturnType<typeof parseDocument>;
type DomNode = DomDocument['children'][number];
type DomElement = Extract<DomNode, { attribs: Record<string, string> }>;

/** The words a person newly wrote in a mailed reply. `text`/`html` are the parsed parts (mailparser's ParsedMail.text / .html). */
export function newWords(input: { text?: string | null; html?: string | null | false }): NewWords {
  const text = input.text?.trim() ? input.text : '';
  const html = typeof input.html === 'string' && input.html.trim() ? input.html : '';
  if (html && (!text || isCopyOfHtml(text, html))) return fromHtml(html);
  return text ? fromText(text) : { text: '', trimmed: false };
}

// ------------------------------------------------------------------------------------- text

/** "On Fri, 27 Nov 2026 at 10:12, Bagspace <…> wrote:" (Zoho: "---- On … wrote ---"). A date or time is required, so "On Monday I wrote:" is not one. */
const ATTRIBUTION = /^[\s-]*On\s.*(\d{4}|\d{1,2}:\d{2}).*\swrote:?[\s-]*$/i;
/** Real attributions are short; the limit also keeps the regex's backtracking cheap on a hostile line. */
const ATTRIBUTION_MAX_LENGTH = 400;
/** Outlook 2010, Samsung, eM Client, old Proton. */
const ORIGINAL_MESSAGE = /^\s*-{2,}\s*Original Message\s*-{2,}\s*$/i;
/** Outlook on the web's line above its header block. */
const UNDERSCORES = /^\s*_{10,}\s*$/;
const HEADER_FROM = /^\s*\*?From:\*?\s*\S/;
const HEADER_FIELD = /^\s*\*?(Sent|Date|To|Subject|Cc):/;
/** Proton's signature line, which the library doesn't know. */
const PROTON_SIGNATURE = /^\s*Sent with \[?Proton Mail\]?(\([^)]*\))? secure email\.?\s*$/i;
/** The library hides typed sign-offs ("Cheers,", "Kind regards,") and any "Sent from …" line as signatures. */
const SIGN_OFF = /^\s*(\w{0,20}\s?(\sand\s)?regards|cheers|best wishes)[,!！]*\s*$/i;
const SENT_FROM = /^\s*Sent from\s/i;
const MAILER_LINE =
  /^\s*Sent (from|with) (my |Yahoo Mail|Outlook|Mail\b|\[?Proton Mail|Samsung|Gmail|BlackBerry|iCloud)/i;

function fromText(raw: string): NewWords {
  const whole = tidy(raw);
  const lines = whole.split('\n').filter((line) => !PROTON_SIGNATURE.test(line));
  const own = lines.slice(0, historyStart(lines)).join('\n');
  const text = tidy(personalFragments(own));
  return text ? { text, trimmed: text !== whole } : { text: whole, trimmed: false };
}

/**
 * Where history that isn't `>` quoted starts (Outlook's header block, Yahoo's indented copy, an
 * "Original Message" line): the library hides such history only up to its next `>` line, and our
 * notifications contain `>` lines, so the rest would leak through. An attribution followed by `>`
 * lines is left to the library: inline answers may follow it.
 */
function historyStart(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    if (isHeaderBlock(lines, i)) return separatorAbove(lines, i);
    if (ORIGINAL_MESSAGE.test(lines[i]!) && !quotedAfter(lines, i + 1)) return i;
    const attribution = attributionLength(lines, i);
    if (attribution && !quotedAfter(lines, i + attribution)) return i;
  }
  return lines.length;
}

/** "From: …" followed by at least two of Sent/Date/To/Subject/Cc within four lines. */
function isHeaderBlock(lines: string[], i: number): boolean {
  if (!HEADER_FROM.test(lines[i]!)) return false;
  return lines.slice(i + 1, i + 5).filter((line) => HEADER_FIELD.test(line)).length >= 2;
}

function separatorAbove(lines: string[], i: number): number {
  let j = i - 1;
  while (j >= 0 && lines[j]!.trim() === '') j--;
  return j >= 0 && (ORIGINAL_MESSAGE.test(lines[j]!) || UNDERSCORES.test(lines[j]!)) ? j : i;
}

/** How many lines the attribution at `i` takes (mail programs wrap it), or 0 when there is none. */
function attributionLength(lines: string[], i: number): number {
  if (isAttribution(lines[i]!)) return 1;
  const next = lines[i + 1];
  return /^[\s-]*On\s/.test(lines[i]!) && next !== undefined && isAttribution(`${lines[i]} ${next}`) ? 2 : 0;
}

function isAttribution(text: string): boolean {
  return text.length <= ATTRIBUTION_MAX_LENGTH && ATTRIBUTION.test(text);
}

function quotedAfter(lines: string[], from: number): boolean {
  const next = lines.slice(from).find((line) => line.trim() !== '');
  return next?.trimStart().startsWith('>') ?? false;
}

/** The library's visible fragments, plus the sign-offs it mistakes for signatures, in order. */
function personalFragments(text: string): string {
  const long: string[] = [];
  return new EmailReplyParser()
    .read(shortLines(text, long))
    .getFragments()
    .map((fragment) => (isPersonal(fragment) ? fragment.getContent() : ''))
    .join('\n')
    .replace(/\uE000(\d+)\uE000/g, (_, index: string) => long[Number(index)]!);
}

/**
 * Without the optional re2, the library's regexes backtrack quadratically on a long line (6 s for
 * one 100 kB line starting "On "). No header or signature is that long, so such lines go in as
 * placeholders that keep their quote marks, and come back afterwards.
 */
function shortLines(text: string, long: string[]): string {
  return text
    .replace(/\uE000/g, '')
    .split('\n')
    .map((line) => (line.length > 1000 ? `${/^[\s>]*/.exec(line)![0]}\uE000${long.push(line) - 1}\uE000` : line))
    .join('\n');
}

function isPersonal(fragment: Fragment): boolean {
  if (!fragment.isHidden()) return true;
  if (!fragment.isSignature() || fragment.isQuoted()) return false;
  const first = fragment.getContent().trimStart().split('\n')[0] ?? '';
  return SIGN_OFF.test(first) || (SENT_FROM.test(first) && !MAILER_LINE.test(first));
}

/** Plain line ends, no trailing spaces, at most one blank line in a row, nothing around it. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ------------------------------------------------------------------------------------- HTML

/** Wherever they sit, these hold quoted history or a program's signature. */
const QUOTE_CLASS =
  /gmail_attr|gmail_signature|moz-cite-prefix|moz-signature|protonmail_quote|protonmail_signature_block|yahoo_quoted/;
const QUOTE_ID = /yahoo_quoted|ymail_android_signature/;
/** Outlook's reply header: it and everything after it in the document is history. */
const OUTLOOK_HISTORY_ID = /^(appendonsend|divRplyFwdMsg|mail-editor-reference-message-container)$/;

/**
 * Text as a person reads it: no wrapping (line breaks are the writer's), link targets only when
 * they differ. Word's paragraphs (Outlook) are single lines: it writes blank lines as `&nbsp;` ones.
 */
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'p.MsoNormal', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

/** mailparser fills `text` from the HTML when a mail has no text part; that copy is wrapped and loses the quote containers. */
function isCopyOfHtml(text: string, html: string): boolean {
  return tidy(text) === tidy(htmlToText(html));
}

function fromHtml(html: string): NewWords {
  const whole = tidy(toText(html));
  const document = parseDocument(html);
  removeHistory(document);
  const { text } = fromText(toText(DomUtils.getOuterHTML(document, { encodeEntities: 'utf8' })));
  return text ? { text, trimmed: text !== whole } : { text: whole, trimmed: false };
}

function removeHistory(document: DomDocument): void {
  const outlook = DomUtils.findOne((el) => OUTLOOK_HISTORY_ID.test(el.attribs.id ?? ''), document.children);
  if (outlook) removeToEnd(outlook);
  for (const quote of DomUtils.findAll(isQuote, document.children)) {
    removeAttribution(quote);
    DomUtils.removeElement(quote);
  }
}

/** Every `<blockquote>` is a quote: inline answers sit between blockquotes, not inside them. */
function isQuote(el: DomElement): boolean {
  const { class: className = '', id = '' } = el.attribs;
  return (
    el.name === 'blockquote' ||
    QUOTE_CLASS.test(className) ||
    QUOTE_ID.test(id) ||
    el.attribs['data-smartmail'] === 'gmail_signature'
  );
}

function removeToEnd(start: DomElement): void {
  const before = DomUtils.prevElementSibling(start);
  if (before?.name === 'hr') DomUtils.removeElement(before);
  for (let node: DomNode | DomDocument | null = start; node && node.type !== 'root'; node = node.parent) {
    while (node.next) DomUtils.removeElement(node.next);
  }
  DomUtils.removeElement(start);
}

/** "On … wrote:" just before a quote (Roundcube's `<p>`, Fastmail's `<div>`, Spark's bare text). */
function removeAttribution(quote: DomElement): void {
  const before = previousWithText(quote);
  if (before && isAttribution(DomUtils.textContent(before).replace(/\s+/g, ' ').trim())) DomUtils.removeElement(before);
}

/** The nearest earlier sibling that shows any text (skips `<br>`, blank `<div>`s and whitespace). */
function previousWithText(node: DomNode): DomNode | null {
  let prev = node.prev;
  while (prev && DomUtils.textContent(prev).trim() === '') prev = prev.prev;
  return prev;
}
