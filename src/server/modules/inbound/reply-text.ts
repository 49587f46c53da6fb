import { compile, htmlToText } from 'html-to-text';
import { INBOUND_TEXT } from '../../../contracts/inbound.ts';
import { DomUtils, parseDocument } from 'htmlparser2';
import {
  ATTRIBUTION_OPENERS,
  ATTRIBUTION_OPENERS_AT_START,
  CLOSING,
  FORWARD_LINE,
  FORWARD_SUBJECT,
  FROM_LABELS,
  HEADER_LABELS,
  isMailerLine,
  LIST_FOOTER,
  SUBJECT_LABELS,
  WROTE,
  WROTE_INSIDE,
} from './reply-words.ts';

/**
 * "Only the new words" of a mailed reply (docs/decisions/139-reply-trimming.md). A customer answers
 * a notification from their mail program, which appends the history (quoted with `>`, or copied
 * under a header block) and often its own signature line. The text is read by its structure: quote
 * depth, attribution lines and header blocks in the languages mail programs write them, separators.
 * Where it cannot tell, it keeps words: the whole mail stays one click away, a lost word does not.
 * An HTML-only mail becomes text first, its quotes as `>` lines, and takes the same road.
 *
 * A customer who answers between quoted lines keeps, above each answer, the quoted lines it answers
 * (as `> ` lines). A forwarded message keeps the note above it and the forwarded message, under a
 * "Forwarded message from …" line with its date and subject.
 */

export type NewWords = { text: string; trimmed: boolean };

/** The words a person newly wrote in a mailed reply. `text`/`html` are the parsed parts (read-mail.ts); `subject` tells a forward. */
export function newWords(input: {
  text?: string | null;
  html?: string | null | false;
  subject?: string | null;
}): NewWords {
  const text = input.text?.trim() ? input.text : '';
  const html = typeof input.html === 'string' && input.html.trim() ? input.html : '';
  const forward = FORWARD_SUBJECT.test(input.subject ?? '');
  if (html && (!text || isCopyOfHtml(text, html))) return fromHtml(html, forward);
  return text ? fromText(text, forward) : { text: '', trimmed: false };
}

// ------------------------------------------------------------------------------------- text

/** Real attributions and header lines are short; the limit also keeps the regexes cheap on a hostile line. */
const LINE_MAX = 400;
const QUOTED = /^\s*>/;
/** A line of a rule only: `----`, `____`, `====`, `++++`, `--`, `* * *`. */
const RULE = /^\s*([-_=+*~]\s*){2,}$/;
/** Outlook's rule above its header block, and the long rules of older programs. */
const LONG_RULE = /^\s*[-_=]{10,}\s*$/;
/** "-----Original Message-----", "---------- Forwarded message ---------", "----- Ursprüngliche Nachricht -----". */
const DASHED_TITLE = /^\s*[-=_*]{2,}\s*[^-=_*\s][^\n]{0,80}?\s*[-=_*]{2,}\s*$/;
/** "Label: value", the label a word or three (Outlook bolds them: `*From:*`). */
const LABEL_LINE = /^\s*\*?([\p{L}][\p{L}\p{M} .'-]{0,30}?)\*?\s*[:：]\*?(\s|$)/u;
/**
 * RFC 3676's signature delimiter, `-- ` with its space, marked before the trailing spaces go: only
 * it starts a signature. A typed `--` or `----` is a rule in the customer's text.
 */
const SIGNATURE_LINE = '\uE001';
const EMAIL = /[^\s<>()"':;,]+@[^\s<>()"':;,]+\.[^\s<>()"':;,]+/;
const DIGIT = /\d/;

function fromText(raw: string, forward: boolean): NewWords {
  const whole = tidy(raw);
  const lines = splitInlineAttributions(tidy(raw.replace(/^-- \r?$/gm, SIGNATURE_LINE)).split('\n'));
  const cut = historyStart(lines, forward);
  const own = withoutSignature(answersWithQuestions(withoutSignature(lines.slice(0, cut.at))));
  const kept = [...own, ...(cut.forwarded ? forwardedBlock(lines, cut) : [])];
  const text = tidy(kept.map((line) => (line === SIGNATURE_LINE ? '--' : line)).join('\n'));
  return text ? { text, trimmed: text !== whole } : { text: whole, trimmed: false };
}

// An attribution: "On Fri, 27 Nov 2026 at 10:12, Bagspace <…> wrote:", in any language mail programs
// write it, sometimes wrapped over two or three lines.

/** Whether `text` (one attribution, its wrapped lines joined) says who wrote what follows. */
function isAttribution(text: string, overQuote = false): boolean {
  const line = text.trim();
  if (line.length > LINE_MAX || line.length < 6) return false;
  // "---- Kiri wrote ----" (Android), "---- On Fri, … wrote ----" (Zoho).
  if (/^-{2,}.*-{2,}$/.test(line) && WROTE.test(line.replace(/^-+|-+$/g, '').trim())) return true;
  const bare = line.replace(/[\s-]+$/, '');
  // Right above a quote, "On Fri, Bagspace wrote:" needs no date.
  if (overQuote && ATTRIBUTION_OPENERS_AT_START.test(line) && /[:：]$/.test(bare) && WROTE.test(bare)) return true;
  if (!DIGIT.test(line) && !EMAIL.test(line)) return false;
  // Ends with its verb ("wrote:", "a écrit :", "kirjoitti:", "写道："), or names an address and
  // ends with a colon ("Am 27.11.2026 um 10:12 schrieb Bagspace <…>:", Gmail in Japanese).
  if (WROTE.test(bare)) return true;
  if (!/[:：]$/.test(bare)) return false;
  // Thunderbird puts its verb inside ("Am 29.11.26 um 10:12 schrieb Bagspace:", "Bagspace kirjoitti
  // 23.11.2026 klo 10.12:"): taken only right above a quote, where a misreading drops no answer.
  return (EMAIL.test(line) && DIGIT.test(line)) || (overQuote && DIGIT.test(line) && WROTE_INSIDE.test(bare));
}

/** How many lines the attribution at `i` takes (1 to 3), or 0 when there is none. */
function attributionAt(lines: string[], i: number, overQuote = false): number {
  for (let n = 1; n <= 3 && i + n <= lines.length; n++) {
    const part = lines.slice(i, i + n);
    if (part.some((line, k) => k > 0 && line.trim() === '') || QUOTED.test(part.at(-1)!)) return 0;
    // A wrapped attribution's first line already looks like one: a date, an address or its opener
    // ("Olivia" above "On 27 Nov 2026 … wrote:" is the person's name, not the start of it).
    if (n > 1 && !/\d|@|<|^\s*-{2,}/.test(part[0]!) && !ATTRIBUTION_OPENERS_AT_START.test(part[0]!)) return 0;
    if (isAttribution(part.join(' '), overQuote)) return n;
  }
  return 0;
}

/**
 * "Yes, Tuesday is fine. On Fri, 27 Nov 2026 at 10:12 Bagspace <…> wrote:": the answer and the
 * attribution on one line (some phones write them so) become two lines.
 */
function splitInlineAttributions(lines: string[]): string[] {
  return lines.flatMap((line) => {
    if (line.length > LINE_MAX || QUOTED.test(line) || !isAttribution(line)) return [line];
    for (const match of line.matchAll(ATTRIBUTION_OPENERS)) {
      const at = match.index;
      if (at === 0) continue;
      const rest = line.slice(at);
      if (isAttribution(rest)) return [line.slice(0, at).trimEnd(), rest];
    }
    return [line];
  });
}

// History that is not quoted: a header block (Outlook, older Hotmail, forwards), a dashed title
// ("-----Original Message-----"), an attribution over a copied, unquoted message (Yahoo).

type Cut = { at: number; forwarded?: { header: number; body: number } };

function labelOf(line: string): string | null {
  if (line.length > LINE_MAX) return null;
  const match = LABEL_LINE.exec(line);
  return match ? match[1]!.trim().toLowerCase() : null;
}

/**
 * A header block at `i`: three or more "Label: value" lines within six (a blank line allowed
 * between), one of them a sender's label and one a date's, recipient's or subject's, with an
 * address or a subject among them. "From: Auckland / To: Wellington" in a person's words is not one.
 * Returns the index after its last header line, or -1.
 */
function headerBlockEnd(lines: string[], i: number): number {
  if (labelOf(lines[i]!) === null) return -1;
  let from = false;
  let other = false;
  let evidence = false;
  let count = 0;
  let end = i;
  for (let j = i; j < Math.min(lines.length, i + 7); j++) {
    const line = lines[j]!;
    if (line.trim() === '') {
      if (j + 1 < lines.length && labelOf(lines[j + 1]!) !== null && count > 0) continue;
      break;
    }
    const label = labelOf(line);
    if (label === null) {
      // Outlook wraps a long "To:" list onto the next line.
      if (count > 0 && j === end && /[,;]\s*$/.test(lines[j - 1]!)) {
        end = j + 1;
        continue;
      }
      break;
    }
    count++;
    end = j + 1;
    if (FROM_LABELS.has(label)) {
      from = true;
      if (EMAIL.test(line) || /<|\[mailto:/i.test(line)) evidence = true;
    } else if (HEADER_LABELS.has(label)) other = true;
    if (SUBJECT_LABELS.has(label)) evidence = true;
  }
  return count >= 3 && from && other && evidence ? end : -1;
}

function nextNonBlank(lines: string[], from: number): number {
  let j = from;
  while (j < lines.length && lines[j]!.trim() === '') j++;
  return j;
}

function historyStart(lines: string[], forward: boolean): Cut {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > LINE_MAX) continue;
    if (QUOTED.test(line)) {
      const bare = unquote(line);
      // Apple Mail quotes a forwarded message whole, its title too.
      if (FORWARD_LINE.test(bare)) return { at: i, forwarded: { header: i, body: i } };
      // A quote that is only an attribution or a header on one line, over an unquoted copy (Yahoo).
      const next = nextNonBlank(lines, i + 1);
      if (next < lines.length && !QUOTED.test(lines[next]!) && (isAttribution(bare) || isInlineHeader(bare)))
        return { at: i };
      continue;
    }
    if (isInlineHeader(line)) {
      return FORWARD_LINE.test(line.split(/\s[-=_*]{2,}\s/)[0]!) || forward
        ? { at: i, forwarded: { header: i, body: i + 1 } }
        : { at: i };
    }
    const titled = DASHED_TITLE.test(line) || FORWARD_LINE.test(line) || LONG_RULE.test(line);
    if (titled || labelOf(line) !== null) {
      const header = titled ? nextNonBlank(lines, i + 1) : i;
      const end = header < lines.length ? headerBlockEnd(lines, header) : -1;
      if (end !== -1) {
        const forwarded = FORWARD_LINE.test(line) || (forward && !isReplyToUs(lines, header, end));
        return forwarded ? { at: i, forwarded: { header, body: end } } : { at: i };
      }
      // A forward's title over no header block still starts the forwarded text.
      if (FORWARD_LINE.test(line) && header < lines.length) return { at: i, forwarded: { header, body: header } };
      // "-----Original Message-----" with what follows cut off, or over quoted lines.
      if (
        DASHED_TITLE.test(line) &&
        /original|ursprüngliche|origine|original|oorspronkelijk|opprinnelig|oprindelig|ursprungligt|alkuperäinen|исходное|původní|oryginalna|eredeti/i.test(
          line,
        )
      )
        return { at: i };
    }
    const attribution = attributionAt(lines, i);
    if (attribution) {
      const next = nextNonBlank(lines, i + attribution);
      // An attribution over an unquoted copy (Yahoo) or over nothing: the history starts here.
      // Over quoted lines, answers may follow them: answersWithQuestions reads those.
      if (next >= lines.length || !QUOTED.test(lines[next]!)) return { at: i };
    }
  }
  return { at: lines.length };
}

/**
 * A header block on one line ("-------- Original message -------- From: … Date: … Subject: …"): an
 * HTML mail whose program wrote its header's line breaks as plain ones, which HTML joins.
 */
function isInlineHeader(line: string): boolean {
  if (line.length > LINE_MAX) return false;
  let from = false;
  let others = 0;
  let subject = false;
  for (const match of line.matchAll(INLINE_LABEL)) {
    const label = match[1]!.toLowerCase();
    if (FROM_LABELS.has(label)) from = true;
    else if (HEADER_LABELS.has(label)) others++;
    if (SUBJECT_LABELS.has(label)) subject = true;
  }
  return from && others >= 2 && (subject || EMAIL.test(line));
}

const INLINE_LABEL = /(?:^|\s)\*?(\p{L}[\p{L}\p{M}'-]*(?: \p{L}[\p{L}\p{M}'-]*){0,2}?)\*?\s?[:：](?=\s)/gu;

/** Whether a header block is the program's copy of our own mail (a reply), not someone else's (a forward). */
function isReplyToUs(lines: string[], from: number, to: number): boolean {
  return lines.slice(from, to).some((line) => SUBJECT_LABELS.has(labelOf(line) ?? '') && /ticket #\d/i.test(line));
}

/** The quote starting at `from` (its blank lines included), one level of quote marks taken off, and where it ends. */
function quoteFrom(lines: string[], from: number): { unquoted: string[]; end: number } {
  let end = from;
  while (end < lines.length && (QUOTED.test(lines[end]!) || lines[end]!.trim() === '')) end++;
  return { unquoted: lines.slice(from, end).map((line) => line.replace(/^\s*>\s?/, '')), end };
}

/** "Forwarded message from …", its date and subject, and its text (its own history trimmed). */
function forwardedBlock(all: string[], cut: Cut): string[] {
  let lines = all;
  let { header, body } = cut.forwarded!;
  // Apple Mail quotes the forwarded message, its header included: read it one level unquoted.
  if (header < lines.length && QUOTED.test(lines[header]!)) {
    lines = quoteFrom(lines, header).unquoted;
    header = nextNonBlank(lines, 0);
    if (header < lines.length && FORWARD_LINE.test(lines[header]!)) header = nextNonBlank(lines, header + 1);
    const headerEnd = header < lines.length ? headerBlockEnd(lines, header) : -1;
    body = headerEnd === -1 ? header : headerEnd;
  }
  const fields = new Map<string, string>();
  const headerLines =
    body - header === 1 && isInlineHeader(lines[header]!)
      ? splitInlineHeader(lines[header]!)
      : lines.slice(header, body);
  for (const line of headerLines) {
    const label = labelOf(line);
    if (label === null) continue;
    const value = line
      .slice(LABEL_LINE.exec(line)![0].length)
      .replace(/^\*+\s*/, '')
      .trim();
    const kind = FROM_LABELS.has(label)
      ? 'from'
      : SUBJECT_LABELS.has(label)
        ? 'subject'
        : DATE_LABELS.has(label)
          ? 'date'
          : null;
    if (kind && !fields.has(kind)) fields.set(kind, value.replace(/\s*\[mailto:([^\]]+)\]/i, ' <$1>'));
  }
  let rest = lines.slice(body);
  // Proton and Thunderbird quote the forwarded text under its header: it is the message, not history.
  const first = nextNonBlank(rest, 0);
  if (first < rest.length && QUOTED.test(rest[first]!)) {
    const quote = quoteFrom(rest, first);
    rest = [...quote.unquoted, ...rest.slice(quote.end)];
  }
  const inner = historyStart(rest, false);
  const text = withoutSignature(answersWithQuestions(withoutSignature(rest.slice(0, inner.at))));
  return [
    '',
    `${INBOUND_TEXT.forwardedFrom} ${fields.get('from') ?? INBOUND_TEXT.forwardedFromSomeone}`,
    ...(fields.has('date') ? [`Date: ${fields.get('date')}`] : []),
    ...(fields.has('subject') ? [`Subject: ${fields.get('subject')}`] : []),
    '',
    ...text,
  ];
}

/** A one-line header's fields, each on a line of its own (its dashed title dropped). */
function splitInlineHeader(line: string): string[] {
  const starts = [...line.matchAll(INLINE_LABEL)]
    .filter((match) => FROM_LABELS.has(match[1]!.toLowerCase()) || HEADER_LABELS.has(match[1]!.toLowerCase()))
    .map((match) => match.index + (match[0].length - match[0].trimStart().length));
  return starts.map((start, k) => line.slice(start, starts[k + 1]).trim());
}

const DATE_LABELS = new Set([
  'date',
  'sent',
  'datum',
  'gesendet',
  'envoyé',
  'enviado',
  'inviato',
  'data',
  'fecha',
  'verzonden',
  'sendt',
  'skickat',
  'lähetetty',
  'päivämäärä',
  'wysłano',
  'дата',
  'отправлено',
  'đã gửi',
  'ngày',
  'odesláno',
  'dátum',
  'elküldve',
  'tarih',
  'gönderildi',
  'tanggal',
  'terkirim',
  'ημερομηνία',
  'στάλθηκε',
]);

// Quotes: a reply written above or below the quoted mail keeps no quoted line; one written between
// quoted lines keeps, above each answer, the quoted paragraph it answers.

type Block = { quoted: boolean; lines: string[] };

function blocksOf(lines: string[]): Block[] {
  const blocks: Block[] = [];
  for (const line of lines) {
    const quoted = QUOTED.test(line);
    const last = blocks.at(-1);
    // A blank line belongs to the block it sits in; between a quote and an answer it ends the quote.
    if (last && (last.quoted === quoted || (line.trim() === '' && !last.quoted))) last.lines.push(line);
    else if (line.trim() === '' && last?.quoted) blocks.push({ quoted: false, lines: [line] });
    else blocks.push({ quoted, lines: [line] });
  }
  return mendWrappedQuotes(blocks);
}

/**
 * A quoted line the program wrapped without repeating the `>` ("> … open the ticket <" then
 * "https://…>."): one unquoted line between two quoted ones, right after a long quoted line that
 * stops mid-sentence, is part of the quote. A short answer under a question ("NZ4471902235" under
 * "…tracking number?") is not.
 */
function mendWrappedQuotes(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k]!;
    const before = out.at(-1);
    const after = blocks[k + 1];
    const lastQuoted = before?.quoted ? before.lines.at(-1)! : '';
    const wrapped =
      !block.quoted &&
      block.lines.length === 1 &&
      block.lines[0]!.length <= LINE_MAX &&
      before?.quoted &&
      (after?.quoted ?? true) &&
      lastQuoted.length >= 60 &&
      !/[.!?:;)"'”’]\s*$/.test(lastQuoted) &&
      (/^\S*(https?:|www\.|[\w.+-]+@)|^\S+>\.?$/.test(block.lines[0]!.trim()) || /^[a-z]/.test(block.lines[0]!.trim()));
    if (wrapped) {
      before!.lines.push(`> ${block.lines[0]!.trim()}`);
      if (after?.quoted) {
        before!.lines.push(...after.lines);
        k++;
      }
      continue;
    }
    out.push(block);
  }
  return out;
}

function hasWords(lines: string[]): boolean {
  return lines.some((line) => line.trim() !== '' && (line.length > LINE_MAX || !RULE.test(line)));
}

function answersWithQuestions(lines: string[]): string[] {
  const blocks = blocksOf(lines);
  // Drop the attribution that introduces each quote.
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k]!;
    if (block.quoted || !blocks[k + 1]?.quoted) continue;
    const own = block.lines;
    let end = own.length;
    while (end > 0 && own[end - 1]!.trim() === '') end--;
    for (let start = Math.max(0, end - 3); start < end; start++) {
      if (attributionAt(own, start, true) === end - start) {
        block.lines = own.slice(0, start);
        break;
      }
    }
  }
  const answers = blocks.map(
    (block, k) => !block.quoted && hasWords(block.lines) && blocks.slice(0, k).some((b) => b.quoted),
  );
  // A closing after the last quote ("Thanks,\nPriya") answers nothing: no quote goes above it.
  const lastAnswer = answers.lastIndexOf(true);
  if (lastAnswer !== -1 && !blocks.slice(lastAnswer + 1).some((b) => b.quoted) && isClosing(blocks[lastAnswer]!.lines))
    answers[lastAnswer] = false;
  const quoteAfter = (k: number) => blocks.slice(k + 1).some((b) => b.quoted && hasWords(b.lines.map(unquote)));
  const interleaved = answers.filter(Boolean).length >= 2 || answers.some((answer, k) => answer && quoteAfter(k));
  const out: string[] = [];
  blocks.forEach((block, k) => {
    if (!block.quoted) {
      out.push(...block.lines);
      return;
    }
    if (!interleaved || !answers[k + 1]) return;
    const question = lastParagraph(block.lines.map(unquote));
    if (question.length) out.push('', ...question.map((line) => `> ${line}`), '');
  });
  return out;
}

/** A sign-off and a name, a few short lines: "Thanks,\nPriya", "Ngā mihi,\nMere". */
function isClosing(lines: string[]): boolean {
  const own = lines.map((line) => line.trim()).filter(Boolean);
  return own.length > 0 && own.length <= 3 && own.every((line) => line.length <= 40) && CLOSING.test(own[0]!);
}

function unquote(line: string): string {
  return line.replace(/^\s*(>\s?)+/, '').trimEnd();
}

/** The quoted lines right above an answer: back to the quote's previous blank line. */
function lastParagraph(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  let start = end;
  while (start > 0 && lines[start - 1]!.trim() !== '') start--;
  return lines.slice(start, end);
}

// The program's signature: "Sent from my iPhone" and its kin as the last line, a `-- ` block
// (RFC 3676, section 4.3) at the end, a mailing list's footer, a separator left over at the end.

function withoutSignature(lines: string[]): string[] {
  let end = lines.length;
  const trailingBlank = () => {
    while (end > 0 && lines[end - 1]!.trim() === '') end--;
  };
  for (let changed = true; changed;) {
    changed = false;
    trailingBlank();
    if (end === 0) break;
    const last = lines[end - 1]!;
    if (last.length <= LINE_MAX && (isMailerLine(last) || RULE.test(last) || DASHED_TITLE.test(last))) {
      end--;
      changed = true;
      continue;
    }
    // A signature block: a `--` line with a few short lines after it, or a list's footer.
    for (let i = end - 1; i >= Math.max(0, end - 10); i--) {
      const line = lines[i]!.trim();
      const footer = lines.slice(i, end).join('\n');
      const delimiter = line === SIGNATURE_LINE;
      const rule = line.length <= LINE_MAX && RULE.test(line);
      if ((delimiter && end - i <= 8) || ((delimiter || rule) && LIST_FOOTER.test(footer))) {
        end = i;
        changed = true;
        break;
      }
    }
  }
  return lines.slice(0, end);
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

/** A program's signature, wherever it sits: dropped before the text is read. */
const SIGNATURE_CLASS = /gmail_signature|moz-signature|protonmail_signature_block/;
const SIGNATURE_ID = /ymail_android_signature/;
/** Quoted history in a container that is not a `<blockquote>`: read as one. */
const QUOTE_CLASS = /yahoo_quoted/;

/**
 * Text as a person reads it: no wrapping (line breaks are the writer's), link targets only when
 * they differ, quotes as `> ` lines. Word's paragraphs (Outlook) are single lines: it writes blank
 * lines as `&nbsp;` ones.
 */
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'p.MsoNormal', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'img', format: 'skip' },
    { selector: 'blockquote', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, trimEmptyLines: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

/** mailparser fills `text` from the HTML when a mail has no text part; that copy is wrapped and loses the quote marks. */
function isCopyOfHtml(text: string, html: string): boolean {
  return tidy(text) === tidy(htmlToText(html));
}

function fromHtml(html: string, forward: boolean): NewWords {
  const document = parseDocument(html);
  for (const signature of DomUtils.findAll(isSignature, document.children)) DomUtils.removeElement(signature);
  for (const quote of DomUtils.findAll((el) => QUOTE_CLASS.test(el.attribs.class ?? ''), document.children)) {
    if (quote.name !== 'blockquote') quote.name = 'blockquote';
  }
  const text = toText(DomUtils.getOuterHTML(document, { encodeEntities: 'utf8' }));
  const got = fromText(text, forward);
  const whole = tidy(toText(html));
  return got.text ? { text: got.text, trimmed: got.text !== whole } : { text: whole, trimmed: false };
}

function isSignature(el: { attribs: Record<string, string> }): boolean {
  const { class: className = '', id = '' } = el.attribs;
  return SIGNATURE_CLASS.test(className) || SIGNATURE_ID.test(id) || el.attribs['data-smartmail'] === 'gmail_signature';
}
