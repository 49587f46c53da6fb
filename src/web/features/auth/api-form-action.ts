import { data } from 'react-router';
import type { z } from 'zod';
import { fieldErrors } from '../../../contracts/auth.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

/**
 * An account form sent to its own page (before the page's JavaScript ran, or without it): the same
 * schema as the form checks the fields, then the same API endpoint the JavaScript version calls
 * answers, in process, with this visitor's address and cookie (so rate limits and rules are the
 * same ones). The page renders the answer: a success panel, or the messages under the fields.
 */
export interface ApiFormResult {
  ok: boolean;
  message: string | null;
  fields: Record<string, string>;
  /** What the visitor typed that is safe to show again (never a password). */
  values: Record<string, string>;
}

export async function apiFormAction<S extends z.ZodType>(
  request: Request,
  context: { get(key: typeof requestContext): RequestContextValue },
  options: { schema: S; api: string; body(values: z.output<S>, query: URLSearchParams): unknown; keep?: string[] },
) {
  const { services } = context.get(requestContext);
  const query = new URL(request.url).searchParams;
  const form: Record<string, string> = {};
  for (const [name, value] of await request.formData()) if (typeof value === 'string') form[name] = value;
  const values = Object.fromEntries((options.keep ?? []).filter((k) => k in form).map((k) => [k, form[k]!]));
  const parsed = options.schema.safeParse(form);
  if (!parsed.success)
    return data<ApiFormResult>(
      { ok: false, message: null, fields: fieldErrors(parsed.error), values },
      { status: 400 },
    );

  const answer = await services.callApi('POST', options.api, options.body(parsed.data, query));
  const headers = new Headers();
  for (const cookie of answer.setCookie) headers.append('set-cookie', cookie);
  if (answer.status < 300) {
    const message = (answer.body as { message?: unknown } | null)?.message;
    return data<ApiFormResult>(
      { ok: true, message: typeof message === 'string' ? message : null, fields: {}, values },
      { status: 200, headers },
    );
  }
  const error = ErrorBodySchema.safeParse(answer.body);
  const fields = error.success ? (error.data.error.fields ?? {}) : {};
  const hasFields = Object.keys(fields).length > 0;
  return data<ApiFormResult>(
    {
      ok: false,
      message: hasFields
        ? null
        : error.success
          ? error.data.error.message
          : 'Something went wrong on our side. Please try again.',
      fields,
      values,
    },
    { status: answer.status, headers },
  );
}
