/**
 * Valid inputs from an endpoint's own zod schemas: the schema is read as JSON Schema (zod's
 * `toJSONSchema`, the input side, as the server validates it) and each part becomes a fast-check
 * arbitrary. What JSON Schema cannot say (a refinement: an email, a password's strength, a date that
 * exists, an id that must name an object of the test's world) is given by field name (`Given`): the
 * arbitrary of a field of that name, wherever it sits. String fields with a length rule become the
 * boundary mutations' FieldRules.
 */
import fc from 'fast-check';
import { z } from '../../src/contracts/zod.ts';
import { type FieldRule, text } from './fuzz-arbitraries.ts';

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
}

/** Arbitraries by field name, used wherever a field of that name sits (path parameter, query key or body field). */
export type Given = Record<string, fc.Arbitrary<unknown>>;

/** The largest integer a valid input holds: the database's integer columns. */
const MAX_INT = 2_147_483_647;
/** Valid free text is kept to this length unless a field's own generator is given (mutations reach the maximum). */
const LONGEST_TEXT = 5000;

/** A calendar day as 'YYYY-MM-DD', from year 0 (which the database has not) to 9999. */
export const nzDay = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
/** A day the contracts' date fields take (this century, mostly), now and then any day at all. */
const day = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  },
  { weight: 1, arbitrary: nzDay },
);

const jsonOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? LONGEST_TEXT;
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'date') return day;
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max);
  return text(min, Math.min(max, LONGEST_TEXT));
}

function arbitraryFrom(s: JsonSchema, given: Given): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryFrom(choice, given)));
  switch (s.type) {
    case 'object':
      return fc.record(
        Object.fromEntries(
          Object.entries(s.properties ?? {}).map(([name, field]) => [name, given[name] ?? arbitraryFrom(field, given)]),
        ),
        { requiredKeys: s.required ?? [] },
      );
    case 'array': {
      const size = { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 5, 5)) };
      // A list of choices (reasons, fields) holds each once.
      return s.items?.enum
        ? fc.uniqueArray(fc.constantFrom(...s.items.enum), size)
        : fc.array(arbitraryFrom(s.items ?? {}, given), size);
    }
    case 'string':
      return stringOf(s);
    case 'integer':
    case 'number':
      return fc.integer({
        min: s.minimum ?? (s.exclusiveMinimum === undefined ? -MAX_INT : s.exclusiveMinimum + 1),
        max: Math.min(s.maximum ?? MAX_INT, MAX_INT),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Valid values of a schema (a JSON body). A body that may be left out (`nullish`) is generated as
 * the object it otherwise is: the mutations work on its fields, and a body of `null` is among the
 * junk bodies already.
 */
export function arbitraryOf(schema: z.ZodType, given: Given): fc.Arbitrary<unknown> {
  const json = jsonOf(schema);
  const present = json.anyOf?.filter((choice) => choice.type !== 'null');
  return arbitraryFrom(present?.length === 1 ? present[0]! : json, given);
}

/** Each field of an object schema (path parameters) as its own arbitrary. */
export const fieldsOf = (schema: z.ZodType, given: Given): Record<string, fc.Arbitrary<unknown>> =>
  Object.fromEntries(
    Object.entries(jsonOf(schema).properties ?? {}).map(([name, field]) => [
      name,
      given[name] ?? arbitraryFrom(field, given),
    ]),
  );

/** Query pairs: the required keys always, any subset of the others, in the schema's order. */
export const queryOf = (schema: z.ZodType, given: Given): fc.Arbitrary<Array<[string, unknown]>> =>
  fc
    .record(fieldsOf(schema, given), { requiredKeys: jsonOf(schema).required ?? [] })
    .map((pairs) => Object.entries(pairs).filter(([, value]) => value !== undefined));

/** The string fields of a body with a length rule (free text, not choices or patterns): the boundary mutations' targets. */
export function fieldRulesOf(schema: z.ZodType): FieldRule[] {
  const rules: FieldRule[] = [];
  const walk = (s: JsonSchema, path: string[]) => {
    for (const choice of s.anyOf ?? []) walk(choice, path);
    for (const [name, field] of Object.entries(s.properties ?? {})) walk(field, [...path, name]);
    if (s.type === 'string' && s.maxLength !== undefined && !s.enum && !s.pattern && !s.format && path.length > 0)
      rules.push({ path, min: s.minLength ?? 0, max: s.maxLength });
  };
  walk(jsonOf(schema), []);
  return rules;
}
