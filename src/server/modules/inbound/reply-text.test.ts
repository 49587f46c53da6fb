import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWords, type NewWords } from './reply-text.ts';

/**
 * tests/fixtures/replies holds raw replies to Bagspace notifications as mail programs write them
 * (NN-name.eml), each with the words the person typed (NN-name.expected.txt).
 */
const DIR = fileURLToPath(new URL('../../../../tests/fixtures/replies/', import.meta.url));
const NAMES = readdirSync(DIR)
  .filter((file) => file.endsWith('.eml'))
  .map((file) => file.slice(0, -'.eml'.length))
  .sort();

type Case = { name: string; mail: ParsedMail; expected: string; got: NewWords };

/** Whitespace runs collapsed per line, trailing spaces and extra blank lines dropped. */
const normalise = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const words = (text: string): string[] => text.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/** Words of `expected` that `actual` doesn't have in the same order. */
function missingWords(expected: string, actual: string): string[] {
  const have = words(actual);
  const missing: string[] = [];
  let at = 0;
  for (const word of words(expected)) {
    const found = have.indexOf(word, at);
    if (found === -1) missing.push(word);
    else at = found + 1;
  }
  return missing;
}

describe('newWords on replies from real mail programs', () => {
  let cases: Case[] = [];
  const byName = (name: string) => cases.find((c) => c.name === name)!;

  beforeAll(async () => {
    cases = await Promise.all(
      NAMES.map(async (name) => {
        const mail = await simpleParser(readFileSync(join(DIR, `${name}.eml`)));
        const expected = readFileSync(join(DIR, `${name}.expected.txt`), 'utf8');
        return { name, mail, expected, got: newWords({ text: mail.text, html: mail.html }) };
      }),
    );
  });

  it('has at least 40 fixtures', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(40);
    expect(cases).toHaveLength(NAMES.length);
  });

  it('gives exactly the expected words for at least 95% of them', () => {
    const differ = cases.filter((c) => normalise(c.got.text) !== normalise(c.expected));
    const exact = cases.length - differ.length;
    console.log(
      `reply-text: ${exact}/${cases.length} exact (${((100 * exact) / cases.length).toFixed(1)}%)` +
        differ.map((c) => `\n--- ${c.name}\ngot:\n${c.got.text}\nexpected:\n${c.expected}`).join(''),
    );
    expect(exact / cases.length).toBeGreaterThanOrEqual(0.95);
  });

  it.each(NAMES)('%s: loses none of the expected words', (name) => {
    const { expected, got } = byName(name);
    expect(missingWords(expected, got.text)).toEqual([]);
  });

  it('says trimmed exactly when the mail held more than the new words', () => {
    const wrong = cases.filter((c) => c.got.trimmed !== (normalise(c.expected) !== normalise(c.mail.text ?? '')));
    expect(wrong.map((c) => c.name)).toEqual([]);
  });

  it('finds the same words from the HTML part alone', () => {
    const wrong = cases
      .filter((c) => typeof c.mail.html === 'string')
      .filter((c) => words(newWords({ html: c.mail.html }).text).join(' ') !== words(c.expected).join(' '));
    expect(wrong.map((c) => c.name)).toEqual([]);
  });
});

describe('newWords', () => {
  const quote = [
    'On Fri, 27 Nov 2026 at 10:12, Bagspace <reply+AbC7xQ2mPz9LkW4t@reply.bagspace.test> wrote:',
    '',
    '> New reply on ticket #1042',
    '>',
    '> > Sorry to hear that your bag hasn’t arrived yet.',
    '>',
    '> Ngā mihi,',
    '> The Bagspace team',
  ].join('\n');

  it('returns nothing for empty or blank input', () => {
    expect(newWords({})).toEqual({ text: '', trimmed: false });
    expect(newWords({ text: null, html: false })).toEqual({ text: '', trimmed: false });
    expect(newWords({ text: ' \n\t\n ', html: '  ' })).toEqual({ text: '', trimmed: false });
    expect(newWords({ html: '<div><br></div>' })).toEqual({ text: '', trimmed: false });
  });

  it('returns the whole text, untrimmed, when it is only a quote', () => {
    expect(newWords({ text: `${quote}\n\n` })).toEqual({ text: quote, trimmed: false });
    const html = newWords({ html: '<blockquote type="cite">Sorry to hear that.<br>Ngā mihi</blockquote>' });
    expect(html).toEqual({ text: '> Sorry to hear that.\n> Ngā mihi', trimmed: false });
  });

  it('keeps macrons, in text and HTML (entities included)', () => {
    const reply =
      'Kia ora, kei te pai. Ka tae mai taku pēke ā te Mane?\nKua hīkoi au ki Ōtaki, kua tūtaki ki te kōtiro.';
    expect(newWords({ text: `${reply}\n\n${quote}` })).toEqual({ text: reply, trimmed: true });
    const html = `<div>Kia ora, kei te pai. Ka tae mai taku p&#275;ke &#x101; te Mane?</div><div>Kua hīkoi au ki Ōtaki, kua tūtaki ki te kōtiro.</div><blockquote>${quote}</blockquote>`;
    expect(newWords({ html }).text).toBe(reply);
  });

  it('drops trailing spaces and blank lines but keeps the line breaks inside', () => {
    expect(newWords({ text: '\n\nFirst line   \nsecond line\n\n\n\nLast line \t\n\n\n' })).toEqual({
      text: 'First line\nsecond line\n\nLast line',
      trimmed: false,
    });
  });

  it('keeps a typed sign-off and a sentence that starts "Sent from", drops the phone’s line', () => {
    const text = 'Sent from Christchurch on the 20th.\n\nCheers,\nAroha\n\nSent from my iPhone\n\n' + quote;
    expect(newWords({ text }).text).toBe('Sent from Christchurch on the 20th.\n\nCheers,\nAroha');
  });

  it('treats very long lines like short ones (quoted stays quoted)', () => {
    const paragraph = `Kia ora, ${'the pēke is still at the depot and nobody has rung me. '.repeat(40)}`.trimEnd();
    const text = `${paragraph}\n\nOn Fri, 27 Nov 2026 at 10:12, Bagspace <a@b.nz> wrote:\n\n> Kia ora Aroha,\n> ${paragraph}\n> Ngā mihi`;
    expect(newWords({ text })).toEqual({ text: paragraph, trimmed: true });
  });

  it('cuts Outlook history that is not quoted, even when it contains quoted lines', () => {
    const text = [
      'Thanks, that works.',
      '',
      'From: Bagspace <reply+AbC7xQ2mPz9LkW4t@reply.bagspace.test>',
      'Sent: Friday, 27 November 2026 10:12 AM',
      'To: Aroha Ngata <aroha@example.co.nz>',
      'Subject: RE: New reply on ticket #1042',
      '',
      '> Sorry to hear that your bag hasn’t arrived yet.',
      '',
      'Reply to this email to answer.',
    ].join('\n');
    expect(newWords({ text })).toEqual({ text: 'Thanks, that works.', trimmed: true });
  });
});
