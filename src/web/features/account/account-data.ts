import { data, redirect } from 'react-router';
import { formatNzDate, formatNzShortDateTime } from '../../../contracts/dates.ts';
import { ACCOUNT_MESSAGES } from '../../../contracts/account.ts';
import {
  ChangeEmailRequestSchema,
  SessionIdSchema,
  SetAccountNameRequestSchema,
} from '../../../contracts/account.schemas.ts';
import { accountApi } from '../../../contracts/api/accounts.ts';
import type { ApiResult } from '../../../contracts/endpoint.ts';
import { type FormResult, invalid, readForm, refused } from '../../lib/form.ts';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

/**
 * The loader and action of /account (docs/product.md §2.13). Both call the account API in process
 * and as this visitor (services.api), so the rules are the API's. Every form
 * of the page posts here with an `intent`; a success answers a redirect (303) to the page with
 * `?done=…`, so a reload does not send it again; a refusal renders the page with the message.
 */
export const ACCOUNT_PAGE = '/account';

type Context = { get(key: typeof requestContext): RequestContextValue };

/** What a `?done=` on the page says. */
function doneMessage(query: URLSearchParams): string | null {
  switch (query.get('done')) {
    case 'email':
      return ACCOUNT_MESSAGES.emailChangeRequested;
    case 'name':
      return ACCOUNT_MESSAGES.nameSaved;
    case 'name-cleared':
      return ACCOUNT_MESSAGES.nameCleared;
    case 'session':
      return ACCOUNT_MESSAGES.sessionEnded;
    case 'others': {
      const ended = Number(query.get('ended'));
      return ACCOUNT_MESSAGES.otherSessionsEnded(Number.isInteger(ended) && ended >= 0 ? ended : 0);
    }
    default:
      return null;
  }
}

export async function loadAccount(request: Request, context: Context) {
  const { api } = context.get(requestContext).services;
  const [profile, listed] = await Promise.all([api.call(accountApi.profile), api.call(accountApi.sessions)]);
  if (!profile.ok || !listed.ok) {
    if (profile.status === 401 || listed.status === 401) return { account: null, done: null };
    throw new Error(`the account API answered ${profile.status} and ${listed.status}`);
  }
  return {
    account: {
      ...profile.data,
      memberSince: formatNzDate(profile.data.memberSince),
      sessions: listed.data.sessions.map((s) => ({
        ...s,
        createdAt: formatNzShortDateTime(s.createdAt),
        lastSeenAt: formatNzShortDateTime(s.lastSeenAt),
      })),
    },
    done: doneMessage(new URL(request.url).searchParams),
  };
}

export type AccountPageData = Awaited<ReturnType<typeof loadAccount>>;
export type AccountView = NonNullable<AccountPageData['account']>;

/** The page's forms, as an answer names them (`form`): the name, the email change, and the sessions list's forms. */
export type AccountForm = 'set-name' | 'change-email' | 'sessions';

const refusedWith = (form: AccountForm, message: string, status: number) =>
  data<FormResult>({ ok: false, message, fields: {}, values: {}, form }, { status });

function apiRefusal(result: Extract<ApiResult<unknown>, { ok: false }>, form: AccountForm, values = {}) {
  // The session ended meanwhile: the page asks to sign in again.
  if (result.status === 401) return redirect(ACCOUNT_PAGE, 303);
  return refused(result, values, form);
}

export async function accountAction(request: Request, context: Context) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);

  if (values.intent === 'set-name') {
    const kept = { name: (values.name ?? '').slice(0, 1000) };
    const parsed = SetAccountNameRequestSchema.safeParse({ name: values.name ?? '' });
    if (!parsed.success) return invalid(parsed.error, kept, 'set-name');
    const saved = await api.call(accountApi.setName, { body: parsed.data });
    if (!saved.ok) return apiRefusal(saved, 'set-name', kept);
    return redirect(`${ACCOUNT_PAGE}?done=${saved.data.name ? 'name' : 'name-cleared'}`, 303);
  }

  if (values.intent === 'change-email') {
    const kept = { newEmail: (values.newEmail ?? '').slice(0, 320) };
    const parsed = ChangeEmailRequestSchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, kept, 'change-email');
    const sent = await api.call(accountApi.changeEmail, { body: parsed.data });
    return sent.ok ? redirect(`${ACCOUNT_PAGE}?done=email`, 303) : apiRefusal(sent, 'change-email', kept);
  }

  if (values.intent === 'end-session') {
    const id = SessionIdSchema.safeParse(values.id ?? '');
    if (!id.success) return refusedWith('sessions', ACCOUNT_MESSAGES.sessionNotFound, 404);
    const ended = await api.call(accountApi.endSession, { params: { sessionId: id.data } });
    return ended.ok ? redirect(`${ACCOUNT_PAGE}?done=session`, 303) : apiRefusal(ended, 'sessions');
  }

  if (values.intent === 'end-others') {
    const ended = await api.call(accountApi.endOtherSessions);
    return ended.ok
      ? redirect(`${ACCOUNT_PAGE}?done=others&ended=${ended.data.ended}`, 303)
      : apiRefusal(ended, 'sessions');
  }

  return refusedWith('sessions', 'This form is out of date. Please reload the page and try again.', 400);
}
