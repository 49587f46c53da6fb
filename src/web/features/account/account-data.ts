import { data, redirect } from 'react-router';
import {
  ACCOUNT_MESSAGES,
  AccountProfileSchema,
  AccountSessionsSchema,
  ChangeEmailRequestSchema,
  SessionIdSchema,
} from '../../../contracts/account.ts';
import { fieldErrors } from '../../../contracts/auth.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

/**
 * The loader and action of /account (docs/product.md §2.13). Both call the same API the browser
 * would (/api/account…), in process and as this visitor, so the rules are the API's. Every form
 * of the page posts here with an `intent`; a success answers a redirect (303) to the page with
 * `?done=…`, so a reload does not send it again; a refusal renders the page with the message.
 */
export const ACCOUNT_PAGE = '/account';

type Context = { get(key: typeof requestContext): RequestContextValue };

const DATE_TIME = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const DATE = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** What a `?done=` on the page says. */
function doneMessage(query: URLSearchParams): string | null {
  switch (query.get('done')) {
    case 'email':
      return ACCOUNT_MESSAGES.emailChangeRequested;
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
  const { services } = context.get(requestContext);
  const [profileAnswer, sessionsAnswer] = await Promise.all([
    services.callApi('GET', '/api/account'),
    services.callApi('GET', '/api/account/sessions'),
  ]);
  const profile = AccountProfileSchema.safeParse(profileAnswer.body);
  const listed = AccountSessionsSchema.safeParse(sessionsAnswer.body);
  if (profileAnswer.status !== 200 || sessionsAnswer.status !== 200 || !profile.success || !listed.success) {
    if (profileAnswer.status === 401 || sessionsAnswer.status === 401) return { account: null, done: null };
    throw new Error(`the account API answered ${profileAnswer.status} and ${sessionsAnswer.status}`);
  }
  return {
    account: {
      ...profile.data,
      memberSince: DATE.format(new Date(profile.data.memberSince)),
      sessions: listed.data.sessions.map((s) => ({
        ...s,
        createdAt: DATE_TIME.format(new Date(s.createdAt)),
        lastSeenAt: DATE_TIME.format(new Date(s.lastSeenAt)),
      })),
    },
    done: doneMessage(new URL(request.url).searchParams),
  };
}

export type AccountPageData = Awaited<ReturnType<typeof loadAccount>>;
export type AccountView = NonNullable<AccountPageData['account']>;

/** A refused form: which one, its message or field messages, and what may be shown again (never a password). */
export interface AccountActionData {
  form: 'change-email' | 'sessions';
  message: string | null;
  fields: Record<string, string>;
  values: { newEmail?: string };
}

const refused = (value: AccountActionData, status: number) => data<AccountActionData>(value, { status });

function apiRefusal(answer: { status: number; body: unknown }, form: AccountActionData['form'], values = {}) {
  // The session ended meanwhile: the page asks to sign in again.
  if (answer.status === 401) return redirect(ACCOUNT_PAGE, 303);
  const error = ErrorBodySchema.safeParse(answer.body);
  const fields = error.success ? (error.data.error.fields ?? {}) : {};
  const hasFields = Object.keys(fields).length > 0;
  const message = error.success ? error.data.error.message : 'Something went wrong on our side. Please try again.';
  return refused({ form, message: hasFields ? null : message, fields, values }, answer.status);
}

export async function accountAction(request: Request, context: Context) {
  const { services } = context.get(requestContext);
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const intent = text('intent');

  if (intent === 'change-email') {
    const values = { newEmail: text('newEmail').slice(0, 320) };
    const parsed = ChangeEmailRequestSchema.safeParse({
      newEmail: text('newEmail'),
      currentPassword: text('currentPassword'),
    });
    if (!parsed.success)
      return refused({ form: 'change-email', message: null, fields: fieldErrors(parsed.error), values }, 400);
    const answer = await services.callApi('POST', '/api/account/email', parsed.data);
    if (answer.status < 300) return redirect(`${ACCOUNT_PAGE}?done=email`, 303);
    return apiRefusal(answer, 'change-email', values);
  }

  if (intent === 'end-session') {
    const id = SessionIdSchema.safeParse(text('id'));
    if (!id.success)
      return refused({ form: 'sessions', message: ACCOUNT_MESSAGES.sessionNotFound, fields: {}, values: {} }, 404);
    const answer = await services.callApi('DELETE', `/api/account/sessions/${id.data}`);
    if (answer.status < 300) return redirect(`${ACCOUNT_PAGE}?done=session`, 303);
    return apiRefusal(answer, 'sessions');
  }

  if (intent === 'end-others') {
    const answer = await services.callApi('POST', '/api/account/sessions/revoke-others', {});
    const ended = (answer.body as { ended?: unknown } | null)?.ended;
    if (answer.status < 300) return redirect(`${ACCOUNT_PAGE}?done=others&ended=${Number(ended) || 0}`, 303);
    return apiRefusal(answer, 'sessions');
  }

  return refused(
    {
      form: 'sessions',
      message: 'This form is out of date. Please reload the page and try again.',
      fields: {},
      values: {},
    },
    400,
  );
}
