import { useFetcher } from 'react-router';
import type { SignInArea, SignInResult } from './sign-in-action.ts';

/**
 * 'Send a new verification email' on the login screen, as a form posted to the area's own address
 * (whose action calls the resend endpoint and answers its message): with JavaScript by a fetcher,
 * so the screen stays as it is and the answer replaces the button; without it, as a plain form,
 * answered with the login screen (`served`).
 */
export function ResendVerification({
  area,
  email,
  served,
}: {
  area: SignInArea;
  email: string;
  /** The answer the page was rendered with, when the form was sent without JavaScript. */
  served?: SignInResult | undefined;
}) {
  const fetcher = useFetcher<SignInResult>();
  const answer = fetcher.data ?? served;
  if (answer) return <p role={answer.ok ? 'status' : 'alert'}>{answer.message}</p>;
  const sending = fetcher.state !== 'idle';
  return (
    <>
      <p>Open the link in the email we sent you, or ask for a new one.</p>
      <fetcher.Form method="post" action={area}>
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="email" value={email} />
        <button type="submit" className="button button--ghost" disabled={sending}>
          {sending ? 'Sending…' : 'Send a new verification email'}
        </button>
      </fetcher.Form>
    </>
  );
}
