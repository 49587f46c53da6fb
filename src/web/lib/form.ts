import { type FormEvent, useEffect, useRef, useState } from 'react';
import { data } from 'react-router';
import type { ApiResult } from '../../contracts/endpoint.ts';
import { fieldErrors } from '../../contracts/field-errors.ts';
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

/** The ticked checkboxes named `<prefix><id>` of a posted form: their ids, in the form's order. */
export const tickedNames = (values: Record<string, string>, prefix: string) =>
  Object.keys(values)
    .filter((name) => name.startsWith(prefix) && values[name] === 'on')
    .map((name) => name.slice(prefix.length));

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
 * A form's schema for the browser's check: the schema itself, or how to load it. A customer's page
 * passes a loader (`() => import('…schemas.ts').then((m) => m.FooSchema)`), so its first visit loads
 * neither the schema nor zod; they come when the form is first used
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export type FormSchema = z.ZodType | (() => Promise<z.ZodType>);

/** What a submit does when the schema could not be loaded (offline): it goes on, the action checks. */
const UNCHECKED = Symbol('unchecked');

/**
 * The browser half of a form: before it is sent, the same schema checks the fields; a form that
 * does not pass is not sent and shows its messages, focus on the first. The server's answer
 * (`result`, the action's data for this form) replaces them when it comes.
 *
 * A loaded schema starts loading when the form is first touched (focus, pointer); a submit that
 * comes before it is here waits for it, is checked, then goes on (`requestSubmit` with the same
 * button). `schema` is the loaded schema, for pages that also check fields as they change.
 */
export function useFormCheck(source: FormSchema, result: FormResult | undefined) {
  const [local, setLocal] = useState<Record<string, string> | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const given = typeof source === 'function' ? null : source;
  // A ref, not only state: a submit replayed right after loading must see the schema before React renders.
  const loaded = useRef<z.ZodType | typeof UNCHECKED | null>(given);
  const loading = useRef<Promise<void> | null>(null);
  const [schema, setSchema] = useState<z.ZodType | null>(given);
  const load = () => {
    if (typeof source !== 'function' || loaded.current) return Promise.resolve();
    loading.current ??= source().then(
      (found) => {
        loaded.current = found;
        setSchema(found);
      },
      () => {
        loaded.current = UNCHECKED;
      },
    );
    return loading.current;
  };
  useEffect(() => {
    const form = formRef.current;
    if (!form || typeof source !== 'function') return;
    const start = () => void load();
    form.addEventListener('focusin', start, { once: true });
    form.addEventListener('pointerdown', start, { once: true });
    return () => {
      form.removeEventListener('focusin', start);
      form.removeEventListener('pointerdown', start);
    };
  });
  useEffect(() => {
    setLocal(null);
    if (result && !result.ok) focusFirstInvalid(formRef.current);
  }, [result]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const check = loaded.current;
    if (check === null) {
      // Sent before the schema came: held until it is here, then sent again through this check.
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      void load().then(() => form.requestSubmit(submitter));
      return;
    }
    if (check === UNCHECKED) return;
    const values = Object.fromEntries(
      [...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    const parsed = check.safeParse(values);
    if (parsed.success) {
      setLocal(null);
      return;
    }
    event.preventDefault();
    setLocal(fieldErrors(parsed.error));
    focusFirstInvalid(form);
  };
  return { errors: local ?? result?.fields ?? {}, onSubmit, formRef, schema };
}
