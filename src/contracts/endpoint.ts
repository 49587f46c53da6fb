import type { ErrorBody } from './errors.ts';
import type { ApiScope } from './integrations.ts';
import { PERMISSIONS, type Permission } from './roles.ts';
import type { z } from './zod.ts';

/**
 * One declaration per API endpoint (docs/decisions/106-one-declaration-per-endpoint.md): its method,
 * path, who may call it, what it takes and what it answers. The server registers its Fastify route
 * from the declaration (server/http/endpoint-route.ts, which also feeds OpenAPI), and the one client
 * calls it from the same declaration: in process for route loaders and actions, over fetch in the
 * browser (web/lib/api-client.ts). Nothing else writes an endpoint's method or path.
 */

/**
 * Deny by default (AZ-01): every endpoint names who may call it: anyone, any signed-in user, a
 * verified one, a member of staff holding one permission (src/contracts/roles.ts; never a role), or
 * only a service API key ('key', with the scopes in `keyScopes`).
 */
export const ACCESS_POLICIES = ['public', 'user', 'verified', 'key', ...PERMISSIONS] as const;
export type AccessPolicy = 'public' | 'user' | 'verified' | 'key' | Permission;

/** Whether a policy is a staff permission (the console's endpoints). */
export const isPermission = (access: AccessPolicy): access is Permission =>
  access !== 'public' && access !== 'user' && access !== 'verified' && access !== 'key';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The error statuses an endpoint may answer with our error shape ({ error: { status, message, fields? } }). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 429 | 500 | 503 | 504;

export interface EndpointDeclaration {
  method: HttpMethod;
  path: `/api/${string}`;
  access: AccessPolicy;
  /**
   * The service API key scopes that may call it with `Authorization: Bearer bsk_…`
   * (docs/decisions/149-service-api-keys.md): a key holding none of them is refused (403), and so is
   * every key on an endpoint that names none. Required when `access` is 'key'.
   */
  keyScopes?: readonly ApiScope[];
  /** A staff endpoint staff may call before passing the second factor: its enrolment. */
  secondFactorEnrolment?: boolean;
  tags: readonly string[];
  summary: string;
  description?: string;
  /** Left out of the published API description (the API description itself, for instance). */
  hidden?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  /** The JSON body's schema. */
  body?: z.ZodType;
  /**
   * A form with files (multipart/form-data), which the route reads as it arrives: 'also' beside the
   * JSON body, 'only' instead of one.
   */
  multipart?: 'also' | 'only';
  /** An answer that is a live stream (text/event-stream) rather than one JSON document. */
  stream?: true;
  /** The largest body taken, where it is not the app's 100 kB. */
  bodyLimit?: number;
  /** Successful answers by status. A schema of `null` answers with no body. */
  answers: Readonly<Record<number, z.ZodType>>;
  /** Statuses answered with the error shape. */
  errors: readonly ErrorStatus[];
  /** The error shape where it is not ours: the callable protocol's (docs/design.md §4.2). */
  errorBody?: z.ZodType;
}

/** Declares an endpoint, keeping every literal type (path, method, schemas) for the client. */
export const endpoint = <const E extends EndpointDeclaration>(declaration: E): E => declaration;

type Output<S> = S extends z.ZodType ? z.output<S> : never;
type Input<S> = S extends z.ZodType ? z.input<S> : never;

/** What a successful call answers: any of the declared answers. */
export type AnswerOf<E extends EndpointDeclaration> = Output<E['answers'][keyof E['answers']]>;

/** What a caller gives: path parameters, query and body, each only where the endpoint declares it. */
export type CallInput<E extends EndpointDeclaration> = (E['params'] extends z.ZodType
  ? { params: Input<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodType ? { query?: Input<E['query']> } : { query?: never }) &
  (E['multipart'] extends 'only'
    ? { body: FormData }
    : E['body'] extends z.ZodType
      ? { body: E['multipart'] extends 'also' ? Input<E['body']> | FormData : Input<E['body']> }
      : { body?: never });

/** Whether a call needs an input at all (an endpoint with no parameters and no body takes none). */
type NeedsInput<E extends EndpointDeclaration> = E['params'] extends z.ZodType
  ? true
  : E['body'] extends z.ZodType
    ? true
    : E['multipart'] extends 'only'
      ? true
      : false;

export type CallArgs<E extends EndpointDeclaration> = NeedsInput<E> extends true ? [CallInput<E>] : [CallInput<E>?];

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** The address of one call: the path with its parameters filled in, and the query. */
export function pathOf(
  declaration: Pick<EndpointDeclaration, 'path'>,
  input: { params?: unknown; query?: unknown } = {},
): string {
  const params = (input.params ?? {}) as Record<string, string | number>;
  const path = declaration.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${declaration.path} needs the parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, QueryValue>)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.append(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Every outcome of a call as a value: the data, or the server's message and field errors
 * (docs/design.md §4.1), or a network failure (status 0). A client never throws for an answer.
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      message: string;
      fields: Record<string, string>;
      /** False when the answer was not our error shape (a proxy's page, no answer at all). */
      fromServer: boolean;
      retryAfterSeconds?: number;
    };

export const NETWORK_FAILURE = 'We could not reach the server. Check your connection and try again.';
export const UNEXPECTED_FAILURE = 'Something went wrong on our side. Please try again.';

/**
 * Our error shape (ErrorBodySchema) read from an answer, or null for anything else. Checked by hand
 * rather than by the schema: this runs in the browser, whose pages call the API without zod
 * (docs/decisions/119-schemas-stay-on-the-server.md); endpoint.test.ts holds it to the schema.
 */
export function errorBodyOf(body: unknown): ErrorBody['error'] | null {
  const error = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null) return null;
  if (typeof error.status !== 'string' || typeof error.message !== 'string') return null;
  const fields = error.fields;
  if (fields === undefined) return { status: error.status, message: error.message };
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return null;
  // Copied as the schema copies a record: a field named `__proto__` (an own key after JSON.parse)
  // is checked but not kept, so it can never become the copy's prototype.
  const read: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') return null;
    if (name !== '__proto__') read[name] = value;
  }
  return { status: error.status, message: error.message, fields: read };
}

/** Reads an answer's body and status into an ApiResult (both clients do this the same way). */
export function resultOf<T>(status: number, body: unknown, retryAfter?: string | null): ApiResult<T> {
  if (status >= 200 && status < 300) return { ok: true, status, data: body as T };
  const error = errorBodyOf(body);
  const seconds = Number(retryAfter);
  return {
    ok: false,
    status,
    message: error ? error.message : UNEXPECTED_FAILURE,
    fields: error?.fields ?? {},
    fromServer: error !== null,
    ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {}),
  };
}

/**
 * The one client: call an endpoint by its declaration. The browser's sends fetch; the server's (for
 * route loaders and actions) answers in process as the visitor, through the same route and checks.
 */
export interface ApiClient {
  call<E extends EndpointDeclaration>(declaration: E, ...args: CallArgs<E>): Promise<ApiResult<AnswerOf<E>>>;
}
