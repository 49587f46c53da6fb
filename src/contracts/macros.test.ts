import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MACRO_TEXT,
  fillTemplate,
  firstQuestion,
  placeholdersIn,
  templateQuestions,
  unknownPlaceholders,
} from './macros.ts';
import { SavedReplyBodySchema } from './desk.schemas.ts';
import { StaffNoteSchema, StaffReplySchema } from './support.schemas.ts';

const context = { ticketNo: 1004, reasonLabel: 'Incident Report', userEmail: 'aroha@example.com', userName: 'Aroha' };

/**
 * An independent reading of "a placeholder is left": `{{`, spaces, then `ask:` and a question, or
 * a dotted name, then spaces and `}}`, scanned by hand rather than with the module's expression.
 */
function looksUnfilled(text: string): boolean {
  for (let at = text.indexOf('{{'); at !== -1; at = text.indexOf('{{', at + 1)) {
    const end = text.indexOf('}}', at + 2);
    if (end === -1) return false;
    const inner = text.slice(at + 2, end).trim();
    if (inner.includes('{') || inner.includes('}')) continue;
    if (/^ask:.+$/i.test(inner) && !inner.includes('\n') && inner.length <= 84) return true;
    if (/^[a-z]+(\.[a-z]+)+$/i.test(inner)) return true;
  }
  return false;
}

/** Pieces a template is made of, some of them the awkward ones (braces, half placeholders, `$&`). */
const piece = fc.oneof(
  fc.constantFrom(
    '{{customer.name}}',
    '{{ ticket.number }}',
    '{{ticket.reason}}',
    '{{user.email}}',
    '{{Customer.Email}}',
    '{{agent.name}}',
    '{{ask:Tracking number}}',
    '{{ ask: Delivery date }}',
    '{{',
    '}}',
    '{',
    '}',
    'ask:',
    'customer.name',
    '$&',
    ' ',
    '\n',
  ),
  fc.string({ maxLength: 12 }),
);
const template = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
/** What a customer may call themselves, placeholders included. */
const value = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('{{ticket.number}}', '{{ask:x}}', '$1', '', '  '));

describe('saved reply placeholders', () => {
  it('fills variables once, keeps unanswered questions, and reads `$` as itself', () => {
    const body = 'Kia ora {{customer.name}}, #{{ ticket.number }} ({{ticket.reason}}): {{ask:Tracking number}}.';
    expect(fillTemplate(body, { ...context, userName: 'A $& B' })).toBe(
      'Kia ora A $& B, #1004 (Incident Report): {{ask:Tracking number}}.',
    );
    expect(fillTemplate(body, { ...context, userName: '  ' }, { 'Tracking number': 'NZ123' })).toBe(
      'Kia ora there, #1004 (Incident Report): NZ123.',
    );
    expect(templateQuestions(body + '{{ask: Tracking number }}')).toEqual(['Tracking number']);
    // A customer whose name reads like a placeholder is not filled in again.
    expect(fillTemplate('Hi {{customer.name}}', { ...context, userName: '{{ticket.number}}' })).toBe(
      'Hi {{ticket.number}}',
    );
  });

  it('a saved reply with a name the desk cannot fill in is refused, saying which one and what works', () => {
    const result = SavedReplyBodySchema.safeParse({ title: 'Sign-off', body: 'Ngā mihi, {{agent.name}}' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(MACRO_TEXT.unknown('{{agent.name}}'));
    expect(result.error?.issues[0]?.message).toContain('{{customer.name}}');
    expect(
      SavedReplyBodySchema.safeParse({ title: 'Hi', body: 'Hi {{customer.name}} {{ask:When}} {x} {{ }}' }).success,
    ).toBe(true);
  });

  it('an answer keeping a placeholder is refused on its text; a note may keep one', () => {
    const result = StaffReplySchema.safeParse({ messageBody: 'Your tracking number is {{ask:Tracking number}}.' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['messageBody']);
    expect(result.error?.issues[0]?.message).toBe(MACRO_TEXT.unfilled('{{ask:Tracking number}}'));
    expect(StaffNoteSchema.safeParse({ messageBody: 'Template uses {{ask:Tracking number}}' }).success).toBe(true);
    expect(StaffReplySchema.safeParse({ messageBody: 'Braces {like this} and {{ }} are words.' }).success).toBe(true);
  });

  it('property: whatever the template, the customer and the answers, an answer sent has no placeholder left', () => {
    fc.assert(
      fc.property(
        template,
        value,
        value,
        fc.dictionary(fc.constantFrom('Tracking number', 'Delivery date', 'x'), value),
        (body, userName, userEmail, answers) => {
          const text = fillTemplate(body, { ...context, userName, userEmail }, answers);
          const sent = StaffReplySchema.safeParse({ messageBody: text }).success;
          // Sent means nothing left, read independently; refused means the agent was told which one.
          if (sent) expect(looksUnfilled(text.trim())).toBe(false);
          else if (text.trim() !== '' && text.length <= 5000) expect(placeholdersIn(text).length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: a template of words and placeholders fills each placeholder with its value, once', () => {
    const words = fc.string({ maxLength: 12 }).filter((s) => !s.includes('{') && !s.includes('}'));
    const known = {
      '{{customer.name}}': 'Aroha $1',
      '{{ ticket.number }}': '1004',
      '{{ticket.reason}}': 'Incident Report',
      '{{ask:Tracking number}}': 'NZ123',
      '{{agent.name}}': '{{agent.name}}',
    } as const;
    const part = fc.oneof(words, fc.constantFrom(...Object.keys(known)));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const body = parts.join('');
        const text = fillTemplate(body, { ...context, userName: 'Aroha $1' }, { 'Tracking number': 'NZ123' });
        expect(text).toBe(parts.map((p) => (Object.hasOwn(known, p) ? known[p as keyof typeof known] : p)).join(''));
        expect(placeholdersIn(text)).toEqual(unknownPlaceholders(body));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('firstQuestion', () => {
  it('finds the first {{ask:…}} as written, after variables and words', () => {
    const text = 'Hi {{customer.name}}, it is {{ ask: Tracking number }} and {{ask:Date}}.';
    const at = firstQuestion(text);
    expect(at && text.slice(at.start, at.end)).toBe('{{ ask: Tracking number }}');
    expect(firstQuestion('No question here {{customer.name}}')).toBeNull();
  });
});
