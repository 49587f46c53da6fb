import type { FormEvent } from 'react';

export type ResendState = { state: 'idle' | 'sending' } | { state: 'done' | 'failed'; message: string };

/**
 * 'Send a new verification email' on the login screen, as a real form: without JavaScript it posts
 * to the area's own address (whose action calls /api/auth/resend-verification and renders its
 * message); with JavaScript `onSend` calls that endpoint and the answer replaces the button.
 */
export function ResendVerification({
  area,
  email,
  resend,
  onSend,
}: {
  area: '/support' | '/admin';
  email: string;
  resend: ResendState;
  onSend(email: string): void;
}) {
  if (resend.state === 'done' || resend.state === 'failed') {
    return <p role={resend.state === 'done' ? 'status' : 'alert'}>{resend.message}</p>;
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSend(email);
  };
  return (
    <>
      <p>Open the link in the email we sent you, or ask for a new one.</p>
      <form method="post" action={area} onSubmit={submit}>
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="email" value={email} />
        <button type="submit" className="button button--ghost" disabled={resend.state === 'sending'}>
          {resend.state === 'sending' ? 'Sending…' : 'Send a new verification email'}
        </button>
      </form>
    </>
  );
}
