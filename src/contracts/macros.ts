/**
 * The placeholders of saved replies and macros (docs/decisions/144-placeholders-never-sent.md):
 * variables the desk fills in for a ticket (`{{customer.name}}`), and prompts the agent must fill
 * (`{{ask:Tracking number}}`). A placeholder is `{{`, a name, `}}`; the name is a variable (letters
 * and dots, at least one dot) or `ask:` and a question. Filling is one pass over the template, so a
 * customer's name that itself reads like a placeholder is never filled again.
 */

/** The variables a saved reply may use, with what each becomes. */
export const TEMPLATE_VARIABLES = [
  'customer.name',
  'customer.email',
  'ticket.number',
  'ticket.reason',
  // The names the first saved replies used; they stay valid.
  'user.name',
  'user.email',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** What a name becomes when the customer gave none: "Kia ora {{customer.name}}," reads "Kia ora there,". */
export const NO_NAME = 'there';
export const ASK_MAX = 80;

export const MACRO_TEXT = {
  unknown: (placeholder: string) =>
    `${placeholder} is not something the desk can fill in. Use ${TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(', ')}, or {{ask:Your question}} for what the agent types in.`,
  unfilled: (placeholder: string) =>
    `Replace ${placeholder} with your own words before sending: the customer would read it as it is.`,
} as const;

/** `{{ name }}` where name is a variable shape or a prompt; anything else between braces is plain text. */
const PLACEHOLDER = new RegExp(`\\{\\{\\s*(ask:[^{}\\n]{1,${ASK_MAX}}?|[A-Za-z]+(?:\\.[A-Za-z]+)+)\\s*\\}\\}`, 'gi');

export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'variable'; name: TemplateVariable; raw: string }
  | { kind: 'ask'; question: string; raw: string }
  | { kind: 'unknown'; raw: string };

const isVariable = (name: string): name is TemplateVariable => (TEMPLATE_VARIABLES as readonly string[]).includes(name);

/** A template as its parts, in order. */
export function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > at) parts.push({ kind: 'text', text: template.slice(at, match.index) });
    const raw = match[0];
    const name = match[1] ?? '';
    if (name.slice(0, 4).toLowerCase() === 'ask:') parts.push({ kind: 'ask', question: name.slice(4).trim(), raw });
    else if (isVariable(name.toLowerCase()))
      parts.push({ kind: 'variable', name: name.toLowerCase() as TemplateVariable, raw });
    else parts.push({ kind: 'unknown', raw });
    at = match.index + raw.length;
  }
  if (at < template.length) parts.push({ kind: 'text', text: template.slice(at) });
  return parts;
}

/** The placeholders a saved reply may not keep: names the desk cannot fill in. */
export function unknownPlaceholders(template: string): string[] {
  return templateParts(template).flatMap((part) => (part.kind === 'unknown' ? [part.raw] : []));
}

/** Every placeholder left in a text: an answer that has one is not sent. */
export function placeholdersIn(text: string): string[] {
  return templateParts(text).flatMap((part) => (part.kind === 'text' ? [] : [part.raw]));
}

/** The questions a template asks the agent, each once, in order. */
export function templateQuestions(template: string): string[] {
  return [...new Set(templateParts(template).flatMap((part) => (part.kind === 'ask' ? [part.question] : [])))];
}

export interface TemplateContext {
  ticketNo: number;
  reasonLabel: string;
  userEmail: string;
  userName?: string | null | undefined;
}

/**
 * A template filled in for one ticket, with the agent's answers to its questions. A question without
 * an answer, and a name the desk does not know, stay as written: the agent sees them in the reply
 * box, and an answer that still has one is refused (StaffReplySchema).
 */
export function fillTemplate(
  template: string,
  context: TemplateContext,
  answers: Readonly<Record<string, string>> = {},
): string {
  const name = context.userName?.trim() || NO_NAME;
  const values: Record<TemplateVariable, string> = {
    'customer.name': name,
    'customer.email': context.userEmail,
    'ticket.number': String(context.ticketNo),
    'ticket.reason': context.reasonLabel,
    'user.name': name,
    'user.email': context.userEmail,
  };
  return templateParts(template)
    .map((part) => {
      if (part.kind === 'text') return part.text;
      if (part.kind === 'variable') return values[part.name];
      if (part.kind === 'ask') return answers[part.question]?.trim() || part.raw;
      return part.raw;
    })
    .join('');
}

/** Where the first question ({{ask:…}}) of a text is, so the reply box can select it for typing over. */
export function firstQuestion(text: string): { start: number; end: number } | null {
  let at = 0;
  for (const part of templateParts(text)) {
    const length = part.kind === 'text' ? part.text.length : part.raw.length;
    if (part.kind === 'ask') return { start: at, end: at + length };
    at += length;
  }
  return null;
}
