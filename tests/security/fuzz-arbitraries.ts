/**
 * fast-check arbitraries for the API fuzz (IN-01, IN-05, IN-07): hand-written mirrors of the zod
 * contracts in src/contracts (valid inputs), a mutation engine that breaks valid inputs one rule at
 * a time, and junk (anything, random JSON, random bytes under random content types).
 *
 * A generated request is plain data, so fast-check can print and replay it. Values that depend on
 * the live database (an existing ticket id, the current FAQ ids) are symbolic `Ref`s, resolved by
 * the harness just before the request is sent.
 */
import fc from 'fast-check';

// --- Requests -------------------------------------------------------------------------------------

/** A value looked up when the request is sent: `pool[index % pool.length]` of a named pool. */
export interface Ref {
  $ref: string;
  index: number;
}
export const ref = (pool: string) => fc.nat({ max: 1_000_000 }).map((index): Ref => ({ $ref: pool, index }));
export const isRef = (value: unknown): value is Ref =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Ref).$ref === 'string' &&
  typeof (value as Ref).index === 'number';

export interface UploadPart {
  field: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType?: string }
  | { kind: 'text'; text: string; contentType?: string }
  | { kind: 'bytes'; bytes: Uint8Array; contentType?: string }
  | { kind: 'form'; fields: Array<[string, unknown]>; files: UploadPart[] };

export interface FuzzRequest {
  /** valid | mutated:<how> | junk:<what>: reported per operation. */
  label: string;
  params: Record<string, unknown>;
  /** Query pairs in order; a key may repeat. `raw` is sent as is (after `?`). */
  query: Array<[string, unknown]> | { raw: string };
  body: FuzzBody;
  headers?: Record<string, string>;
  /** Which of the operation's methods to use (the catch-all route answers many). */
  methodIndex?: number;
}

/**
 * encodeURIComponent that never throws: a lone surrogate becomes its WTF-8 bytes (%ED%A0%80…),
 * which is what a careless client sends, and the server must survive.
 */
export function enc(value: string): string {
  return value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[^]/g, (ch) => {
    const cu = ch.charCodeAt(0);
    if (ch.length === 1 && cu >= 0xd800 && cu <= 0xdfff) {
      return [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(ch);
  });
}

// --- Hostile text ---------------------------------------------------------------------------------

export const SQL_METACHARACTERS = [
  `'`,
  `''`,
  `' OR '1'='1`,
  `'; DROP TABLE users; --`,
  `" OR ""="`,
  `\\`,
  `\\'`,
  `%`,
  `_`,
  `%_%`,
  `$1`,
  `$$ select 1 $$`,
  `'::int`,
  `E'\\x00'`,
  `/* comment */`,
  `--`,
  `;`,
  `1) or (1=1`,
  `' union select null, version() --`,
  `'||(select pg_sleep(1))||'`,
  `\\N`,
  `COPY users TO '/tmp/x'`,
] as const;

export const UNICODE_TRICKS = [
  '\u202E', // right-to-left override
  'invoice\u202Egnp.exe',
  '\u0000',
  'a\u0000b',
  '\u200B',
  '\uFEFF',
  '\u2028\u2029',
  'e\u0301\u0301\u0301',
  'ＦｕｌｌＷｉｄｔｈ',
  'ﬁ ß İ ı',
  '\uD800', // lone high surrogate
  '\uDFFF',
  '😀',
  '👩‍👩‍👧‍👦',
  '\r\nBcc: victim@evil.example',
  '\n{"level":"info","msg":"admin login"}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  '${7*7}{{7*7}}',
  '%s%n%x',
  'null',
  'undefined',
  'NaN',
  '__proto__',
  'constructor',
  ' ',
  '\t\n\r',
  '',
] as const;

/** Units that make regexes and normalisers work hard when repeated (IN-08). */
export const REDOS_UNITS = [
  'a',
  '1',
  ' ',
  '.',
  '@',
  'a.',
  'a@',
  'a-',
  '-',
  '\u0301',
  'é',
  '😀',
  '\t',
  'aaaa@aaaa.',
  '0',
  '+',
  '%',
  '_',
  'Ａ',
] as const;

/** A string of 10k–100k characters built from a repeated unit, optionally with a head and tail. */
export const hugeString = (min = 10_000, max = 100_000) =>
  fc
    .record({
      unit: fc.constantFrom(...REDOS_UNITS),
      length: fc.integer({ min, max }),
      head: fc.constantFrom('', 'x', 'a@', '+64'),
      tail: fc.constantFrom('', '!', '@', '@example.nz', '\u0000', 'x'),
    })
    .map(({ unit, length, head, tail }) => head + unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + tail);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_METACHARACTERS, ...UNICODE_TRICKS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.string({ maxLength: 10 }),
        fc.constantFrom(...SQL_METACHARACTERS, ...UNICODE_TRICKS),
        fc.string({ maxLength: 10 }),
      )
      .map(([a, b, c]) => a + b + c),
  },
  { weight: 1, arbitrary: hugeString() },
);

/** Any JSON-ish value of a wrong type. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    [],
    {},
    [''],
    { '': '' },
    '0',
    'true',
  ),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  hostileString,
);

// --- Valid values, mirroring the contracts -------------------------------------------------------

const lower = 'abcdefghijklmnopqrstuvwxyz';
const word = (min: number, max: number, alphabet = lower) =>
  fc.array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max }).map((cs) => cs.join(''));

/** Pads with white space that the contracts trim away. */
export const padded = (arb: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('', '', '', ' ', '  ', '\t', '\n'), arb, fc.constantFrom('', '', '', ' ', '\n'))
    .map(([a, b, c]) => a + b + c);

/** Free text of [min, max] characters after trimming: unicode, punctuation and SQL metacharacters included. */
export function text(min: number, max: number): fc.Arbitrary<string> {
  const chunk = fc.oneof(
    { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom(...SQL_METACHARACTERS, '😀', 'Tāne', 'Ngā mihi', '<b>bold</b>', '\u202E') },
  );
  const body = fc
    .tuple(fc.array(chunk, { minLength: 1, maxLength: 6 }), fc.integer({ min, max }))
    .map(([chunks, target]) => {
      let s = chunks.join(' ').replaceAll('\u0000', '').trim();
      if (s.length === 0) s = 'x';
      while (s.length < target) s += ` ${s}`;
      s = s.slice(0, target).trim();
      while (s.length < min) s += 'x';
      return s;
    });
  const boundary = fc
    .constantFrom(min, Math.min(min + 1, max), max, Math.max(min, max - 1))
    .chain((n) => fc.constantFrom('a', 'é', 'z').map((c) => c.repeat(n)));
  return padded(fc.oneof({ weight: 4, arbitrary: body }, { weight: 1, arbitrary: boundary }));
}

/** Emails that EmailSchema accepts (and z.email), in any case and with spaces around. */
export const validEmail: fc.Arbitrary<string> = fc
  .record({
    local: word(1, 12, `${lower}0123456789`),
    dot: fc.option(word(1, 6), { nil: undefined }),
    plus: fc.option(word(1, 4), { nil: undefined }),
    domain: word(2, 10),
    tld: fc.constantFrom('nz', 'co.nz', 'com', 'org.nz', 'io'),
    upper: fc.boolean(),
  })
  .map(({ local, dot, plus, domain, tld, upper }) => {
    const email = `${local}${dot ? `.${dot}` : ''}${plus ? `+${plus}` : ''}@${domain}.${tld}`;
    return upper ? email.toUpperCase() : email;
  })
  .chain((e) => padded(fc.constant(e)));

/** A password of 8–1024 code points that no list refuses (mostly). */
export const validPassword: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(word(4, 10), fc.integer({ min: 1000, max: 99999 }), word(4, 10)).map(([a, n, b]) => `${a}-${n}-${b}`),
  fc.string({ unit: 'grapheme', minLength: 8, maxLength: 40 }),
  fc.constantFrom('x'.repeat(1024), `${'😀'.repeat(1023)}a`, 'password', 'Password1', '12345678'),
);

export const validToken = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);
export const validClientId = fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/);

export const nzPhone: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^0[2-9]\d{6,9}$/),
  fc.stringMatching(/^64[2-9]\d{6,9}$/),
  fc.stringMatching(/^\d{7,14}$/),
);

/** Letters (several scripts, with macrons) and spaces, 3–100 characters. */
export const personText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      'Aroha',
      'Tāne',
      'Mere',
      'José',
      'Zoë',
      'Łukasz',
      'Иван',
      'سارة',
      '美咲',
      'Operations',
      'Manager',
      'Kaiwhakahaere',
    ),
    fc.array(fc.constantFrom('Ngāta', 'Smith', 'Lead', 'Head', 'of', 'Freight', 'Müller', 'Ōtautahi'), {
      maxLength: 4,
    }),
  )
  .map(([a, rest]) => [a, ...rest].join(' ').slice(0, 100).trim())
  .filter((s) => s.length >= 3);

export const validCompanyName: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      'Harbour',
      'Ｈａｒｂｏｕｒ',
      'Kiwi',
      'Tāmaki',
      "O'Brien's",
      'Smith & Sons',
      'Fern',
      '50% Off',
      'Te Ika',
    ),
    word(3, 8),
    fc.constantFrom('Freight', 'Couriers', 'Ltd', 'Limited', 'Trust', '(NZ)', ''),
  )
  .map(([a, b, c]) => `${a} ${b} ${c}`.trim());

// --- Mutations ------------------------------------------------------------------------------------

/** Where a string field sits in a JSON body and its length rule, for boundary mutations. */
export interface FieldRule {
  path: string[];
  min: number;
  max: number;
}

type Json = unknown;

function leafPaths(value: Json, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return prefix.length ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as object);
  const out: string[][] = prefix.length ? [prefix] : [];
  for (const [k, v] of entries) out.push(...leafPaths(v, [...prefix, k]));
  return out;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: Json, path: string[], next: unknown, remove = false): Json {
  if (path.length === 0) return next;
  const copy = clone(root) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = next;
  return copy;
}

const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);

/** Strings of exactly the lengths at and around a rule's bounds. */
function boundaryString(rule: FieldRule, n: number, filler: string): string {
  const lengths = [rule.min - 1, rule.min, rule.min + 1, rule.max - 1, rule.max, rule.max + 1].filter((l) => l >= 0);
  const length = lengths[n % lengths.length]!;
  // '😀' is 2 UTF-16 units but 1 code point: zod counts units, people count characters.
  return filler.repeat(Math.ceil(length / filler.length)).slice(0, length);
}

const PROTO_PAYLOADS = [
  '"__proto__":{"isAdmin":true,"role":"admin"}',
  '"constructor":{"prototype":{"isAdmin":true}}',
  '"__proto__":{"__proto__":{"isAdmin":true}}',
  '"prototype":{"isAdmin":true}',
] as const;

const MASS_ASSIGNMENT: Array<[string, unknown]> = [
  ['isAdmin', true],
  ['role', 'admin'],
  ['admin', true],
  ['userId', '00000000-0000-0000-0000-000000000000'],
  ['id', 1],
  ['verified', 1],
  ['emailVerified', true],
  ['open', false],
  ['ticketNo', 1],
  ['isBanned', false],
];

export const BODY_CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json ; foo=bar',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'text/plain;charset=UTF-8',
  'text/html',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=----x',
  'application/octet-stream',
  'image/png',
  '*/*',
  'application/json, text/plain',
  ';;;',
  'application/',
  '',
] as const;

export type MutationKind =
  | 'drop-key'
  | 'wrong-type'
  | 'boundary'
  | 'hostile-string'
  | 'huge-string'
  | 'extra-key'
  | 'proto-key'
  | 'duplicate-json-key'
  | 'wrap'
  | 'content-type'
  | 'empty-body'
  | 'query-duplicate'
  | 'query-drop'
  | 'query-hostile'
  | 'query-proto'
  | 'query-array'
  | 'query-extra'
  | 'query-raw'
  | 'param-hostile'
  | 'param-shape';

const BODY_MUTATIONS: MutationKind[] = [
  'drop-key',
  'wrong-type',
  'boundary',
  'hostile-string',
  'huge-string',
  'extra-key',
  'proto-key',
  'duplicate-json-key',
  'wrap',
  'content-type',
  'empty-body',
];
const QUERY_MUTATIONS: MutationKind[] = [
  'query-duplicate',
  'query-drop',
  'query-hostile',
  'query-proto',
  'query-array',
  'query-extra',
  'query-raw',
];
const PARAM_MUTATIONS: MutationKind[] = ['param-hostile', 'param-shape'];

export interface Mutation {
  kind: MutationKind;
  n: number;
  m: number;
  text: string;
  huge: string;
  other: unknown;
  filler: string;
  contentType: string;
}

const mutationArb = (kinds: MutationKind[]): fc.Arbitrary<Mutation> =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    n: fc.nat({ max: 10_000 }),
    m: fc.nat({ max: 10_000 }),
    text: hostileString,
    huge: fc.oneof({ weight: 1, arbitrary: hugeString() }, { weight: 3, arbitrary: hugeString(1_000, 12_000) }),
    other: wrongValue,
    filler: fc.constantFrom('a', 'é', '😀', ' ', 'x'),
    contentType: fc.constantFrom(...BODY_CONTENT_TYPES),
  });

/** Values that look like ids to a path parameter, but are not quite. */
const PARAM_SHAPES = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  ' 1',
  '2147483647',
  '2147483648',
  '9'.repeat(40),
  'NaN',
  'Infinity',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '{00000000-0000-0000-0000-000000000000}',
  '00000000000000000000000000000000',
  '..',
  '.',
  '%',
  'null',
  'terms/../privacy',
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(199),
  'a'.repeat(201),
];

function mutateJsonBody(body: FuzzBody, mutation: Mutation, fields: FieldRule[]): FuzzBody {
  const value = body.kind === 'json' ? body.value : {};
  const paths = leafPaths(value);
  const path = pick(paths, mutation.n) ?? ['x'];
  switch (mutation.kind) {
    case 'drop-key':
      return { kind: 'json', value: setAt(value, path, undefined, true) };
    case 'wrong-type':
      return { kind: 'json', value: setAt(value, path, mutation.other) };
    case 'boundary': {
      const rule = pick(fields, mutation.m);
      if (!rule) return { kind: 'json', value: setAt(value, path, mutation.text) };
      return { kind: 'json', value: setAt(value, rule.path, boundaryString(rule, mutation.n, mutation.filler)) };
    }
    case 'hostile-string':
      return { kind: 'json', value: setAt(value, pick(fields, mutation.m)?.path ?? path, mutation.text) };
    case 'huge-string':
      return { kind: 'json', value: setAt(value, pick(fields, mutation.m)?.path ?? path, mutation.huge) };
    case 'extra-key': {
      const [key, extra] = MASS_ASSIGNMENT[mutation.m % MASS_ASSIGNMENT.length]!;
      const at = mutation.n % 2 === 0 || paths.length === 0 ? [] : path.slice(0, -1);
      return { kind: 'json', value: setAt(value, [...at, key], extra) };
    }
    case 'proto-key': {
      const json = JSON.stringify(value ?? {});
      const payload = PROTO_PAYLOADS[mutation.m % PROTO_PAYLOADS.length]!;
      // Inserted as raw JSON text: an object literal with a "__proto__" key cannot be built and stringified.
      const text = json.startsWith('{')
        ? json === '{}'
          ? `{${payload}}`
          : `{${payload},${json.slice(1)}`
        : `{${payload}}`;
      const nested = json.replace(/:\{/, `:{${payload},`);
      return {
        kind: 'text',
        text: mutation.n % 3 === 0 && nested !== json ? nested : text,
        contentType: 'application/json',
      };
    }
    case 'duplicate-json-key': {
      const json = JSON.stringify(value ?? {});
      const key = path[0] ?? 'x';
      const dup = `${JSON.stringify(key)}:${JSON.stringify(mutation.n % 2 ? mutation.text : (mutation.other ?? null))}`;
      const text = json.startsWith('{') && json !== '{}' ? `{${dup},${json.slice(1)}` : `{${dup}}`;
      const textAfter = json.startsWith('{') && json !== '{}' ? `${json.slice(0, -1)},${dup}}` : `{${dup}}`;
      return { kind: 'text', text: mutation.m % 2 ? text : textAfter, contentType: 'application/json' };
    }
    case 'wrap': {
      const wrappers = [[value], JSON.stringify(value), { data: value }, { body: value }, null, 0, 'x'];
      return { kind: 'json', value: wrappers[mutation.n % wrappers.length] };
    }
    case 'content-type':
      return { kind: 'text', text: JSON.stringify(value ?? {}), contentType: mutation.contentType };
    case 'empty-body':
      return mutation.n % 2 ? { kind: 'text', text: '', contentType: 'application/json' } : { kind: 'none' };
    default:
      return body;
  }
}

function mutateQuery(query: FuzzRequest['query'], mutation: Mutation, fields: FieldRule[]): FuzzRequest['query'] {
  const pairs = Array.isArray(query) ? query : [];
  const key = pick(pairs, mutation.n)?.[0] ?? pick(fields, mutation.n)?.path[0] ?? 'x';
  switch (mutation.kind) {
    case 'query-duplicate': {
      // ?status=open&status=closed, or the same value twice.
      const original = pairs.find(([k]) => k === key)?.[1] ?? 'x';
      const second = mutation.m % 3 === 0 ? original : mutation.m % 3 === 1 ? mutation.text : mutation.other;
      return [...pairs.filter(([k]) => k !== key), [key, original], [key, second]];
    }
    case 'query-drop':
      return pairs.filter(([k]) => k !== key);
    case 'query-hostile': {
      const value = mutation.m % 4 === 0 ? mutation.huge.slice(0, 20_000) : mutation.text;
      return [...pairs.filter(([k]) => k !== key), [key, value]];
    }
    case 'query-proto': {
      const proto: Array<[string, unknown]> = [
        ['__proto__', 'x'],
        ['__proto__[isAdmin]', 'true'],
        ['constructor[prototype][isAdmin]', 'true'],
        ['constructor', 'x'],
        ['__proto__.isAdmin', 'true'],
        ['prototype', 'x'],
      ];
      return [...pairs, proto[mutation.m % proto.length]!];
    }
    case 'query-array':
      return [...pairs.filter(([k]) => k !== key), [`${key}[]`, pairs.find(([k]) => k === key)?.[1] ?? 'x']];
    case 'query-extra':
      return [...pairs, [pick(MASS_ASSIGNMENT, mutation.m)![0], mutation.text]];
    case 'query-raw': {
      const raws = [
        '%',
        '%%',
        '%ZZ',
        '%E0%A4%A',
        '&&&',
        '=',
        '==x',
        'a=%00',
        `${key}=%00`,
        `${key}`,
        `${key}=`,
        `${key}=%C0%AF`,
        `${key}=+`,
        `${key}=%20true`,
        '?'.repeat(10),
      ];
      const base = pairs.map(([k, v]) => `${enc(k)}=${enc(String(v))}`).join('&');
      const raw = raws[mutation.m % raws.length]!;
      return { raw: base ? `${base}&${raw}` : raw };
    }
    default:
      return query;
  }
}

function mutateParams(params: Record<string, unknown>, mutation: Mutation): Record<string, unknown> {
  const keys = Object.keys(params);
  const key = pick(keys, mutation.n);
  if (!key) return params;
  const value =
    mutation.kind === 'param-shape'
      ? PARAM_SHAPES[mutation.m % PARAM_SHAPES.length]!
      : mutation.m % 5 === 0
        ? mutation.huge.slice(0, 300)
        : mutation.text;
  return { ...params, [key]: value };
}

/** Which parts of a request an operation reads, so mutations aim at something it uses. */
export interface InputShape {
  params: boolean;
  query: boolean;
  body: boolean;
}

export function mutated(
  valid: fc.Arbitrary<FuzzRequest>,
  shape: InputShape,
  fields: FieldRule[],
): fc.Arbitrary<FuzzRequest> {
  const kinds = [
    ...(shape.body ? BODY_MUTATIONS : []),
    ...(shape.query ? QUERY_MUTATIONS : []),
    ...(shape.params ? PARAM_MUTATIONS : []),
  ];
  if (kinds.length === 0) return valid;
  return fc.tuple(valid, mutationArb(kinds)).map(([request, mutation]) => {
    const label = `mutated:${mutation.kind}`;
    if (BODY_MUTATIONS.includes(mutation.kind))
      return { ...request, label, body: mutateJsonBody(request.body, mutation, fields) };
    if (QUERY_MUTATIONS.includes(mutation.kind))
      return { ...request, label, query: mutateQuery(request.query, mutation, fields) };
    return { ...request, label, params: mutateParams(request.params, mutation) };
  });
}

// --- Junk -----------------------------------------------------------------------------------------

/** fc.anything() as a JSON body, where it can be one (BigInt and friends become their text). */
const anythingBody: fc.Arbitrary<FuzzBody> = fc
  .anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
    withNullPrototype: true,
    withObjectString: true,
    withBoxedValues: true,
    maxDepth: 4,
  })
  .map((value): FuzzBody => {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      try {
        text = String(value);
      } catch {
        text = Object.prototype.toString.call(value);
      }
    }
    return { kind: 'text', text: text ?? 'undefined', contentType: 'application/json' };
  });

const randomBytesBody: fc.Arbitrary<FuzzBody> = fc
  .record({
    bytes: fc.uint8Array({ maxLength: 4096 }),
    contentType: fc.oneof(
      fc.constantFrom(...BODY_CONTENT_TYPES),
      fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    ),
  })
  .map(({ bytes, contentType }): FuzzBody => ({ kind: 'bytes', bytes, contentType }));

const randomTextBody: fc.Arbitrary<FuzzBody> = fc
  .record({
    text: fc.oneof(
      fc.string({ maxLength: 500 }),
      fc.constantFrom(
        '{',
        '[',
        '{"a":',
        '"',
        '{}}',
        'null',
        'true',
        '1e999',
        '-',
        '{"a":1}garbage',
        '\uFEFF{}',
        '[]'.repeat(5000),
        '['.repeat(3000),
      ),
    ),
    contentType: fc.constantFrom(...BODY_CONTENT_TYPES),
  })
  .map(({ text, contentType }): FuzzBody => ({ kind: 'text', text, contentType }));

const junkQuery: fc.Arbitrary<FuzzRequest['query']> = fc.oneof(
  fc.array(
    fc.tuple(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom(
          'open',
          'q',
          'type',
          'status',
          'page',
          'after',
          'before',
          'targetType',
          'targetId',
          '__proto__',
        ),
      ),
      hostileString.map((s) => s.slice(0, 5000)),
    ),
    { maxLength: 5 },
  ),
  fc.string({ maxLength: 200 }).map((raw) => ({ raw })),
);

export function junk(params: string[]): fc.Arbitrary<FuzzRequest> {
  const paramValues = fc.tuple(
    ...params.map(() =>
      fc.oneof(
        hostileString.map((s) => s.slice(0, 250)),
        fc.constantFrom(...PARAM_SHAPES),
        fc.uuid(),
      ),
    ),
  ) as fc.Arbitrary<string[]>;
  return fc
    .record({
      what: fc.constantFrom('anything', 'json', 'bytes', 'text'),
      anything: anythingBody,
      json: fc.jsonValue({ maxDepth: 4 }),
      bytes: randomBytesBody,
      text: randomTextBody,
      query: junkQuery,
      params: params.length ? paramValues : fc.constant([] as string[]),
    })
    .map(({ what, anything, json, bytes, text: textBody, query, params: values }): FuzzRequest => ({
      label: `junk:${what}`,
      params: Object.fromEntries(params.map((name, i) => [name, values[i]])),
      query,
      body:
        what === 'anything'
          ? anything
          : what === 'json'
            ? { kind: 'json', value: json }
            : what === 'bytes'
              ? bytes
              : textBody,
    }));
}

// --- Multipart (POST /api/companies) --------------------------------------------------------------

export const PNG_HEAD = Uint8Array.from(
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
);
export const JPEG_HEAD = Uint8Array.from(Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'));

export const licenseFile: fc.Arbitrary<UploadPart> = fc
  .record({
    kind: fc.constantFrom('png', 'jpeg', 'random', 'pdf', 'empty', 'short-png'),
    size: fc.integer({ min: 0, max: 3000 }),
    filler: fc.uint8Array({ minLength: 1, maxLength: 16 }),
    filename: fc.oneof(
      fc.constantFrom(
        'licence.png',
        'licence.jpg',
        '../../etc/passwd',
        'a\u202Egnp.exe',
        'x.svg',
        '.htaccess',
        '',
        'CON',
        'a"b.png',
        'a\r\nb.png',
        'ü.png',
      ),
      fc.string({ maxLength: 300 }),
    ),
    contentType: fc.constantFrom(
      'image/png',
      'image/jpeg',
      'application/pdf',
      'text/html',
      'image/svg+xml',
      'application/octet-stream',
    ),
  })
  .map(({ kind, size, filler, filename, contentType }): UploadPart => {
    const bytes = new Uint8Array(kind === 'empty' ? 0 : kind === 'short-png' ? 5 : Math.max(size, 40));
    for (let i = 0; i < bytes.length; i++) bytes[i] = filler[i % filler.length]!;
    if (kind === 'png' || kind === 'short-png')
      bytes.set(PNG_HEAD.subarray(0, Math.min(bytes.length, PNG_HEAD.length)));
    if (kind === 'jpeg') bytes.set(JPEG_HEAD.subarray(0, Math.min(bytes.length, JPEG_HEAD.length)));
    if (kind === 'pdf') bytes.set(Buffer.from('%PDF-1.7\n').subarray(0, Math.min(bytes.length, 9)));
    return { field: 'commercialLicense', filename, contentType, bytes };
  });

export const COMPANY_FIELD_RULES: Record<string, { min: number; max: number }> = {
  companyName: { min: 3, max: 120 },
  nzbn: { min: 13, max: 13 },
  phoneNumber: { min: 7, max: 14 },
  address: { min: 5, max: 200 },
  street: { min: 0, max: 200 },
  contactPersonName: { min: 3, max: 100 },
  contactPersonJobTitle: { min: 3, max: 100 },
  contactPersonPhoneNumber: { min: 7, max: 14 },
  contactPersonEmail: { min: 3, max: 254 },
};

/** A New Zealand Business Number with its GS1 check digit, sometimes grouped with spaces as people copy it. */
const validNzbn = fc.tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.boolean()).map(([n, grouped]) => {
  const body = `9429${String(n).padStart(8, '0')}`;
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  const nzbn = `${body}${(10 - (sum % 10)) % 10}`;
  return grouped ? `${nzbn.slice(0, 4)} ${nzbn.slice(4, 8)} ${nzbn.slice(8, 12)} ${nzbn.slice(12)}` : nzbn;
});

/** A registration the contract accepts; optional fields left out or blank at random. */
export const validCompanyForm: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      companyName: padded(validCompanyName),
      nzbn: fc.oneof(validNzbn, fc.constantFrom('', '   ')),
      phoneNumber: padded(nzPhone),
      address: text(5, 200),
      street: fc.oneof(text(1, 200), fc.constantFrom('', '   ')),
      contactPersonName: fc.oneof(padded(personText), fc.constant('')),
      contactPersonJobTitle: fc.oneof(padded(personText), fc.constant('')),
      contactPersonPhoneNumber: fc.oneof(nzPhone, fc.constant('')),
      contactPersonEmail: fc.oneof(validEmail, fc.constant('')),
    },
    { requiredKeys: ['companyName', 'phoneNumber', 'address'] },
  )
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Record<string, string>);

/** `existing` gives variants of registered companies (case, width, spacing, 0xx/+64): duplicates (IN-02). */
export function companyFormRequests(existing: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<FuzzRequest> {
  const asForm = (fields: Record<string, unknown>, files: UploadPart[] = []): FuzzBody => ({
    kind: 'form',
    fields: Object.entries(fields),
    files,
  });
  const valid = fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: validCompanyForm }, { weight: 1, arbitrary: existing }),
      fc.option(licenseFile, { nil: undefined, freq: 2 }),
    )
    .map(([fields, file]): FuzzRequest => ({
      label: 'valid',
      params: {},
      query: [],
      body: asForm(fields, file ? [file] : []),
    }));
  const fieldNames = Object.keys(COMPANY_FIELD_RULES);
  const mutation = fc.record({
    kind: fc.constantFrom(
      'drop',
      'boundary',
      'hostile',
      'huge',
      'duplicate',
      'unexpected',
      'file-as-field',
      'two-files',
      'wrong-file-field',
      'many-fields',
      'proto-field',
      'case-variant',
    ),
    n: fc.nat({ max: 1000 }),
    m: fc.nat({ max: 1000 }),
    text: hostileString,
    huge: hugeString(10_000, 12_000),
    filler: fc.constantFrom('a', 'é', '😀', '1', ' '),
    file: licenseFile,
  });
  const mutatedForms = fc
    .tuple(validCompanyForm, fc.option(licenseFile, { nil: undefined }), mutation)
    .map(([fields, file, mu]): FuzzRequest => {
      const name = fieldNames[mu.n % fieldNames.length]!;
      const rule = COMPANY_FIELD_RULES[name]!;
      let entries: Array<[string, unknown]> = Object.entries(fields);
      let files: UploadPart[] = file ? [file] : [];
      const set = (value: string) => {
        entries = [...entries.filter(([k]) => k !== name), [name, value]];
      };
      switch (mu.kind) {
        case 'drop':
          entries = entries.filter(([k]) => k !== name);
          break;
        case 'boundary':
          set(boundaryString({ path: [name], min: rule.min, max: rule.max }, mu.m, mu.filler));
          break;
        case 'hostile':
          set(mu.text);
          break;
        case 'huge':
          set(mu.huge);
          break;
        case 'duplicate':
          entries = [...entries, [name, mu.text]];
          break;
        case 'unexpected':
          entries = [...entries, [pick(MASS_ASSIGNMENT, mu.m)![0], String(mu.text)]];
          break;
        case 'file-as-field':
          entries = [...entries, ['commercialLicense', mu.text]];
          break;
        case 'two-files':
          files = [mu.file, { ...mu.file, filename: 'second.png' }];
          break;
        case 'wrong-file-field':
          files = [{ ...mu.file, field: name }];
          break;
        case 'many-fields':
          entries = [
            ...entries,
            ...Array.from({ length: 15 + (mu.m % 20) }, (_, i): [string, string] => [`f${i}`, 'x']),
          ];
          break;
        case 'proto-field':
          entries = [...entries, [['__proto__', 'constructor', 'prototype', '__proto__[isAdmin]'][mu.m % 4]!, 'true']];
          break;
        case 'case-variant':
          entries = entries.map(([k, v]): [string, unknown] => (k === name ? [k.toUpperCase(), v] : [k, v]));
          break;
      }
      return {
        label: `mutated:form-${mu.kind}`,
        params: {},
        query: [],
        body: { kind: 'form', fields: entries, files },
      };
    });
  const junkForms = fc
    .record({
      boundary: fc.oneof(
        fc.constant('----fuzz'),
        fc.string({ minLength: 1, maxLength: 70 }).filter((s) => /^[\x21-\x7e]+$/.test(s)),
      ),
      bytes: fc.uint8Array({ maxLength: 3000 }),
      kind: fc.constantFrom('random', 'truncated', 'no-boundary', 'header-only', 'nul-name'),
    })
    .map(({ boundary, bytes, kind }): FuzzRequest => {
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nHarbour\r\n`;
      const payload =
        kind === 'random'
          ? Buffer.from(bytes)
          : kind === 'truncated'
            ? Buffer.concat([
                Buffer.from(head),
                Buffer.from(
                  `--${boundary}\r\nContent-Disposition: form-data; name="commercialLicense"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
                ),
                Buffer.from(bytes),
              ])
            : kind === 'header-only'
              ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\n`)
              : kind === 'nul-name'
                ? Buffer.from(
                    `--${boundary}\r\nContent-Disposition: form-data; name="a\u0000b"\r\n\r\nx\r\n--${boundary}--\r\n`,
                  )
                : Buffer.concat([Buffer.from(head), Buffer.from(bytes)]);
      const contentType = kind === 'no-boundary' ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`;
      return {
        label: `junk:multipart-${kind}`,
        params: {},
        query: [],
        body: { kind: 'bytes', bytes: Uint8Array.from(payload), contentType },
      };
    });
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: mutatedForms },
    { weight: 1, arbitrary: junkForms },
    { weight: 1, arbitrary: junk([]) },
  );
}
