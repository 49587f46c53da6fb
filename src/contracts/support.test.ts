import { describe, expect, it } from 'vitest';
import { FIRST_LINE_MAX_LENGTH, firstLineOf } from './support.ts';

describe('firstLineOf', () => {
  it('is the first line with text, its spaces collapsed', () => {
    expect(firstLineOf('\n  \nMy parcel   to Napier\nhas not arrived.')).toBe('My parcel to Napier');
    expect(firstLineOf('Kia ora\r\nsecond line')).toBe('Kia ora');
    expect(firstLineOf('')).toBe('');
  });

  it('cuts a long line at the last word that fits, with an ellipsis', () => {
    const long =
      'The bag I sent with the traveller from Auckland to Christchurch on Friday has not arrived, and nobody answers';
    const shown = firstLineOf(long);
    expect([...shown].length).toBeLessThanOrEqual(FIRST_LINE_MAX_LENGTH);
    expect(shown).toBe('The bag I sent with the traveller from Auckland to Christchurch on Friday has…');
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
  });

  it('cuts one very long word where it must, and never splits a character in two', () => {
    expect(firstLineOf('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(firstLineOf('📦'.repeat(20), 10)).toBe(`${'📦'.repeat(9)}…`);
  });
});
