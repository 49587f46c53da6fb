import { type FormEvent, useEffect, useRef, useState } from 'react';
import { data } from 'react-router';
import type { ApiResult } from '../../contracts/endpoint.ts';
import { fieldErrors } from '../../contracts/zod.ts';
import { UNEXPECTED_FAILURE } from '../../contracts/endpoint.ts';
import type { z } from '../../contracts/zod.ts';
import { focusFirstInvalid } from './focus-invalid.ts';

/**
 * Forms send one way (docs/decisions/106-one-declaration-per-endpoint.md): a `<Form method="post">`
 * (or a fetcher's form) to its route's action, which is also the path without JavaScript. The action
 * checks the fields with the form's one schema, calls the endpoint in process (`services.api`), and
 * answers with a redirect on success or a FormResult: the one shape every page renders its
 * messages from. In the browser the same schema checks the fields before anything is sent.
 */
export interface FormResult {
  ok: boolean;
  /** The sentence to show above the form (a success, or a refusal that names no field). */
  message: string | null;
  /** Messages by field name ('_' for the form as a whole). */
  fields: Record<string, string>;
  /** What the visitor typed that is safe to show again (never a password). */
  values: Record<string, string>;
  /** Which form on the page this answers, where a page has several (its `intent`, or an id). */
  form?: string;
  /** The action ended this visitor's session (an account closed): the root reads who is signed in again. */
  signedOut?: boolean;
}

/** The text fields of a posted form (files are sent on by `services.api.forward`). */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [name, value] of await request.formData()) if (typeof value === 'string') values[name] = value;
  return values;
}

/** Only what may be shown again: every field but the named secrets. */
export const keepValues = (values: Record<string, string>, secrets: readonly string[] = ['password']) =>
  Object.fromEntries(Object.entries(values).filter(([name]) => !secrets.includes(name)));

/** A form that did not pass its schema: its messages by field, status 400. */
export function invalid(error: z.ZodError, values: Record<string, string>, form?: string) {
  return data<FormResult>(
    { ok: false, message: null, fields: fieldErrors(error), values, ...(form ? { form } : {}) },
    { status: 400 },
  );
}

/** An endpoint's refusal as the form shows it: the fields' messages, or one sentence when it names none. */
export function refused(
  result: Extract<ApiResult<unknown>, { ok: false }>,
  values: Record<string, string>,
  form?: string,
) {
  const named = Object.keys(result.fields).length > 0;
  return data<FormResult>(
    {
      ok: false,
      message: named ? null : result.fromServer ? result.message : UNEXPECTED_FAILURE,
      fields: result.fields,
      values,
      ...(form ? { form } : {}),
    },
    { status: result.status || 500 },
  );
}

/** A success the page shows in place (where it does not redirect). */
export const succeeded = (message: string | null, form?: string) =>
  ({ ok: true, message, fields: {}, values: {}, ...(form ? { form } : {}) }) satisfies FormResult;

/**
 * The browser half of a form: before it is sent, the same schema checks the fields; a form that
 * does not pass is not sent and shows its messages, focus on the first. The server's answer
 * (`result`, the action's data for this form) replaces them when it comes.
 */
export function useFormCheck(schema: z.ZodType, result: FormResult | undefined) {
  const [local, setLocal] = useState<Record<string, string> | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setLocal(null);
    if (result && !result.ok) focusFirstInvalid(formRef.current);
  }, [result]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const values = Object.fromEntries(
      [...new FormData(event.currentTarget)].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    const parsed = schema.safeParse(values);
    if (parsed.success) {
      setLocal(null);
      return;
    }
    event.preventDefault();
    setLocal(fieldErrors(parsed.error));
    focusFirstInvalid(event.currentTarget);
  };
  return { errors: local ?? result?.fields ?? {}, onSubmit, formRef };
}
