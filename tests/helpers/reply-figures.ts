import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParsedMail } from 'mailparser';
import { readMail } from '../../src/server/modules/inbound/read-mail.ts';
import { newWords, type NewWords } from '../../src/server/modules/inbound/reply-text.ts';

/**
 * The reply fixture set (tests/fixtures/replies: NNN-name.eml and the words the person typed,
 * NNN-name.expected.txt) read through readMail and newWords, and the three figures the trimmer is
 * held to: exactly right, words lost, history posted. The unit test asserts them; the bench prints them.
 */
export const REPLY_FIXTURES = fileURLToPath(new URL('../fixtures/replies/', import.meta.url));

export type ReplyCase = { name: string; mail: ParsedMail; expected: string; got: NewWords };

export function replyFixtureNames(dir = REPLY_FIXTURES): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .map((file) => file.slice(0, -'.eml'.length))
    .sort();
}

export async function readReplyCases(dir = REPLY_FIXTURES): Promise<ReplyCase[]> {
  return Promise.all(
    replyFixtureNames(dir).map(async (name) => {
      const mail = await readMail(readFileSync(join(dir, `${name}.eml`)));
      const expected = readFileSync(join(dir, `${name}.expected.txt`), 'utf8');
      return { name, mail, expected, got: newWords({ text: mail.text, html: mail.html, subject: mail.subject }) };
    }),
  );
}

/** Whitespace runs collapsed per line, trailing spaces and extra blank lines dropped. */
export const normalise = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export const words = (text: string): string[] => text.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/** Words of `expected` that `actual` doesn't have in the same order. */
export function missingWords(expected: string, actual: string): string[] {
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

/** Words of `actual` beyond those of `expected` (each word counted as often as it occurs). */
export function extraWords(expected: string, actual: string): string[] {
  const left = new Map<string, number>();
  for (const word of words(expected)) left.set(word, (left.get(word) ?? 0) + 1);
  return words(actual).filter((word) => {
    const n = left.get(word) ?? 0;
    if (n > 0) left.set(word, n - 1);
    return n === 0;
  });
}

/** Three or more words the person did not write: old mail (or a program's line) posted as theirs. */
export const POSTS_HISTORY = 3;

export function replyFigures(cases: ReplyCase[]) {
  const exact = cases.filter((c) => normalise(c.got.text) === normalise(c.expected));
  const lost = cases.filter((c) => missingWords(c.expected, c.got.text).length > 0);
  const history = cases.filter((c) => extraWords(c.expected, c.got.text).length >= POSTS_HISTORY);
  const share = (n: number) => n / Math.max(1, cases.length);
  return {
    cases: cases.length,
    exact: exact.length,
    exactShare: share(exact.length),
    lost: lost.map((c) => c.name),
    history: history.map((c) => c.name),
    historyShare: share(history.length),
    wordsLost: cases.reduce((sum, c) => sum + missingWords(c.expected, c.got.text).length, 0),
  };
}
