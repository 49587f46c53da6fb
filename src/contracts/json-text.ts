/**
 * Text kept in a jsonb column: PostgreSQL's JSON refuses what a text column quietly stores, a lone
 * UTF-16 surrogate (half a character pair; text keeps U+FFFD) and U+0000. Both become U+FFFD here,
 * so saving such words never fails (each was found by the fuzz).
 */
// eslint-disable-next-line no-control-regex
const UNSTORABLE_IN_JSON = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;

export const storableInJson = (text: string): string => text.replace(UNSTORABLE_IN_JSON, '\uFFFD');
